"""Writing disambiguated raw text: readable blocks for a person, TSV or CoNLL-style columns for
a pipeline, JSON lines (``annotate_text``'s records) for a program."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from wsd.systems.allwords.plaintext import TaggedWord, sentence_records
from wsd.text import Sentence
from wsd.text.treebank import controls_as_spaces

FORMATS = ("plain", "tsv", "conll", "json")
_EMPTY = "_"


def _by_position(words: Sequence[TaggedWord]) -> dict[int, TaggedWord]:
    return {word.start: word for word in words}


def _one_line(text: str) -> str:
    """``text`` with each run of whitespace (a line break of wrapped text, a tab between the
    words of an expression) or control characters as one space: a column or a ``# text`` line
    stays one field."""
    return " ".join(controls_as_spaces(text).split())


def _number(value: float | None) -> str:
    return _EMPTY if value is None else f"{value:.4f}"


def plain(sentences: Sequence[Sentence], words: Sequence[TaggedWord]) -> str:
    """Each sentence, then one line per disambiguated word: the word, its synset, the system
    that chose it with its score margin over the runner-up (and a classifier's calibrated
    probability), and the gloss; under an answer given with its reasons, a line of them."""
    blocks = []
    for n, sentence in enumerate(sentences):
        mine = [w for w in words if w.sentence == n]
        lines = [_one_line(sentence.text)]
        tokens = [_one_line(w.token) for w in mine]
        width = max((len(token) for token in tokens), default=0)
        synset_width = max((len(w.synset_name or "?") for w in mine), default=0)
        for token, w in zip(tokens, mine, strict=True):
            sure = _sureness(w)
            lines.append(f"  {token:<{width}}  {w.synset_name or '?':<{synset_width}}  "
                         f"{w.source} ({sure})  {w.gloss or ''}".rstrip())  # fmt: skip
            if w.reasons:
                lines.append(f"  {'':<{width}}  {_why(w)}")
        if not mine:
            lines.append("  (no word to disambiguate)")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _sureness(word: TaggedWord) -> str:
    """*margin +2.31, probability 0.81* (a classifier), *margin +0.09* (Lesk), *no score*."""
    if word.margin is None:
        return "no score"
    if word.source == "classifier" and word.score is not None:
        return f"margin {word.margin:+.2f}, probability {word.score:.2f}"
    return f"margin {word.margin:+.2f}"


def _why(word: TaggedWord) -> str:
    """*margin +16.38 over bank.n.02: +3.42 ss_bag=noun.possession, -2.16 pos-2=IN, ...*"""
    margin = sum(value for _, value in word.reasons)
    terms = ", ".join(f"{value:+.2f} {name}" for name, value in word.reasons)
    return f"margin {margin:+.2f} over {word.runner_up}: {terms}"


def _columns(word, tagged: TaggedWord | None) -> list[str]:
    if tagged is None:
        return [word.lemma, word.tag, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY]
    sense = [tagged.sense_key, tagged.synset_name, _number(tagged.score), tagged.source]
    return [tagged.lemma, word.tag, tagged.pos, *(value or _EMPTY for value in sense)]


def tsv(sentences: Sequence[Sentence], words: Sequence[TaggedWord]) -> str:
    """A header, then one line per word (a multi-word expression is one) of every sentence:
    sentence number, token, start, end, lemma, Penn tag, POS, sense key, synset, score,
    source; ``_`` where a word has no sense."""
    tagged = _by_position(words)
    lines = ["sentence\ttoken\tstart\tend\tlemma\ttag\tpos\tsense_key\tsynset\tscore\tsource"]
    for n, sentence in enumerate(sentences):
        for word in sentence.words:
            columns = [str(n), _one_line(word.text), str(word.start), str(word.end),
                       *_columns(word, tagged.get(word.start))]  # fmt: skip
            lines.append("\t".join(columns))
    return "\n".join(lines)


def conll(sentences: Sequence[Sentence], words: Sequence[TaggedWord]) -> str:
    """CoNLL-style blocks: ``# text = ...``, then per word ID, FORM, LEMMA, TAG, POS,
    SENSE_KEY, SYNSET, SCORE, SOURCE (``_`` when empty); a blank line after each sentence."""
    tagged = _by_position(words)
    blocks = []
    for sentence in sentences:
        lines = [f"# text = {_one_line(sentence.text)}"]
        for i, word in enumerate(sentence.words, start=1):
            form = "_".join(word.text.split())
            lines.append("\t".join([str(i), form, *_columns(word, tagged.get(word.start))]))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def json_lines(records: Sequence[dict[str, Any]]) -> str:
    """One JSON object per sentence (``annotate_text``'s records)."""
    return "\n".join(json.dumps(record, ensure_ascii=False, allow_nan=False) for record in records)


def render(sentences: Sequence[Sentence], words: Sequence[TaggedWord], fmt: str) -> str:
    """The words in format ``fmt`` (one of ``FORMATS``)."""
    if fmt == "json":
        return json_lines(sentence_records(sentences, words))
    writers = {"plain": plain, "tsv": tsv, "conll": conll}
    if fmt not in writers:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return writers[fmt](sentences, words)


