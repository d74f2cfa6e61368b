"""Senseval's ``scorer2`` for lexical-sample answers: fine-grained, and coarse with a sense map.

Answers and keys are lines ``lexelt instance_id sense [sense ...]``. As in scorer2, an answer
with several senses spreads one unit of credit evenly over them, and each answered sense earns
its share when it is among the instance's gold senses (so a single answer is right when it is
any of the listed gold senses, ``U`` included). Then

    precision = credit / attempted,   recall = credit / instances in the key,
    attempted = answered instances / instances in the key.

Coarse-grained scoring first maps every sense, in answers and key alike, to its coarse sense
with a sense map: lines ``sense parent [grandparent ...]`` (scorer2's subsumption hierarchy);
the coarse sense is the last one listed, and senses the map does not list stand for themselves.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

PathLike = str | os.PathLike


def read_sense_map(path: PathLike) -> dict[str, str]:
    """``{sense: coarse sense}`` from a sense-map file (see the module docstring)."""
    mapping: dict[str, str] = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            fields = line.split()
            if not fields:
                continue
            if fields[0] in mapping:
                raise ValueError(f"{path}:{number}: sense {fields[0]!r} is mapped twice")
            mapping[fields[0]] = fields[-1]
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
