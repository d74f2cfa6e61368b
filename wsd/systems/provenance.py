"""What a model was trained on, so that it can refuse data it was not made for.

A supervised model records its target lemmas, the senses it saw, a fingerprint (SHA-256) of
the training instances and a short content hash of each (its tokens, target span and lemma, not
its id). Before predicting, :func:`check_targets` refuses instances of another word;
:func:`evaluation_warnings` says when test data is the training data, when some test instances
also occur in the training data, or when it holds senses the model never saw.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from wsd.instance import Instance
from wsd.knowledge.forms import form_lemma


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


CONTENT_HASH_CHARS = 16  # 64 bits: no accidental collision among millions of instances


def content_hash(instance: Instance) -> str:
    """A short hash of what an instance says (tokens, target span, lemma), whatever its id or
    gold senses: the same sentence and target in two files hash alike."""
    row = json.dumps([list(instance.tokens), list(instance.span), instance.lemma],
                     ensure_ascii=False)
    return hashlib.sha256(row.encode("utf-8")).hexdigest()[:CONTENT_HASH_CHARS]


def training_record(instances: Sequence[Instance]) -> dict[str, Any]:
    """The record a model keeps of its training data."""
    return {"instances": len(instances),
            "lemmas": sorted({inst.lemma for inst in instances}),
            "senses": sorted({sense for inst in instances for sense in inst.senses}),
            "data_sha256": data_fingerprint(instances),
            "content_hashes": sorted({content_hash(inst) for inst in instances})}


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
    hashes = record.get("content_hashes", [])  # absent in models saved before it was recorded
    if not isinstance(hashes, list) or not all(
            isinstance(h, str) and len(h) == CONTENT_HASH_CHARS
            and all(c in "0123456789abcdef" for c in h) for h in hashes):
        raise ValueError("'training.content_hashes' must be a list of "
                         f"{CONTENT_HASH_CHARS}-digit hex hashes")
    return dict(record)


def check_targets(lemmas: Sequence[str], instances: Sequence[Instance], source: str = ""
                  ) -> list[Instance]:  # fmt: skip
    """``instances``, each with the model's lemma where its marked word is an inflection of
    one (*bats* for a model of bat, found as ``wsd disambiguate`` finds it; ValueError when it
    is a form of several); ValueError when an instance is for a word the model was not
    trained for."""
    if not lemmas:
        return list(instances)
    known = set(lemmas)
    instances = [inst if inst.lemma in known else _with_lemma(inst, known, source)
                 for inst in instances]  # fmt: skip
    foreign = [inst for inst in instances if inst.lemma not in known]
    if foreign:
        where = f"{source}: " if source else ""
        found = sorted({inst.lemma for inst in foreign})
        raise ValueError(
            f"{where}{len(foreign)} instance(s) are for {', '.join(map(repr, found[:5]))} (first: "
            f"{foreign[0].id}), but the model was trained for {', '.join(lemmas)} only; use a "
            "model trained for that word (or give the lemma in the data)")
    return instances


def _with_lemma(inst: Instance, lemmas: set[str], source: str) -> Instance:
    lemma = form_lemma(inst.target, lemmas, f"{source + ': ' if source else ''}{inst.id}")
    return inst if lemma is None else replace(inst, lemma=lemma)


def evaluation_warnings(record: Mapping[str, Any] | None, instances: Sequence[Instance],
                        source: str) -> list[str]:
    """Why scores on ``instances`` would mislead: they are the training data, some of them
    occur in the training data, or they hold gold senses the model never saw."""
    notes = EvaluationNotes(record, source)
    notes.add(instances)
    return notes.warnings()


class EvaluationNotes:
    """:func:`evaluation_warnings` over instances given batch by batch (``add``): memory
    holds their gold senses and counts, and the instances themselves only while they are no
    more than the training data's (only then can they be the training data)."""

    def __init__(self, record: Mapping[str, Any] | None, source: str) -> None:
        self.record, self.source = record, source
        self.trained = set(record.get("content_hashes", ())) if record else set()
        self.count = self.seen_before = 0
        self.senses: set[str] = set()
        self.kept: list[Instance] | None = []

    def add(self, instances: Sequence[Instance]) -> None:
        if not self.record:
            return
        self.count += len(instances)
        self.seen_before += sum(content_hash(inst) in self.trained for inst in instances)
        self.senses.update(sense for inst in instances for sense in inst.senses)
        if self.kept is not None:
            self.kept.extend(instances)
            if len(self.kept) > self.record.get("instances", len(self.kept)):
                self.kept = None  # more than were trained on: not the training data

    def warnings(self) -> list[str]:
        record, source = self.record, self.source
        if not record:
            return []
        notes = []
        if self.kept is not None and data_fingerprint(self.kept) == record["data_sha256"]:
            notes.append(f"{source} is the data this model was trained on: the score measures "
                         "memory, not accuracy on new text")
        elif self.seen_before:
            notes.append(f"{self.seen_before} of the {self.count} instances of {source} also "
                         "occur in the training data (same sentence and target): the score is "
                         "optimistic; leave them out for an honest test")
        unseen = sorted(self.senses - set(record["senses"]))
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


def check_two_senses(instances: Sequence[Instance], source: str) -> None:
    """ValueError naming ``source`` when its instances have fewer than two senses: a
    classifier has nothing to choose between."""
    senses = {sense for inst in instances for sense in inst.senses[:1]}
    if len(senses) < 2:
        only = f"only the sense {next(iter(senses))!r}" if senses else "no sense"
        raise ValueError(f"{source}: every instance has {only}; a classifier needs at least two "
                         "senses to choose from (--learner mfs answers the one sense)")
