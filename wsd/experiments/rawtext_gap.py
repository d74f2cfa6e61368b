"""Where the raw-text path loses against the XML, instance by instance.

Each gold instance is joined to the word the plain text's reader starts at its offset
(``rawtext.plain_documents``) and put under one cause: no unit there or another extent, another
lemma, another part of speech, or the same unit (extent, lemma and part of speech) answered
otherwise. The same-unit instances are then followed through a waterfall: starting from the
raw-text instances, one input of the decision after another is replaced by the XML's, and
each step is charged with the answers it turns right (or wrong):

1. ``context lemmas``: the sentence's lemmas the bag of lemmas and the supersenses read;
2. ``Penn tags``: the tags of the sentence (the POS window's features);
3. ``sentence and tokens``: the instance as the XML has it (sentence boundaries, tokens,
   multi-word tokens: also where steps 1 and 2 could not apply, the tokens differing);
4. ``document``: the XML's instances of the document instead of the raw text's units (one
   sense per discourse averages over the other instances of the key in the document).

Steps 1 and 2 apply only where the raw sentence's tokens are the XML's. The steps are taken in
that order; a different order charges interactions differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from wsd.experiments.rawtext_loss import plain_documents
from wsd.instance import Instance
from wsd.systems.allwords.plaintext import word_instances, written_key
from wsd.text import analyze

CAUSES = ("extent", "lemma", "pos", "same unit")
STEPS = ("context lemmas", "Penn tags", "sentence and tokens", "document")


@dataclass
class GapTable:
    """Counts per cause: instances, right by the XML, right by the plain text; per waterfall
    step (same-unit instances), how many turn right and wrong; ``total`` instances."""

    total: int = 0
    instances: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))
    xml_right: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))
    raw_right: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))
    same_tokens: int = 0  # same-unit instances whose sentence has the XML's tokens
    gained: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STEPS, 0))
    lost: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STEPS, 0))

    def points(self, cause: str) -> float:
        """F1 points (of all instances) the plain text loses under ``cause``."""
        return 100 * (self.xml_right[cause] - self.raw_right[cause]) / max(self.total, 1)

    def step_points(self, step: str) -> float:
        """F1 points the same-unit instances win back at waterfall ``step``."""
        return 100 * (self.gained[step] - self.lost[step]) / max(self.total, 1)


def _answers(model: Any, found: Sequence[tuple[int, Any, Instance]],
             instances: Sequence[Instance]) -> list[str | None]:  # fmt: skip
    """The raw-text path's sense keys for ``instances`` (``found``'s, some replaced), as
    ``tag_text`` writes them (under the lemma as written)."""
    decisions = model.decide(list(instances), tagged=True) if instances else []
    return [decision.sense if inst.lemma == word.lemma else written_key(decision.sense,
                                                                          word.lemma)
            for (_, word, inst), decision in zip(found, decisions, strict=True)]  # fmt: skip


def _cause(word: Any, inst: Instance, length: int, start: int) -> str:
    if word is None or word.end != start + length or word.pos is None:
        return "extent"
    if word.lemma != inst.lemma.lower():
        return "lemma"
    return "pos" if word.pos != inst.target_pos else "same unit"


def gap_table(model: Any, instances: Sequence[Instance]) -> GapTable:
    """The causes of the raw-text loss of ``model`` on ``instances`` (XML, tagged as the model
    expects: ``model.tagged``) and the waterfall of the same-unit ones (see the module)."""
    table = GapTable(total=len(instances))
    by_id = {inst.id: inst for inst in instances}
    xml = dict(zip(by_id, (d.sense for d in model.decide(instances, tagged=True)), strict=True))
    for text, targets in plain_documents(instances):
        found = word_instances(analyze(text, model.reader), None)
        raw = [inst for _, _, inst in found]
        at = {word.start: k for k, (_, word, _) in enumerate(found)}
        steps: list[list[Instance]] = [list(raw), list(raw), list(raw)]
        causes: dict[str, str] = {}
        for gold_id, start in targets.items():
            gold = by_id[gold_id]
            k = at.get(start)
            word = found[k][1] if k is not None else None
            cause = _cause(word, gold, len(gold.tokens[gold.span[0]].replace("_", " ")), start)
            causes[gold_id] = cause
            table.instances[cause] += 1
            if cause != "same unit":
                continue
            mine = raw[k]
            if mine.tokens == gold.tokens:
                table.same_tokens += 1
                steps[0][k] = _with_lemmas(mine, gold.corpus_lemmas)
                steps[1][k] = steps[0][k].with_pos(gold.pos)
            else:
                steps[0][k] = steps[1][k] = mine
            steps[2][k] = replace(gold, id=mine.id, lemma=mine.lemma, meta=mine.meta[:2] + tuple(
                item for item in gold.meta if item[0] == "lemmas"))
        raw_answers = _answers(model, found, raw)
        stepped = [_answers(model, found, batch) for batch in steps]
        for gold_id, start in targets.items():
            gold = by_id[gold_id]
            k, cause = at.get(start), causes[gold_id]
            answer = raw_answers[k] if k is not None else None
            table.xml_right[cause] += xml[gold_id] in gold.senses
            table.raw_right[cause] += answer in gold.senses
            if cause != "same unit":
                continue
            trail = [answer, *(s[k] for s in stepped), xml[gold_id]]
            for step, before, after in zip(STEPS, trail[:-1], trail[1:], strict=True):
                table.gained[step] += after in gold.senses and before not in gold.senses
                table.lost[step] += before in gold.senses and after not in gold.senses
    return table


def _with_lemmas(inst: Instance, lemmas: tuple[str, ...] | None) -> Instance:
    meta = tuple(item for item in inst.meta if item[0] != "lemmas")
    return replace(inst, meta=(*meta, ("lemmas", lemmas))) if lemmas else inst


def gap_rows(table: GapTable, xml_f1: float, raw_f1: float) -> list[str]:
    """The table as lines of text: the causes, then the same-unit waterfall."""
    lines = [f"XML F1 {100 * xml_f1:.1f}, plain {100 * raw_f1:.1f}, gap "
             f"{100 * (xml_f1 - raw_f1):.1f} ({table.total} instances)"]
    for cause in CAUSES:
        lines.append(f"  {cause:<12} {table.instances[cause]:>5} instances, right XML "
                     f"{table.xml_right[cause]:>5} / plain {table.raw_right[cause]:>5}: "
                     f"{table.points(cause):+.2f} F1 points lost")
    lines.append(f"  same unit, answers turned right/wrong per step (same tokens as the XML: "
                 f"{table.same_tokens} of {table.instances['same unit']}):")
    for step in STEPS:
        lines.append(f"    {step:<20} +{table.gained[step]:<4} -{table.lost[step]:<4} "
                     f"{table.step_points(step):+.2f} F1 points")
    return lines

