"""Corpus loaders: every source becomes a list of ``wsd.instance.Instance``.

Re-exports use the ``name as name`` form so each loader module adds its own independent line.
"""

from wsd.corpora.bundled import bundled_targets as bundled_targets
from wsd.corpora.bundled import load_bundled as load_bundled
from wsd.corpora.bundled import load_bundled_inventory as load_bundled_inventory
from wsd.corpora.framework import dataset_names as dataset_names
from wsd.corpora.framework import dataset_paths as dataset_paths
from wsd.corpora.framework import group_by_key as group_by_key
from wsd.corpora.framework import load_dataset as load_dataset
from wsd.corpora.framework import load_framework as load_framework
from wsd.corpora.framework import read_key_file as read_key_file
from wsd.corpora.framework import write_key_file as write_key_file
from wsd.corpora.lexsample import load_lexsample as load_lexsample
from wsd.corpora.lexsample import read_lexsample as read_lexsample
from wsd.corpora.senseval import load_senseval as load_senseval
from wsd.corpora.senseval import senseval_words as senseval_words
from wsd.corpora.userfile import load_user_file as load_user_file
from wsd.corpora.userfile import write_user_file as write_user_file
