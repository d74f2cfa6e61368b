"""The all-words scorer of the unified WSD evaluation framework (Raganato et al., 2017).

It reproduces the framework's ``Scorer.java``: for every instance the system answered, the credit
is the fraction of its (distinct) answered keys that are among the gold keys, so one right key of
two answered earns 1/2. Then

    P = credit / answered instances,   R = credit / gold instances,   F1 = 2 P R / (P + R).

Two deliberate differences, neither of which changes a score Scorer.java can compute: an answer
for an id that is not in the gold standard raises ValueError (Scorer.java silently skips it, which
hides predictions made for the wrong dataset; pass ``ignore_unknown=True`` to skip them too), and
P is 0 rather than NaN when nothing was answered. Key files are read with
``wsd.corpora.framework.read_key_file``, which also rejects incomplete lines and repeated ids that
Scorer.java would skip or merge.

Run ``python -m wsd.evaluation.scorer GOLD_KEY SYSTEM_KEY`` for Scorer.java's printout.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from wsd.corpora.framework import read_key_file

_SHOWN_IDS = 5


def _key_set(value: str | Iterable[str] | None) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        return frozenset((value,))
    return frozenset(value)


def score_framework(
    gold: Mapping[str, str | Iterable[str]],
    predictions: Mapping[str, str | Iterable[str] | None],
    ignore_unknown: bool = False,
) -> dict[str, float | int]:
    """P, R and F1 (fractions in [0, 1]) with the counts behind them.

    ``gold`` maps each instance id to its gold key(s); ``predictions`` maps ids to one key, several
    keys (partial credit), or None / nothing for no answer. Ids missing from ``predictions`` are
    unanswered. Returns P, R, F1, correct (the summed credit), answered, total (gold instances).
    """
    gold_sets = {instance_id: _key_set(keys) for instance_id, keys in gold.items()}
    if not gold_sets:
        raise ValueError("the gold standard is empty; nothing to score against")
    empty = [instance_id for instance_id, keys in gold_sets.items() if not keys]
    if empty:
        raise ValueError(f"gold instances without a sense key: {', '.join(empty[:_SHOWN_IDS])}")
    unknown = [instance_id for instance_id in predictions if instance_id not in gold_sets]
    if unknown and not ignore_unknown:
        raise ValueError(
            f"{len(unknown)} predicted id(s) are not in the gold standard (first: "
            f"{', '.join(map(str, unknown[:_SHOWN_IDS]))}); were the predictions made for "
            "another dataset? Pass ignore_unknown=True to skip them as Scorer.java does"
        )
    credit, answered = 0.0, 0
    for instance_id, answer in predictions.items():
        keys = _key_set(answer)
        if not keys or instance_id not in gold_sets:
            continue
        answered += 1
        credit += len(keys & gold_sets[instance_id]) / len(keys)
    precision = credit / answered if answered else 0.0
    recall = credit / len(gold_sets)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {
        "P": precision,
        "R": recall,
        "F1": f1,
        "correct": credit,
        "answered": answered,
        "total": len(gold_sets),
    }


def score_key_files(
    gold_path: str | Path, pred_path: str | Path, ignore_unknown: bool = False
) -> dict[str, float | int]:
    """``score_framework`` on a gold key file and a system key file (lines ``id key1 [key2]``)."""
    return score_framework(read_key_file(gold_path), read_key_file(pred_path), ignore_unknown)


def _java_one_decimal(value: float) -> str:
    """Java's ``String.format("%.1f", value)``: the shortest decimal repr, rounded half up."""
    return str(Decimal(repr(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def format_scores(scores: Mapping[str, float | int]) -> str:
    """Scorer.java's printout: P, R and F1 as percentages with one decimal."""
    return "\n".join(
        f"{name}=\t{_java_one_decimal(100 * scores[name])}%" for name in ("P", "R", "F1")
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: score a system key file against a gold key file; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m wsd.evaluation.scorer GOLD_KEY SYSTEM_KEY", file=sys.stderr)
        return 2
    try:
        scores = score_key_files(*args)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(format_scores(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
