"""Senseval's ``scorer2`` for lexical-sample answers: fine-grained, and coarse with a sense map.

Answers and keys are lines ``lexelt instance_id sense [sense ...]``. As in scorer2, an answer
with several senses spreads one unit of credit evenly over them, and each answered sense earns
its share when it is among the instance's gold senses (so a single answer is right when it is
any of the listed gold senses, ``U`` included). Then

    precision = credit / attempted,   recall = credit / instances in the key,
    attempted = answered instances / instances in the key.

Coarse-grained scoring first maps every sense, in answers and key alike, to its coarse sense
with a sense map: lines ``sense parent [grandparent ...]`` (scorer2's subsumption hierarchy);
the coarse sense is the last one listed, followed further when that sense has a line of its
own (so a hierarchy split over several lines still gives one coarse sense per sense), and senses
the map does not list stand for themselves. A cycle, or a sense with two lines, is an error
naming the file and line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from wsd.persistence import read_text

PathLike = str | os.PathLike


def read_sense_map(path: PathLike) -> dict[str, str]:
    """``{sense: coarse sense}`` from a sense-map file (see the module docstring)."""
    parent: dict[str, str] = {}
    line_of: dict[str, int] = {}
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        fields = line.split()
        if not fields:
            continue
        if fields[0] in parent:
            raise ValueError(f"{path}:{number}: sense {fields[0]!r} is mapped twice (first on "
                             f"line {line_of[fields[0]]})")
        parent[fields[0]], line_of[fields[0]] = fields[-1], number
    mapping = {}
    for sense in parent:
        chain = [sense]
        while parent.get(chain[-1], chain[-1]) != chain[-1]:
            if parent[chain[-1]] in chain:
                raise ValueError(f"{path}:{line_of[sense]}: the sense map has a cycle: "
                                 f"{' -> '.join([*chain, parent[chain[-1]]])}")
            chain.append(parent[chain[-1]])
        mapping[sense] = chain[-1]
    return mapping


def score_lexsample(
    gold: Mapping[str, Sequence[str]],
    answers: Mapping[str, str | Sequence[str] | None],
    sense_map: Mapping[str, str] | None = None,
) -> dict[str, float | int]:
    """precision, recall, attempted (fractions) and correct, answered, total, as scorer2.

    ``gold`` maps instance ids to their gold senses; ``answers`` maps ids to one sense, several
    (credit shared) or None. With ``sense_map`` the scoring is coarse-grained. An answer for an
    id not in ``gold`` raises ValueError: it was made for another data set.
    """
    if not gold:
        raise ValueError("the key is empty; nothing to score against")
    unknown = [instance_id for instance_id in answers if instance_id not in gold]
    if unknown:
        raise ValueError(f"{len(unknown)} answered id(s) are not in the key (e.g. "
                         f"{', '.join(unknown[:5])}); were the answers made for another file?")

    def coarse(sense: str) -> str:
        return sense_map.get(sense, sense) if sense_map else sense

    credit, answered = 0.0, 0
    for instance_id, answer in answers.items():
        senses = [answer] if isinstance(answer, str) else list(answer or ())
        if not senses:
            continue
        answered += 1
        right = {coarse(sense) for sense in gold[instance_id]}
        credit += sum(coarse(sense) in right for sense in senses) / len(senses)
    return {
        "precision": credit / answered if answered else 0.0,
        "recall": credit / len(gold),
        "attempted": answered / len(gold),
        "correct": credit,
        "answered": answered,
        "total": len(gold),
    }


def format_score(scores: Mapping[str, float | int], grain: str = "fine") -> str:
    """scorer2's three lines for one grain."""
    return (
        f"{grain.capitalize()}-grained score:\n"
        f" precision: {scores['precision']:.3f} ({scores['correct']:.2f} correct of "
        f"{scores['answered']:.2f} attempted)\n"
        f" recall: {scores['recall']:.3f} ({scores['correct']:.2f} correct of "
        f"{scores['total']:.2f} in total)\n"
        f" attempted: {100 * scores['attempted']:.2f} % ({scores['answered']:.2f} attempted of "
        f"{scores['total']:.2f} in total)"
    )
