"""Features: extractors (Instance -> dict), POS tagging, weighting, the Featurizer, vectorizing."""

from wsd.features.bow import BagOfWords
from wsd.features.collocations import IMS_COLLOCATIONS, Collocations
from wsd.features.contextual import ContextualEmbedding
from wsd.features.extractors import (
    LEFT_PAD,
    RIGHT_PAD,
    Extractor,
    extractor_from_dict,
    extractor_names,
    extractor_to_dict,
)
from wsd.features.featurizer import PRESETS, Featurizer
from wsd.features.pos import ensure_pos, tag_tokens
from wsd.features.positional import PositionalWords, PosTags
from wsd.features.supersense import Supersenses
from wsd.features.target import TargetWord
from wsd.features.vectorize import FeatureVectorizer
from wsd.features.weighting import (
    PPMI,
    Binary,
    BlockTfIdf,
    Count,
    TfIdf,
    Weighting,
    make_weighting,
)
from wsd.knowledge.normalise import BUILTIN_STOPWORDS

__all__ = [
    "BUILTIN_STOPWORDS",
    "IMS_COLLOCATIONS",
    "LEFT_PAD",
    "PPMI",
    "PRESETS",
    "RIGHT_PAD",
    "BagOfWords",
    "Binary",
    "BlockTfIdf",
    "Collocations",
    "ContextualEmbedding",
    "Count",
    "Extractor",
    "FeatureVectorizer",
    "Featurizer",
    "PosTags",
    "PositionalWords",
    "Supersenses",
    "TargetWord",
    "TfIdf",
    "Weighting",
    "ensure_pos",
    "extractor_from_dict",
    "extractor_names",
    "extractor_to_dict",
    "make_weighting",
    "tag_tokens",
]
