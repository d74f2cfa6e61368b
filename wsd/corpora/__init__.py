"""Corpus loaders: every source becomes a list of ``wsd.instance.Instance``.

Re-exports use the ``name as name`` form so each loader module adds its own independent line.
"""

from wsd.corpora.bundled import bundled_targets as bundled_targets
from wsd.corpora.bundled import load_bundled as load_bundled
from wsd.corpora.bundled import load_bundled_inventory as load_bundled_inventory
from wsd.corpora.senseval import load_senseval as load_senseval
from wsd.corpora.senseval import senseval_words as senseval_words
