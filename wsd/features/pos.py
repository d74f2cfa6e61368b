"""POS tags for instances whose corpus has none, from NLTK's averaged perceptron tagger."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence

from wsd.instance import Instance
from wsd.resources import TAGGER_RESOURCE, has_nltk_resource, require_nltk_resource

_warned_missing_tagger = False


TAG_CACHE_SIZE = 65536  # contexts: a Senseval-3 train + test split is about 12,000


@functools.lru_cache(maxsize=TAG_CACHE_SIZE)
def tag_tokens(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Penn Treebank tags for one sentence or paragraph, memoised by its token tuple: all-words
    data repeats each sentence for every target in it, and cross-validation extracts the
    features of every context once per fold (``benchmarks/pos_cache.py`` measures the gain)."""
    import nltk  # NLTK: over a second to import

    return tuple(tag for _, tag in nltk.pos_tag(list(tokens)))


def ensure_pos(instances: Sequence[Instance], required: bool = False) -> list[Instance]:
    """The instances with POS tags: the corpus's own when present, else tagged by NLTK.

    When the tagger data is missing: with ``required`` raise MissingResourceError saying how
    to install it; otherwise return the untagged instances (POS features are then left out)
    after one warning per process, so a fresh machine still disambiguates.
    """
    global _warned_missing_tagger
    if all(inst.pos is not None for inst in instances):
        return list(instances)
    if not has_nltk_resource(TAGGER_RESOURCE):
        if required:
            require_nltk_resource(TAGGER_RESOURCE)
        if not _warned_missing_tagger:
            _warned_missing_tagger = True
            warnings.warn(
                "POS features are left out: the NLTK tagger is not installed "
                f"(python -m nltk.downloader {TAGGER_RESOURCE})",
                stacklevel=2,
            )
        return list(instances)
    return [
        inst if inst.pos is not None else inst.with_pos(tag_tokens(inst.tokens))
        for inst in instances
    ]
