"""``analyze``: split, tokenize (with character offsets), tag, lemmatize, join multi-word
expressions."""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

from wsd.instance import sentence_spans
from wsd.text.lexicon import (
    INFLECTED,
    LETTER_POS,
    LONGEST_EXPRESSION,
    base_form,
    expressions,
    penn_letter,
    tagged_count,
)
from wsd.text.tagger import penn_tags
from wsd.treebank import span_tokenize


@dataclass(frozen=True)
class Word:
    """One unit of a sentence: a token, or a multi-word expression of several tokens.

    ``text`` is the surface text (the input from ``start`` to ``end``, character offsets into
    the whole input); ``tag`` the Penn tag (a multi-word expression's head's); ``lemma`` the
    WordNet base form (words of an expression joined by '_'), or the lowercased text when
    WordNet does not know the word; ``pos`` NOUN, VERB, ADJ or ADV for a content word WordNet
    has senses for, else None.
    """

    text: str
    start: int
    end: int
    tag: str
    lemma: str
    pos: str | None

    @property
    def is_content(self) -> bool:
        return self.pos is not None


@dataclass(frozen=True)
class Sentence:
    """A sentence of the input: its text, character span and words in order."""

    text: str
    start: int
    end: int
    words: tuple[Word, ...]


def _lemma(token: str, tag: str, first: bool) -> tuple[str, str | None]:
    """``(lemma, coarse POS or None)`` of one token: a content word when the tag is a WordNet
    part of speech and WordNet knows the word (single proper nouns are left out, except a
    sentence's capitalised first word). A word WordNet does not know in the tagged part of
    speech takes the first of noun, verb, adjective, adverb it knows (a tagger's slip:
    *advertise*/NN is the verb)."""
    letter = penn_letter(tag)
    if letter is None or (tag.startswith("NNP") and not first):
        return token.lower(), None
    base = base_form(token, letter, tag in INFLECTED)
    if base is None:
        for other in "nvar":
            base = base_form(token, other, tag in INFLECTED) if other != letter else None
            if base is not None:
                return base, LETTER_POS[other]
        return token.lower(), None
    return base, LETTER_POS[letter]


def _expression(tokens: Sequence[str], tags: Sequence[str], lemmas: Sequence[str],
                i: int) -> tuple[int, str, str] | None:  # fmt: skip
    """The longest WordNet multi-word noun or verb starting at token ``i``:
    ``(tokens it covers, lemma, POS)``, or None. A noun's last token must be tagged a noun
    and SemCor must have tagged it at least once (*ice cream*, *New York*, but not *immune
    system*); a verb's first token must be tagged a verb (*looked up*, *took place*). These
    rules agree best with the annotation of the dev set, semeval2007 (which has no noun
    expressions), among those tried (verbs: any next word, particles and prepositions, or
    particles only; nouns: any, or only those seen in SemCor)."""
    for length in range(min(LONGEST_EXPRESSION, len(tokens) - i), 1, -1):
        span = range(i, i + length)
        if any(tokens[j][0] in string.punctuation for j in span):
            continue
        words = [tokens[j].lower() for j in span]
        if tags[i + length - 1].startswith("NN"):
            candidates = ("_".join(words), "_".join([*words[:-1], lemmas[i + length - 1]]))
            found = next((c for c in candidates
                          if c in expressions("n") and tagged_count(c, "n")), None)  # fmt: skip
            if found:
                return length, found, "NOUN"
        if tags[i].startswith("VB"):
            candidates = ("_".join([lemmas[i], *words[1:]]), "_".join(words))
            found = next((c for c in candidates if c in expressions("v")), None)
            if found:
                return length, found, "VERB"
    return None


def _words(text: str, offset: int) -> tuple[Word, ...]:
    spans = span_tokenize(text)
    tokens = [text[s:e] for s, e in spans]
    tags = penn_tags(tokens) if tokens else []
    analyses = [_lemma(token, tag, i == 0)
                for i, (token, tag) in enumerate(zip(tokens, tags, strict=True))]
    lemmas = [lemma for lemma, _ in analyses]
    words = []
    i = 0
    while i < len(tokens):
        found = _expression(tokens, tags, lemmas, i)
        if found:
            length, lemma, pos = found
            start, end = spans[i][0], spans[i + length - 1][1]
            head = i + length - 1 if pos == "NOUN" else i
            words.append(Word(text[start:end], offset + start, offset + end, tags[head],
                              lemma, pos))  # fmt: skip
            i += length
            continue
        (start, end), (lemma, pos) = spans[i], analyses[i]
        words.append(Word(tokens[i], offset + start, offset + end, tags[i], lemma, pos))
        i += 1
    return tuple(words)


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence spans of ``text``; a line break always ends a sentence."""
    spans = []
    offset = 0
    for line in text.splitlines(keepends=True):
        spans += [(offset + s, offset + e) for s, e in sentence_spans(line)]
        offset += len(line)
    return spans


def analyze(text: str) -> list[Sentence]:
    """The sentences of ``text`` (a line break always ends one; blank ones are left out)
    with their words; offsets are into ``text``."""
    sentences = []
    for start, end in _sentence_spans(text):
        piece = text[start:end]
        stripped = piece.strip()
        if not stripped:
            continue
        start += len(piece) - len(piece.lstrip())
        end = start + len(stripped)
        sentences.append(Sentence(stripped, start, end, _words(stripped, start)))
    return sentences


def target_lemmas(target: str) -> frozenset[str]:
    """The lemmas a ``--target`` word can stand for: itself (lowercased, spaces as '_') and
    its WordNet base form in each part of speech (*runs* -> run)."""
    word = "_".join(target.lower().split())
    found = {word}
    for letter in "nvar":
        base = base_form(word, letter)
        if base:
            found.add(base)
    return frozenset(found)
