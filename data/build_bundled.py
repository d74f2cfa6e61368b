"""Build the bundled corpus: ``data/bundled/<target>.src.tsv`` -> ``<target>.jsonl``.

Usage: python data/build_bundled.py [TARGET ...]    (default: every target with a .src.tsv)
       python data/build_bundled.py --table         (only print the table; needs no tagger)

Reads the hand-written sentences, checks them against ``<target>.senses.json`` (errors give
file:line), tokenizes with ``Instance.from_text``, tags every token with NLTK's averaged
perceptron tagger (Penn tags) and writes one JSON object per line. Tagger fix-up, documented in
data/README.md: when the inventory says the target is a NOUN but the tagger gave the target
token some other tag (NNP for a capitalised "Bass" at the start of a sentence, VB for "crane"),
the tag is set to NN, or NNS for an inflected (plural) form. Straight double quotes are shown to
the tagger as `` and '' (the tokens themselves are stored as written). Finally prints the sense
distribution table of every built target as Markdown, for the datasheet.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import nltk

from wsd.corpora.bundled import (
    bundled_data_dir,
    bundled_targets,
    load_bundled,
    load_bundled_inventory,
    read_inventory,
    read_source,
)
from wsd.instance import Instance
from wsd.resources import require_nltk_resource

NOUN_TAGS = ("NN", "NNS")


def target_tag(token: str, lemma: str, tag: str) -> str:
    """The tag to store for a noun target token: the tagger's when it is NN/NNS, else fixed."""
    if tag in NOUN_TAGS:
        return tag
    return "NN" if token.lower() == lemma.lower() else "NNS"


def tagger_tokens(tokens: tuple[str, ...]) -> list[str]:
    """Tokens as the Penn-trained tagger expects them: straight double quotes become `` and ''
    (alternating, opening first), otherwise the tagger mistakes them for words."""
    result, opening = [], True
    for token in tokens:
        if token == '"':
            token, opening = ("``" if opening else "''"), not opening
        result.append(token)
    return result


def tag_instance(inst: Instance) -> tuple[Instance, int]:
    """The instance with Penn tags, and how many target tags were overridden (0 or more)."""
    tags = [tag for _, tag in nltk.pos_tag(tagger_tokens(inst.tokens))]
    fixed = 0
    if inst.target_pos == "NOUN":
        for i in range(*inst.span):
            new = target_tag(inst.tokens[i], inst.lemma, tags[i])
            fixed += new != tags[i]
            tags[i] = new
    return inst.with_pos(tags), fixed


ABBREVIATIONS = {"Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Jr.", "Sr.", "Prof."}


def check_tokens(inst: Instance) -> None:
    """Catch a period glued to a word ("said."), which the sentence-aware tokenizer leaves
    only where it cannot tell a sentence end (e.g. before a lower-case word) or where the
    marker encloses the period. On the target that is an error, elsewhere a warning."""
    where = dict(inst.meta)["source"]
    for i, token in enumerate(inst.tokens[:-1]):
        if token in ABBREVIATIONS:
            continue
        if len(token) > 1 and token.endswith(".") and token[:-1].isalpha():
            if inst.span[0] <= i < inst.span[1]:
                raise ValueError(f"{where}: target token {token!r} keeps a sentence's period")
            print(f"warning: {where}: token {token!r} keeps a sentence's period", file=sys.stderr)


def to_record(inst: Instance) -> dict:
    return {
        "id": inst.id,
        "sense": inst.sense,
        "tokens": list(inst.tokens),
        "pos": list(inst.pos or ()),
        "span": list(inst.span),
        "lemma": inst.lemma,
    }


def build(target: str, folder: Path) -> None:
    inventory = read_inventory(folder / f"{target}.senses.json")
    instances = read_source(folder / f"{target}.src.tsv", inventory)
    out = folder / f"{target}.jsonl"
    for inst in instances:
        check_tokens(inst)
    fixed_total = 0
    with open(out, "w", encoding="utf-8") as handle:
        for inst in instances:
            tagged, fixed = tag_instance(inst)
            fixed_total += fixed
            handle.write(json.dumps(to_record(tagged), ensure_ascii=False) + "\n")
    print(f"{out}: {len(instances)} instances, {fixed_total} target tag(s) fixed", file=sys.stderr)


def distribution_table(folder: Path) -> str:
    """Markdown table: target, sense, WordNet key, count, share."""
    rows = [
        "| target | sense | WordNet 3.0 key | instances | share |",
        "|---|---|---|---:|---:|",
    ]
    for target in bundled_targets(folder):
        counts = Counter(inst.sense for inst in load_bundled(target, folder))
        total = sum(counts.values())
        for sense in load_bundled_inventory(target, folder)["senses"]:
            n = counts[sense["id"]]
            key = f"`{sense['wordnet']}`" if sense["wordnet"] else "—"
            rows.append(f"| {target} | {sense['id']} | {key} | {n} | {n / total:.1%} |")
        rows.append(f"| {target} | **total** | | **{total}** | |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    folder = bundled_data_dir(Path(__file__).resolve().parent / "bundled")
    if argv == ["--table"]:
        print(distribution_table(folder))
        return 0
    targets = argv or sorted(p.name[: -len(".src.tsv")] for p in folder.glob("*.src.tsv"))
    require_nltk_resource("averaged_perceptron_tagger_eng")
    for target in targets:
        build(target, folder)
    print(distribution_table(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
