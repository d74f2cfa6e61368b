"""Text copied from the web, read as the words a person sees: ``plain_view(text)``.

Pasted HTML and web text broke words apart: *<p>* gave the content word *p* (phosphorus), *<b>*
bacillus, *&amp;* the ampere, and *help@bank.com* the noun *help*. ``plain_view`` gives a text
of the same length, so that every offset still points at the input, in which

- a terminal's colour codes (escape sequences, as in text piped from ``grep --color``) are
  blanks;
- markup tags (*<p>*, *</b>*, *<a href="...">*, *<br/>*), comments, scripts and style sheets
  are blanks, and a block's tag (*<p>*, *</li>*, *<br>*, *</h1>*: ``BLOCKS``) a line break, so
  that a sentence ends there as it does on the page (a tag right inside ``<< >>``, the target
  marker of the bundled models, is left alone);
- a character reference (*&amp;*, *&rsquo;*, *&#8217;*) is the character it stands for,
  padded with word joiners, which ``wsd.text.treebank`` leaves out of word forms (*don&rsquo;t*
  splits as *do* + *n't*);
- Markdown's emphasis and code marks against a word (asterisks or underscores around *bank*,
  backquotes around a word, ~~ around struck text) are blanks too (the tokenizer had kept them
  in the word, which then had no sense);
- Markdown's code is blank, as scripts are: a fenced block (between lines of three or more
  backquotes or tildes; an unclosed fence is left as it is) and an inline span of code in
  backquotes that is not one word (*`git commit -m "msg"`* had given *git* the sense
  rotter);
- a web or e-mail address or a mention (*https://example.com/a*, *www.example.com*,
  *help@bank.com*, *@john*; not a final period, comma or closing bracket) is a run of ``x``
  that tokenizes as one word, and ``addresses`` lists its span so that the pipeline reads the
  address itself there: one token that WordNet does not know, so it gets no sense.

A text without ``<``, ``&``, ``@``, ``*``, ``_``, ``~``, a backquote, an escape character or
``www.``/``://`` is returned as it is.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass

from wsd.text.sentences import document_sentence_spans

_MARKUP = re.compile(
    r"(?<!<)</?([A-Za-z][\w:-]*)"  # a tag's name, then its attributes
    r"""(?:\s+[A-Za-z_:][\w:.-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*/?>(?!>)"""
)
# Tags that start or end a block a reader sees on its own line(s): a sentence ends there.
BLOCKS = frozenset("p div br li ul ol dl dt dd h1 h2 h3 h4 h5 h6 title tr td th table "
                   "blockquote pre section article header footer nav aside hr main figcaption "
                   "caption form option".split())
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ADDRESS = re.compile(
    r"(?:https?://|ftp://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}]"
    r"|(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
    r"|(?<![\w.@])@[A-Za-z0-9_]{1,30}(?![\w@])"  # a mention: @john
)
# Markdown's emphasis and code marks against a word: **bank**, _river_, `bank`, ~~gone~~ (the
# first lookahead, which either side's mark satisfies, lets the search skip to a mark: a
# pattern that starts with a lookbehind is tried at every character, four times slower)
_MARK = r"(?:\*{1,3}|_{1,3}|~~|`)"
_EMPHASIS = re.compile(
    rf"(?=[*_~`])(?:(?<![\w*~`]){_MARK}(?=[^\s*_~`])|(?<=[^\s*_~`]){_MARK}(?![\w*~`]))")
_MARKS = frozenset("*_~`")
# Markdown code: a fence line (``` or ~~~, then an info string such as *python*) and an
# inline span in single backquotes; a span of one word (`bank`) is read as that word.
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*", re.MULTILINE)
_CODE_SPAN = re.compile(r"(?=`)(?<![`\w])`([^`\n]+)`(?![`\w])")
_ONE_WORD = re.compile(r"[A-Za-z]+(?:['-][A-Za-z]+)*")
_MAYBE_WEB = re.compile(r"[<&@*_~`\x1b]|://|www\.")
# A terminal's escape sequence (colour: ESC [ 31 m), as in text piped from `grep --color`
_TERMINAL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]+[0-~]|\x1b[@-Z\\-_]")
WORD_JOINER = "\u2060"


@dataclass(frozen=True)
class PlainView:
    """``text``: the input as a person reads it, of the input's length (markup blank,
    references resolved); ``tokenized``: the same with each address a run of ``x``, for the
    tokenizer; ``addresses``: the ``(start, end)`` spans of the addresses; ``source``: the
    input."""

    text: str
    tokenized: str
    addresses: frozenset[tuple[int, int]]
    source: str

    def sentence_spans(self) -> list[tuple[int, int]]:
        """The sentences (``document_sentence_spans`` of the view), each widened over the
        Markdown marks blanked against its ends, so that one ending in *_river_* shows its
        closing mark: what every raw-text path reads as the input's sentences."""
        return [self._around(start, end) for start, end in document_sentence_spans(self.text)]

    def _around(self, start: int, end: int) -> tuple[int, int]:
        while start and self.source[start - 1] in _MARKS and self.text[start - 1] == " ":
            start -= 1
        while end < len(self.source) and self.source[end] in _MARKS and self.text[end] == " ":
            end += 1
        return start, end


def plain_view(text: str) -> PlainView:
    """``text`` with markup blanked, character references resolved and addresses made single
    tokens, offsets unchanged (see the module). Linear in time and memory (a few copies of
    the text): edits are spans, applied by slicing."""
    if not _MAYBE_WEB.search(text):
        return PlainView(text, text, frozenset(), text)
    code = [*_fenced_blocks(text), *_code_spans(text)] if "`" in text or "~~~" in text else []
    hidden = sorted([*_comments(text), *_scripts(text), *code,
                     *(match.span() for match in _TERMINAL.finditer(text))])
    edits = [(start, end, _BLANKS.sub(" ", text[start:end])) for start, end in hidden]
    for match in _MARKUP.finditer(text):
        start, end = match.span()
        ends_line = match.group(1).lower() in BLOCKS and not _within(hidden, start)
        edits.append((start, end, ("\n" if ends_line else " ") + " " * (end - start - 1)))
    blanked = _edited(text, edits)
    addresses = [match.span() for match in _ADDRESS.finditer(blanked)] if any(
        mark in blanked for mark in ("@", "://", "www.")) else []  # what each address holds
    edits = [(match.start(), match.end(), " " * (match.end() - match.start()))
             for match in _EMPHASIS.finditer(blanked) if not _within(addresses, match.start())]
    for match in _REFERENCE.finditer(blanked):
        start, end = match.span()
        character = html.unescape(match.group())
        if not _within(addresses, start) and character != match.group() \
                and len(character) < end - start:
            edits.append((start, end, character + WORD_JOINER * (end - start - len(character))))
    seen = _edited(blanked, edits)
    tokenized = _edited(seen, [(start, end, "x" * (end - start)) for start, end in addresses])
    return PlainView(seen, tokenized, frozenset(addresses), text)


_BLANKS = re.compile(r"[^\n]")  # what hidden text becomes: blanks, its line breaks kept


def _fenced_blocks(text: str):
    """The ``(start, end)`` spans of Markdown's fenced code blocks, fences included: from a
    fence line to the next one of the same character at least as long (an unclosed fence
    closes nothing)."""
    point = 0
    while opening := _FENCE.search(text, point):
        fence = opening.group(1)
        closing = re.compile(rf"^[ \t]{{0,3}}{fence[0]}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        found = closing.search(text, opening.end())
        if found is None:
            return
        yield opening.start(), found.end()
        point = found.end()


def _code_spans(text: str):
    """The ``(start, end)`` spans of Markdown's inline code that is not one word, backquotes
    included."""
    for match in _CODE_SPAN.finditer(text):
        if not _ONE_WORD.fullmatch(match.group(1)):
            yield match.span()


def _within(spans: list[tuple[int, int]], point: int) -> bool:
    """Whether ``point`` lies inside one of the sorted, disjoint ``spans``."""
    k = bisect.bisect_right(spans, (point, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= point < spans[k][1]


def _edited(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, replacement)`` (of the span's length) applied; an
    edit that starts inside an earlier or longer one (a tag inside a script) is left out."""
    pieces, point = [], 0
    for start, end, replacement in sorted(edits, key=lambda edit: (edit[0], -edit[1])):
        if start < point:
            continue
        pieces += [text[point:start], replacement]
        point = end
    pieces.append(text[point:])
    return "".join(pieces)


def _comments(text: str):
    """The ``(start, end)`` spans of the comments (*<!-- ... -->*), found in linear time
    (an unclosed one closes nothing after it)."""
    start = text.find("<!--")
    while start != -1:
        end = text.find("-->", start + 4)
        if end == -1:
            return
        yield start, end + 3
        start = text.find("<!--", end + 3)


_SCRIPT = re.compile(r"<(script|style)\b[^<>]*>", re.IGNORECASE)
_CLOSING = {name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in ("script", "style")}


def _scripts(text: str):
    """The ``(start, end)`` spans of the scripts and style sheets of a page, tags included:
    code no reader sees. Found in linear time; an unclosed one is left to the tag rule."""
    point = 0
    while opening := _SCRIPT.search(text, point):
        closing = _CLOSING[opening.group(1).lower()].search(text, opening.end())
        if closing is None:
            return
        yield opening.start(), closing.end()
        point = closing.end()
