"""Penn Treebank word tokenization with character spans, without importing NLTK.

The rules of NLTK's ``TreebankWordTokenizer`` (``tokenize`` and ``span_tokenize``, NLTK 3.9+;
Apache License 2.0), kept here so that the raw-text path starts without NLTK, whose import
alone costs over a second. ``tests/test_text_compiled.py`` checks that both give the same
spans on hand-written and generated text. Departures: typographic quotes and apostrophes
(“ ” ’ « », an acute accent written for an apostrophe) are read as ASCII ones, which NLTK's
rules leave stuck to their words; Unicode hyphens are hyphens; dashes and the ellipsis
character (– — …) stand apart as the tagger's ``--`` and ``...``, and symbols (emoji, ™)
stand apart as tokens of their own; and text copied
from the web keeps its invisible characters out of the words: a zero-width space separates
words, a soft hyphen or zero-width joiner inside a word is dropped from its form; a control
character (a NUL, an escape) separates words too.
"""

from __future__ import annotations

import re
import unicodedata

# Each rule with the strings one of which its pattern needs in the text: a rule whose text
# holds none of them cannot apply, and is not run (most sentences need a few of the twenty).
_STARTING_QUOTES = [
    (re.compile(r"^\""), r"``", ('"',)),
    (re.compile(r"(``)"), r" \1 ", ("``",)),
    (re.compile(r"([ \(\[{<])(\"|\'{2})"), r"\1 `` ", ('"', "''")),
]
_PUNCTUATION = [
    (re.compile(r"([:,])([^\d])"), r" \1 \2", (":", ",")),
    (re.compile(r"([:,])$"), r" \1 ", (":", ",")),
    (re.compile(r"\.\.\."), r" ... ", ("...",)),
    (re.compile(r"[;@#$%&]"), r" \g<0> ", tuple(";@#$%&")),
    (re.compile(r'([^\.])(\.)([\]\)}>"\']*)\s*$'), r"\1 \2\3 ", (".",)),  # the final period
    (re.compile(r"[?!]"), r" \g<0> ", ("?", "!")),
    (re.compile(r"([^'])' "), r"\1 ' ", ("' ",)),
]
_PARENS_BRACKETS = (re.compile(r"[\]\[\(\)\{\}\<\>]"), r" \g<0> ", tuple("[](){}<>"))
_DOUBLE_DASHES = (re.compile(r"--"), r" -- ", ("--",))
_ENDING_QUOTES = [
    (re.compile(r"''"), " '' ", ("''",)),
    (re.compile(r'"'), " '' ", ('"',)),
    (re.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') "), r"\1 \2 ", ("'",)),
    (re.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1 \2 ", ("'",)),
]
# NLTK's contractions, each with the word it splits (lowercase: the patterns ignore case)
_CONTRACTIONS = [(re.compile(pattern), word) for pattern, word in (
    (r"(?i)\b(can)(?#X)(not)\b", "cannot"), (r"(?i)\b(d)(?#X)('ye)\b", "d'ye"),
    (r"(?i)\b(gim)(?#X)(me)\b", "gimme"), (r"(?i)\b(gon)(?#X)(na)\b", "gonna"),
    (r"(?i)\b(got)(?#X)(ta)\b", "gotta"), (r"(?i)\b(lem)(?#X)(me)\b", "lemme"),
    (r"(?i)\b(more)(?#X)('n)\b", "more'n"), (r"(?i)\b(wan)(?#X)(na)(?=\s)", "wanna"),
    (r"(?i) ('t)(?#X)(is)\b", "'tis"), (r"(?i) ('t)(?#X)(was)\b", "'twas"),
)]  # fmt: skip
_QUOTES = re.compile(r"``|'{2}|\"")


def tokenize(text: str) -> list[str]:
    """The Treebank tokens of ``text`` (double quotes become `` and '')."""
    for regexp, substitution, needs in _STARTING_QUOTES + _PUNCTUATION + [_PARENS_BRACKETS,
                                                                          _DOUBLE_DASHES]:
        if any(need in text for need in needs):
            text = regexp.sub(substitution, text)
    text = f" {text} "
    for regexp, substitution, needs in _ENDING_QUOTES:
        if any(need in text for need in needs):
            text = regexp.sub(substitution, text)
    # (in ASCII text only: ignoring case, a pattern's i also matches the dotless ı)
    lower = text.lower() if text.isascii() else None
    for regexp, word in _CONTRACTIONS:
        if lower is None or word in lower:
            text = regexp.sub(r" \1 \2 ", text)
    return text.split()


# Typographic quotes, apostrophes and hyphens read as their ASCII forms, one character for
# one, so that offsets stay those of the input: “causes” and don’t tokenize as "causes" and
# don't do, «bank» as "bank", state‑of‑the‑art (non-breaking hyphens) as WordNet spells it.
# Control characters that are not whitespace (a NUL, an escape, a C1 control): a space, so
# that *bank\x00* is the word *bank*.
_CONTROLS = {code: " " for code in [*range(0x20), *range(0x7F, 0xA0)] if not chr(code).isspace()}
_TYPOGRAPHIC = str.maketrans({**_CONTROLS,
                              "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
                              "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
                              "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
                              "\u201b": "'", "\u2039": "'", "\u203a": "'", "\u02bc": "'",
                              "\u00b4": "'",  # an acute accent for an apostrophe: don´t
                              "\u2010": "-", "\u2011": "-", "\u2212": "-",  # hyphens, minus
                              "\u200b": " "})  # a zero-width space: a word break
# Soft hyphen, zero-width non-joiner and joiner, word joiner, byte-order mark, the marks and
# embeddings that set the direction of text (left-to-right mark, as text copied from a
# right-to-left page or a word processor has), invisible operators, variation selectors: not
# part of a word's form (*bank\u00adruptcy* is *bankruptcy*, *bank\u200e* is *bank*).
_INVISIBLE = re.compile("[\u00ad\u034f\u180e\u200c-\u200f\u202a-\u202e\u2060-\u2064"
                        "\u2066-\u2069\ufe00-\ufe0f\ufeff]")


# Dashes and the ellipsis character: tokens of their own (NLTK's rules leave *deposits—up*
# and *cream…* one token), given to the tagger as the Penn Treebank writes them.
_DASHES = "\u2013\u2014\u2015\u2026"
_PENN_FORMS = {"\u2013": "--", "\u2014": "--", "\u2015": "--", "\u2026": "..."}
# Emoji's skin-tone modifiers (Unicode's category Sk, unlike the emoji themselves, So).
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)


def _apart(text: str) -> str:
    """``text`` with each dash, ellipsis character and symbol (Unicode's category So: emoji,
    ™, ©, °) set apart by spaces, so that a symbol written against a word (*bass🐟*,
    *bank™*) leaves the word a token of its own; ASCII text as it is."""
    if text.isascii():
        return text
    found = [char for char in set(text) if char in _DASHES or not char.isascii() and (
        unicodedata.category(char) == "So" or ord(char) in _EMOJI_MODIFIERS)]
    if not found:
        return text
    return re.sub(f"[{re.escape(''.join(found))}]", r" \g<0> ", text)


def visible(token: str) -> str:
    """``token`` without the invisible characters ``tokens_with_spans`` leaves out of forms."""
    return token if token.isascii() else _INVISIBLE.sub("", token)


def ascii_quotes(text: str) -> str:
    """``text`` with typographic quotes, apostrophes and hyphens as ASCII ones, and zero-width
    spaces and control characters as spaces (the same length)."""
    return text.translate(_TYPOGRAPHIC)


_POSSESSIVE = re.compile(r"(?:'s|(?<=s)')\s*$", re.IGNORECASE)


def without_possessive(word: str) -> str:
    """``word`` without a possessive's ending, which the tokenizer splits off: *bank's* and
    *banks'* are *bank* and *banks* (ASCII apostrophes: see ``ascii_quotes``)."""
    return _POSSESSIVE.sub("", word)


def controls_as_spaces(text: str) -> str:
    """``text`` with its control characters that are not whitespace as spaces."""
    return text.translate(_CONTROLS)


def tokens_with_spans(text: str) -> list[tuple[str, int, int]]:
    """The Treebank tokens of ``text`` with their ``(start, end)`` character offsets. A token
    is given in Treebank form, as NLTK's tagger was trained on it: a double quote is `` or ''
    as it opens or closes; typographic quotes and apostrophes count as ASCII ones; invisible
    characters (soft hyphen, zero-width joiners) are left out of forms, not out of spans; a
    dash or an ellipsis character is a token, given as ``--`` or ``...``."""
    plain = ascii_quotes(text)
    kept = None
    if _INVISIBLE.search(plain):
        kept = [i for i, char in enumerate(plain) if not _INVISIBLE.match(char)]
        plain = visible(plain)
    forms = tokenize(_apart(plain))
    surfaces = forms
    if '"' in plain or "''" in plain:
        quotes = iter(match.group() for match in _QUOTES.finditer(plain))
        surfaces = [next(quotes) if form in ('"', "``", "''") else form for form in forms]
    found = []
    point = 0
    for form, surface in zip(forms, surfaces, strict=True):
        start = plain.index(surface, point)
        point = start + len(surface)
        form = _PENN_FORMS.get(form, form)
        found.append((form, start, point) if kept is None
                     else (form, kept[start], kept[point - 1] + 1))  # fmt: skip
    return found


def span_tokenize(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character offsets of the Treebank tokens of ``text``."""
    return [(start, end) for _, start, end in tokens_with_spans(text)]
