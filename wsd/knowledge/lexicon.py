"""WordNet as the raw-text pipeline needs it: base forms (morphy) and multi-word lemmas."""

from __future__ import annotations

import contextlib
import functools
import re
import unicodedata
from collections.abc import Iterator, Mapping

from wsd.knowledge.inventory import wordnet_reader

# Penn tag prefix -> WordNet POS letter, for the parts of speech WordNet covers.
PENN_LETTER = {"N": "n", "V": "v", "J": "a", "R": "r"}
LETTER_POS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}
POS_LETTER = {pos: letter for letter, pos in LETTER_POS.items()}
LONGEST_EXPRESSION = 5  # tokens; WordNet's longer lemmas are rare names


def wordnet():
    """The WordNet reader: the compiled lexicon when there is one (``wsd.knowledge.compiled``),
    else NLTK's, loaded (MissingResourceError with the downloader hint if absent)."""
    return wordnet_reader()


def penn_letter(tag: str) -> str | None:
    """The WordNet letter of a Penn tag (NN -> n, VBD -> v, JJ -> a, RB -> r), else None."""
    return PENN_LETTER.get(tag[:1]) if tag and tag != "MD" else None


def folded(word: str) -> str:
    """``word`` as WordNet spells it: WordNet 3.0's lemmas are all ASCII, so accents and
    compatibility forms are folded away (*café* -> cafe, *résumé* -> resume, the ligature in
    *ﬁsh* -> fish, full-width *ｂａｎｋ* -> bank); an ASCII word is returned as it is. Symbols
    stay as they are: *™* is not the word *TM* (thulium), nor *㎏* kg."""
    if word.isascii():
        return word
    decomposed = "".join(char if unicodedata.category(char)[0] == "S"
                         else unicodedata.normalize("NFKD", char) for char in word)
    return unicodedata.normalize(
        "NFC", "".join(char for char in decomposed if not unicodedata.combining(char)))


# Penn tags of inflected forms: their base form may not be the word itself. (Comparatives and
# superlatives are not: SemCor lemmatizes *best*, *smaller* as themselves where WordNet has them.)
INFLECTED = frozenset({"NNS", "NNPS", "VBD", "VBG", "VBN", "VBZ"})


@functools.lru_cache(maxsize=65536)
def base_form(word: str, letter: str, inflected: bool = False) -> str | None:
    """WordNet's base form of ``word`` (lowercased) as a ``letter`` word, None if unknown.

    Like ``morphy``, but a form that WordNet knows only as a proper name yields to another
    base form (*banks* -> bank, not the botanist Banks), and for an ``inflected`` word (its
    tag says so) the form SemCor tagged most often comes first, a form other than the word
    itself on a tie (*found* as VBD -> find, *lots* -> lot, but *data* -> data). A
    hyphenated word WordNet does not list is looked up as the expression or the closed compound
    it lists instead (*high-school* -> high_school, *river-bank* -> riverbank)."""
    word = word.lower()
    forms = wordnet()._morphy(word, letter)
    if not forms and "-" in word.strip("-"):  # WordNet's spelling: high_school, riverbank
        for variant in (word.replace("-", "_"), word.replace("-", "")):
            forms = wordnet()._morphy(variant, letter)
            if forms:
                break
    forms = [form for form in forms if not only_proper(form, letter)] or forms
    if inflected and len(forms) > 1:
        forms = sorted(forms, key=lambda form: (-tagged_count(form, letter), form == word))
    elif len(forms) > 1 and not tagged_count(forms[0], letter):  # *legs* tagged NN: leg
        forms = sorted(forms, key=lambda form: not tagged_count(form, letter))
    return forms[0] if forms else None


def spelled_lemmas(form: str, letter: str) -> list[tuple[str, int]]:
    """``(name, SemCor count)`` of each WordNet lemma spelled ``form`` (any case) in the synsets
    of ``form`` as a ``letter`` word, in WordNet's order (the compiled lexicon reads them from
    its rows)."""
    reader = wordnet()
    if hasattr(reader, "spelled_lemmas"):
        return reader.spelled_lemmas(form, letter)
    lower = form.lower()
    return [(lemma.name(), lemma.count()) for synset in reader.synsets(form, letter)
            for lemma in synset.lemmas() if lemma.name().lower() == lower]  # fmt: skip


@functools.lru_cache(maxsize=65536)
def only_proper(form: str, letter: str) -> bool:
    """Whether every WordNet lemma spelled ``form`` (lowercase; any case in WordNet) is
    capitalised."""
    names = [name for name, _ in spelled_lemmas(form, letter) if name.lower() == form]
    return bool(names) and all(name[:1].isupper() for name in names)


@functools.cache
def expressions(letter: str) -> frozenset[str]:
    """WordNet's multi-word lemmas of one part of speech, lowercase, words joined by '_'."""
    return frozenset(
        name.lower() for name in wordnet().all_lemma_names(letter) if "_" in name
    )


# SemCor taggings held back from WordNet's counts while ``withheld_counts`` runs:
# (lowercase lemma, letter) -> times.
_WITHHELD: dict[tuple[str, str], int] = {}


def tagged_count(lemma: str, letter: str, exact: bool = False) -> int:
    """How often SemCor tagged ``lemma`` in any sense of part of speech ``letter``
    (WordNet's ``Lemma.count()`` summed), less the taggings ``withheld_counts`` holds back;
    ``exact``: only lemmas spelled with its case."""
    count = _semcor_count(lemma, letter, exact)
    if _WITHHELD:
        count = max(0, count - _WITHHELD.get((lemma.lower(), letter), 0))
    return count


@functools.lru_cache(maxsize=65536)
def _semcor_count(lemma: str, letter: str, exact: bool) -> int:
    return sum(count for name, count in spelled_lemmas(lemma, letter)
               if not exact or name == lemma)  # fmt: skip


@contextlib.contextmanager
def withheld_counts(taggings: Mapping[tuple[str, str], int]) -> Iterator[None]:
    """``tagged_count`` less ``taggings`` ((lowercase lemma, letter) -> times) while the block
    runs, besides what an enclosing block holds back: SemCor documents read as new text is
    read, whose units are in no count (WordNet's counts are SemCor's own, those documents
    included). ``base_form``, which the counts decide, forgets what it kept on entry and on
    exit; callers' caches are theirs to clear."""
    enclosing = dict(_WITHHELD)
    for key, n in taggings.items():
        if n > 0:
            _WITHHELD[key] = _WITHHELD.get(key, 0) + n
    base_form.cache_clear()
    try:
        yield
    finally:
        _WITHHELD.clear()
        _WITHHELD.update(enclosing)
        base_form.cache_clear()


# British spellings and their American forms (colour, centre, organise, analyse, defence,
# catalogue, programme, anaemia).
_BRITISH = tuple((re.compile(pattern), american) for pattern, american in (
    (r"our", "or"), (r"tre$", "ter"), (r"is(e|ation|ational)$", r"iz\1"), (r"yse$", "yze"),
    (r"ence$", "ense"), (r"ogue$", "og"), (r"amme$", "am"), (r"ae", "e"), (r"oe", "e")))


@functools.lru_cache(maxsize=65536)
def american(lemma: str, letter: str) -> str:
    """The American spelling of a British ``lemma`` when WordNet lists both in one synset and
    SemCor tagged the American one more often (*colour* -> color, *organise* -> organize,
    *centre* -> center; not *theatre*, tagged 11 times to *theater*'s 10); else ``lemma``.
    WordNet orders a lemma's senses by its SemCor counts, so a British spelling, counted
    rarely, had its senses in an arbitrary order (*colour*'s first sense is colouring
    material) and no classifier of its own."""
    own = tagged_count(lemma, letter)
    names = None
    for pattern, replacement in _BRITISH:
        variant = pattern.sub(replacement, lemma, count=1)
        if variant == lemma or tagged_count(variant, letter) <= own:
            continue
        if names is None:
            names = {synset.name() for synset in wordnet().synsets(lemma, letter)}
        if names & {synset.name() for synset in wordnet().synsets(variant, letter)}:
            return variant
    return lemma
