"""What a model was trained on, so that it can refuse data it was not made for.

A supervised model records its target lemmas, the senses it saw and a fingerprint (SHA-256) of
the training instances. Before predicting, :func:`check_targets` refuses instances of another
word; :func:`evaluation_warnings` says when test data is the training data or holds senses the
model never saw.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from wsd.instance import Instance


def data_fingerprint(instances: Sequence[Instance]) -> str:
    """SHA-256 of the instances' ids, tokens, spans, lemmas and senses, in any order."""
    rows = sorted(
        json.dumps([inst.id, list(inst.tokens), list(inst.span), inst.lemma, list(inst.senses)],
                   ensure_ascii=False)
        for inst in instances)
    digest = hashlib.sha256()
    for row in rows:
        digest.update(row.encode("utf-8") + b"\n")
    return digest.hexdigest()


def training_record(instances: Sequence[Instance]) -> dict[str, Any]:
    """The record a model keeps of its training data."""
    return {"instances": len(instances),
            "lemmas": sorted({inst.lemma for inst in instances}),
            "senses": sorted({sense for inst in instances for sense in inst.senses}),
            "data_sha256": data_fingerprint(instances)}


def check_record(record: Any) -> dict[str, Any] | None:
    """A training record read from a model file, checked for shape (None stays None)."""
    if record is None:
        return None
    if not isinstance(record, Mapping):
        raise ValueError("'training' must be an object")
    count = record.get("instances")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"'training.instances' must be a positive integer, got {count!r}")
    for field in ("lemmas", "senses"):
        values = record.get(field)
        if not isinstance(values, list) or not values or not all(
                isinstance(v, str) and v for v in values):
            raise ValueError(f"'training.{field}' must be a non-empty list of strings")
    digest = record.get("data_sha256")
    if not (isinstance(digest, str) and len(digest) == 64
            and all(c in "0123456789abcdef" for c in digest)):
        raise ValueError("'training.data_sha256' must be a SHA-256 hex digest")
    return dict(record)


def check_targets(lemmas: Sequence[str], instances: Sequence[Instance], source: str = "") -> None:
    """ValueError when an instance's lemma is not one the model was trained for."""
    if not lemmas:
        return
    known = set(lemmas)
    foreign = [inst for inst in instances if inst.lemma not in known]
    if foreign:
        where = f"{source}: " if source else ""
        found = sorted({inst.lemma for inst in foreign})
        raise ValueError(
            f"{where}{len(foreign)} instance(s) are for {', '.join(map(repr, found[:5]))} (first: "
            f"{foreign[0].id}), but the model was trained for {', '.join(lemmas)} only; use a "
            "model trained for that word (or give the lemma in the data)")


def evaluation_warnings(record: Mapping[str, Any] | None, instances: Sequence[Instance],
                        source: str) -> list[str]:
    """Why scores on ``instances`` would mislead: they are the training data, or hold gold
    senses the model never saw."""
    if not record:
        return []
    notes = []
    if data_fingerprint(instances) == record["data_sha256"]:
        notes.append(f"{source} is the data this model was trained on: the score measures "
                     "memory, not accuracy on new text")
    seen = set(record["senses"])
    unseen = sorted({s for inst in instances for s in inst.senses} - seen)
    if unseen:
        notes.append(f"{source} has gold sense(s) the model never saw in training "
                     f"({', '.join(unseen[:5])}{', ...' if len(unseen) > 5 else ''}); it "
                     "cannot answer them")
    return notes


def check_single_target(instances: Sequence[Instance], source: str) -> None:
    """ValueError when ``instances`` hold more than one target word (a model disambiguates one),
    naming each word's first instance so the rows can be found."""
    first: dict[str, str] = {}
    for inst in instances:
        first.setdefault(inst.lemma, inst.id)
    if len(first) > 1:
        shown = ", ".join(f"{lemma!r} (first: {inst_id})" for lemma, inst_id in
                          list(first.items())[:5])
        raise ValueError(
            f"{source} holds {len(first)} target words: {shown}{', ...' if len(first) > 5 else ''}"
            "; a model disambiguates one word. If these are forms of one word, give the lemma "
            "(a lemma column in TSV, \"lemma\" in JSONL); else train one model per word, or use "
            "`wsd allwords` for all-words data")
