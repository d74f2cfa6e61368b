"""The unit of WSD data: one target word (or multiword span) in its sentence."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from wsd.text.treebank import ascii_quotes, span_tokenize, visible  # NLTK's rules, no NLTK

MARKER = re.compile(r"<<(.+?)>>")  # a marked target: he caught a huge <<bass>>


def unmark(text: str) -> tuple[str, list[int]]:
    """``text`` without its ``<<word>>`` markers, and where each marked word starts in it."""
    starts, parts, end = [], [], 0
    for match in MARKER.finditer(text):
        parts.append(text[end : match.start()])
        starts.append(sum(len(part) for part in parts))
        parts.append(match.group(1))
        end = match.end()
    return "".join(parts) + text[end:], starts
# A sentence end inside a line: . ! or ? (maybe closing a quote) before a capital or a quote.
# The Treebank tokenizer only splits a period at the very end of its input, so each sentence
# of a line is tokenized on its own.
_SENTENCE_END = re.compile(r"""(?<=[.!?])["')\]]*\s+(?=["'(\[]?[A-Z0-9])""")
_ABBREVIATIONS = ("Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Prof.", "Jr.", "Sr.", "vs.", "e.g.", "i.e.",
                  "Gen.", "Gov.", "Sen.", "Rep.", "Rev.", "Col.", "Capt.", "Lt.", "Sgt.", "Mt.")
# Abbreviations that go on with a number: a date, a figure, a reference (*Oct. 30*, *no. 5*).
_BEFORE_NUMBER = re.compile(
    r"(?<![A-Za-z])(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec"
    r"|[Ff]igs?|[Rr]efs?|[Vv]ol|[Nn]os?|pp?|[Ee]q|[Cc]h|[Ss]ec|Art"
    r"|[Aa]pprox|[Cc]a|[Ee]st)\.$")  # approx. 5, ca. 1900, est. 1990
# how far back an abbreviation reaches (a letter before it included): *approx.* the longest
_LONGEST_ABBREVIATION = max(len(abbreviation) for abbreviation in (*_ABBREVIATIONS, "approx.")) + 1
# A list item's number at the start (*1. Preheat the oven*, *12. Serve*) does not end one.
_ENUMERATOR = re.compile(r"\s*\d{1,3}\.$")
_LONGEST_ENUMERATOR = 12
# A single capital and a period is an initial (*E. Robert Wallach*), not a sentence's end.
_INITIAL = re.compile(r"(?:^|[\s(\[\"'])[A-Z]\.$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text``: a break after . ! or ? (maybe closing a
    quote) before a capital, digit or quote, except after a common abbreviation (or one that
    takes a number, before it: *Oct. 30*, *Fig. 3*), an initial or a list item's number at
    the start (*1. Preheat*). Typographic quotes count as ASCII ones."""
    text = ascii_quotes(text)
    spans: list[tuple[int, int]] = []
    start = 0
    for boundary in _SENTENCE_END.finditer(text):
        # the sentence so far, only as far back as an abbreviation reaches: linear time
        before = text[max(start, boundary.start() - _LONGEST_ABBREVIATION) : boundary.start()]
        if before.endswith(_ABBREVIATIONS) or _INITIAL.search(before):
            continue
        if text[boundary.end() : boundary.end() + 1].isdigit() and _BEFORE_NUMBER.search(before):
            continue  # *Oct. 30*, *Fig. 3*, *Ref. 1*
        if boundary.start() - start <= _LONGEST_ENUMERATOR and _ENUMERATOR.match(
                text, start, boundary.start()):  # fmt: skip
            continue
        spans.append((start, boundary.start() + len(boundary.group().rstrip())))
        start = boundary.end()
    spans.append((start, len(text)))
    return spans


LONGEST_SENTENCE = 200
"""Words (runs of letters or digits) a sentence may hold before ``document_sentence_spans``
cuts it: SemCor's longest has 251 tokens, its 99.9th percentile 103. A text without sentence
ends (a transcript, OCR, a lowercase chat log, a list run together by commas) would otherwise
be one sentence, and every target's bag of words reads the whole sentence, so the time would
grow with its square."""
_WORD_RUN = re.compile(r"\w+")
_SPACE = re.compile(r"\s")


def document_sentence_spans(text: str, longest: int = LONGEST_SENTENCE) -> list[tuple[int, int]]:
    """Character spans of the sentences of a whole document, as every raw-text path splits
    it (``wsd disambiguate``, ``wsd annotate`` with either model): a blank line ends a
    paragraph, and a line break ends a sentence unless the text goes on across it (see
    ``_line_runs``: hard-wrapped prose, or a line without a sentence end followed by one in
    lowercase); then :func:`sentence_spans` within each run of lines. Whitespace around a
    sentence is left out, blank ones are dropped. A sentence of more than ``longest`` words
    (runs of letters or digits) is cut into pieces of at most ``longest`` words (``_cut``)."""
    spans = []
    for run_start, run_end in _line_runs(text):
        run = text[run_start:run_end]
        for start, end in sentence_spans(run):
            piece = run[start:end]
            stripped = piece.strip()
            if stripped:
                left = run_start + start + len(piece) - len(piece.lstrip())
                spans.extend(_cut(text, left, left + len(stripped), longest))
    return spans


# A line that ends a sentence: . ! or ? maybe closing a quote or bracket.
_ENDS_SENTENCE = re.compile(r"""[.!?]["')\]]*\s*$""")
WRAPPED_SHARE = 0.6
"""A paragraph of at least two lines, the longest of 40 characters or more, is hard-wrapped
prose when every line but its last is at least this share of the longest: its line breaks
are spaces. Lists, verse and headlines have shorter, uneven lines."""


def _line_runs(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the runs of lines read as one stretch of text. Hard-wrapped prose
    (``WRAPPED_SHARE``) is one run per paragraph; elsewhere a line joins the next when it
    ends without a sentence end and the next starts in lowercase (*the bank of the* /
    *river*). Wrapped text had lost 2.4 F1 on semeval2007 to sentences cut at each line."""
    lines, offset = [], 0
    for line in text.splitlines(keepends=True):
        lines.append((offset, offset + len(line), line.strip()))
        offset += len(line)
    runs: list[tuple[int, int]] = []
    k = 0
    while k < len(lines):
        paragraph = [k]
        while lines[paragraph[-1]][2] and paragraph[-1] + 1 < len(lines) \
                and lines[paragraph[-1] + 1][2]:
            paragraph.append(paragraph[-1] + 1)
        widths = [len(lines[j][2]) for j in paragraph]
        widest = max(widths)
        wrapped = len(widths) > 1 and widest >= 40 and all(
            width >= WRAPPED_SHARE * widest for width in widths[:-1])
        start = lines[paragraph[0]][0]
        for j in paragraph:
            following = lines[j + 1][2] if j != paragraph[-1] else ""
            goes_on = following and (wrapped or (following[0].islower()
                                                 and not _ENDS_SENTENCE.search(lines[j][2])))
            if not goes_on:
                runs.append((start, lines[j][1]))
                start = lines[j][1]
        k = paragraph[-1] + 1
    return runs


def _cut(text: str, start: int, end: int, longest: int) -> list[tuple[int, int]]:
    """``[(start, end)]``, or pieces of at most ``longest`` words when the span has more: each
    cut goes between two words, after a , ; or : in a piece's second half, else after a space
    there (inside a run such as *bank,river* or *well-known* only when there is none)."""
    if end - start <= 2 * longest:  # too short to hold more than ``longest`` words
        return [(start, end)]
    runs = [m.span() for m in _WORD_RUN.finditer(text, start, end)]
    pieces, first, left = [], 0, start
    while len(runs) - first > longest:
        # the first word of the next piece: after a clause's end in the second half, else
        # after the last space there, else the word after ``longest``
        gaps = {k: text[runs[k - 1][1] : runs[k][0]]
                for k in range(first + longest, first + longest // 2, -1)}  # fmt: skip
        nxt = next((k for k, gap in gaps.items() if any(mark in gap for mark in ",;:")),
                   next((k for k, gap in gaps.items() if _SPACE.search(gap)), first + longest))
        gap_start, gap_end = runs[nxt - 1][1], runs[nxt][0]
        spaces = [m.end() for m in _SPACE.finditer(text, gap_start, gap_end)]
        cut = spaces[-1] if spaces else gap_end
        pieces.append((left, cut))
        left, first = cut, nxt
    pieces.append((left, end))  # each starts at a word or after the last space before one
    return [(s, s + len(text[s:e].rstrip())) for s, e in pieces]


def token_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the tokens of ``text``, sentence by sentence (no model needed)."""
    return [
        (start + s, start + e)
        for start, end in sentence_spans(text)
        for s, e in span_tokenize(text[start:end])
    ]


@dataclass(frozen=True)
class Instance:
    """A target occurrence in context.

    ``span`` is the half-open token range ``[start, end)`` of the target, so a
    multiword target such as "ice cream" covers two tokens. ``pos`` holds one tag
    per token when the corpus (or a tagger) supplies them. ``senses`` are the gold
    senses: several are allowed, as in the standard all-words data; empty when unknown.
    ``target_pos`` is the coarse POS of the target (NOUN, VERB, ADJ, ADV) when known.
    """

    id: str
    tokens: tuple[str, ...]
    span: tuple[int, int]
    lemma: str
    pos: tuple[str, ...] | None = None
    senses: tuple[str, ...] = ()
    target_pos: str | None = None
    meta: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", tuple(self.tokens))
        object.__setattr__(self, "senses", tuple(self.senses))
        object.__setattr__(self, "span", tuple(self.span))
        if self.pos is not None:
            object.__setattr__(self, "pos", tuple(self.pos))
            if len(self.pos) != len(self.tokens):
                raise ValueError(
                    f"instance {self.id!r}: {len(self.pos)} POS tags for {len(self.tokens)} tokens"
                )
        start, end = self.span
        if not (0 <= start < end <= len(self.tokens)):
            raise ValueError(
                f"instance {self.id!r}: target span {self.span} is outside the "
                f"{len(self.tokens)} tokens"
            )

    @property
    def index(self) -> int:
        """Index of the target's first token."""
        return self.span[0]

    @property
    def target(self) -> str:
        """The target as written in the sentence (tokens joined by spaces)."""
        return " ".join(self.tokens[self.span[0] : self.span[1]])

    @property
    def sense(self) -> str | None:
        """The first gold sense, or None when the instance is unlabelled."""
        return self.senses[0] if self.senses else None

    @property
    def key(self) -> str:
        """The classifier key: ``lemma#pos`` when the target POS is known, else the lemma."""
        return f"{self.lemma}#{self.target_pos}" if self.target_pos else self.lemma

    @property
    def corpus_lemmas(self) -> tuple[str, ...] | None:
        """The lemma of every token as the corpus gives them (``("lemmas", ...)`` in ``meta``,
        kept by the framework loader), or None when the corpus has none."""
        for name, value in self.meta:
            if name == "lemmas" and len(value) == len(self.tokens):
                return tuple(value)
        return None

    def with_senses(self, senses: Sequence[str]) -> Instance:
        return replace(self, senses=tuple(senses))

    def with_pos(self, pos: Sequence[str]) -> Instance:
        return replace(self, pos=tuple(pos))

    @classmethod
    def from_text(
        cls,
        text: str,
        *,
        target: str | None = None,
        offset: int | None = None,
        occurrence: int = 0,
        lemma: str | None = None,
        senses: Sequence[str] = (),
        id: str = "text",
        target_pos: str | None = None,
    ) -> Instance:
        """Build an instance from raw text.

        The target is found, in this order of preference, by a marker
        (``"he caught a huge <<bass>> today"``), by a character ``offset`` into
        ``text``, or by the word ``target`` (its ``occurrence``-th appearance,
        counting from 0). A target that is not in the sentence raises ValueError.
        """
        return instances_from_text(
            text,
            target=target,
            offset=offset,
            occurrence=occurrence,
            lemma=lemma,
            senses=senses,
            id=id,
            target_pos=target_pos,
            every=False,
        )[0]


def word_occurrences(text: str, word: str) -> list[tuple[int, int]]:
    """The character spans where ``word`` stands in ``text`` as a whole word, any case."""
    pattern = re.compile(r"(?<!\w)" + re.escape(word) + r"(?!\w)", re.IGNORECASE)
    return [match.span() for match in pattern.finditer(text)]


def instances_from_text(
    text: str,
    *,
    target: str | None = None,
    offset: int | None = None,
    occurrence: int | None = None,
    lemma: str | None = None,
    senses: Sequence[str] = (),
    id: str = "text",
    target_pos: str | None = None,
    every: bool = True,
) -> list[Instance]:
    """Instances for the target(s) in ``text``; with ``every`` one per occurrence of ``target``."""
    marked = MARKER.search(text)
    if marked:
        if MARKER.search(text, marked.end()):  # quoted as given, both markers in it
            raise ValueError(f"more than one <<target>> marker in {text!r}")
        char_start, char_end = marked.start(), marked.end() - 4
        text = text[: marked.start()] + marked.group(1) + text[marked.end() :]
        char_ranges = [(char_start, char_end)]
    elif offset is not None:
        if not 0 <= offset < len(text) or text[offset].isspace():
            raise ValueError(f"offset {offset} does not point at a word in {text!r}")
        end = offset
        while end < len(text) and not text[end].isspace():
            end += 1
        char_ranges = [(offset, end)]
    elif target:
        char_ranges = word_occurrences(text, target)
        if not char_ranges:
            raise ValueError(f"target {target!r} does not occur in {text!r}")
        if occurrence is not None:
            if occurrence >= len(char_ranges):
                raise ValueError(
                    f"target {target!r} occurs {len(char_ranges)} time(s) in {text!r}, "
                    f"so occurrence {occurrence} does not exist"
                )
            char_ranges = [char_ranges[occurrence]]
        elif not every:
            char_ranges = char_ranges[:1]
    else:
        raise ValueError(
            f"no target in {text!r}: mark it as <<word>>, or give target= or offset="
        )

    spans = token_spans(text)
    tokens = tuple(visible(text[s:e]) for s, e in spans)
    result = []
    for n, (char_start, char_end) in enumerate(char_ranges):
        covered = [i for i, (s, e) in enumerate(spans) if s < char_end and e > char_start]
        if not covered:
            raise ValueError(f"target at characters {char_start}-{char_end} of {text!r} is empty")
        span = (covered[0], covered[-1] + 1)
        written = " ".join(tokens[span[0] : span[1]])
        result.append(
            Instance(
                id=id if len(char_ranges) == 1 else f"{id}.{n}",
                tokens=tokens,
                span=span,
                lemma=(lemma or written).lower(),
                senses=tuple(senses),
                target_pos=target_pos,
            )
        )
    return result
