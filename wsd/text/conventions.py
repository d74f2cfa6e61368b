"""What a sense-tagged training corpus teaches the raw-text pipeline: which WordNet multi-word
expressions to join.

WordNet lists *look at* and *come to* as verbs, and SemCor tags them as one unit now and then,
but far more often as a verb and a preposition (*came to the house*). Joining every expression
the corpus ever joined (WordNet's counts, the rule without a corpus) turns many plain verbs
into the rarer expression. ``count_expressions`` counts, per expression, how often the corpus
tagged it as one unit and how often its words stood apart where the pipeline would have joined
them; an expression joins when the corpus joined it in at least ``JOIN_SHARE`` of those places
(chosen on SemEval-2007 and on held-out SemCor documents: ``benchmarks/raw_text.py --parts joins``);
expressions the corpus never showed follow WordNet's counts.

A verb and its particle with an object pronoun between them (*picked her up*) join by the
same share, from ``count_separated``: how often the corpus tagged the verb there as the
expression and how often as the verb alone (SemCor: *pick up* 12 to 1, *bring back* 1 to 5),
and only where the corpus joined them so at least ``MIN_SEPARATED_JOINS`` times: WordNet's
counts say nothing of separated particles, and joining by them (or on one example) lost
SemEval-2007 answers (*scoop it up*, *put them out on the streets*: the verb alone there) for
+0.03 F1 on held-out SemCor. The particle must not start a noun phrase (*put it in the box*).

The tagger's part of speech gives way to the corpus's for a word form it tags alike: where
the corpus tagged a form the tagger reads as ``TAG`` as another part of speech at least
``MIN_RETAGGED`` times and in at least ``RETAG_SHARE`` of its instances there
(``count_parts_of_speech``; SemCor: *understood* read as JJ is a verb 11 times of 13, in *are
poorly understood*). Both were chosen on SemEval-2007 and held-out SemCor (fold 0), README.

Proper names: the corpus's names (*Durwood Pye*, tagged person) counted by
``wsd.text.names.count_names``, from which ``CorpusConventions.name_kind`` tells a name's kind.

``CorpusConventions`` carries the counts; a model saved with them (``AllWordsWSD.conventions``)
brings its own, and ``WORDNET`` (no corpus) joins by WordNet's counts alone.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from wsd.resources import MissingResourceError
from wsd.text.lexicon import (
    LETTER_POS,
    LONGEST_EXPRESSION,
    expressions,
    penn_letter,
    tagged_count,
)
from wsd.text.names import NameCounts, NameKinds

JOIN_SHARE = 0.3
MIN_SEPARATED_JOINS = 2
MIN_RETAGGED = 3
RETAG_SHARE = 0.7
UNIVERSAL_LETTER = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
PARTS_OF_SPEECH = tuple(UNIVERSAL_LETTER)  # the order of ``count_parts_of_speech``'s counts
ExpressionCounts = Mapping[str, tuple[int, int]]  # "look_at#v" -> (joined, apart)
PartOfSpeechCounts = Mapping[str, tuple[int, ...]]  # "understood#JJ" -> (0, 11, 2, 0)


def wordnet_joins(lemma: str, letter: str) -> bool:
    """Whether ``lemma`` is a WordNet expression of part of speech ``letter`` that SemCor
    tagged as one unit at least once (WordNet's counts): *take place*, *ice cream*, *of
    course*; not *fend for* nor *immune system*, whose words SemCor tagged apart."""
    return lemma in expressions(letter) and tagged_count(lemma, letter) > 0


# The object pronouns and the particle positions of a separated verb expression (Penn and
# universal tags), and the tags that start a noun phrase after a preposition (*in the box*).
OBJECT_PRONOUNS = frozenset("me you him her us them it".split())
PARTICLE_TAGS = frozenset({"RP", "RB", "IN", "PRT", "ADV", "ADP"})
NOUN_PHRASE_TAGS = frozenset({"DT", "PDT", "PRP$", "PRP", "CD", "JJ", "JJR", "JJS", "NN", "NNS",
                              "NNP", "NNPS", "DET", "PRON", "NUM", "ADJ", "NOUN", "PROPN"})


def separated_particle(tokens: Sequence[str], tags: Sequence[str], k: int) -> str | None:
    """The particle of a verb at token ``k`` separated from it by an object pronoun (*looked
    it up in*: ``"up"``), or None: the pronoun, then a word tagged as a particle that does not
    start a noun phrase (not *put it in the box*)."""
    if k + 2 >= len(tokens) or tokens[k + 1].lower() not in OBJECT_PRONOUNS:
        return None
    particle = tokens[k + 2].lower()
    if not particle.isalpha() or tags[k + 2] not in PARTICLE_TAGS:
        return None
    if k + 3 < len(tokens) and tags[k + 3] in NOUN_PHRASE_TAGS:
        return None
    return particle


def count_separated(verbs: Iterable[tuple[Sequence[str], Sequence[str], int, str]]
                    ) -> dict[str, tuple[int, int]]:  # fmt: skip
    """``"lemma#v" -> (joined, apart)`` for verbs separated from a particle by an object pronoun
    (``separated_particle``), from the corpus's tagged ``verbs`` (sentence tokens, tags, the
    verb's index, its lemma): *joined* where the lemma is the expression (*pick_up*), *apart*
    where it is the verb alone and WordNet (or the corpus) has the expression."""
    verbs = [(tokens, tags, k, lemma.lower()) for tokens, tags, k, lemma in verbs]
    known = {lemma for *_, lemma in verbs if "_" in lemma}
    try:
        known |= set(expressions("v"))
    except MissingResourceError:
        pass
    joined: Counter[str] = Counter()
    apart: Counter[str] = Counter()
    for tokens, tags, k, lemma in verbs:
        particle = separated_particle(tokens, tags, k)
        if particle is None:
            continue
        if "_" in lemma:
            if lemma.split("_")[-1] == particle and lemma.count("_") == 1:
                joined[f"{lemma}#v"] += 1
        elif f"{lemma}_{particle}" in known:
            apart[f"{lemma}_{particle}#v"] += 1
    return {key: (joined[key], apart[key]) for key in sorted(set(joined) | set(apart))}


def tag_letter(tag: str | None) -> str | None:
    """The WordNet letter of a universal (NOUN) or Penn (NN) tag, None for other tags."""
    if not tag:
        return None
    return UNIVERSAL_LETTER.get(tag) or penn_letter(tag)


@functools.cache
def _by_first_word() -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """``first word -> ((words, letter), ...)`` of the expressions ``wordnet_joins`` accepts."""
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for letter in "nvar":
        for lemma in expressions(letter):
            words = tuple(lemma.split("_"))
            if len(words) <= LONGEST_EXPRESSION and wordnet_joins(lemma, letter):
                index.setdefault(words[0], []).append((words, letter))
    return {word: tuple(found) for word, found in index.items()}


def _would_join(words: Sequence[str], letter: str, tags: Sequence[str | None] | None,
                after: str | None) -> bool:  # fmt: skip
    """Whether the pipeline would consider these words (their ``tags``) as the expression: a
    verb's first word must be a verb, a noun's last a noun; an adverb or adjective must not be
    followed by *of* (as ``wsd.text.pipeline`` asks)."""
    if letter in "ar":
        return after != "of"
    if tags is None:
        return True
    head = tags[0] if letter == "v" else tags[-1]
    return tag_letter(head) == letter


def count_expressions(
    sentences: Iterable[tuple[Sequence[str], Sequence[str], Sequence[str] | None]],
    units: Iterable[tuple[str, str]],
) -> dict[str, tuple[int, int]]:
    """``"lemma#letter" -> (joined, apart)``: *joined*, how many of the corpus's tagged units
    (``units``: its instances' lemma and WordNet letter) are the expression; *apart*, how
    often single-word tokens of the ``sentences`` (tokens, corpus lemmas, tags or None; their
    forms or lemmas) spell an expression the pipeline could have joined there (one
    ``wordnet_joins`` accepts, or one the corpus joined). Listed: the expressions whose words
    the corpus left apart, and those it joined that WordNet's counts would not (the others
    join either way). Without WordNet, only the expressions the corpus joined are counted."""
    joined = Counter(f"{lemma.lower()}#{letter}" for lemma, letter in units if "_" in lemma)
    try:
        index, known = dict(_by_first_word()), wordnet_joins
    except MissingResourceError:  # no WordNet: the expressions the corpus joined, only
        index, known = {}, lambda lemma, letter: False
    for key in joined:
        lemma, letter = key.rsplit("#", 1)
        words = tuple(lemma.split("_"))
        if (words, letter) not in index.get(words[0], ()):
            index[words[0]] = (*index.get(words[0], ()), (words, letter))
    apart: Counter[str] = Counter()
    for tokens, lemmas, tags in sentences:
        forms, bases = [t.lower() for t in tokens], [b.lower() for b in lemmas]
        single = [" " not in f and "_" not in f and "_" not in b
                  for f, b in zip(forms, bases, strict=True)]  # fmt: skip
        for k in range(len(forms)):
            if not single[k]:
                continue
            for words, letter in set(index.get(forms[k], ())) | set(index.get(bases[k], ())):
                end = k + len(words)
                if end > len(forms) or not all(
                        single[k + j] and word in (forms[k + j], bases[k + j])
                        for j, word in enumerate(words)):  # fmt: skip
                    continue
                after = forms[end] if end < len(forms) else None
                if _would_join(words, letter, tags[k:end] if tags else None, after):
                    apart[f"{'_'.join(words)}#{letter}"] += 1
    return {key: (joined[key], apart[key]) for key in sorted(set(joined) | set(apart))
            if apart[key] or not known(*key.rsplit("#", 1))}


def count_parts_of_speech(words: Iterable[tuple[str, str, str]],
                          min_count: int = MIN_RETAGGED, share: float = RETAG_SHARE,
                          ) -> dict[str, tuple[int, ...]]:  # fmt: skip
    """``"form#TAG" -> counts per part of speech`` (``PARTS_OF_SPEECH``) of the corpus's
    tagged ``words`` (form, the tagger's Penn tag, the corpus's part of speech), for the
    (lowercase form, tag) pairs the corpus tagged as one part of speech other than the tag's
    own (``tag_part_of_speech``) at least ``min_count`` times and in at least ``share`` of
    them: the only ones ``CorpusConventions.part_of_speech`` changes."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for form, tag, pos in words:
        if pos in UNIVERSAL_LETTER and tag_part_of_speech(tag) is not None:
            counts.setdefault((form.lower(), tag), Counter())[pos] += 1
    found = {}
    for (form, tag), seen in sorted(counts.items()):
        pos, n = seen.most_common(1)[0]
        if pos != tag_part_of_speech(tag) and n >= min_count and n >= share * seen.total():
            found[f"{form}#{tag}"] = tuple(seen[part] for part in PARTS_OF_SPEECH)
    return found


# Penn tags of cardinals and determiners, which SemCor tags as adjectives (*two*, *all*).
QUANTIFIER = {"CD": "a", "DT": "a", "PDT": "a"}


def reading_letter(tag: str) -> str | None:
    """The WordNet letter the raw-text pipeline reads a Penn tag as (NN -> n, CD -> a), None
    for a tag with no content word."""
    return penn_letter(tag) or QUANTIFIER.get(tag)


def tag_part_of_speech(tag: str) -> str | None:
    """The part of speech of ``reading_letter`` (NN -> NOUN, CD -> ADJ), or None."""
    letter = reading_letter(tag)
    return LETTER_POS[letter] if letter else None


class CorpusConventions:
    """A corpus's conventions for raw text (see the module): ``joins(lemma, letter)`` from
    ``count_expressions`` counts (``unseen`` for the expressions they do not list: WordNet's
    counts), ``joins_separated`` from ``count_separated``'s, ``part_of_speech(form, tag)``
    from ``count_parts_of_speech``'s and ``name_kind`` from ``count_names``'
    (``wsd.text.names``)."""

    def __init__(self, expressions: ExpressionCounts, join_share: float = JOIN_SHARE,
                 separated: ExpressionCounts | None = None,
                 parts_of_speech: PartOfSpeechCounts | None = None,
                 min_retagged: int = MIN_RETAGGED, retag_share: float = RETAG_SHARE,
                 unseen: Callable[[str, str], bool] | None = None,
                 names: NameCounts | None = None) -> None:  # fmt: skip
        self.expressions = expressions
        self.name_kinds = NameKinds(names) if names else None
        self.join_share = join_share
        self.unseen = unseen or wordnet_joins
        self.separated = separated or {}
        self.parts_of_speech = parts_of_speech or {}
        self.min_retagged, self.retag_share = min_retagged, retag_share

    @functools.cached_property
    def first_words(self) -> frozenset[str]:
        """The words an expression that ``joins`` may accept can start with: the first words
        of WordNet's multi-word lemmas and of the corpus's expressions."""
        words = {key.rsplit("#", 1)[0].split("_")[0] for key in self.expressions}
        try:
            words.update(lemma.split("_")[0] for letter in "nvar" for lemma in expressions(letter))
        except MissingResourceError:
            pass
        return frozenset(words)

    def joins(self, lemma: str, letter: str) -> bool:
        """Whether to join the expression ``lemma`` of part of speech ``letter``: as the corpus
        did in at least ``join_share`` of the places it could have, else by WordNet's counts
        (``unseen``)."""
        seen = self.expressions.get(f"{lemma}#{letter}")
        if seen is None:
            return self.unseen(lemma, letter)
        return self._by_share(seen)

    def joins_separated(self, lemma: str) -> bool:
        """Whether to join the verb expression ``lemma`` whose particle stands after an object
        pronoun (*picked her up*): where the corpus joined it so at least
        ``MIN_SEPARATED_JOINS`` times and in ``join_share`` of its places (see the module)."""
        seen = self.separated.get(f"{lemma}#v")
        return seen is not None and seen[0] >= MIN_SEPARATED_JOINS and self._by_share(seen)

    def part_of_speech(self, form: str, tag: str) -> str | None:
        """The part of speech the corpus gave ``form`` where the tagger tags it ``tag``, when
        its counts (``count_parts_of_speech``) pass ``min_retagged`` and ``retag_share``, else
        None; the pipeline takes it where it differs from its own reading."""
        seen = self.parts_of_speech.get(f"{form.lower()}#{tag}")
        if seen is None or max(seen) < max(self.min_retagged, self.retag_share * sum(seen)):
            return None
        return PARTS_OF_SPEECH[seen.index(max(seen))]

    def name_kind(self, words: Sequence[str], before: str, after: str) -> str | None:
        """The kind (person, group, location) of the name ``words`` between the words
        ``before`` and ``after``, as the corpus's names teach it; None without their counts
        (raw text then keeps a name's words apart)."""
        return self.name_kinds.kind(words, before, after) if self.name_kinds else None

    def _by_share(self, seen: tuple[int, int]) -> bool:
        joined, apart = seen
        return joined > 0 and joined >= self.join_share * (joined + apart)


WORDNET = CorpusConventions({})
