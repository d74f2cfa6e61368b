"""Knowledge-based WSD: sense inventories (WordNet, bundled files) and the Lesk family."""

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

_LESK = ("ExtendedLesk", "LeskWithPrior", "OriginalLesk", "SimplifiedLesk", "phrase_overlap")


def __getattr__(name: str):
    """The Lesk names load on first use: lesk.py builds on wsd.learners.baselines, which
    itself imports the inventories from this package, so an eager import would be circular."""
    if name in _LESK:
        from wsd.knowledge import lesk

        return getattr(lesk, name)
    raise AttributeError(f"module 'wsd.knowledge' has no attribute {name!r}")
