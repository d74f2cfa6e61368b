"""The learned reader's features (``wsd.text.reader``), as rows of feature ids per token.

Per token: its lowercase form, the form as written where it has capitals, affixes, shape and
those of its neighbours; the tagger's Penn tags around it (features, not decisions); WordNet
facts: the parts of speech WordNet has the word in, whether every noun spelled so is a name,
how often SemCor tagged it in each (WordNet's counts, in powers of two), and the longest
WordNet expression that starts at the token (its length and part of speech) or that the
token lies inside; where it stands: the sentence's first word, in a title-case line, a
line in capitals, a line without final punctuation (a heading); and the run of capitalised
words it is in (its last word: a name's kind, *Baltimore Orioles* a group).

Features are computed once per distinct word form (``type_features``) and per sentence
(tags, expressions, position), and turned into ids by ``Vocabulary``: one table of values per
template, learnt from the training corpus; a value it never saw has no id (-1).
"""

from __future__ import annotations

import bisect
import functools
import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from wsd.knowledge.lexicon import (
    LONGEST_EXPRESSION,
    expressions,
    folded,
    only_proper,
    tagged_count,
    wordnet,
)

# Templates whose value comes from the token's own form.
TYPE_TEMPLATES = ("w", "wx", "suf3", "suf2", "pre3", "shape", "wn", "cn", "cv", "ca", "cr")
# Templates whose value is another template's value at a neighbour: (name, source, offset).
NEIGHBOURS = (("w-1", "w", -1), ("w+1", "w", 1), ("w-2", "w", -2), ("w+2", "w", 2),
              ("shape-1", "shape", -1), ("shape+1", "shape", 1), ("wn+1", "wn", 1),
              ("t", "t", 0), ("t-1", "t", -1), ("t+1", "t", 1), ("t-2", "t", -2),
              ("t+2", "t", 2))  # fmt: skip
# Templates of the sentence: pairs of tags, expressions, the token's place, the capitalised
# run it is in (a name's last word says its kind: *Baltimore Orioles*, *Hudson River*).
SENTENCE_TEMPLATES = ("t-1|t", "t|t+1", "xs", "xi", "place", "line", "run", "runs")
TEMPLATES = ("bias", *TYPE_TEMPLATES, *(name for name, _, _ in NEIGHBOURS), *SENTENCE_TEMPLATES)
EDGE = "<s>"  # the value of a neighbour beyond the sentence
MAX_CACHED_TYPES = 200_000
MIN_WORD_COUNT = 2  # a word form seen less often in training is unknown, as new text's are

_SHAPE_RUN = re.compile(r"(.)\1+")
_ASCII_SHAPES = str.maketrans({**dict.fromkeys(string.ascii_uppercase, "X"),
                               **dict.fromkeys(string.ascii_lowercase, "x"),
                               **dict.fromkeys(string.digits, "d")})  # fmt: skip


def shape(form: str) -> str:
    """Capitals as X, lowercase as x, digits as d, runs of one kind as one (*McDonald*: XxXx,
    *1960s*: dx, *U.S.*: X.X.); the first four."""
    mapped = form.translate(_ASCII_SHAPES) if form.isascii() else "".join(
        "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
        for c in form)  # fmt: skip
    return _SHAPE_RUN.sub(r"\1", mapped)[:4]


def _bucket(count: int) -> str:
    return str(min(int(math.log2(1 + count)), 8))


@functools.lru_cache(maxsize=131072)
def type_features(form: str) -> tuple[str | None, ...]:
    """The values of ``TYPE_TEMPLATES`` for one word form (None: the template has none)."""
    lower = lowercase(form)
    reader = wordnet()
    bases = {letter: reader._morphy(lower, letter) for letter in "nvar"}
    letters = "".join(letter for letter in "nvar" if bases[letter])
    names = ""
    if "n" in letters:
        names = "P" if only_proper(lower, "n") else ""
    counts = [_bucket(tagged_count(bases[letter][0], letter)) if bases[letter] else None
              for letter in "nvar"]  # fmt: skip
    return (lower, form if form != lower else None, lower[-3:], lower[-2:], lower[:3],
            shape(form), letters + names or "-", *counts)


@functools.lru_cache(maxsize=131072)
def lowercase(token: str) -> str:
    """``token`` folded as WordNet spells it (*café*: cafe), in lowercase."""
    return folded(token).lower()


def _line(tokens: Sequence[str]) -> str:
    """What kind of line the sentence is: title case (three words of four letters or more,
    all capitalised), capitals, or running text; and whether it ends with punctuation."""
    cased = [t for t in tokens if t.lower() != t.upper()]
    long = [t for t in cased if len(t) >= 4]
    if len(cased) >= 2 and all(t.isupper() for t in cased):
        kind = "caps"
    elif len(long) >= 3 and all(t[:1].isupper() for t in long):
        kind = "title"
    else:
        kind = "text"
    return kind + ("." if tokens and tokens[-1] in (".", "!", "?", ":", ";") else "")


def _case(token: str) -> str:
    if token.lower() == token.upper():
        return "-"
    return "X" if token.isupper() else "C" if token[:1].isupper() else "x"


class ExpressionStarts:
    """How WordNet's multi-word expressions begin: per first word, the second words of the
    expressions it begins and the most words of one (at most ``LONGEST_EXPRESSION``), found
    by bisection in the sorted names when the word is first asked about (tables of every
    expression's first words and pairs had cost a fifth of a second at every start)."""

    def __init__(self, names: Iterable[str]) -> None:
        self._names = sorted(set(names))
        self._starting: dict[str, tuple[int, frozenset[str]]] = {}

    def _begun_by(self, first: str) -> tuple[int, frozenset[str]]:
        found = self._starting.get(first)
        if found is None:
            longest, seconds, prefix, names = 0, set(), first + "_", self._names
            i = bisect.bisect_left(names, prefix) if "_" not in first else len(names)
            while i < len(names) and names[i].startswith(prefix):
                seconds.add(names[i][len(prefix) :].partition("_")[0])
                length = names[i].count("_") + 1
                if longest < length <= LONGEST_EXPRESSION:
                    longest = length
                i += 1
            if len(self._starting) > MAX_CACHED_TYPES:
                self._starting.clear()
            found = self._starting[first] = (longest, frozenset(seconds))
        return found

    def has_pair(self, first: str, second: str) -> bool:
        """Whether an expression's first two words are ``first`` and ``second``."""
        return "_" not in second and second in self._begun_by(first)[1]

    def longest(self, first: str) -> int:
        """The words of the longest expression of at most ``LONGEST_EXPRESSION`` words that
        begins with the word ``first``; 0: none."""
        return self._begun_by(first)[0]


@functools.cache
def _expression_starts() -> ExpressionStarts:
    return ExpressionStarts(name for letter in "nvar" for name in expressions(letter))


@functools.lru_cache(maxsize=65536)
def _bases(word: str, letter: str) -> tuple[str, ...]:
    """The word and its WordNet base forms as a ``letter`` word (*rates*: rates, rate)."""
    return tuple(dict.fromkeys([word, *wordnet()._morphy(word, letter)]))


@functools.lru_cache(maxsize=65536)
def longest_start(first: str, second: str | None) -> int:
    """How many words the longest WordNet expression that may start with these two lowercase
    words has (a verb's first word and a noun's last in any inflection); 0: none."""
    if second is None:
        return 0
    starts, firsts = _expression_starts(), _bases(first, "v")
    if not any(starts.has_pair(a, b) for a in firsts for b in _bases(second, "n")):
        return 0
    return max(starts.longest(a) for a in firsts)


@functools.lru_cache(maxsize=65536)
def wordnet_expression(words: Sequence[str]) -> tuple[str, str] | None:
    """``(lemma, letter)`` of the WordNet expression the lowercase ``words`` (a tuple) are, in
    any inflection (a noun's last word, a verb's first: *ice creams*, *took place*), else
    None."""
    if len(words) < 2:
        return None
    joined = "_".join(words)
    candidates = (*(("n", "_".join([*words[:-1], last])) for last in _bases(words[-1], "n")),
                  *(("v", "_".join([first, *words[1:]])) for first in _bases(words[0], "v")),
                  ("a", joined), ("r", joined))  # fmt: skip
    return next(((lemma, letter) for letter, lemma in candidates
                 if lemma in expressions(letter)), None)  # fmt: skip


def expression_values(lowers: Sequence[str]) -> tuple[list[str | None], list[str | None]]:
    """Per token: the longest WordNet expression starting there (``xs``: length, letter and
    how often SemCor tagged it, in powers of two) and, for a token inside one begun earlier,
    where (``xi``: offset, length, letter and that count)."""
    starts: list[str | None] = [None] * len(lowers)
    inside: list[str | None] = [None] * len(lowers)
    for i, word in enumerate(lowers):
        longest = longest_start(word, lowers[i + 1] if i + 1 < len(lowers) else None)
        for length in range(min(longest, len(lowers) - i), 1, -1):
            found = wordnet_expression(tuple(lowers[i : i + length]))
            if found:
                what = f"{length}{found[1]}{_bucket(tagged_count(*found))}"
                starts[i] = what
                for k in range(1, length):
                    inside[i + k] = f"{k}/{what}"
                break
    return starts, inside


def capitalised_runs(tokens: Sequence[str]) -> list[tuple[str, str] | None]:
    """Per token that begins with a capital: the run of such tokens it is in, as its last
    word (lowercase; ``run``) and that word's last three letters with the run's length (1,
    2, 3 or more) and where the token stands in it (``runs``); None for other tokens and for
    a sentence's first word alone (capitalised as every first word is)."""
    found: list[tuple[str, str] | None] = [None] * len(tokens)
    i = 0
    while i < len(tokens):
        end = i
        while end < len(tokens) and tokens[end][:1].isupper():
            end += 1
        if end == i or end == 1:
            i += 1
            continue
        last = lowercase(tokens[end - 1])
        for k in range(i, end):
            where = "1" if end - i == 1 else "B" if k == i else "E" if k == end - 1 else "I"
            found[k] = (last, f"{last[-3:]}|{min(end - i, 3)}|{where}")
        i = end
    return found


def sentence_values(tokens: Sequence[str], tags: Sequence[str]) -> list[list[str | None]]:
    """Per token, the values of ``SENTENCE_TEMPLATES`` but the tag pairs."""
    starts, inside = expression_values([lowercase(t) for t in tokens])
    line = _line(tokens)
    runs = capitalised_runs(tokens)
    return [[starts[i], inside[i], f"{line}|{_case(token)}|{int(i == 0)}", line,
             *(runs[i] or (None, None))] for i, token in enumerate(tokens)]  # fmt: skip


class Vocabulary:
    """The id of each template's values: ``ids[template][value]``; ids are global (one row
    of weights each), the first ``bias``'s."""

    def __init__(self, values: Mapping[str, Sequence[str]]) -> None:
        self.values = {name: list(values.get(name, ())) for name in _OWN_TABLES}
        self.offsets, self.size = {}, 1  # row 0: the bias
        self._type_ids: dict[str, tuple[int, ...]] = {}
        self.ids: dict[str, dict[str, int]] = {}
        for name in _OWN_TABLES:
            self.ids[name] = {value: k for k, value in enumerate(self.values[name])}
        for name in TEMPLATES[1:]:
            self.offsets[name] = self.size
            if name in _TAG_PAIRS:
                self.size += len(self.ids["t"]) ** 2
            else:
                self.size += len(self.ids[_SOURCE.get(name, name)])

    @classmethod
    def learn(cls, types: Counter[str], sentences: Iterable[tuple[Sequence[str], Sequence[str]]],
              ) -> Vocabulary:  # fmt: skip
        """The values seen in training: ``types`` counts each word form's tokens; a form's
        own ``w`` and ``wx`` and a run's last word ``run`` count only from ``MIN_WORD_COUNT``
        tokens on."""
        seen: dict[str, Counter[str]] = {name: Counter() for name in _OWN_TABLES}
        for form, count in types.items():
            for name, value in zip(TYPE_TEMPLATES, type_features(form), strict=True):
                if value is not None:
                    seen[name][value] += count
        for tokens, tags in sentences:
            seen["t"].update(tags)
            for row in sentence_values(tokens, tags):
                for name, value in zip(SENTENCE_TEMPLATES[2:], row, strict=True):
                    if value is not None:
                        seen[name][value] += 1
        seen["t"][EDGE] += 1
        seen["w"][EDGE] = seen["shape"][EDGE] = seen["wn"][EDGE] = MIN_WORD_COUNT
        values = {name: sorted(v for v, n in found.items()
                               if n >= (MIN_WORD_COUNT if name in ("w", "wx", "run") else 1))
                  for name, found in seen.items()}  # fmt: skip
        return cls(values)

    def forget_words(self) -> None:
        """Forget the words' features kept between calls (``type_features``' and their ids
        here): the counts they read have changed (``lexicon.withheld_counts``)."""
        self._type_ids.clear()
        type_features.cache_clear()

    def _type_row(self, token: str) -> tuple[int, ...]:
        found = self._type_ids.get(token)
        if found is None:
            found = self._type_ids[token] = tuple(
                self.ids[name].get(value, -1) if value is not None else -1
                for name, value in zip(TYPE_TEMPLATES, type_features(token), strict=True))
        return found

    def tag_ids(self, tags: Sequence[str]) -> np.ndarray:
        table = self.ids["t"]
        return np.array([table.get(tag, -1) for tag in tags], dtype=np.int64)

    def rows(self, sentences: Sequence[tuple[Sequence[str], Sequence[str]]]) -> np.ndarray:
        """The feature ids of every token of ``sentences`` (``(tokens, tags)`` pairs), one row
        per token in order, -1 where a template has no known value."""
        n = sum(len(tokens) for tokens, _ in sentences)
        X = np.full((n, len(TEMPLATES)), -1, dtype=np.int64)
        X[:, 0] = 0
        column = {name: k for k, name in enumerate(TEMPLATES)}
        edge = {name: self.ids[name].get(EDGE, -1) for name in ("w", "shape", "wn", "t")}
        types: dict[str, int] = {}
        type_rows: list[tuple[int, ...]] = []
        token_types: list[int] = []
        starts = np.zeros(len(sentences) + 1, dtype=np.int64)
        places = []
        if len(self._type_ids) > MAX_CACHED_TYPES:  # bounded memory on endless input
            self._type_ids.clear()
        for s, (tokens, tags) in enumerate(sentences):
            for token in tokens:
                k = types.get(token)
                if k is None:
                    k = types[token] = len(type_rows)
                    type_rows.append(self._type_row(token))
                token_types.append(k)
            places += sentence_values(tokens, tags)
            starts[s + 1] = starts[s] + len(tokens)
        by_type = np.array(type_rows, dtype=np.int64).reshape(-1, len(TYPE_TEMPLATES))
        own_rows = by_type[np.array(token_types, dtype=np.int64)]
        own = {name: own_rows[:, k] for k, name in enumerate(TYPE_TEMPLATES)}
        own["t"] = self.tag_ids([tag for _, tags in sentences for tag in tags])
        for name in TYPE_TEMPLATES:
            X[:, column[name]] = _offset(own[name], self.offsets[name])
        for k, name in enumerate(SENTENCE_TEMPLATES[2:]):
            table = self.ids[name]
            known = np.array([table.get(row[k], -1) for row in places], dtype=np.int64)
            X[:, column[name]] = _offset(known, self.offsets[name])
        sentence = np.repeat(np.arange(len(sentences)), np.diff(starts))
        for name, source, shift in NEIGHBOURS:
            moved = np.full(n, edge[source], dtype=np.int64)
            index = np.arange(n) + shift
            inside = (index >= 0) & (index < n)
            inside[inside] &= sentence[index[inside]] == sentence[inside]
            moved[inside] = own[source][index[inside]]
            X[:, column[name]] = _offset(moved, self.offsets[name])
        n_tags = len(self.ids["t"])
        tag = own["t"]
        for name, shift in _TAG_PAIRS.items():
            other = np.full(n, edge["t"], dtype=np.int64)
            index = np.arange(n) + shift
            inside = (index >= 0) & (index < n)
            inside[inside] &= sentence[index[inside]] == sentence[inside]
            other[inside] = tag[index[inside]]
            first, second = (other, tag) if shift < 0 else (tag, other)
            pair = np.where((tag >= 0) & (other >= 0), first * n_tags + second, -1)
            X[:, column[name]] = _offset(pair, self.offsets[name])
        return X


def _offset(ids: np.ndarray, offset: int) -> np.ndarray:
    return np.where(ids >= 0, ids + offset, -1)


# Which value table each template reads (its own unless named here), and the tables.
_SOURCE = {name: source for name, source, _ in NEIGHBOURS}
_OWN_TABLES = (*TYPE_TEMPLATES, "t", *SENTENCE_TEMPLATES[2:])
_TAG_PAIRS = {"t-1|t": -1, "t|t+1": 1}  # ids: the two tags' ids, first * tags + second
