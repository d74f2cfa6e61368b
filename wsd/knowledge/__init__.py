"""Knowledge-based WSD: sense inventories (WordNet, bundled files) and the Lesk family."""

from wsd.knowledge.inventory import (
    BundledInventory,
    Sense,
    SenseInventory,
    WordNetInventory,
    coarse_pos,
    wordnet_pos,
)
from wsd.knowledge.lesk import (
    ExtendedLesk,
    LeskWithPrior,
    OriginalLesk,
    SimplifiedLesk,
    phrase_overlap,
)

__all__ = [
    "BundledInventory",
    "ExtendedLesk",
    "LeskWithPrior",
    "OriginalLesk",
    "Sense",
    "SenseInventory",
    "SimplifiedLesk",
    "WordNetInventory",
    "coarse_pos",
    "phrase_overlap",
    "wordnet_pos",
]
