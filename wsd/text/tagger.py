"""Penn Treebank tags from NLTK's averaged-perceptron tagger, loaded once.

NLTK's tagger runs at well over 10,000 tokens/s here (``benchmarks/raw_text.py``), a small
part of the raw-text pipeline's time, so it is used as it is (identical tags to
``nltk.pos_tag`` by construction).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from wsd.features.pos import TAGGER_RESOURCE
from wsd.resources import require_nltk_resource


@functools.cache
def _tagger():
    require_nltk_resource(TAGGER_RESOURCE)
    from nltk.tag.perceptron import PerceptronTagger

    return PerceptronTagger()


def penn_tags(tokens: Sequence[str]) -> list[str]:
    """One Penn tag per token (what ``nltk.pos_tag`` gives)."""
    return [tag for _, tag in _tagger().tag(list(tokens))]
