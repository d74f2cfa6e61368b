"""Sense inventories behind one small interface: WordNet (through NLTK) or the bundled files.

A knowledge-based system asks an inventory for the senses of a lemma with a part of
speech and gets :class:`Sense` records back in the inventory's order (WordNet order, or
the order of the bundled file). Extended Lesk also asks for the glosses of related
senses, which only WordNet has.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from wsd.knowledge import compiled
from wsd.knowledge.bundled_senses import bundled_data_dir, read_inventory
from wsd.knowledge.sensekeys import lemma_for_key, sense_key
from wsd.resources import MissingResourceError, require_nltk_resource

# Coarse POS (as in Instance.target_pos) and WordNet letters -> the WordNet letter.
_POS_LETTER = {
    "NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r",
    "n": "n", "v": "v", "a": "a", "s": "a", "r": "r",
}
_COARSE = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}


def wordnet_pos(pos: str | None) -> str | None:
    """The WordNet POS letter (n, v, a, r) for a coarse tag or letter; None stays None.

    Adjective satellites ('s') count as 'a': WordNet looks both up under 'a'.
    """
    if pos is None:
        return None
    try:
        return _POS_LETTER[pos]
    except KeyError:
        raise ValueError(
            f"unknown part of speech {pos!r}: use one of NOUN, VERB, ADJ, ADV "
            "(or the WordNet letters n, v, a, s, r), or None for every POS"
        ) from None


def coarse_pos(pos: str | None) -> str | None:
    """The coarse tag (NOUN, VERB, ADJ, ADV) for a coarse tag or WordNet letter."""
    letter = wordnet_pos(pos)
    return None if letter is None else _COARSE[letter]


# Penn / universal tag prefixes -> WordNet letters, for looking up context words.
_TAG_LETTER = {"N": "n", "V": "v", "J": "a", "A": "a", "R": "r"}
_UNIVERSAL = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


@functools.lru_cache(maxsize=4096)  # called for every context token of every instance
def tag_letter(tag: str | None) -> str | None:
    """The WordNet letter for a universal (NOUN) or Penn (NNS, VBD, JJ, RB) tag, else None."""
    if not tag:
        return None
    if tag in _UNIVERSAL:
        return _UNIVERSAL[tag]
    if tag in ("ADP", "ADJP", "PRON", "PRT", "DET", "NUM", "CONJ", "X"):
        return None
    return _TAG_LETTER.get(tag[0])


@dataclass(frozen=True)
class Sense:
    """One sense of a lemma: its id (a WordNet sense key or a bundled id) and its text.

    ``synset`` names the WordNet synset (None for bundled senses); ``count`` is the
    tagged-corpus frequency of the lemma in this sense when the inventory knows it
    (WordNet's ``lemma.count()``), else 0.
    """

    id: str
    gloss: str
    examples: tuple[str, ...] = ()
    synset: str | None = None
    count: int = 0


def readable_gloss(definition: str) -> str:
    """A WordNet definition as a reader should see it. NLTK splits a gloss at its semicolons and
    takes the quoted pieces as examples, so a quotation with its author (*"...dead-on
    dialogue"- Peter S.Prescott*) leaves empty pieces and the author in 738 definitions
    (*accurate and to the point; ; - Peter S.Prescott*); those pieces, and a piece with an
    unmatched quote (an example without its opening one), are left out, and a definition's own
    unmatched quote dropped. For display only: Lesk and the gloss vectors read the definition
    as NLTK gives it."""
    first, *rest = (piece.strip() for piece in definition.split(";"))
    if first.count('"') % 2:
        first = first.replace('"', "")
    kept = [piece for piece in rest if piece and not piece.startswith("-")
            and piece.count('"') % 2 == 0]  # fmt: skip
    return "; ".join([first, *kept])


@runtime_checkable
class SenseInventory(Protocol):
    """What Lesk and the baselines need from a dictionary."""

    def senses(self, lemma: str, pos: str | None = None) -> list[Sense]:
        """The senses of ``lemma`` (with ``pos``, or of every POS when None), in order."""
        ...

    def related_glosses(self, sense: Sense) -> list[str]:
        """Glosses (and examples) of senses related to ``sense``; empty when unknown."""
        ...


# Synset relations whose glosses enlarge a signature in extended Lesk (Banerjee & Pedersen
# 2003 use hypernyms, hyponyms/troponyms, holonyms, meronyms, also-see, attributes,
# similar-to and pertainyms); lemma relations are followed from the lemma's own Lemma.
SYNSET_RELATIONS = (
    "hypernyms", "instance_hypernyms", "hyponyms", "instance_hyponyms",
    "member_holonyms", "part_holonyms", "substance_holonyms",
    "member_meronyms", "part_meronyms", "substance_meronyms",
    "also_sees", "similar_tos", "attributes", "entailments", "causes", "verb_groups",
)
LEMMA_RELATIONS = ("pertainyms", "derivationally_related_forms")


def wordnet_reader():
    """The compiled lexicon when there is a valid one (``wsd.knowledge.compiled``: same
    answers, no NLTK import, no WordNet loading), else NLTK's WordNet, loaded."""
    return compiled.active() or _loaded_wordnet()


def require_wordnet() -> None:
    """MissingResourceError with the downloader hint unless WordNet can be read (compiled or
    NLTK's); with the compiled lexicon, without importing NLTK."""
    if compiled.active() is None:
        require_nltk_resource("wordnet")


def nltk_wordnet():
    """NLTK's WordNet, loaded (MissingResourceError with the downloader hint if absent)."""
    require_nltk_resource("wordnet")
    return _loaded_wordnet()


@functools.cache
def _loaded_wordnet():
    """NLTK's WordNet, loaded once per process (the data checked by the first call)."""
    require_nltk_resource("wordnet")
    from nltk.corpus import wordnet  # NLTK: over a second to import

    try:
        wordnet.ensure_loaded()
    except LookupError as error:  # present but unreadable
        raise MissingResourceError(f"NLTK WordNet could not be loaded: {error}") from None
    return wordnet


class WordNetInventory:
    """WordNet 3.0 through NLTK; sense ids are sense keys such as ``'bank%1:17:01::'``.

    The senses of a lemma are the synsets that contain it, in WordNet order (most
    frequent first). ``relations`` / ``lemma_relations`` choose which related synsets
    :meth:`related_glosses` follows; ``include_examples`` adds their example sentences.
    ``exact_lemma=False`` lists every synset ``wordnet.synsets(word, pos)`` returns, base
    forms found by morphy included (what ``nltk.wsd.lesk`` considers), e.g. the senses
    of "see" for "saw"; by default only synsets that contain the lemma itself.
    ``wordnet``: the reader, NLTK's WordNet by default or ``wordnet_reader()`` (the compiled
    lexicon when there is one: same senses, glosses and related glosses, much faster to load).
    Raises MissingResourceError (with the download command) when WordNet is absent.
    """

    def __init__(
        self,
        relations: Sequence[str] = SYNSET_RELATIONS,
        lemma_relations: Sequence[str] = LEMMA_RELATIONS,
        include_examples: bool = True,
        exact_lemma: bool = True,
        wordnet=None,
    ) -> None:
        self.relations = relations
        self.lemma_relations = lemma_relations
        self.include_examples = include_examples
        self.exact_lemma = exact_lemma
        self._wn = wordnet if wordnet is not None else nltk_wordnet()
        self._senses: dict[tuple[str, str | None], list[Sense]] = {}
        self._related: dict[str, list[str]] = {}

    def senses(self, lemma: str, pos: str | None = None) -> list[Sense]:
        letter = wordnet_pos(pos)
        cache_key = (lemma.lower(), letter)
        if cache_key not in self._senses:
            self._senses[cache_key] = self._exact_senses(lemma, letter) or [
                self._sense(lem) for lem in self.lemmas(lemma, letter)
            ]
        return self._senses[cache_key]

    def _exact_senses(self, lemma: str, letter: str | None) -> list[Sense]:
        """``senses`` from the compiled lexicon's rows where the word is itself a lemma (no
        lemma objects built: a tenth of the raw-text time had gone to them); else []."""
        if not self.exact_lemma or not hasattr(self._wn, "exact_senses"):
            return []
        return [Sense(id=key, gloss=gloss, examples=examples, synset=synset, count=count)
                for key, gloss, examples, synset, count in self._wn.exact_senses(
                    "_".join(lemma.lower().split()), letter)]  # fmt: skip

    def lemmas(self, lemma: str, pos: str | None = None) -> list:
        """NLTK Lemma objects of ``lemma`` (one per synset), in WordNet order.

        Multiword lemmas may be written with spaces or underscores. When the word is
        not itself a WordNet lemma (an inflected form), or ``exact_lemma`` is False, every
        synset of its base forms counts, with the lemma matching a base form (else the first).
        """
        letter = wordnet_pos(pos)
        name = "_".join(lemma.lower().split())
        synsets = self._wn.synsets(name, letter)
        exact = []  # one Lemma per synset, though a synset may hold case variants (Earth, earth)
        for ss in synsets:
            variants = [lem for lem in ss.lemmas() if lem.name().lower() == name]
            if variants:
                exact.append(next((lem for lem in variants if lem.name() == name), variants[0]))
        if exact and self.exact_lemma:
            return exact
        bases = {
            form for p in ([letter] if letter else "nvar") for form in self._wn._morphy(name, p)
        }
        found = []
        for ss in synsets:
            matching = [lem for lem in ss.lemmas() if lem.name().lower() in bases]
            found.append(matching[0] if matching else ss.lemmas()[0])
        return found

    def _sense(self, lemma) -> Sense:
        synset = lemma.synset()
        return Sense(
            id=sense_key(lemma),
            gloss=synset.definition(),
            examples=tuple(synset.examples()),
            synset=synset.name(),
            count=lemma.count(),
        )

    def synset(self, sense: Sense):
        """The NLTK Synset of a WordNet sense."""
        if sense.synset is None:
            raise ValueError(f"sense {sense.id!r} is not a WordNet sense")
        return self._wn.synset(sense.synset)

    def related_glosses(self, sense: Sense) -> list[str]:
        if sense.id not in self._related:
            self._related[sense.id] = list(self._related_texts(sense))
        return self._related[sense.id]

    def compiled_related(self, sense: Sense) -> list | None:
        """The related synsets the compiled lexicon lists for ``sense`` (None when the reader
        is NLTK's or the relations are not the default ones it was compiled with)."""
        if not self._default_compiled_relations():
            return None
        return self._wn.related_synsets(sense.id)

    def compiled_signature(self, sense: Sense) -> frozenset[str] | None:
        """The normalised words of the sense's gloss and related glosses as the compiled
        lexicon lists them (``CompiledWordNet.signature``; None where ``compiled_related``
        is None)."""
        if not self._default_compiled_relations():
            return None
        return self._wn.signature(sense.synset, sense.id)

    def _default_compiled_relations(self) -> bool:
        """Whether the reader is the compiled lexicon and the relations are the default ones
        it was compiled with."""
        return hasattr(self._wn, "related_synsets") and (
            tuple(self.relations), tuple(self.lemma_relations)) == (SYNSET_RELATIONS,
                                                                    LEMMA_RELATIONS)

    def _related_texts(self, sense: Sense) -> Iterable[str]:
        seen = {sense.synset}
        related = self.compiled_related(sense)
        if related is None:
            synset = self.synset(sense)
            related = [other for rel in self.relations for other in getattr(synset, rel)()]
            lemma = lemma_for_key(self._wn, sense.id)
            related += [other.synset() for rel in self.lemma_relations
                        for other in getattr(lemma, rel)()]  # fmt: skip
        for other in related:
            if other.name() in seen:
                continue
            seen.add(other.name())
            yield other.definition()
            if self.include_examples:
                yield from other.examples()


@functools.lru_cache(maxsize=2)
def shared_inventory(reader: Any) -> WordNetInventory:
    """One default ``WordNetInventory`` per WordNet reader, shared by the raw-text path's
    answers and the all-words systems' first senses and gloss overlaps, so that each lemma's
    senses are read once (each had its own: a tenth of the raw-text time went to reading
    them twice)."""
    return WordNetInventory(wordnet=reader)


class BundledInventory:
    """Senses from the bundled ``<target>.senses.json`` files (see ``wsd.corpora.bundled``).

    Sense ids are the bundled ids, in file order. There are no related senses, so
    extended Lesk reduces to simplified Lesk on this inventory. ``data_dir`` defaults
    to the bundled corpus folder ($WSD_DATA_DIR or the repository's ``data/bundled``).
    """

    def __init__(self, data_dir: str | Path | None = None) -> None:
        self.data_dir = data_dir
        self._by_target: dict[str, dict] | None = None

    def _entries(self) -> dict[str, dict]:
        if self._by_target is None:
            folder = bundled_data_dir(self.data_dir)
            self._by_target = {}
            for path in sorted(folder.glob("*.senses.json")):
                entry = read_inventory(path)
                self._by_target[entry["target"].lower()] = entry
        return self._by_target

    def targets(self) -> list[str]:
        """The targets the bundled inventory describes."""
        return sorted(self._entries())

    def senses(self, lemma: str, pos: str | None = None) -> list[Sense]:
        entry = self._entries().get(lemma.lower())
        if entry is None or (pos is not None and coarse_pos(pos) != entry["pos"]):
            return []
        return [
            Sense(id=s["id"], gloss=s["gloss"], examples=tuple(s["examples"]))
            for s in entry["senses"]
        ]

    def related_glosses(self, sense: Sense) -> list[str]:
        return []
