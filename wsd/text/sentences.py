"""The sentences of plain text: where one ends inside a line (``sentence_spans``), and how a
whole document's lines, paragraphs and overlong sentences are cut (``document_sentence_spans``,
as every raw-text path splits a document)."""

from __future__ import annotations

import re

from wsd.text.treebank import ascii_quotes

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
