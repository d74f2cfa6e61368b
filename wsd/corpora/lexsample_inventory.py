"""A lexical-sample dictionary as a sense inventory, so Lesk can use its glosses.

Sense ids are the dictionary's own (Senseval-3: numbers such as ``38201``), in file order; the
gloss is the dictionary's gloss and the synonyms of the sense's synset count as an example, so
Lesk's signature holds both. There are no related senses (no extended Lesk beyond the gloss).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from wsd.corpora.lexsample import parse_lexelt, read_dictionary
from wsd.knowledge.inventory import Sense, coarse_pos


class LexicalSampleInventory:
    """Senses per lexelt from a dictionary file (``from_file``) or a mapping
    ``{lexelt item: [(sense id, gloss, synonyms), ...]}``; looked up by lemma and coarse POS."""

    def __init__(self, entries: Mapping[str, list[tuple[str, str, str]]]) -> None:
        self._senses: dict[tuple[str, str | None], list[Sense]] = {}
        for item, senses in entries.items():
            self._senses[parse_lexelt(item)] = [
                Sense(id=sense_id, gloss=gloss, examples=(synonyms,) if synonyms else ())
                for sense_id, gloss, synonyms in senses
            ]

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> LexicalSampleInventory:
        return cls(read_dictionary(path))

    def senses(self, lemma: str, pos: str | None = None) -> list[Sense]:
        lemma = lemma.lower()
        if pos is not None:
            return list(self._senses.get((lemma, coarse_pos(pos)), ()))
        return [s for (name, _), senses in self._senses.items() if name == lemma for s in senses]

    def related_glosses(self, sense: Sense) -> list[str]:
        return []
