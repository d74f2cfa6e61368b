"""WSD systems: features, learners and sense inventories tied into systems that answer senses
for instances or text -- the baselines (MFS, first sense, random), the Lesk family, the
supervised pipeline (``SupervisedWSD``), per-word models and the all-words system
(``wsd.systems.allwords``). Names are imported on first use (``wsd.lazy``)."""

from __future__ import annotations

from wsd.lazy import lazy_getattr

_EXPORTS = {
    "MostFrequentSense": "wsd.systems.baselines",
    "RandomSense": "wsd.systems.baselines",
    "WordNetFirstSense": "wsd.systems.baselines",
    "ExtendedLesk": "wsd.systems.lesk",
    "LeskWithPrior": "wsd.systems.lesk",
    "OriginalLesk": "wsd.systems.lesk",
    "SimplifiedLesk": "wsd.systems.lesk",
    "phrase_overlap": "wsd.systems.lesk",
    "SupervisedWSD": "wsd.systems.supervised",
    "PerKeyWSD": "wsd.systems.perkey",
    "AllWordsWSD": "wsd.systems.allwords.system",
}
__all__ = sorted(_EXPORTS)

__getattr__ = lazy_getattr(__name__, _EXPORTS)
