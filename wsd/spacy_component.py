"""The spaCy pipeline component "wsd" (the ``[spacy]`` extra)::

    nlp = spacy.blank("en")                                   # or any pipeline
    nlp.add_pipe("wsd", config={"model": "semcor.npz"})      # no model: Lesk, bundled targets
    doc = nlp("We ate ice cream at the bank.")
    [(t.text, t._.synset) for t in doc]                      # ("bank", "bank.n.02"), ...

It reads the Doc's own text and finds the answers by character offset: our raw-text reader
(``wsd.systems.allwords.plaintext.tag_text``, the path of ``wsd disambiguate``) splits the text into
its units (*ice cream* is one), lemmas and parts of speech, so every answer equals
``wsd disambiguate``'s on the same text, whatever the pipeline's tokenizer. Each token of a
disambiguated unit gets ``token._.sense_key``, ``token._.synset`` (the synset's name),
``token._.sense_source`` ("classifier", "mfs", "first-sense" or "lesk") and
``token._.sense_margin``; a unit of several tokens is also a span in ``doc.spans["wsd"]``,
labelled with its synset. spaCy finds the factory through this package's entry point, so
``add_pipe("wsd")`` needs no import of ``wsd``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from wsd.systems.allwords.plaintext import NO_MODEL_SYSTEMS, load_system, tag_text

SPAN_GROUP = "wsd"
TOKEN_ATTRIBUTES = ("sense_key", "synset", "sense_source", "sense_margin")

for _name in TOKEN_ATTRIBUTES:
    if not Token.has_extension(_name):
        Token.set_extension(_name, default=None)


class SenseTagger:
    """The "wsd" component: ``model`` is an all-words model file (``wsd allwords --save``),
    or None for Lesk with the sense prior (and the bundled targets' own models)."""

    def __init__(self, nlp: Language, name: str = "wsd", model: str | None = None) -> None:
        self.name = name
        self.model = str(Path(model).expanduser()) if model else None
        if self.model not in NO_MODEL_SYSTEMS:
            load_system(self.model)  # a wrong path fails at add_pipe, not at the first Doc

    def __call__(self, doc: Doc) -> Doc:
        if not doc.text.strip():
            return doc
        _, words = tag_text(self.model, doc.text, markers=False)  # offsets into doc.text
        units = []
        for word in words:
            span = doc.char_span(word.start, word.end, alignment_mode="expand")
            if span is None or not len(span):
                continue
            for token in span:
                token._.sense_key = word.sense_key
                token._.synset = word.synset_name
                token._.sense_source = word.source
                token._.sense_margin = word.margin
            if len(span) > 1:
                units.append(Span(doc, span.start, span.end, label=word.synset_name or ""))
        doc.spans[SPAN_GROUP] = units
        return doc


@Language.factory("wsd", default_config={"model": None})
def make_sense_tagger(nlp: Language, name: str, model: str | None) -> SenseTagger:
    """spaCy's factory for ``nlp.add_pipe("wsd", config={"model": PATH})``."""
    return SenseTagger(nlp, name, model)


def token_senses(doc: Doc) -> list[dict[str, Any]]:
    """The disambiguated tokens of ``doc``: text, offsets and the ``TOKEN_ATTRIBUTES``."""
    return [{"text": token.text, "start": token.idx, "end": token.idx + len(token),
             **{name: getattr(token._, name) for name in TOKEN_ATTRIBUTES}}
            for token in doc if token._.synset is not None or token._.sense_key is not None]
