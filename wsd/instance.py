"""The unit of WSD data: one target word (or multiword span) in its sentence."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from wsd.text.sentences import sentence_spans
from wsd.text.treebank import span_tokenize, visible  # NLTK's rules, no NLTK

# A marked target: he caught a huge <<bass>>. The markers hold their word(s) tightly (no
# space just inside them) and what is marked holds no < or > nor a line break: so shift
# operators and guillemets typed as << >> are text (*cout << x << endl; the bank >> river*),
# and each search stops at the next bracket, so text full of << is read in linear time.
MARKER = re.compile(r"<<([^<>\s](?:[^<>\n]*?[^<>\s])?)>>")
QUOTED_CHARACTERS = 80  # of a sentence quoted in a message (a line may be megabytes long)


def unmark(text: str) -> tuple[str, list[int]]:
    """``text`` without its ``<<word>>`` markers, and where each marked word starts in it."""
    starts, parts, end, length = [], [], 0, 0
    for match in MARKER.finditer(text):
        parts.append(text[end : match.start()])
        length += match.start() - end
        starts.append(length)
        parts.append(match.group(1))
        length += len(match.group(1))
        end = match.end()
    return "".join(parts) + text[end:], starts


def quoted(text: str, limit: int = QUOTED_CHARACTERS) -> str:
    """``text`` as a message quotes it: ``repr``, cut to its first ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


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


def _check_arguments(text: Any, target: Any, offset: Any, occurrence: Any, lemma: Any,
                     id: Any) -> None:
    """One TypeError (or ValueError) naming the argument given a value of another kind: each
    had failed deep inside (a regular expression on bytes, ``'int' has no attribute 'lower'``),
    or silently (``senses="bank%1:17:01::"`` read as its characters, ``occurrence=-1`` as the
    last)."""
    if not isinstance(text, str):
        hint = " (decode it first: text.decode('utf-8'))" if isinstance(text, bytes) else ""
        raise TypeError(f"text must be a str, not {type(text).__name__}{hint}")
    for name, value in (("target", target), ("lemma", lemma), ("id", id)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    for name, value in (("offset", offset), ("occurrence", occurrence)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if occurrence is not None and occurrence < 0:
        raise ValueError(f"occurrence counts from 0; {occurrence} is not one")


def _sense_ids(senses: Any) -> tuple[str, ...]:
    """``senses`` as a tuple of str; TypeError for one str (read as its characters) or a
    sequence holding something else."""
    found = () if isinstance(senses, (str, bytes)) or not isinstance(senses, Iterable) \
        else tuple(senses)
    if not found and senses or not all(isinstance(sense, str) for sense in found):
        raise TypeError(f"senses must be a sequence of sense ids (str), such as "
                        f"('bank%1:17:01::',), not {senses!r:.60}")
    return found


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
    senses = _sense_ids(senses)
    _check_arguments(text, target, offset, occurrence, lemma, id)
    marked = MARKER.search(text)
    if marked:
        if MARKER.search(text, marked.end()):  # quoted as given, both markers in it
            raise ValueError(f"more than one <<target>> marker in {quoted(text)}")
        char_start, char_end = marked.start(), marked.end() - 4
        text = text[: marked.start()] + marked.group(1) + text[marked.end() :]
        char_ranges = [(char_start, char_end)]
    elif offset is not None:
        if not 0 <= offset < len(text) or text[offset].isspace():
            raise ValueError(f"offset {offset} does not point at a word in {quoted(text)}")
        # the token there (*crane* of *crane,* or *crane's*), not all up to the next space
        char_ranges = [next(((start, end) for start, end in token_spans(text)
                             if start <= offset < end), (offset, offset + 1))]
    elif target:
        char_ranges = word_occurrences(text, target)
        if not char_ranges:
            raise ValueError(f"target {target!r} does not occur in {quoted(text)}")
        if occurrence is not None:
            if occurrence >= len(char_ranges):
                raise ValueError(
                    f"target {target!r} occurs {len(char_ranges)} time(s) in {quoted(text)}, "
                    f"so occurrence {occurrence} does not exist"
                )
            char_ranges = [char_ranges[occurrence]]
        elif not every:
            char_ranges = char_ranges[:1]
    else:
        raise ValueError(
            f"no target in {quoted(text)}: mark it as <<word>>, or give target= or offset="
        )

    spans = token_spans(text)
    tokens = tuple(visible(text[s:e]) for s, e in spans)
    result = []
    for n, (char_start, char_end) in enumerate(char_ranges):
        covered = [i for i, (s, e) in enumerate(spans) if s < char_end and e > char_start]
        if not covered:
            raise ValueError(f"target at characters {char_start}-{char_end} of {quoted(text)} "
                             "is empty")
        span = (covered[0], covered[-1] + 1)
        written = " ".join(tokens[span[0] : span[1]])
        result.append(
            Instance(
                id=id if len(char_ranges) == 1 else f"{id}.{n}",
                tokens=tokens,
                span=span,
                lemma=(lemma or written).lower(),
                senses=senses,
                target_pos=target_pos,
            )
        )
    return result
