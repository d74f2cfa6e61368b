"""What annotates one document, and loading it once per process from a model file.

An annotator turns a document's text into sentence records in the ``--json`` format of
``wsd disambiguate`` (the all-words model's records come from ``wsd.systems.allwords.plaintext``)::

    {"text": sentence, "words": [{"token", "start", "end", "lemma", "pos", "sense_key",
                                  "synset", "gloss", "score", "margin", "source"}, ...]}

(``start``/``end``: character offsets of the token in the document's text). Workers never
receive a model with their tasks: they get a :class:`ModelRef` (path + SHA-256) and
:func:`annotator_for` loads the file once per process, checking the digest, so a cluster whose
workers see another version of the file fails loudly instead of mixing models.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from wsd import persistence
from wsd.api import ALL_WORDS, ONE_WORD, scope_of
from wsd.instance import Instance, token_spans
from wsd.persistence import file_sha256
from wsd.resources import has_nltk_resource
from wsd.text.treebank import visible
from wsd.text.web import plain_view


@runtime_checkable
class Annotator(Protocol):
    """Text in, sentence records out; loaded once per process."""

    def annotate(self, text: str) -> list[dict[str, Any]]:
        """The sentences of ``text`` with a record for every word the model tags."""
        ...


@dataclass(frozen=True)
class ModelRef:
    """A model file as tasks name it: its resolved path and the SHA-256 of its bytes."""

    path: str
    sha256: str

    @classmethod
    def of(cls, path: str | Path) -> ModelRef:
        """The reference of the file at ``path`` (ValueError naming it when it is missing)."""
        resolved = Path(path).expanduser().resolve()
        if not resolved.is_file():
            from wsd.systems.allwords.plaintext import NO_MODEL_SYSTEMS  # the error's only

            named = str(path).lower() in NO_MODEL_SYSTEMS  # `wsd disambiguate`'s, by name
            raise ValueError(f"model file {str(path)!r} does not exist" + (
                "; wsd annotate needs a model file (`wsd allwords --save model.npz`, or a "
                "one-word model from `wsd train`): gloss and lesk answer `wsd disambiguate` "
                "only" if named else ""))
        return cls(str(resolved), file_sha256(resolved))


def _synset_of(sense_key: str) -> str | None:
    """The WordNet synset name of a sense key (None for other sense ids or without WordNet)."""
    if "%" not in sense_key:
        return None

    if not has_nltk_resource("wordnet"):
        return None
    from nltk.corpus import wordnet  # NLTK: over a second to import

    try:
        return wordnet.lemma_from_key(sense_key).synset().name()
    except Exception:  # noqa: BLE001 - WordNet raises bare WordNetError/ValueError/KeyError
        return None


class OneWordAnnotator:
    """Tags the word a ``wsd train`` model was trained for, in every sentence it occurs in.

    An occurrence is a token equal (ignoring case) to the model's lemma or its plural in -s /
    -es; every sentence is reported, with an empty ``words`` list where the word is absent.
    Sentences are split and web text is read as the all-words pipeline does it
    (``wsd.text.web.PlainView.sentence_spans``).
    """

    def __init__(self, model: Any) -> None:
        if len(model.lemmas_) != 1:
            raise ValueError(f"a one-word model must name one lemma, this one names "
                             f"{model.lemmas_ or 'none'}")
        self.model = model
        self.lemma = model.lemmas_[0]
        self.forms = {self.lemma, self.lemma + "s", self.lemma + "es"}
        # sentences without any form need no tokenizing: most of a corpus, for one word
        self.mentioned = re.compile("|".join(sorted(map(re.escape, self.forms))), re.IGNORECASE)

    def annotate(self, text: str) -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = []
        found: list[tuple[Instance, dict[str, Any], int, int]] = []
        view = plain_view(text)  # web text as a person reads it, as the all-words pipeline
        for start, end in view.sentence_spans():
            sentence = text[start:end]
            record: dict[str, Any] = {"text": sentence, "words": []}
            records.append(record)
            if not self.mentioned.search(sentence):
                continue
            seen = view.text[start:end]
            spans = token_spans(view.tokenized[start:end])
            tokens = tuple(visible(seen[s:e]) for s, e in spans)
            for i, token in enumerate(tokens):
                if token.lower() in self.forms:
                    inst = Instance(id=f"{start}:{i}", tokens=tokens, span=(i, i + 1),
                                    lemma=self.lemma)  # fmt: skip
                    found.append((inst, record, start + spans[i][0], start + spans[i][1]))
        if found:
            self._tag([item[0] for item in found], found)
        return records

    def _tag(self, instances: Sequence[Instance], found: Sequence[tuple]) -> None:
        learner = self.model.learner_
        scores = np.atleast_2d(learner.decision_function(self.model.featurizer_.transform(
            instances, cache_vectors=False)))  # a corpus is read once
        classes = list(learner.classes_)
        for (inst, record, start, end), row in zip(found, scores, strict=True):
            ranked = np.argsort(-row, kind="stable")
            best = classes[int(ranked[0])]
            margin = float(row[ranked[0]] - row[ranked[1]]) if len(ranked) > 1 else 0.0
            record["words"].append({
                "token": inst.target, "start": start, "end": end, "lemma": self.lemma,
                "pos": None, "sense_key": best, "synset": _synset_of(best),
                "gloss": (self.model.glosses or {}).get(best),
                "score": round(float(row[ranked[0]]), 4), "margin": round(margin, 4),
                "source": "classifier",
            })  # fmt: skip


class AllWordsAnnotator:
    """Tags every content word with an all-words model (``wsd allwords --save``), through the
    raw-text pipeline of ``wsd disambiguate`` (the document is one discourse)."""

    def __init__(self, system: Any) -> None:
        self.system = system

    def annotate(self, text: str) -> list[dict[str, Any]]:
        # the all-words system: for its models only
        from wsd.systems.allwords.plaintext import annotate_text

        # a corpus's documents go by unseen: a notice naming none of them would not help
        return annotate_text(self.system, text, check_english=False)


def annotator_from_model(model: Any) -> Annotator:
    """The annotator for a loaded model: an all-words system tags every content word, a
    one-word ``SupervisedWSD`` its word."""
    annotator = {ALL_WORDS: AllWordsAnnotator, ONE_WORD: OneWordAnnotator}.get(scope_of(model))
    if annotator is not None:
        return annotator(model)
    raise ValueError(f"wsd annotate cannot use a {type(model).__name__} model: give an "
                     "all-words model (wsd allwords --save) or a one-word one (wsd train)")


_LOADED: dict[ModelRef, Annotator] = {}


def annotator_for(ref: ModelRef) -> Annotator:
    """The annotator of ``ref``, loaded on first use in this process and kept for every later
    task; ValueError when the file here is not the one the run was started with."""
    if ref not in _LOADED:
        _LOADED[ref] = load_checked(ref.path, ref.sha256)
    return _LOADED[ref]


def load_checked(path: str | Path, sha256: str) -> Annotator:
    """The annotator of the model file at ``path``, which must have the digest ``sha256``."""
    found = file_sha256(path)
    if found != sha256:
        raise ValueError(f"model file {str(path)!r} changed since the run started (SHA-256 "
                         f"{found[:12]}, expected {sha256[:12]})")
    return annotator_from_model(persistence.load_model(path))


def load_annotator(path: str | Path) -> Annotator:
    """The annotator of the model file at ``path`` (loaded once per process and digest)."""
    return annotator_for(ModelRef.of(path))


def preload(ref: ModelRef, load: Callable[[], Annotator]) -> None:
    """Unless this process has it already, make ``load()`` the annotator :func:`annotator_for`
    gives for ``ref`` (a Dask worker plugin hands over the model this way, so the workers need
    not read the file)."""
    if ref not in _LOADED:
        _LOADED[ref] = load()
