"""``analyze``: split, tokenize (with character offsets), tag, lemmatize, join multi-word
expressions."""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from wsd.features.bow import BUILTIN_STOPWORDS
from wsd.text.conventions import (
    NOUN_PHRASE_TAGS,
    OBJECT_PRONOUNS,
    QUANTIFIER,
    WORDNET,
    CorpusConventions,
    reading_letter,
    separated_particle,
)
from wsd.text.lexicon import (
    INFLECTED,
    LETTER_POS,
    LONGEST_EXPRESSION,
    POS_LETTER,
    base_form,
    folded,
    only_proper,
    penn_letter,
    tagged_count,
    wordnet,
)
from wsd.text.names import END, START
from wsd.text.tagger import penn_tags, tag_ranking
from wsd.text.web import PlainView, plain_view
from wsd.treebank import ascii_quotes, tokens_with_spans, visible, without_possessive


@dataclass(frozen=True)
class Word:
    """One unit of a sentence: a token, or a multi-word expression of several tokens.

    ``text`` is the surface text (the input from ``start`` to ``end``, character offsets into
    the whole input); ``tag`` the Penn tag (a multi-word expression's head's); ``lemma`` the
    WordNet base form (words of an expression joined by '_'), or the lowercased text when
    WordNet does not know the word; ``pos`` NOUN, VERB, ADJ or ADV for a content word WordNet
    has senses for, else None; ``form`` the text as the tagger and the features read it: the
    text, but in lowercase where ``as_written`` lowered a headline's capitals; ``name``: a proper
    name joined as the training corpus tags names, its lemma its kind (*Durwood Pye*: person).
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


def _lemma(token: str, tag: str, first: bool, before_noun: bool,
           others: Callable[[], str] = lambda: "nvar") -> tuple[str, str | None]:  # fmt: skip
    """``(lemma, coarse POS or None)`` of one token: a content word when the tag is a WordNet
    part of speech and WordNet knows the word. A single proper noun counts only when WordNet
    has it as a name SemCor tagged (*England*, *Monday*, *US*: its lemma is the name itself,
    not a base form of another word such as *u*; not *John*), or as a sentence's
    capitalised first word that WordNet has in lowercase only (*Fishing*; not *John*, whose
    common noun is a toilet). Cardinals (*two*, *1*) and determiners (*all*, *some*) are
    adjectives, and a single letter a content word, only where SemCor tagged them as such
    (*u* and *r* in chat are not an adjective and roentgen), and so are a proper noun or a
    participle before a noun (*Catholic church*, *the needed funds*, *a dying man*). A word
    WordNet does not know in the tagged part of speech (or knows there only as a name SemCor
    never tagged: *sat*/NN is Saturday) takes the first it knows of ``others()`` (WordNet
    letters, the tagger's next choices first: *lack*/JJ in *people not only lack safety* is the
    verb, *wish*/JJ in *no wish to see* the noun). A word written in lowercase is not a name,
    symbol or acronym WordNet capitalises and SemCor never tagged (chat's *rn*, *ur*, *bc* are
    not radon, the city Ur, before Christ). A contraction's verb (*'s*, *'re*, *'m*, *'ve*,
    *'d* tagged as a verb) is the verb it stands for, as SemCor tags it."""
    if tag.startswith("VB") and token.lower() in CLITIC_VERBS:
        return CLITIC_VERBS[token.lower()], "VERB"
    if before_noun and tag in ("NNP", "VBN", "VBG"):
        adjective = _tagged_base(token, "a")
        if adjective:
            return adjective, LETTER_POS["a"]
    letter = reading_letter(tag)
    if tag.startswith("NNP") and _known_name(token):  # the name itself: *US*, not *u*
        return token.lower(), LETTER_POS["n"]
    if letter is None or (tag.startswith("NNP") and not (first and not _wordnet_name(token))):
        return token.lower(), None
    if tag in QUANTIFIER or len(token) == 1:  # *two*, *all*; a letter only as SemCor has it
        base = _tagged_base(token, letter)
        return (base, LETTER_POS[letter]) if base else (token.lower(), None)

    def candidates() -> Iterator[str]:  # others() only when the tagged letter fails: it tags
        yield letter
        yield from (other for other in others() if other != letter)

    for candidate in candidates():
        base = base_form(token, candidate, tag in INFLECTED)
        if base is not None and not (token.islower() and not tagged_count(base, candidate)
                                     and only_proper(base, candidate)):  # fmt: skip
            return base, LETTER_POS[candidate]  # not *rn* (right now) as radon, Rn
    return token.lower(), None


def _letters_by_score(tokens: Sequence[str], tags: Sequence[str], i: int) -> str:
    """The WordNet letters of token ``i``'s tags in the order the tagger scored them."""
    letters = (penn_letter(tag) for tag in tag_ranking(tokens, tags, i))
    return "".join(dict.fromkeys(letter for letter in letters if letter))


def _tagged_base(token: str, letter: str) -> str | None:
    """The base form of ``token`` as a ``letter`` word if SemCor tagged it so, else None."""
    base = base_form(token, letter)
    return base if base and tagged_count(base, letter) else None


# The verbs that contractions stand for: SemCor tags *'s*, *'re* and *'m* as be.
CLITIC_VERBS = {"'s": "be", "'re": "be", "'m": "be", "'ve": "have", "'d": "have"}
# Participles after which *'s* is *has*, never *is* (*she's been*, *he's got*, *it's had*).
HAS_PARTICIPLES = frozenset({"been", "got", "gotten", "had"})
AUXILIARIES = frozenset({"have", "do"})  # lemmas: not content words before a verb

# Words the Treebank tokenizer splits in two (*gonna* -> gon + na, *ain't* -> ai + n't), as
# the verbs they are.
RUN_TOGETHER = {("gon", "na"): "go", ("wan", "na"): "want", ("got", "ta"): "get",
                ("gim", "me"): "give", ("lem", "me"): "let", ("ai", "n't"): "be"}  # fmt: skip
# Modals the tokenizer cuts from *n't* (*can't* -> ca + n't): the word they are, as a lemma only.
NEGATED_MODALS = {("ca", "n't"): "can", ("wo", "n't"): "will", ("sha", "n't"): "shall"}

HAVE_FORMS = frozenset({"have", "has", "had", "having", "'ve", "'d", "'s"})


def _wordnet_name(token: str) -> bool:
    """Whether WordNet has a noun spelled exactly ``token``, capitalised (*John*, *Paris*)."""
    return token[:1].isupper() and any(
        lemma.name() == token for synset in wordnet().synsets(token, "n")
        for lemma in synset.lemmas())  # fmt: skip


def _known_name(token: str) -> bool:
    """Whether WordNet has ``token`` as a capitalised noun SemCor tagged (*England*)."""
    return token[:1].isupper() and tagged_count(token, "n", exact=True) > 0


def _expression(tokens: Sequence[str], tags: Sequence[str], lemmas: Sequence[str],
                i: int, conventions: CorpusConventions) -> tuple[int, str, str] | None:  # fmt: skip
    """The longest WordNet multi-word expression starting at token ``i`` that
    ``conventions.joins`` accepts: ``(tokens it covers, lemma, POS)``, or None. A noun's last
    token must be tagged a noun (*ice cream*, *New York*), a verb's first token a verb
    (*looked up*, *took place*);
    adverbs and adjectives (*of course*, *at least*, *a few*) need no tag but must not be
    followed by *of*."""
    starts = conventions.first_words
    if tokens[i].lower() not in starts and lemmas[i] not in starts:
        return None
    for length in range(min(LONGEST_EXPRESSION, len(tokens) - i), 1, -1):
        span = range(i, i + length)
        if any(tokens[j][0] in string.punctuation for j in span):
            continue
        words = [tokens[j].lower() for j in span]
        if tags[i + length - 1].startswith("NN"):
            candidates = ("_".join(words), "_".join([*words[:-1], lemmas[i + length - 1]]))
            found = next((c for c in candidates if conventions.joins(c, "n")), None)
            if found:
                return length, found, "NOUN"
        if tags[i].startswith("VB"):
            candidates = ("_".join([lemmas[i], *words[1:]]), "_".join(words))
            found = next((c for c in candidates if conventions.joins(c, "v")), None)
            if found:
                return length, found, "VERB"
        if i + length < len(tokens) and tokens[i + length].lower() == "of":
            continue  # *a bit of*, *a lot of*: its last word is a noun
        for letter in "ra":
            if conventions.joins("_".join(words), letter):
                return length, "_".join(words), LETTER_POS[letter]
    return None


def as_written(tokens: Sequence[str]) -> list[str]:
    """``tokens`` as the sentence is usually written, where it is a headline: the tagger,
    trained on running text, reads capitalised words as proper nouns, which have no senses.

    - All capitals (*THE BANK RAISED RATES*, at least two words): lowercase, the first word
      capitalised.
    - Title case (every word of four letters or more capitalised, at least three of them:
      *How To Open A Bank Account*): a capitalised word after the first is lowercased when it
      is a function word (*To*, *A*) or WordNet knows it as a common word and not as a name
      (*Paris*, *John*, *Smith* stay).

    And in any sentence the pronoun written *i* (in lowercase writing, or lowered above) is
    *I*: the tagger read it as a noun, iodine; and a word in capitals for emphasis in a
    sentence that has lowercase words (*flooded AGAIN*, *Do NOT open*) is read in lowercase
    when it is a function word or WordNet knows it and has no name spelled so (*NASA*, *FBI*,
    *UK* stay; *PARIS* is Paris): the tagger had read *AGAIN* as a proper noun, no sense.
    Other sentences are returned as they are."""
    tokens = _unheadlined(tokens)
    if any(token.islower() for token in tokens):
        tokens = [_unshouted(token, i == 0) for i, token in enumerate(tokens)]
    return ["I" if token == "i" else token for token in tokens]


def _known_word(word: str) -> bool:
    """Whether WordNet (any part of speech, any inflection) or the stopword list knows it."""
    word = word.lower()
    return word in BUILTIN_STOPWORDS or any(base_form(word, letter) for letter in "nvar")


def _unshouted(token: str, first: bool) -> str:
    """``token`` in lowercase (its first letter kept for a sentence's first word) where it is
    a common word written in capitals for emphasis (see ``as_written``)."""
    if len(token) < 2 or not token.isalpha() or not token.isupper() or _wordnet_name(token):
        return token
    if _wordnet_name(token.title()):  # *WASHINGTON* is Washington
        return token.title()
    lowered = token.lower()
    if not _known_word(lowered):
        return token
    return lowered[0].upper() + lowered[1:] if first else lowered


def _unheadlined(tokens: Sequence[str]) -> list[str]:
    cased = [t for t in tokens if t.lower() != t.upper()]
    if len(cased) >= 2 and all(t == t.upper() for t in cased):
        lowered = [t.lower() for t in tokens]
        return [lowered[0][:1].upper() + lowered[0][1:], *lowered[1:]]
    long = [t for t in cased if len(t) >= 4]
    if len(long) < 3 or not all(t[:1].isupper() for t in long):
        return list(tokens)
    return [tokens[0], *(t.lower() if i and _common_title_word(t) else t
                         for i, t in enumerate(tokens) if i)]  # fmt: skip


def _common_title_word(token: str) -> bool:
    """Whether a title's capitalised ``token`` stands for a common word (see ``as_written``)."""
    if not token[:1].isupper() or token[1:] != token[1:].lower():
        return False
    if token.lower() in BUILTIN_STOPWORDS:
        return True
    return not _wordnet_name(token) and any(base_form(token, letter) for letter in "nvar")


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


# Prepositions that are not stopwords, some also WordNet verbs (*like*, *near*, *round*, *save*):
# tagged IN before a determiner, they start a phrase, not an instruction.
PREPOSITIONS = frozenset(
    "like unlike near round save except bar via per amid amidst amongst toward towards versus "
    "beside besides despite till opposite outside inside within without upon onto underneath "
    "beneath alongside worth plus minus past across along around behind beyond".split())


_OBJECTS = frozenset("me him her us them it".split())


def _instruction(tokens: Sequence[str], tags: list[str]) -> bool:
    """Whether the sentence is an instruction whose verb the tagger read as a proper noun or
    preposition (*Mix the flour*, *Stir the soup*, *Whisk the eggs*: NNP, NNP, IN), which has
    no sense: a capitalised first word WordNet knows as a verb, not a function word, before
    a determiner, a pronoun or *not* (*Do not open*; not a number: *Chapter 3 describes*).
    A word WordNet also has as a name (*Mark*, *Sue*, *Grant*) only before an object pronoun
    or a determiner and a lowercase word (*Mark the date*, *Sue them*; not *Jack the
    Ripper*)."""
    negated = len(tokens) > 1 and tokens[1].lower() in ("not", "never")  # *Do not open*
    if len(tokens) < 2 or tags[0] not in ("NN", "NNP", "IN"):
        return False
    if not (tags[1] in ("DT", "PRP$", "PRP") or negated or _bare_object(tokens, tags)):
        return False
    word = tokens[0]
    if tags[0] == "IN" and word.lower() in PREPOSITIONS:  # *Like the others*, *Near the bank*
        return False
    if not (word[:1].isupper() and (negated or word.lower() not in BUILTIN_STOPWORDS)
            and base_form(word, "v") is not None):  # fmt: skip
        return False
    if not _wordnet_name(word):
        return True
    if tags[1] == "PRP":
        return tokens[1].lower() in _OBJECTS
    return len(tokens) > 2 and tokens[2][:1].islower()


# How many times as often as a noun SemCor must have tagged an instruction's first word as a
# verb for it to be one before a bare noun (*Add salt*: 203 to 0; not *Sign language*, 40
# to 36, nor *Rain delays*, 13 to 30).
VERB_FIRST_RATIO = 2


def _bare_object(tokens: Sequence[str], tags: list[str]) -> bool:
    """Whether a sentence without a verb opens with a word the tagger read as a name before
    a lowercase noun, where that word is far more often a verb (``VERB_FIRST_RATIO``): a
    recipe's *Add salt and pepper*, *Stir sugar into the milk*, *Chop onions finely*; not the
    noun phrases *Water bottles for sale*, *Bank holidays in May*."""
    if tags[0] != "NNP" or tags[1] not in ("NN", "NNS") or not tokens[1].islower():
        return False
    if any(tag.startswith(("VB", "MD")) for tag in tags):
        return False
    base = base_form(tokens[0], "v")
    return base is not None and tagged_count(base, "v") > VERB_FIRST_RATIO * tagged_count(
        base_form(tokens[0], "n") or base, "n")


# A modal at the start of a question, before its subject, which the tagger read as a name
# (*May I help?*: the month May).
_MODALS = frozenset("may might can could shall should will would must".split())
_SUBJECT_PRONOUNS = frozenset("i you he she it we they".split())


def _modal_question(tokens: Sequence[str], tags: list[str]) -> bool:
    """Whether the sentence opens with a modal the tagger did not read as one, before a
    subject pronoun (*May I help?*, *Might we stay?*) or, but for *May* and *Will* (a month
    and a name), a determiner (*Must the children leave?*: the noun must, grape juice)."""
    if len(tokens) < 3 or tags[0] == "MD" or tokens[0].lower() not in _MODALS:
        return False
    return tokens[1].lower() in _SUBJECT_PRONOUNS or (
        tokens[0].lower() not in ("may", "will") and tags[1] in ("DT", "PRP$"))


# The forms of *be*, *have* and *do* that open a question, with their Penn tags; and the tags
# of the words of a subject noun phrase (*the bank*, *anyone*, *my old keys*).
QUESTION_VERBS = {"is": "VBZ", "are": "VBP", "am": "VBP", "was": "VBD", "were": "VBD",
                  "has": "VBZ", "have": "VBP", "had": "VBD", "does": "VBZ", "do": "VBP",
                  "did": "VBD"}  # fmt: skip
_SUBJECT_TAGS = NOUN_PHRASE_TAGS | {"POS"}


def _question_verb(tokens: Sequence[str], tags: list[str]) -> str | None:
    """The verb tag of a sentence's first word where it is a form of *be*, *have* or *do*
    opening a question that the tagger read as something else, before its subject (*Has
    anyone seen*, *Does anyone know*, *Was the bank open?*: NNP, so *ha*, *doe* and *wa*)."""
    tag = QUESTION_VERBS.get(tokens[0].lower()) if tokens else None
    if tag is None or tags[0].startswith("VB") or len(tokens) < 3:
        return None
    return tag if tags[1] in _SUBJECT_TAGS else None


_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS", "CD", "NOUN", "PROPN", "NUM"})


def _asked_verb(tokens: Sequence[str], tags: list[str]) -> int | None:
    """The token of the verb a question asks about after its *do*, *does*, *did* or modal
    and its subject (a question word may come first), where the tagger read it as something
    else and WordNet has it as a base-form verb (*Did the bank open?*: JJ, *Do people like
    it?*: IN, *Can you book a table?*: NN): its position, or None. The subject ends at its
    nouns or at a pronoun (a possessive goes on: *the cat's owner*); when nothing follows but
    an adverb, that is the verb (*Might the bank close?*), and when nothing follows a
    compound's nouns, its last (*What does this word mean?*)."""
    opener = 1 if len(tags) > 1 and tags[0].startswith("W") else 0
    if len(tokens) < opener + 3 or not (tokens[opener].lower() in ("do", "does", "did")
                                        or tags[opener] == "MD"):  # fmt: skip
        return None
    j, nouns = _after_adverbs(tags, opener + 1), []
    while j < len(tokens) and j < opener + 7 and tags[j] in _SUBJECT_TAGS:
        if tags[j] in ("PRP", "PRON"):  # a pronoun is the whole subject: *Do they water*
            nouns, j = [j], j + 1
            break
        if tags[j] == "POS":
            nouns = []  # a possessive: its noun phrase goes on (*the cat's owner*)
        elif tags[j] in _NOUN_TAGS:
            nouns.append(j)
        elif nouns:
            break  # a noun phrase ends at its nouns: *the bank open* is no noun phrase
        j += 1
    subject_end, j = j, _after_adverbs(tags, j)
    if not nouns or j < len(tokens) and tags[j].startswith(("VB", "MD")):
        return None
    if j < len(tokens) and tokens[j].isalpha():
        verb = j
    elif j > subject_end:  # nothing after an adverb: it is the verb (*Might the bank close?*)
        verb = j - 1
    elif len(nouns) > 1 and tags[nouns[-1]] == "NN":
        verb = nouns[-1]
    else:
        return None
    if verb + 1 < len(tokens) and tags[verb + 1].startswith("VB"):
        return None  # a verb follows: *When did you last compare ...?*
    word = tokens[verb]
    return verb if word.isalpha() and word.islower() and base_form(word, "v") == word else None


def _third_person_verbs(tokens: Sequence[str], tags: list[str]) -> list[int]:
    """The tokens the tagger read as plural nouns right after *he* or *she*, adverbs aside,
    that WordNet has as verbs: no noun follows those pronouns, so they are the verb in -s
    (*She banks with them*, *He books flights*, *She often studies*). Not after *it*, an
    object too (*fed it treats*)."""
    found = []
    for k, tag in enumerate(tags):
        if tag != "NNS" or not tokens[k].isalpha():
            continue
        j = _before_adverbs(tags, k - 1)
        if j >= 0 and tokens[j].lower() in ("he", "she") and base_form(tokens[k], "v"):
            found.append(k)
    return found


def _verb_read_as_noun(word: str, tag: str) -> bool:
    """Whether the tagger read as a singular noun a lowercase word that WordNet has as a
    base-form verb SemCor tagged as a verb (WordNet's counts: *order*, *share*; not *church*),
    which the rules below take for the verb where no noun can stand."""
    return (tag == "NN" and word.isalpha() and word.islower()
            and base_form(word, "v") == word and bool(tagged_count(word, "v")))  # fmt: skip


def _plain_present_verbs(tokens: Sequence[str], tags: list[str]) -> list[int]:
    """The tokens the tagger read as singular nouns right after *I*, *we* or *they*, adverbs
    aside, that are verbs (``_verb_read_as_noun``): no noun follows those subject pronouns,
    so they are the verb in the present (*I guess so*, *we group these outcomes*: NN).
    SemCor has such words as verbs 14 times of 14."""
    return [k for k in range(1, len(tokens)) if tags[k] == "NN"
            and (j := _before_adverbs(tags, k - 1)) >= 0
            and tokens[j].lower() in ("i", "we", "they")
            and _verb_read_as_noun(tokens[k], tags[k])]  # fmt: skip


# The verbs whose object is followed by a bare infinitive (*see it change*, *let them go*,
# *made him sweat*), and the pronouns that can be that object: not *her*, a possessive too
# (*saw her face*), nor *you*, a subject too.
BARE_INFINITIVE_VERBS = frozenset(
    "see saw seen sees seeing watch watched watches watching hear heard hears hearing let "
    "lets letting make made makes making help helped helps helping feel felt feels feeling "
    "have had has having".split())
_INFINITIVE_OBJECTS = OBJECT_PRONOUNS - {"her", "you"} | frozenset(
    "anything something everything nothing anyone someone everyone everybody somebody "
    "nobody".split())


def _bare_infinitives(tokens: Sequence[str], tags: list[str]) -> list[int]:
    """The tokens the tagger read as singular nouns after a verb of seeing, letting or making
    and its object pronoun, that are WordNet base-form verbs: the object's bare infinitive
    (*no wish to see anything change*, *made him sweat*: NN), unless WordNet has it as an
    adverb too (*made it home*). SemCor has such a word as a verb 15 times of 16 (the other,
    *had nothing left*, is no base form)."""
    return [k for k in range(2, len(tokens))
            if tags[k] == "NN" and tokens[k - 1].lower() in _INFINITIVE_OBJECTS
            and tokens[k - 2].lower() in BARE_INFINITIVE_VERBS
            and tokens[k].isalpha() and tokens[k].islower()
            and base_form(tokens[k], "v") == tokens[k]
            and base_form(tokens[k], "r") is None]  # fmt: skip


# The first parts of the negated modals the tagger does not read as modals (*sha* of *shan't*).
_MODAL_STEMS = frozenset(first for first, _ in NEGATED_MODALS)
_OBJECT_START_TAGS = frozenset({"DT", "PRP$", "PRP"})


def _infinitives(tokens: Sequence[str], tags: list[str]) -> list[int]:
    """The tokens the tagger read as singular nouns that are the infinitive of a verb phrase:
    after a modal, adverbs aside (*would order the referendum*, *shan't pass*, *will contract
    with*), after *do* and an adverb (*does not share*, *didn't matter*; not the main verb
    of *do research*), or after *to* and before an object (*to order a pizza*, *to stake my
    career*, *to phone us*), where they are verbs (``_verb_read_as_noun``: not *went to
    church the next day*). SemCor has such words as verbs 25 times of 26 after a modal, 20 of
    21 after *do* and an adverb and 33 of 35 after *to*."""
    found = []
    for k in range(1, len(tokens)):
        if tags[k] != "NN":
            continue
        j = _before_adverbs(tags, k - 1)
        after_modal = j >= 0 and (tags[j] == "MD" or tokens[j].lower() in _MODAL_STEMS
                                  and tokens[j + 1].lower() == "n't")  # fmt: skip
        after_do = 0 <= j < k - 1 and tokens[j].lower() in ("do", "does", "did")
        before_object = k + 1 < len(tokens) and tags[k + 1] in _OBJECT_START_TAGS
        if (after_modal or after_do or tags[k - 1] == "TO" and before_object) and (
                _verb_read_as_noun(tokens[k], tags[k])):  # fmt: skip
            found.append(k)
    return found


_NUMBER = re.compile(r"\d{1,3}")
BULLETS = frozenset(["--", *"-*+\u2022\u00b7\u25aa\u25cf"])  # -- : an en or em dash


def _list_marker(tokens: Sequence[str]) -> int:
    """How many tokens at the start of a line's ``tokens`` are a list item's number or bullet
    (*1.*, *2 )*, *( 3 )*, *-*, *\u2022*), tagged LS as the Penn Treebank does: the tagger had read
    the item's verb after them as a proper noun (*1. Preheat the oven*), and the number had
    been the adjective *one*."""
    if len(tokens) > 1 and (tokens[0] in BULLETS or tokens[0][-1:] == "."
                            and _NUMBER.fullmatch(tokens[0][:-1])):  # fmt: skip
        return 1
    if len(tokens) > 2 and _NUMBER.fullmatch(tokens[0]) and tokens[1] in (")", "."):
        return 2
    if len(tokens) > 3 and tokens[0] == "(" and _NUMBER.fullmatch(tokens[1]) and tokens[2] == ")":
        return 3
    return 0


def _starts_line(text: str, offset: int) -> bool:
    """Whether only spaces stand between the start of its line and ``offset`` in ``text``."""
    k = offset
    while k and text[k - 1] in " \t":
        k -= 1
    return k == 0 or text[k - 1] in "\n\r\f\v\x1c\x1d\x1e\x85\u2028\u2029"


def _words(text: str, view: PlainView, offset: int,
           conventions: CorpusConventions) -> tuple[Word, ...]:  # fmt: skip
    """The words of the sentence ``text`` (at ``offset`` in the input), tokenized as
    ``view`` (the input's ``plain_view``) reads it."""
    seen = view.text[offset : offset + len(text)]
    found, merged = _line_end_hyphens_joined(_apostrophes_restored(
        _period_split(tokens_with_spans(view.tokenized[offset : offset + len(text)]), seen)),
        seen)
    # the tagger's forms: `` for an opening quote, an address itself
    typed = [seen[start:end] if (offset + start, offset + end) in view.addresses else form
             for form, start, end in found]  # fmt: skip
    tokens = as_written(typed)
    spans = [(start, end) for _, start, end in found]

    def form(first: int, last: int) -> str:
        """The words' text, or the tokens as read where ``as_written`` changed them or a
        word broken across a line was joined."""
        if tokens[first:last] == typed[first:last] and merged.isdisjoint(range(first, last)):
            return visible(seen[spans[first][0] : spans[last - 1][1]])
        return " ".join(tokens[first:last])

    marker = _list_marker(tokens) if _starts_line(view.text, offset) else 0
    body = tokens[marker:]  # what the tagger reads: the item without its number or bullet
    tags = ["LS"] * marker + (penn_tags(body) if body else [])
    lookups = [folded(token) for token in tokens]  # as WordNet spells them: café -> cafe
    if _instruction(lookups[marker:], tags[marker:]):
        tags[marker] = "VB"
    elif _modal_question(lookups[marker:], tags[marker:]):
        tags[marker] = "MD"
    elif question := _question_verb(lookups[marker:], tags[marker:]):
        tags[marker] = question
    if (verb := _asked_verb(lookups[marker:], tags[marker:])) is not None:
        tags[marker + verb] = "VB"
    for verb in _third_person_verbs(lookups, tags):
        tags[verb] = "VBZ"
    for verb in _bare_infinitives(lookups, tags) + _infinitives(lookups, tags):
        tags[verb] = "VB"
    for verb in _plain_present_verbs(lookups, tags):
        tags[verb] = "VBP"
    body_tags = tags[marker:]  # once: a copy per token made a long sentence quadratic
    analyses = [_lemma(token, tag, i == marker, _before_noun(lookups, tags, i),
                       functools.partial(_letters_by_score, body, body_tags, i - marker))
                for i, (token, tag) in enumerate(zip(lookups, tags, strict=True))]
    for i, (_, pos) in enumerate(analyses):  # a form as the training corpus read it
        corpus_pos = conventions.part_of_speech(lookups[i], tags[i]) if pos else None
        if corpus_pos and corpus_pos != pos and (
                base := base_form(lookups[i], POS_LETTER[corpus_pos])):  # fmt: skip
            analyses[i] = (base, corpus_pos)  # *poorly understood*/JJ: SemCor's verb
    for k in range(len(tokens) - 1):
        pair = (lookups[k].lower(), lookups[k + 1].lower())
        if pair in RUN_TOGETHER and spans[k][1] == spans[k + 1][0]:  # gonna: gon + na
            analyses[k], analyses[k + 1] = (RUN_TOGETHER[pair], "VERB"), (pair[1], None)
        if pair in NEGATED_MODALS and spans[k][1] == spans[k + 1][0]:  # can't: ca + n't
            analyses[k] = (NEGATED_MODALS[pair], None)
        if analyses[k] == ("be", "VERB") and lookups[k].lower() == "'s" and _has_participle(
                lookups, tags, k + 1):
            analyses[k] = ("have", "VERB")
        if analyses[k][1] == "VERB" and analyses[k][0] in AUXILIARIES and _auxiliary(
                lookups, tags, k):
            analyses[k] = (analyses[k][0], None)
    lemmas = [lemma for lemma, _ in analyses]
    words = []
    particles = set()  # of separated verb expressions (*looked it up*): part of the verb
    i = 0
    while i < len(tokens):
        found = None if i in particles else _expression(lookups, tags, lemmas, i, conventions)
        if found:
            length, lemma, pos = found
            start, end = spans[i][0], spans[i + length - 1][1]
            head = i + length - 1 if pos == "NOUN" else i
            words.append(Word(text[start:end], offset + start, offset + end, tags[head],
                              lemma, pos, form(i, i + length)))  # fmt: skip
            i += length
            continue
        (start, end), (lemma, pos) = spans[i], analyses[i]
        if i in particles:
            pos = None
        elif pos == "VERB" and (particle := _separated(lookups, tags, lemmas[i], i, conventions)):
            lemma = f"{lemma}_{particle}"
            particles.add(i + 2)
        words.append(Word(text[start:end], offset + start, offset + end, tags[i], lemma, pos,
                          form(i, i + 1)))  # fmt: skip
        i += 1
    return _names_joined(words, text, offset, conventions)


PROPER_TAGS = frozenset({"NNP", "NNPS"})


def _unknown_name(word: Word) -> bool:
    """A capitalised word of two letters or more that WordNet has no sense for (*Pye*)."""
    return word.pos is None and word.text[:1].isupper() and sum(
        c.isalpha() for c in word.text) >= 2  # fmt: skip


def _names_joined(words: list[Word], text: str, offset: int,
                  conventions: CorpusConventions) -> tuple[Word, ...]:  # fmt: skip
    """The words with each run of proper nouns (with letters; *Mayor William B. Hartsfield*)
    that holds a name WordNet does not know joined into one name, whose lemma is the kind
    ``conventions.name_kind`` gives it (``wsd.text.names``: as SemCor tags names); the words
    unchanged where the conventions have no names' counts."""
    if conventions.name_kinds is None:
        return tuple(words)
    joined, i = [], 0
    while i < len(words):
        end = i
        while end < len(words) and words[end].tag in PROPER_TAGS and any(
                c.isalpha() for c in words[end].text):  # fmt: skip
            end += 1
        run = words[i:end]
        if not any(_unknown_name(word) for word in run):
            joined.extend(words[i : max(end, i + 1)])
            i = max(end, i + 1)
            continue
        before = words[i - 1].text if i > 0 else START
        after = words[end].text if end < len(words) else END
        kind = conventions.name_kind([word.text for word in run], before, after)
        start, stop = run[0].start, run[-1].end
        joined.append(Word(text[start - offset : stop - offset], start, stop, run[-1].tag, kind,
                           "NOUN", " ".join(word.form for word in run), name=True))  # fmt: skip
        i = end
    return tuple(joined)


def _separated(tokens: Sequence[str], tags: Sequence[str], lemma: str, i: int,
               conventions: CorpusConventions) -> str | None:  # fmt: skip
    """The particle of the verb ``lemma`` at token ``i`` where it stands after an object
    pronoun and ``conventions`` join the expression so (*looked it up*, *picked her up*)."""
    particle = separated_particle(tokens, tags, i)
    if particle and conventions.joins_separated(f"{lemma}_{particle}"):
        return particle
    return None


def _auxiliary(tokens: Sequence[str], tags: Sequence[str], k: int) -> bool:
    """Whether the *have* or *do* at token ``k`` is an auxiliary, which SemCor does not
    sense-tag: a verb follows, adverbs and *not* aside (*has been*, *didn't know*), or follows
    the subject of a question (*Did you see*, *Has the bank closed*, *What have you done*;
    not *had it fixed*). In the all-POS sentences of two thirds of SemCor's documents, as
    this pipeline reads them, SemCor tagged 51 of the 2,269 such words; *be* stays a content
    word: SemCor tagged 10% of *be* before a participle (*are gone*, *is opposed*:
    adjectives to SemCor, VBN to the tagger)."""
    j = _after_adverbs(tags, k + 1)
    if k == 0 or tags[k - 1].startswith("W"):  # a question: its subject comes first
        subject = j
        while j < len(tokens) and j - subject < 5 and tags[j] in _SUBJECT_TAGS:
            j += 1
        j = _after_adverbs(tags, j)
    return j < len(tokens) and tags[j].startswith("VB")


def _after_adverbs(tags: Sequence[str], k: int) -> int:
    """The first token from ``k`` on that is not an adverb (*not*, *n't* and *never* are)."""
    while k < len(tags) and tags[k].startswith("RB"):
        k += 1
    return k


def _before_adverbs(tags: Sequence[str], k: int) -> int:
    """The last token from ``k`` back that is not an adverb, or -1."""
    while k >= 0 and tags[k].startswith("RB"):
        k -= 1
    return k


def _has_participle(tokens: Sequence[str], tags: Sequence[str], k: int) -> bool:
    """Whether token ``k``, adverbs aside (*'s never been*), is a participle after which *'s*
    stands for *has* (``HAS_PARTICIPLES``)."""
    k = _after_adverbs(tags, k)
    return k < len(tokens) and tokens[k].lower() in HAS_PARTICIPLES


def _before_noun(tokens: Sequence[str], tags: Sequence[str], i: int) -> bool:
    """Whether token ``i`` stands before a noun as its modifier may. A past participle only
    where no noun, pronoun or form of *have* stands before it (adverbs aside): *the needed
    funds*, *newly built houses*; not *The bank raised rates* or *has raised rates*, where
    the tagger reads the verb *raised* as VBN too. A present participle only right after a
    determiner or possessive (*a dying man*; SemCor: adjectives 113 times, verbs 55, nouns
    18), not after an adverb (*rapidly growing*: verbs 72 times, adjectives 18) nor as a
    verb's object (*accepting donations*)."""
    if i + 1 == len(tags) or not tags[i + 1].startswith("NN"):
        return False
    if tags[i] == "VBG":
        return i > 0 and tags[i - 1] in ("DT", "PRP$")
    if tags[i] != "VBN":
        return True
    k = _before_adverbs(tags, i - 1)
    return k < 0 or not (tags[k].startswith(("NN", "PRP")) and tags[k] != "PRP$"
                         or tags[k].startswith("VB") and tokens[k].lower() in HAVE_FORMS)


def analyze(text: str, conventions: CorpusConventions = WORDNET) -> list[Sentence]:
    """The sentences of ``text`` (split by ``document_sentence_spans``: a blank line ends a
    paragraph, a line break a sentence unless the text goes on across it; blank ones are left
    out) with their words; offsets are into ``text``.
    ``conventions``: which multi-word expressions to join (default ``WORDNET``: those SemCor
    tagged as one unit at least once; a model brings its corpus's, ``AllWordsWSD.conventions``).
    Text copied from the web is read as a person sees it (``wsd.text.web``: markup tags are
    blanks, *&amp;* is *&*, an address is one word with no sense)."""
    view = plain_view(text)
    return [Sentence(text[start:end], start, end, _words(text[start:end], view, start,
                                                         conventions))
            for start, end in view.sentence_spans()]  # fmt: skip


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
