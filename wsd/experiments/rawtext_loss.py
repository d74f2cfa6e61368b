"""How much the raw-text path loses against the framework's XML: rebuild each document's plain
text from its sentences' tokens, disambiguate it as raw text (our own sentence splitting,
tokenizing, tagging, lemmatizing and multi-word expressions), map the words back onto the
gold instances by character offset and score both ways with the framework's scorer.

A raw-text word answers the gold instance whose first token starts where the word starts; an
instance no content word starts at (its word was joined into an expression begun earlier, or
was not taken for a content word) is unanswered, a miss in recall, as the scorer counts it."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from wsd.evaluation.scorer import score_framework
from wsd.instance import Instance
from wsd.knowledge.lexicon import withheld_counts
from wsd.systems.allwords.context import sentence_of
from wsd.systems.allwords.plaintext import tag_text
from wsd.systems.allwords.readertraining import lemma_taggings
from wsd.text import analyze
from wsd.text.readerfeatures import type_features

# Tokens written against the word before them (*safety,* *don't* *Jones'*) or after them (*(a*).
_NO_SPACE_BEFORE = frozenset({",", ".", ";", ":", "?", "!", ")", "]", "}", "%", "n't", "'s",
                              "'m", "'re", "'ve", "'d", "'ll", "'"})  # fmt: skip
_NO_SPACE_AFTER = frozenset({"(", "[", "{", "$"})
_QUOTE_TOKENS = frozenset({"``", "''", '"'})
# The Penn Treebank's escapes for brackets, as some of the framework's XML writes them
# (senseval3: *-LRB- 1 -RRB-*): plain text has the brackets.
_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}


def _word(token: str) -> str:
    """A framework token as plain text writes it: a bracket for its escape, '_' a space."""
    return _BRACKETS.get(token) or token.replace("_", " ")


@contextlib.contextmanager
def counts_without(instances: Sequence[Instance]) -> Iterator[None]:
    """WordNet's SemCor counts less the taggings of ``instances`` while the block runs, for
    the raw-text reader (its count features, ``base_form``'s choice among base forms): held-out
    SemCor documents read as new text is, whose units are in no count. WordNet's counts are
    SemCor's own, those documents included; read as they are, a reader's features on them
    count their gold units (on fold 0 of 3, plain F1 68.46 against 66.36). The words'
    features are computed afresh inside the block: a model and reader for it are trained
    there too (a reader keeps its words' features)."""
    with withheld_counts(lemma_taggings(instances)):
        type_features.cache_clear()
        try:
            yield
        finally:
            type_features.cache_clear()


def _written(tokens: Sequence[str], opened: bool) -> tuple[str, list[int], bool]:
    """One sentence's tokens as a person writes them: no space before punctuation or a
    contraction's second part, straight double quotes against the words they enclose. The
    framework writes every double quote as ``, so quotes open and close in turn (``opened``:
    a quote is open from an earlier sentence; one that starts a sentence opens).
    ``(text, start of each token, a quote is open at the end)``."""
    text, starts, glue = "", [], True
    for k, token in enumerate(tokens):
        word = _word(token)
        if word in _QUOTE_TOKENS:
            opened = not (opened and k > 0)  # this quote opens, or closes the open one
            word, space, glue_after = '"', not glue and opened, opened
        else:
            space = not glue and word.lower() not in _NO_SPACE_BEFORE
            glue_after = word in _NO_SPACE_AFTER
        text += " " if space else ""
        starts.append(len(text))
        text += word
        glue = glue_after
    return text, starts, opened


def plain_documents(instances: Sequence[Instance], written: bool = False
                    ) -> list[tuple[str, dict[str, int]]]:  # fmt: skip
    """Per document: its plain text, one sentence per line, and the character offset of each
    instance's target. The sentences' tokens are joined by spaces ('_' in a multi-word token
    read as a space, a bracket's escape -LRB- as the bracket), or with ``written`` laid out as
    a person writes them (*don't*, *"causes" of*, *safety, privacy*), which leaves the
    splitting of words to our tokenizer."""
    documents: dict[str, dict[str, Instance]] = {}
    for inst in instances:
        document, sentence = sentence_of(inst)
        documents.setdefault(document, {}).setdefault(sentence, inst)
    found = []
    for document, sentences in documents.items():
        lines, starts, offset, opened = [], {}, 0, False
        for sentence, first in sentences.items():
            if written:
                line, token_starts, opened = _written(first.tokens, opened)
            else:
                words = [_word(token) for token in first.tokens]
                line = " ".join(words)
                token_starts = list(itertools.accumulate((len(w) + 1 for w in words[:-1]),
                                                         initial=0))  # fmt: skip
            starts[sentence] = [offset + start for start in token_starts]
            lines.append(line)
            offset += len(line) + 1  # the line break after it
        targets = {inst.id: starts[sentence_of(inst)[1]][inst.span[0]]
                   for inst in instances if sentence_of(inst)[0] == document}  # fmt: skip
        found.append(("\n".join(lines), targets))
    return found


def raw_text_answers(model: Any, instances: Sequence[Instance], reader: Any = None,
                     written: bool = False) -> dict[str, str | None]:  # fmt: skip
    """The sense the raw-text path gives each instance's target (None when it found no
    content word starting there); ``reader`` as ``tag_text``'s, ``written`` as
    ``plain_documents``'."""
    answers: dict[str, str | None] = {}
    for text, targets in plain_documents(instances, written):
        _, words = tag_text(model, text, reader=reader)
        by_start = {word.start: word.sense_key for word in words}
        answers.update({inst_id: by_start.get(start) for inst_id, start in targets.items()})
    return answers


def raw_vs_xml(model: Any, instances: Sequence[Instance], written: bool = False
               ) -> dict[str, float]:  # fmt: skip
    """F1 (fractions) of ``model`` on the XML instances and on their plain text (``written``
    as ``plain_documents``'), with the raw text's P, R and share of instances answered."""
    gold = {inst.id: inst.senses for inst in instances}
    xml = dict(zip(gold, model.predict(instances), strict=True))
    raw = score_framework(gold, raw_text_answers(model, instances, written=written))
    return {"xml_F1": score_framework(gold, xml)["F1"], "raw_F1": raw["F1"], "raw_P": raw["P"],
            "raw_R": raw["R"], "raw_answered": raw["answered"] / raw["total"]}  # fmt: skip


def units_read_right(reader: Any, instances: Sequence[Instance]) -> dict[str, float]:
    """The shares of gold units (the instances' targets) that ``reader`` reads from the plain
    text with the same extent, with that extent and the same lemma, and with that extent and
    the same part of speech (a name: its kind as lemma, NOUN)."""
    extent = lemma = pos = 0
    by_id = {inst.id: inst for inst in instances}
    for text, targets in plain_documents(instances):
        words = {w.start: w for s in analyze(text, reader) for w in s.words}
        for inst_id, start in targets.items():
            inst = by_id[inst_id]
            word = words.get(start)
            length = len(inst.tokens[inst.span[0]].replace("_", " "))
            if word is None or word.end != start + length or word.pos is None:
                continue
            extent += 1
            lemma += word.lemma == inst.lemma.lower()
            pos += word.pos == inst.target_pos
    n = max(len(instances), 1)
    return {"extent": extent / n, "lemma": lemma / n, "pos": pos / n}
