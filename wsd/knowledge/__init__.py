"""Sense inventories (WordNet, bundled files), lexicons and sense keys; the Lesk family is in
``wsd.systems.lesk``."""

from wsd.knowledge.inventory import (
    BundledInventory,
    Sense,
    SenseInventory,
    WordNetInventory,
    coarse_pos,
    wordnet_pos,
)

__all__ = [
    "BundledInventory",
    "Sense",
    "SenseInventory",
    "WordNetInventory",
    "coarse_pos",
    "wordnet_pos",
]
