"""``wsd disambiguate`` on raw text: every content word (or only ``--target``) gets a WordNet
sense from an all-words model, or, when there is no model and the target has no bundled model,
from gloss similarity with the sense prior (Lesk with the prior without the [context] extra, or
by name: --model lesk). Heavy modules are imported only on the path that needs them,
so a call starts fast."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from wsd.api import ALL_WORDS, scope_of
from wsd.corpora.bundled import bundled_target
from wsd.knowledge import lexicon_compiler
from wsd.persistence import load_model
from wsd.resources import TAGGER_RESOURCE, require_nltk_resource

_TRAIN_ONE = ("for every word: train one with `wsd allwords --save model.npz`, then pass --model "
              "model.npz")
_BUNDLED = "and for bank, bass, crane, line and plant their bundled models"
GLOSS_NOTICE = ("no trained model given: using gloss similarity with the WordNet sense prior, "
                f"{_BUNDLED} ({_TRAIN_ONE}; --model lesk for Lesk)")
NO_EXTRA_NOTICE = ("no trained model given and the [context] extra is not installed: using Lesk "
                   f"with the WordNet sense prior, {_BUNDLED} (install the extra for gloss "
                   "similarity: pip install 'wsd-perceptron[context]')")


def load_any_model(path: str | Path) -> Any:
    """The model in ``path``: an all-words system (.npz or JSON) or any other saved model;
    "gloss" and "lesk" name the systems that need none (returned as the name)."""
    # all-words: not for a bundled target
    from wsd.systems.allwords.plaintext import NO_MODEL_SYSTEMS, refuse_misnamed_system

    if str(path) in NO_MODEL_SYSTEMS:
        return str(path)
    refuse_misnamed_system(str(path))
    return load_model(path)


def is_allwords(model: Any) -> bool:
    """Whether ``model`` answers raw text: an all-words system, or "gloss" / "lesk"."""
    return isinstance(model, str) or scope_of(model) == ALL_WORDS  # names: "gloss", "lesk"


def uses_raw_text(model: Any, target: str | None) -> bool:
    """Whether the raw-text path answers: an all-words model, or no model and a target that
    has no bundled model (then gloss similarity or Lesk answers: ``disambiguate_text`` says
    which), or "gloss" / "lesk" by name."""
    if model is not None:
        return is_allwords(model)

    return target is None or bundled_target(target) is None


def _not_found(sentences: Any, target: str) -> str:
    """The notice for a target with no answer: its words stand apart, it is no content word
    here, or it does not occur."""
    # the tagger: raw text only
    from wsd.text.pipeline import is_target, spelled_apart, target_lemmas

    if spelled_apart(sentences, target):
        first = target.split()[0]
        return (f"{target!r} is not one expression in this text: its words are tagged one by "
                f"one here; --target {first} asks for the first")  # fmt: skip
    lemmas = target_lemmas(target)
    tags = sorted({w.tag for s in sentences for w in s.words if is_target(w, lemmas)})
    if tags:
        return (f"{target!r} occurs in the text but is not a content word there (tagged "
                f"{'/'.join(tags)}: a function word, a name, or a word WordNet does not "
                f"know)")  # fmt: skip
    return f"{target!r} does not occur in the text (in any inflection, as a content word)"


def no_model_notice() -> str:
    """The one-line notice saying which system answers without a model, and why."""
    from wsd.systems.allwords.plaintext import GLOSS, no_model_system  # all-words: raw text only

    return GLOSS_NOTICE if no_model_system() == GLOSS else NO_EXTRA_NOTICE


def disambiguate_text(model: Any, text: str, target: str | None, fmt: str = "plain",
                      top: int = 0) -> str:  # fmt: skip
    """The disambiguated ``text`` in format ``fmt`` (plain, tsv, conll or json). WordNet and
    the tagger come from the compiled lexicon, compiled on the first call, and NLTK is not
    imported while it is valid (a call without a model had cost 7-9 s of CPU through NLTK's
    WordNet, 1 s now); without a model, gloss similarity or Lesk with the prior answers, with
    a one-line notice saying which (or the one named: "gloss", "lesk"). ``top`` > 0: a
    classifier's or Lesk's answers give their reasons (plain and json), with that many
    features or words."""
    from wsd.systems.allwords.formats import render  # all-words: raw text only
    from wsd.systems.allwords.plaintext import tag_text  # all-words: raw text only

    if lexicon_compiler.ensure() is None and (model is None or isinstance(model, str)):
        # the downloader hint alone where Lesk cannot run: no notice before the error (a
        # compiled lexicon says the data are there without importing NLTK, over a second)
        for resource in ("wordnet", TAGGER_RESOURCE):
            require_nltk_resource(resource)
    if model is None:
        warnings.warn(no_model_notice(), stacklevel=2)

    sentences, words = tag_text(model, text, target, explain=top)
    if target is not None and not words:
        warnings.warn(_not_found(sentences, target), stacklevel=2)
    return render(sentences, words, fmt)
