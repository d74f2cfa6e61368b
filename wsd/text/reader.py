"""Readers: which tokens of a sentence are the units a sense is chosen for, with their lemma
and part of speech.

``LearnedReader`` reads plain text as the training corpus was annotated: a greedy averaged
perceptron (``wsd.learners.greedy``, features in ``wsd.text.readerfeatures``) labels each
token *not a unit* (O), *begins a unit* of NOUN, VERB, ADJ or ADV or a name of a kind (as
SemCor tags names WordNet lacks: person, group, location), or *goes on with the unit* (I),
trained on the corpus's sentences (``wsd.systems.allwords.readertraining``). Lemmas by lookup: the
corpus's most frequent lemma for the form and part of speech, else WordNet's base form; a
unit of several tokens is the WordNet expression they spell (else its tokens are read apart).

``PlainReader`` needs no training corpus: the tagger's part of speech where WordNet has the
word in it, WordNet's base form, and the longest WordNet expression whose tags fit (a noun's
last word a noun, a verb's first a verb). Models without a learned reader use it, as does
Lesk without a model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from wsd.knowledge.lexicon import INFLECTED, LETTER_POS, POS_LETTER, base_form, penn_letter
from wsd.learners.greedylabel import dynamic_rows, label_greedy
from wsd.text.readerfeatures import (
    EDGE,
    TEMPLATES,
    Vocabulary,
    longest_start,
    lowercase,
    wordnet_expression,
)
from wsd.text.tagger import sentences_penn_tags

NAME_KINDS = ("person", "group", "location")
LABELS = ("O", "I", "B-NOUN", "B-VERB", "B-ADJ", "B-ADV", *(f"B-{k}" for k in NAME_KINDS))
OUTSIDE, INSIDE = 0, 1
EPOCHS = 2  # chosen on the development sets (docs/reader.md)
# The model file's reader: each version's feature templates. Version 2 added the capitalised
# runs (``run``, ``runs``), the last templates, so a version-1 reader's weights fit as they
# were (those features have no values in it).
VERSION = 2
VERSION_TEMPLATES = {1: TEMPLATES[:-2], 2: TEMPLATES}
# Fewer sentences teach no reader worth having (a model trained on them reads with PLAIN).
MIN_READER_SENTENCES = 1000
# Which WordNet expressions a reader learns to join (``train_reader``'s ``joins``): those its
# corpus tagged (the default: its expression features read WordNet's counts, the corpus's
# own), or WordNet's by their words and context (in training, those counts without each
# document's own taggings; docs/reader.md, "Which expressions the reader joins").
READER_JOINS = ("corpus", "wordnet")
Sentences = Sequence[tuple[Sequence[str], Sequence[str]]]  # (tokens, Penn tags) each


@dataclass(frozen=True)
class Unit:
    """Tokens ``start`` to ``end`` (exclusive) of a sentence read as one word: its lemma, its
    part of speech (None: no content word), and whether it is a name (its lemma its kind)."""

    start: int
    end: int
    lemma: str
    pos: str | None
    name: bool = False


def _single(token: str, tag: str, letter: str | None, lemmas: Mapping[str, str],
            start: int = 0) -> Unit | None:  # fmt: skip
    """The token (at ``start``) as a one-word unit of part of speech ``letter``, None if
    WordNet lacks it; its ``tag`` says whether it is inflected (``lexicon.base_form``:
    *lots*, lot)."""
    if letter is None:
        return None
    lower = lowercase(token)
    lemma = lemmas.get(f"{lower}#{letter}") or base_form(lower, letter, tag in INFLECTED)
    return Unit(start, start + 1, lemma, LETTER_POS[letter]) if lemma else None


def _plain_single(token: str, tag: str) -> Unit | None:
    """The token as a one-word unit: in its tag's part of speech, or where WordNet lacks it
    there but the tag is a content word's, the first of noun, verb, adjective, adverb
    WordNet has it in."""
    letter = penn_letter(tag)
    if letter is None:
        return None
    return next(filter(None, (_single(token, tag, other, {}) for other in
                              dict.fromkeys(letter + "nvar"))), None)  # fmt: skip


class PlainReader:
    """The reader without a training corpus (see the module's docstring)."""

    def units(self, sentences: Sentences) -> list[list[Unit]]:
        return [self._sentence(tokens, tags) for tokens, tags in sentences]

    def _sentence(self, tokens: Sequence[str], tags: Sequence[str]) -> list[Unit]:
        lowers = [lowercase(t) for t in tokens]
        found, i = [], 0
        while i < len(tokens):
            unit = None
            longest = longest_start(lowers[i], lowers[i + 1] if i + 1 < len(tokens) else None)
            for length in range(min(longest, len(tokens) - i), 1, -1):
                hit = wordnet_expression(tuple(lowers[i : i + length]))
                if hit and _fits(hit[1], tags[i], tags[i + length - 1]):
                    unit = Unit(i, i + length, hit[0], LETTER_POS[hit[1]])
                    break
            if unit is None:
                one = _plain_single(tokens[i], tags[i])
                unit = Unit(i, i + 1, one.lemma if one else lowers[i], one.pos if one else None)
            found.append(unit)
            i = unit.end
        return found


_HYPHENATED = re.compile(r"[^\W_]+(?:-[^\W_]+)+")  # word-word, not -word- nor a--b
_HYPHEN = re.compile(r"(-)")


def _fits(letter: str, first_tag: str, last_tag: str) -> bool:
    return {"n": last_tag.startswith("NN"), "v": first_tag.startswith("VB")}.get(letter, True)


PLAIN = PlainReader()


class LearnedReader:
    """The reader trained on a corpus (see the module's docstring): its feature
    ``vocabulary``, weights ``W`` (rows: the vocabulary's features, then the dynamic ones)
    and the corpus's ``lemmas`` (``form#letter -> lemma`` where they differ from WordNet's)."""

    def __init__(self, vocabulary: Vocabulary, W: np.ndarray, lemmas: Mapping[str, str],
                 epochs: int = EPOCHS) -> None:  # fmt: skip
        self.vocabulary, self.W, self.lemmas, self.epochs = vocabulary, W, dict(lemmas), epochs

    def labels(self, sentences: Sentences) -> tuple[list[int], np.ndarray]:
        """Every token's label (index into ``LABELS``) and scores, sentence after sentence."""
        X = self.vocabulary.rows(sentences)
        tags = self._tag_ids([tag for _, tags in sentences for tag in tags])
        starts = np.cumsum([0] + [len(tokens) for tokens, _ in sentences])
        return label_greedy(X, tags, starts, self.W, self.vocabulary.size,
                            len(self.vocabulary.ids["t"]), INSIDE, OUTSIDE)  # fmt: skip

    def _tag_ids(self, tags: Sequence[str]) -> np.ndarray:
        ids = self.vocabulary.tag_ids(tags)
        return np.where(ids >= 0, ids, self.vocabulary.ids["t"][EDGE])

    # A token the tagger reads as a content word is not left out where the labeller says O:
    # it takes a unit (the scorer counts the gold units only, so a unit too many costs nothing
    # and one too few a miss; chosen on the development sets): in the tagger's part of speech
    # where WordNet has the word in it, else the labeller's best, a name only where the tagger
    # reads a proper noun (the labeller's runner-up to O had read *has* as the noun ha, and
    # *n't*, *anything* and brackets as names of groups and places).
    keep_content = True

    def units(self, sentences: Sentences) -> list[list[Unit]]:
        split = [self._pieces(tokens) for tokens, _ in sentences]
        retagged = iter(sentences_penn_tags([pieces[0] for pieces in split if pieces]))
        read = [(pieces[0], next(retagged)) if pieces else sentence
                for sentence, pieces in zip(sentences, split, strict=True)]  # fmt: skip
        labels, scores = self.labels(read)
        ranked = np.argsort(-scores, axis=1, kind="stable").tolist()  # each token's, best first
        found, at = [], 0
        for sentence, (tokens, tags), pieces in zip(sentences, read, split, strict=True):
            n = len(tokens)
            units = self._sentence(tokens, tags, labels[at : at + n], ranked[at : at + n])
            found.append(self._rejoined(units, pieces[1], *sentence) if pieces else units)
            at += n
        return found

    def _rejoined(self, units: Sequence[Unit], owner: Sequence[int], tokens: Sequence[str],
                  tags: Sequence[str]) -> list[Unit]:  # fmt: skip
        """Units read over a sentence's pieces (``_pieces``) as units of its ``tokens``: a
        split word is read as its first piece's unit, over the whole word (*benefit-seeking*:
        benefit); a unit begun inside a word already read is dropped, but for the tokens it
        goes on over after that word, which are not: a name's are a name of its kind
        (*Bristol-Myers Squibb Co.*: Squibb Co.), another unit's are read one by one in its
        part of speech (*tumor-suppressor gene*: gene, a noun)."""
        found: list[Unit] = []
        for unit in units:
            start, end = owner[unit.start], owner[unit.end - 1] + 1
            if found and start < found[-1].end:
                if end <= found[-1].end:
                    continue
                start = found[-1].end
                if unit.name:
                    found.append(replace(unit, start=start, end=end))
                    continue
                for k in range(start, end):
                    found.append(_single(tokens[k], tags[k], POS_LETTER.get(unit.pos or ""),
                                         self.lemmas, k)
                                 or Unit(k, k + 1, lowercase(tokens[k]), None))  # fmt: skip
            else:
                found.append(replace(unit, start=start, end=end))
        return found

    def _pieces(self, tokens: Sequence[str]) -> tuple[list[str], list[int]] | None:
        """The sentence with its hyphenated words that neither WordNet (with the hyphen,
        without it, or as an expression: *re-election*, *roll-call*) nor the corpus's lemmas
        know split into their pieces (*benefit-seeking*: benefit, -, seeking), as SemCor's
        text gives such words (*6 - foot*): its annotation of the pieces teaches the labeller
        which piece is a unit. With each piece, the token it comes from; None: none split."""
        pieces: list[str] = []
        owner: list[int] = []
        for k, token in enumerate(tokens):
            parts = _HYPHEN.split(token) if _HYPHENATED.fullmatch(token) else [token]
            if len(parts) > 1 and any(base_form(lowercase(token), letter) or
                                      f"{lowercase(token)}#{letter}" in self.lemmas
                                      for letter in "nvar"):  # fmt: skip
                parts = [token]
            pieces += parts
            owner += [k] * len(parts)
        return (pieces, owner) if len(pieces) > len(tokens) else None

    def _sentence(self, tokens: Sequence[str], tags: Sequence[str], labels: Sequence[int],
                  ranked: Sequence[Sequence[int]]) -> list[Unit]:  # fmt: skip
        units, i = [], 0
        while i < len(tokens):
            end = i + 1
            while end < len(tokens) and labels[end] == INSIDE:
                end += 1
            label = LABELS[labels[i]]
            if label == "O" and self.keep_content and penn_letter(tags[i]):
                label = "*"  # the unit the labeller scores best
            unit = self._unit(tokens, tags[i], i, end, label, ranked[i])
            units.append(unit)
            i = unit.end
        return units

    def _unit(self, tokens: Sequence[str], tag: str, start: int, end: int, label: str,
              ranked: Sequence[int]) -> Unit:  # fmt: skip
        """The unit the labels say starts at ``start`` and ends before ``end``; a unit of
        several tokens that is no WordNet expression (nor a name) is cut to its first. A
        stray I is the best-scored unit or none. The label * (the tagger reads a content word
        the labeller leaves out): a common word's unit in the tagger's part of speech where
        WordNet has it (*has*: have, not the noun ha), else the best-scored unit, a name only
        for a proper noun's ``tag`` (``ranked``: the labels, best-scored first)."""
        kind = label[2:]
        if kind in NAME_KINDS and not any(c.isalpha() for c in "".join(tokens[start:end])):
            label, kind = "*", ""  # a name has letters (not *%*): the best unit else
        if kind in NAME_KINDS:
            return Unit(start, end, kind, "NOUN", name=True)
        if end - start > 1 and kind in POS_LETTER:
            lowers = tuple(lowercase(t) for t in tokens[start:end])
            letter = POS_LETTER[kind]
            key = f"{'_'.join(lowers)}#{letter}"
            hit = (self.lemmas[key], letter) if key in self.lemmas else \
                wordnet_expression(lowers)  # fmt: skip
            if hit:
                return Unit(start, end, hit[0], LETTER_POS[hit[1]])
        proper = tag.startswith("NNP")
        if label == "*" and not proper:  # a common word: the tagger's reading
            one = _single(tokens[start], tag, penn_letter(tag), self.lemmas, start)
            if one:
                return one
        if label in ("I", "*") or kind in POS_LETTER:  # one token, any POS
            for k in ranked:
                other = LABELS[k][2:]
                if other in NAME_KINDS and (label != "*" or proper) \
                        and any(c.isalpha() for c in tokens[start]):  # fmt: skip
                    return Unit(start, start + 1, other, "NOUN", name=True)
                if other in POS_LETTER:
                    one = _single(tokens[start], tag, POS_LETTER[other], self.lemmas, start)
                    if one:
                        return one
                elif LABELS[k] == "O" and label != "*":
                    break
        return Unit(start, start + 1, lowercase(tokens[start]), None)

    # ---- the model file ---------------------------------------------------------------

    def to_file(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """``(metadata, arrays)``: the rows of ``W`` that are not all zero, as float32."""
        keep = np.flatnonzero(np.abs(self.W).max(axis=1) > 0)
        meta = {"version": VERSION, "labels": list(LABELS), "templates": list(TEMPLATES),
                "epochs": self.epochs,
                "values": self.vocabulary.values, "lemmas": self.lemmas,
                "rows": int(self.W.shape[0])}  # fmt: skip
        return meta, {"reader_rows": keep.astype(np.int32),
                      "reader_weights": self.W[keep].astype(np.float32).ravel()}

    @classmethod
    def from_file(cls, meta: Mapping[str, Any], rows: np.ndarray,
                  weights: np.ndarray) -> LearnedReader:  # fmt: skip
        """The reader ``to_file`` wrote, of this version or an older one (ValueError when the
        parts do not fit together, or for a version this wsd does not know)."""
        version = meta.get("version", 1)  # version 1 wrote none
        if version not in VERSION_TEMPLATES or isinstance(version, bool):
            raise ValueError(f"its reader is of version {version!r}, which this wsd does not "
                             f"read (versions 1 to {VERSION}: update wsd)")
        if list(meta.get("labels", ())) != list(LABELS) or \
                list(meta.get("templates", ())) != list(VERSION_TEMPLATES[version]):
            raise ValueError("its reader has other labels or features than this wsd's")
        values = meta.get("values")
        lemmas = meta.get("lemmas")
        if not isinstance(values, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v)
                for v in values.values()) or not isinstance(lemmas, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in lemmas.items()):
            raise ValueError("its reader's values or lemmas are not lists and maps of strings")
        vocabulary = Vocabulary(values)
        n_rows = meta.get("rows")

        expected = vocabulary.size + dynamic_rows(len(LABELS), len(vocabulary.ids["t"]))
        if n_rows != expected or len(weights) != len(rows) * len(LABELS) or (
                len(rows) and (rows.min() < 0 or rows.max() >= expected)):
            raise ValueError("its reader's weights do not fit its features")
        W = np.zeros((expected, len(LABELS)), dtype=np.float32)
        W[rows] = weights.reshape(len(rows), len(LABELS))
        return cls(vocabulary, W, lemmas, int(meta.get("epochs", EPOCHS)))
