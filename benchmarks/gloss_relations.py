"""Gloss vectors through WordNet's relations (issue 39, held-out SemCor +1.5; docs/sense-vectors.md,
"Gloss vectors through WordNet's relations"), against the ``tuned+context`` default (gloss
fusion 200 + gloss backoff).

Today a synset's gloss vector ``g_s`` encodes ``"lemma names: gloss; examples"`` alone. Variants:

- text (``--texts``), each encoded once into its own file ``<work>/gloss-<text>.npz`` (header
  naming the text; never the default's cache): ``hyper`` inserts the hypernyms' (and instance
  hypernyms') lemma names after the gloss, ``"...: gloss; a kind of: vessel, container;
  examples"``; ``lex`` puts the lexicographer file's name (nouns and verbs: noun.artifact ->
  "artifact") after the lemma names, ``"pitcher, ewer (artifact): gloss; examples"``; ``hyper+lex``
  both;
- vector, no new text: ``g' = unit(g) + alpha · unit(mean of the related synsets' unit g)``,
  the related synsets being the hypernyms and instance hypernyms (``hyper``), the synsets of
  the lemmas' derivationally related forms (``deriv``), the hyponyms and instance hyponyms
  (``hypo``), the similar, also-see and verb-group synsets (``similar``), unions of them
  (``hyper+deriv``, ``hyper+hypo``; ``all``: these and the part, member and substance
  meronyms and holonyms), or the synsets of the same lexicographer file among the candidates
  of all of SemCor (``lexfile``); alpha 0.1, 0.25, 0.5, 1; a synset with none keeps ``g``.

Everything else is the default's: the context vector ``c`` (0.7 · the unit target vector, last
layer, 128-piece window, + 0.3 · the unit sentence vector; computed once per set and kept as
``<work>/context-<set>.npy``), the classifiers' totals, the fusion's weight 200, the margin and
the backoff (keys seen without a classifier: log training prior + 10 · cosine + overlap): the
cells reuse ``benchmarks/gloss_classifiers.py``'s instance terms (``terms-<set>.json`` in
``--models``, its ``Grid`` and ``backoff_answer``) with each candidate's gloss cosine replaced
by the variant's. ``--fusion-grid VARIANT``: the fusion's weight re-checked for one variant
(the fusion's grid of docs/sense-vectors.md, "Choices": 10 · w for w = 0-30). ``--no-model``:
``GlossWithPrior`` without training (its WordNet prior, 10 · cosine, overlap) on the sets asked,
default vectors and each variant.

Each line: F1 over all instances, the accuracy on the instances whose key has a classifier and
on the others, and the number of right answers (``--no-model``: F1). Sets: semeval2007,
heldout, oof0, oof1 (development), senseval2, senseval3 (reported only).

    WSD_CACHE_DIR=... nice -n 10 python benchmarks/gloss_relations.py --models DIR \
        --sets semeval2007 heldout oof0 oof1 senseval2 senseval3 [--texts hyper lex hyper+lex]
    WSD_CACHE_DIR=... nice -n 10 python benchmarks/gloss_relations.py --models DIR \
        --fusion-grid "hyper alpha 0.25" --sets ...
    WSD_CACHE_DIR=... nice -n 10 python benchmarks/gloss_relations.py --models DIR --no-model \
        --sets semeval2007 senseval2 senseval3

Needs the framework data, the NLTK data and the [context] extra; ``--models``: the folder of
gloss_classifiers.py's models and ``terms-<set>.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from gloss_classifiers import Grid, backoff_answer
from learned_gloss import per_class, split

from wsd.corpora.framework import load_dataset
from wsd.evaluation.scorer import score_framework
from wsd.features.encoders import DEFAULT_ENCODER, load_encoder
from wsd.features.gloss_vectors import (
    GlossStore,
    GlossVectors,
    gloss_head,
    gloss_text,
    layer_numbers,
    sentence_vectors,
    text_words,
    unit_rows,
)
from wsd.knowledge.inventory import WordNetInventory, nltk_wordnet
from wsd.persistence import atomic_open
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.keymodel import most_frequent
from wsd.systems.gloss_prior import DEFAULT_WEIGHT, GlossWithPrior
from wsd.systems.lesk import log_prior as wordnet_prior

FUSION = 200.0  # the default's gloss_fusion (DEFAULT_GLOSS_FUSION)
FUSION_GRID = (0, 5, 10, 20, 30, 50, 80, 120, 200, 250, 300)  # 10 w, the fusion grid's w = 0-30
ALPHAS = (0.1, 0.25, 0.5, 1.0)
TEXTS = ("hyper", "lex", "hyper+lex")
RELATIONS = ("hyper", "deriv", "lexfile", "hypo", "similar", "hyper+deriv", "hyper+hypo", "all")
POINTERS = {  # relation -> the synsets it links to (lemmas' derivations: ``related``)
    "hyper": lambda s: s.hypernyms() + s.instance_hypernyms(),
    "hypo": lambda s: s.hyponyms() + s.instance_hyponyms(),
    "similar": lambda s: s.similar_tos() + s.also_sees() + s.verb_groups(),
    "part": lambda s: (s.part_meronyms() + s.part_holonyms() + s.member_meronyms()
                       + s.member_holonyms() + s.substance_meronyms() + s.substance_holonyms()),
}


def hypernyms(synset) -> list:
    return synset.hypernyms() + synset.instance_hypernyms()


def names_of(synset) -> str:
    return ", ".join(name.replace("_", " ") for name in synset.lemma_names())


def variant_text(synset, kind: str) -> str:
    """The text of ``synset`` for the variant ``kind`` (see the module docstring)."""
    head = gloss_head(synset)
    if "lex" in kind.split("+") and synset.pos() in "nv":
        head = head.replace(": ", f" ({synset.lexname().split('.')[1]}): ", 1)
    parts = [head]
    if "hyper" in kind.split("+") and hypernyms(synset):
        parts.append("a kind of: " + ", ".join(names_of(h) for h in hypernyms(synset)))
    return "; ".join([*parts, *synset.examples()])


def text_vectors(kind: str, synsets: Sequence[str], work: Path, wn, base: GlossVectors
                 ) -> dict[str, np.ndarray]:  # fmt: skip
    """The variant text's vector of each synset (encoded once into ``<work>/gloss-<kind>.npz``,
    a file of its own whose header names the text; a synset whose text is the default's has
    the default's vector)."""
    encoder = load_encoder(DEFAULT_ENCODER)
    store = GlossStore(work / f"gloss-{kind}.npz", {
        "encoder": encoder.identity, "pooling": "mean-of-all-pieces", "wordnet": "nltk",
        "layers": layer_numbers(encoder, (-1,)), "text": kind})
    known = store.load()
    same = [s for s in synsets if variant_text(wn.synset(s), kind) == gloss_text(wn.synset(s))]
    known.update(base.vectors(same))
    todo = [s for s in dict.fromkeys(synsets) if s not in known]
    if todo:
        start = time.time()
        texts = [text_words(variant_text(wn.synset(s), kind)) for s in todo]
        known.update(zip(todo, sentence_vectors(encoder, texts).astype(np.float16), strict=True))
        store.save({s: v for s, v in known.items() if s not in same})
        print(f"text {kind}: {len(todo)} synsets encoded in {time.time() - start:.0f} s",
              flush=True)
    return {s: known[s].astype(np.float32) for s in synsets}


def related(kind: str, synset) -> list[str]:
    """The names of the synsets related to ``synset`` by ``kind``: relations of ``POINTERS``
    or "deriv" (the lemmas' derivationally related forms), joined by "+"; "all" is every one
    of them."""
    found = set()
    for part in (["deriv", *POINTERS] if kind == "all" else kind.split("+")):
        if part == "deriv":
            found |= {form.synset().name() for lemma in synset.lemmas()
                      for form in lemma.derivationally_related_forms()}
        else:
            found |= {s.name() for s in POINTERS[part](synset)}
    return sorted(found - {synset.name()})


def mixed_vectors(kind: str, alpha: float, synsets: Sequence[str], base: GlossVectors,
                  wn, pool: Sequence[str]) -> dict[str, np.ndarray]:  # fmt: skip
    """``unit(g) + alpha · unit(mean of the related synsets' unit g)`` of each synset (``g``
    itself without related synsets); "lexfile": the synsets of ``pool`` (SemCor's candidates)
    in the same lexicographer file."""
    own = {s: v for s, v in zip(synsets, unit_rows(np.stack(
        list(base.vectors(synsets).values()))), strict=True)}  # fmt: skip
    if kind == "lexfile":
        units = unit_rows(np.stack(list(base.vectors(pool).values())))
        lexes = np.array([wn.synset(s).lexname() for s in pool])
        means = {lex: units[lexes == lex].mean(axis=0) for lex in set(lexes)}
        others = {s: means[wn.synset(s).lexname()] for s in synsets}
    else:
        links = {s: related(kind, wn.synset(s)) for s in synsets}
        vectors = base.vectors(sorted({r for found in links.values() for r in found}))
        others = {s: unit_rows(np.stack([vectors[r] for r in found])).mean(axis=0)
                  for s, found in links.items() if found}  # fmt: skip
    out = {}
    for s in synsets:
        extra = others.get(s)
        out[s] = own[s] if extra is None else own[s] + alpha * extra / max(
            np.linalg.norm(extra), 1e-12)
    return out


def contexts(name: str, instances: Sequence, gloss: GlossWithPrior, work: Path) -> np.ndarray:
    """GlossWithPrior's context vector ``c`` of each instance (0 without candidates), computed
    once and kept in ``<work>/context-<name>.npy``."""
    path = work / f"context-{name}.npy"
    if path.exists():
        return np.load(path, allow_pickle=False)
    start = time.time()
    gloss.prepare(instances)
    rows = np.zeros((len(instances), 384), np.float32)
    for i, inst in enumerate(instances):
        rows[i] = ((1 - gloss.mix) * gloss._targets[(inst.tokens, inst.span)]
                   + gloss.mix * gloss._sentences[inst.tokens])  # fmt: skip
    with atomic_open(path, "wb") as stream:
        np.save(stream, rows)
    print(f"{name}: contexts of {len(instances)} instances in {time.time() - start:.0f} s",
          flush=True)
    return rows


class Place:
    """One scored set: its records (gloss_classifiers' terms), instances, candidates and
    context vectors."""

    def __init__(self, name: str, models: Path, semcor: list, gloss: GlossWithPrior,
                 work: Path) -> None:  # fmt: skip
        self.name = name
        self.records = json.loads((models / f"terms-{name}.json").read_text())
        self.instances = split(name, semcor)[1]
        self.senses = [gloss.candidate_senses(inst) for inst in self.instances]
        for record, senses in zip(self.records, self.senses, strict=True):
            assert [c[0] for c in record["cands"]] == [s.id for s in senses], name
        self.context = contexts(name, self.instances, gloss, work)

    def synsets(self) -> set[str]:
        return {s.synset for senses in self.senses for s in senses}

    def cosines(self, vectors: dict[str, np.ndarray]) -> list[dict[str, float]]:
        """Each instance's candidates' cosines of ``vectors`` with its context."""
        out = []
        for senses, c in zip(self.senses, self.context, strict=True):
            if not senses:
                out.append({})
                continue
            units = unit_rows(np.stack([vectors[s.synset] for s in senses]))
            out.append(dict(zip((s.id for s in senses), (units @ c).tolist(), strict=True)))
        return out

    def score(self, cosines: list[dict[str, float]], fusions: Sequence[float] = (FUSION,),
              margin: float = 0.5) -> dict[float, tuple[float, float, float, int]]:  # fmt: skip
        """Per fusion weight: F1, accuracy with a classifier and without, and the number of
        right answers, by the default's rules with the candidates' gloss cosines ``cosines``."""
        records = []
        for record, cos in zip(self.records, cosines, strict=True):
            record = dict(record, cands=[[c[0], c[1], DEFAULT_WEIGHT * cos[c[0]], *c[3:]]
                                         for c in record["cands"]])
            if record["classes"] is not None:
                record["gcos"] = per_class(cos, record["classes"])
            records.append(record)
        classified = [r for r in records if r["classes"] is not None]
        others = [r for r in records if r["classes"] is None]
        grid = Grid(records, [most_frequent(r["counts"]) for r in classified])
        answers = [backoff_answer(r, 0, "train") for r in others]
        b_right = sum(a is not None and a in r["gold"] for a, r in zip(answers, others,
                                                                       strict=True))
        b_answered = sum(a is not None for a in answers)
        out = {}
        for fusion in fusions:
            right = grid.right(fusion, 0, margin, None)
            p, r = (right + b_right) / (len(classified) + b_answered), (right + b_right) / len(
                records)
            out[fusion] = (100 * 2 * p * r / (p + r), 100 * right / len(classified),
                           100 * b_right / max(len(others), 1), right + b_right)
        return out

    def no_model(self, cosines: list[dict[str, float]]) -> float:
        """F1 of GlossWithPrior without training: WordNet's prior + 10 · cosine + overlap."""
        answers = {}
        for inst, record, senses, cos in zip(self.instances, self.records, self.senses,
                                             cosines, strict=True):  # fmt: skip
            if not senses:
                answers[inst.id] = None
                continue
            scores = (np.array(wordnet_prior(senses, {}, 1.0)) + DEFAULT_WEIGHT * np.array(
                [cos[s.id] for s in senses]) + np.array([c[3] for c in record["cands"]]))
            answers[inst.id] = senses[int(np.argmax(scores))].id
        gold = {inst.id: inst.senses for inst in self.instances}
        return 100 * score_framework(gold, answers)["F1"]


def variants(args, synsets: list[str], base: GlossVectors, work: Path, wn, pool: list[str]
             ) -> dict[str, Callable[[], dict[str, np.ndarray]]]:  # fmt: skip
    """Label -> a function giving the variant's vector of every synset (``pool``: SemCor's
    candidate synsets, for "lexfile")."""
    found: dict[str, Callable[[], dict[str, np.ndarray]]] = {
        "default": lambda: base.vectors(synsets)}
    for kind in args.texts:
        found[f"text {kind}"] = lambda kind=kind: text_vectors(kind, synsets, work, wn, base)
    for kind in args.relations:
        for alpha in ALPHAS:
            found[f"{kind} alpha {alpha:g}"] = lambda kind=kind, alpha=alpha: mixed_vectors(
                kind, alpha, synsets, base, wn, pool)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=Path("/tmp/wsd-gloss-classifiers"),
                        help="the folder of gloss_classifiers.py's models and terms-<set>.json")
    parser.add_argument("--work", type=Path, default=Path("/tmp/wsd-gloss-relations"),
                        help="contexts and variant vectors are kept here")
    parser.add_argument("--sets", nargs="+",
                        default=["semeval2007", "heldout", "oof0", "oof1"])
    parser.add_argument("--texts", nargs="*", default=list(TEXTS), choices=TEXTS)
    parser.add_argument("--relations", nargs="*", default=list(RELATIONS), choices=RELATIONS)
    parser.add_argument("--fusion-grid", metavar="VARIANT", default=None,
                        help="re-check the fusion weight for this variant (and the default)")
    parser.add_argument("--no-model", action="store_true",
                        help="GlossWithPrior without training, each variant")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    copy = args.work / "gloss-default.npz"  # the default's cache is read, never written
    if not copy.exists():
        default = GlossVectors()
        known = default._open(load_encoder(DEFAULT_ENCODER))
        if default._store is not None and known:
            GlossStore(copy, default._store.header).save(known)
    base = GlossVectors(path=copy)
    gloss = GlossWithPrior(WordNetInventory(), glosses=base)
    semcor = load_dataset("semcor")
    places = [Place(name, args.models, semcor, gloss, args.work) for name in args.sets]
    synsets = sorted(set().union(*(p.synsets() for p in places)))
    wn = nltk_wordnet()
    print(f"{len(synsets)} candidate synsets", flush=True)
    pool = sorted({s.synset for inst in semcor for s in gloss.candidate_senses(inst)})
    table = variants(args, synsets, base, args.work, wn, pool)
    if args.fusion_grid:
        table = {k: v for k, v in table.items() if k in ("default", args.fusion_grid)}
    margin = AllWordsWSD().margin
    for label, make in table.items():
        vectors = make()
        for place in places:
            cosines = place.cosines(vectors)
            if args.no_model:
                print(f"{place.name} {label} no model: F1 {place.no_model(cosines):6.2f}",
                      flush=True)
                continue
            fusions = FUSION_GRID if args.fusion_grid else (FUSION,)
            for fusion, (f1, inside, none, right) in place.score(cosines, fusions,
                                                                 margin).items():
                print(f"{place.name} {label} fusion {fusion:g}: F1 {f1:6.2f} classifier "
                      f"{inside:5.1f} none {none:5.1f} right {right}", flush=True)


if __name__ == "__main__":
    main()
