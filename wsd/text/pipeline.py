"""``analyze``: split, tokenize (with character offsets), tag, and read the units a sense is
chosen for with a reader (``wsd.text.reader``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from wsd.knowledge.lexicon import base_form, folded
from wsd.knowledge.normalise import BUILTIN_STOPWORDS
from wsd.text.reader import PLAIN, Unit
from wsd.text.tagger import sentences_penn_tags
from wsd.text.treebank import ascii_quotes, tokens_with_spans, visible, without_possessive
from wsd.text.web import PlainView, plain_view

OBJECT_PRONOUNS = frozenset("me you him her us them it".split())


@dataclass(frozen=True)
class Word:
    """One unit of a sentence: a token, or a multi-word expression of several tokens.

    ``text`` is the surface text (the input from ``start`` to ``end``, character offsets into
    the whole input); ``tag`` the Penn tag (a multi-word expression's head's); ``lemma`` the
    reader's lemma (words of an expression joined by '_'), or the lowercased text of a word
    that is no content word; ``pos`` NOUN, VERB, ADJ or ADV for a content word, else None;
    ``form`` the text as the features read it (a word broken across a line, joined);
    ``name``: a proper name read as the training corpus tags names, its lemma its kind
    (*Durwood Pye*: person).
    """

    text: str
    start: int
    end: int
    tag: str
    lemma: str
    pos: str | None
    form: str
    name: bool = False

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


def _known_word(word: str) -> bool:
    """Whether WordNet (any part of speech, any inflection) or the stopword list knows it."""
    word = word.lower()
    return word in BUILTIN_STOPWORDS or any(base_form(word, letter) for letter in "nvar")


# Lowercase abbreviations that go on with the sentence after their period (*etc. and*).
LOWERCASE_ABBREVIATIONS = frozenset(
    "etc vs cf al approx esp incl viz ca fig figs vol pp ed eds resp misc dept est no nos op "
    "cit ibid jr sr st".split())


def _period_split(found: list[tuple[str, int, int]], text: str) -> list[tuple[str, int, int]]:
    """``found`` with a lowercase word's period split off inside a sentence. The Treebank
    tokenizer splits only a sentence's final period, and a sentence is split only before a
    capital, so in lowercase writing (*the centre. we went*) the word kept its period and had
    no sense. Abbreviations keep theirs: capitalised ones (*Corp. said*), ones with a period
    inside (*e.g.*, *U.S.*) and ``LOWERCASE_ABBREVIATIONS``."""
    split = []
    for k, (form, start, end) in enumerate(found):
        body = form[:-1]
        if (k + 1 < len(found) and form.endswith(".") and len(body) >= 2 and body.isalpha()
                and body.islower() and body not in LOWERCASE_ABBREVIATIONS
                and text[end - 1] == "."):  # fmt: skip
            split += [(body, start, end - 1), (".", end - 1, end)]
        else:
            split.append((form, start, end))
    return split


_BROKEN_WORD = re.compile(r"[A-Za-z]+-")  # a word's first part before a line-end hyphen
_WORD_REST = re.compile(r"[a-z]+")


def _line_end_hyphens_joined(found: list[tuple[str, int, int]], text: str
                             ) -> tuple[list[tuple[str, int, int]], set[int]]:  # fmt: skip
    """``found`` with each word broken across a line by a hyphen (text copied from a PDF or
    a printed page: *finan-* / *cial*) read as one token, and the indices of those tokens:
    without the hyphen where WordNet or the stopword list knows that word (*financial*),
    else with it where WordNet knows that (*well-known*); both parts are left as they are
    otherwise. They had been two tokens with no sense, and *inter-* / *est rates* lost the
    expression *interest rate*."""
    joined: list[tuple[str, int, int]] = []
    merged: set[int] = set()
    k = 0
    while k < len(found):
        form, start, end = found[k]
        if k + 1 < len(found) and _BROKEN_WORD.fullmatch(form):
            rest, rest_start, rest_end = found[k + 1]
            between = text[end:rest_start]
            if "\n" in between and not between.strip() and _WORD_REST.fullmatch(rest):
                word = next((word for word in (form[:-1] + rest, form + rest)
                             if _known_word(word)), None)  # fmt: skip
                if word is not None:
                    merged.add(len(joined))
                    joined.append((word, start, rest_end))
                    k += 2
                    continue
        joined.append((form, start, end))
        k += 1
    return joined, merged


# Contractions written without their apostrophe (chat, texting): the word and its clitic as the
# Treebank tokenizer splits the written form (*dont*: do + n't, *im*: I + 'm). Left out: those
# that are also common words (*ill*, *wed*, *well*, *its*, *lets*, *hes*, *shell*, *were*).
APOSTROPHELESS = {
    **{f"{verb}nt": (verb, "n't") for verb in ("do", "does", "did", "is", "are", "was", "were",
                                               "has", "have", "had", "could", "should", "would",
                                               "must")},
    "im": ("i", "'m"), "ive": ("i", "'ve"), "youre": ("you", "'re"), "theyre": ("they", "'re"),
    "youve": ("you", "'ve"), "weve": ("we", "'ve"), "theyve": ("they", "'ve"),
    "youll": ("you", "'ll"), "theyll": ("they", "'ll"), "thats": ("that", "'s"),
    "whats": ("what", "'s"), "wouldve": ("would", "'ve"), "couldve": ("could", "'ve"),
    "shouldve": ("should", "'ve"),
}  # fmt: skip
# Also words (*cant*: jargon, *wont*: habit): contractions only after a pronoun or before a
# verb or one of these adverbs (*i cant go*, *it wont even start*; not *the cant of*).
MAYBE_APOSTROPHELESS = {"cant": ("ca", "n't"), "wont": ("wo", "n't")}
_SUBJECTS = frozenset("i you he she it we they u".split())
_NEGATED_ADVERBS = frozenset("even really just ever always never actually still".split())


def _apostrophes_restored(found: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """``found`` with each contraction written without its apostrophe (``APOSTROPHELESS``)
    split as the tagger knows it: *dont worry* had tagged *worry* a noun, *im tired* *tired*
    a past tense, *cant* been jargon and *wont* a habit. Offsets stay in the text (*do*, *nt*)."""
    restored = []
    for k, (form, start, end) in enumerate(found):
        word = form.lower()
        parts = APOSTROPHELESS.get(word)
        if parts is None and word in MAYBE_APOSTROPHELESS and _negated_verb(found, k):
            parts = MAYBE_APOSTROPHELESS[word]
        if parts is None or end - start != len(form):
            restored.append((form, start, end))
            continue
        cut = start + len(parts[0])
        restored += [(form[: len(parts[0])], start, cut), (parts[1], cut, end)]
    return restored


def _negated_verb(found: list[tuple[str, int, int]], k: int) -> bool:
    """Whether *cant* or *wont* at ``k`` stands between a subject and a verb."""
    before = found[k - 1][0].lower() if k else ""
    after = found[k + 1][0] if k + 1 < len(found) else ""
    return before in _SUBJECTS or after.lower() in _NEGATED_ADVERBS or (
        after.isalpha() and after.islower() and base_form(after, "v") == after)


@dataclass(frozen=True)
class _Tokens:
    """A sentence's tokens as the tagger reads them, their spans in the sentence, and the
    tokens that join a word broken across a line."""

    tokens: list[str]
    spans: list[tuple[int, int]]
    merged: set[int]


def _tokens(text: str, view: PlainView, offset: int) -> _Tokens:
    """The tokens of the sentence ``text`` (at ``offset`` in the input), tokenized as
    ``view`` (the input's ``plain_view``) reads it."""
    seen = view.text[offset : offset + len(text)]
    found, merged = _line_end_hyphens_joined(_apostrophes_restored(
        _period_split(tokens_with_spans(view.tokenized[offset : offset + len(text)]), seen)),
        seen)
    # the tagger's forms: `` for an opening quote, an address itself
    tokens = [seen[start:end] if (offset + start, offset + end) in view.addresses else form
              for form, start, end in found]  # fmt: skip
    return _Tokens(tokens, [(start, end) for _, start, end in found], merged)


def _words(text: str, offset: int, read: _Tokens, tags: Sequence[str], units: Sequence[Unit]
           ) -> tuple[Word, ...]:  # fmt: skip
    """The words of the sentence ``text`` (at ``offset`` in the input; its tokens' Penn
    ``tags``): one per unit."""
    words = []
    for unit in units:
        first, last = unit.start, unit.end
        start, end = read.spans[first][0], read.spans[last - 1][1]
        head = last - 1 if unit.pos == "NOUN" else first
        if read.merged.isdisjoint(range(first, last)):
            form = visible(text[start:end])
        else:  # a word broken across a line: as joined
            form = " ".join(read.tokens[first:last])
        words.append(Word(text[start:end], offset + start, offset + end, tags[head],
                          unit.lemma, unit.pos, form, unit.name))  # fmt: skip
    return tuple(words)


def analyze(text: str, reader=PLAIN) -> list[Sentence]:
    """The sentences of ``text`` (split by ``document_sentence_spans``: a blank line ends a
    paragraph, a line break a sentence unless the text goes on across it; blank ones are left
    out) with their words as ``reader`` reads them (default: ``wsd.text.reader.PLAIN``; a
    model brings its own, ``AllWordsWSD.reader``); offsets are into ``text``.
    Text copied from the web is read as a person sees it (``wsd.text.web``: markup tags are
    blanks, *&amp;* is *&*, an address is one word with no sense)."""
    view = plain_view(text)
    spans = view.sentence_spans()
    read = [_tokens(text[start:end], view, start) for start, end in spans]
    tags = sentences_penn_tags([r.tokens for r in read])
    units = reader.units([(r.tokens, t) for r, t in zip(read, tags, strict=True)])
    return [Sentence(text[start:end], start, end, _words(text[start:end], start, *found))
            for (start, end), *found in zip(spans, read, tags, units, strict=True)]  # fmt: skip


def target_lemmas(target: str) -> frozenset[str]:
    """The lemmas a ``--target`` word can stand for: itself (lowercased, spaces as '_') and
    its WordNet base form in each part of speech (*runs* -> run); an expression of several
    words also with its first word's base form (*looked up* -> look_up) or its last one's
    (*ice creams* -> ice_cream), as expressions inflect; accents folded (*café* -> cafe); a
    possessive's ending left out (*bank's*, *banks'*), as the tokenizer splits it off."""
    words = without_possessive(folded(ascii_quotes(target)).lower()).split()
    word = "_".join(words)
    found = {word}
    for letter in "nvar":
        base = base_form(word, letter)
        if base:
            found.add(base)
        if len(words) > 1:
            first, last = base_form(words[0], letter), base_form(words[-1], letter)
            if first:
                found.add("_".join([first, *words[1:]]))
            if last:
                found.add("_".join([*words[:-1], last]))
    return frozenset(found)


def is_target(word: Word, lemmas: frozenset[str]) -> bool:
    """Whether ``word`` is an occurrence of the target whose ``target_lemmas`` are given: its
    lemma or its text is one of them or holds one as whole words (the target *rates* in
    *interest rates*, tagged as the expression interest_rate; *New York* in *New York City*);
    a name's text only (*Pye*, not *person*)."""
    text = f"_{'_'.join(word.text.lower().split())}_"
    forms = (text,) if word.name else (f"_{word.lemma}_", text)
    return any(f"_{lemma}_" in form for lemma in lemmas for form in forms)


def spelled_apart(sentences: Sequence[Sentence], target: str) -> bool:
    """Whether the words of a target of several words (any inflection) stand one after
    another in a sentence as single words: *looked up* where the model's corpus tags *look*
    and *up* apart, so that they were not joined into one expression; a verb and its particle
    also with an object pronoun between them (*looked it up*)."""
    parts = [target_lemmas(word) for word in target.split()]
    if len(parts) < 2:
        return False

    def spells(word: Word, part: frozenset[str]) -> bool:
        return word.lemma in part or word.text.lower() in part

    for sentence in sentences:
        words = sentence.words
        for i in range(len(words) - len(parts) + 1):
            if all(spells(words[i + j], part) for j, part in enumerate(parts)):
                return True
            if len(parts) == 2 and i + 2 < len(words) and spells(words[i], parts[0]) \
                    and words[i + 1].text.lower() in OBJECT_PRONOUNS \
                    and spells(words[i + 2], parts[1]):  # fmt: skip
                return True
    return False
