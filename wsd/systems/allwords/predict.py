"""Prediction: every instance gets its key's classifier (plus sense prior, gloss overlap and one
sense per discourse), else its key's most frequent training sense, else the WordNet first sense,
and a ``Decision`` saying which of them answered, how sure it was and by what margin."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from wsd.instance import Instance
from wsd.knowledge.inventory import (
    Sense,
    WordNetInventory,
    nltk_wordnet,
    shared_inventory,
    wordnet_reader,
)
from wsd.resources import MissingResourceError
from wsd.systems.allwords import sense_features
from wsd.systems.allwords.context import sentence_of
from wsd.systems.allwords.instance_features import InstanceFeatures, spec_json
from wsd.systems.allwords.keymodel import KeyModel, most_frequent
from wsd.systems.lesk import SimplifiedLesk

if TYPE_CHECKING:
    from wsd.features.contextual import Encoding
    from wsd.systems.allwords.gloss_fusion import GlossDecisions
    from wsd.systems.allwords.system import AllWordsWSD

CLASSIFIER, MFS, FIRST_SENSE, VECTORS = "classifier", "mfs", "first-sense", "sense-vectors"


@dataclass(frozen=True)
class Decision:
    """The answer for one instance and where it came from.

    ``source``: "classifier", "mfs" (the key's most frequent training sense), "first-sense"
    (WordNet's), "sense-vectors" (``vector_backoff``) or "gloss" (``gloss_backoff``: its
    share of the softmax of its scores, not calibrated), None when nothing answered.
    ``score``: the chosen sense's share of the softmax of the classifier's total scores
    divided by the system's ``score_temperature`` (an estimate of how often such an answer is
    right), its relative training frequency for "mfs", its share of the softmax of the
    sense-vector scores (not calibrated) for "sense-vectors". ``margin``: the margin over the
    runner-up, as everywhere in wsd: the chosen sense's score minus the runner-up sense's, in
    the units of the scores that chose it (the classifier's totals, prior, gloss overlap and
    discourse included, the sum of its ``reasons``; for "mfs" and "sense-vectors", the
    shares); the sense's own score when there is no runner-up. Both are None for the WordNet
    first sense, which has no scores. ``reasons``: why, when asked.
    """

    sense: str | None
    source: str | None
    score: float | None = None
    margin: float | None = None
    reasons: Reasons | None = None


@dataclass(frozen=True)
class Reasons:
    """Why a system chose its sense over the ``runner_up`` (a sense key): the terms of the
    score margin between them, which sum to it; zero terms left out. A classifier's: the
    bias, the features that moved it most (``bow=deposit``), the others together, the
    contextual block, the sense prior, the gloss overlap and the rest of the document (one
    sense per discourse) and the gloss vectors (``gloss_fusion``)."""

    runner_up: str
    terms: tuple[tuple[str, float], ...]


def one_sense_per_discourse(
    instances: Sequence[Instance], scores: Sequence[np.ndarray], weight: float
) -> np.ndarray:
    """Scores of instances of one key (a row each), each plus ``weight`` times the mean softmax
    of the scores of the other instances in its document (Gale et al. 1992: a word keeps its
    sense within a discourse). Instances with no ``document`` in ``meta`` keep their scores."""
    documents: dict[str, list[int]] = {}
    for i, inst in enumerate(instances):
        document = sentence_of(inst)[0]
        if document:
            documents.setdefault(document, []).append(i)
    stacked = np.array(scores, dtype=np.float64)  # one key's: a row per instance
    shared = [members for members in documents.values() if len(members) > 1]
    if not shared:
        return stacked
    shares = softmax(stacked)
    smoothed = stacked.copy()
    for members in shared:
        total = shares[members].sum(axis=0)
        others = weight * (total - shares[members]) / (len(members) - 1)  # the others' mean
        smoothed[members] = stacked[members] + others
    return smoothed


def softmax(scores: np.ndarray) -> np.ndarray:
    """``scipy.special.softmax`` of a vector, or of each row of a matrix, the same sums in
    plain numpy (importing scipy.special had cost a cold start 0.1 s, and each call its
    dispatch)."""
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def _shares(values: np.ndarray, best: int) -> tuple[float, float]:
    """``(share of best, share of best minus the best other share)`` of a distribution."""
    others = np.delete(values, best)
    return float(values[best]), float(values[best] - (others.max() if others.size else 0.0))


class Knowledge:
    """WordNet's first senses and gloss overlaps, loaded on first use (a system without
    WordNet still answers its classifiers and most frequent senses), from the compiled
    lexicon when there is one (``wsd.knowledge.compiled``: the same answers, faster)."""

    def __init__(self) -> None:
        self._wordnet: WordNetInventory | bool | None = None
        self._lesk: SimplifiedLesk | None = None

    def senses(self, inst: Instance) -> list[Sense]:
        """The WordNet senses of the instance's lemma#pos (none without WordNet)."""
        if not inst.target_pos:
            return []
        inventory = self._inventory()
        return inventory.senses(inst.lemma, inst.target_pos) if inventory else []

    def inventory(self) -> WordNetInventory | None:
        """The WordNet inventory these answers use, None without WordNet."""
        return self._inventory()

    def _inventory(self) -> WordNetInventory | None:
        """WordNet's senses, one inventory for the first senses and the gloss overlaps (each
        lemma's senses are read once); None without WordNet."""
        if self._wordnet is None:
            try:
                self._wordnet = shared_inventory(wordnet_reader())
            except MissingResourceError:
                self._wordnet = False
        return self._wordnet or None

    def first_sense(self, inst: Instance) -> str | None:
        """The WordNet first sense of the instance's lemma#pos (None without WordNet)."""
        senses = self.senses(inst)
        return senses[0].id if senses else None

    def gloss_overlaps(self, inst: Instance, classes: Sequence[str]) -> np.ndarray:
        """Per class, how many distinct context words its WordNet signature shares."""
        return self.gloss_overlaps_many([inst], classes)[0]

    def gloss_overlaps_many(self, group: Sequence[Instance], classes: Sequence[str]
                            ) -> np.ndarray:  # fmt: skip
        """``gloss_overlaps`` of instances of one lemma#pos, a row each: the classes' senses
        found once."""
        if not group:
            return np.zeros((0, len(classes)))
        if self._lesk is None:
            inventory = self._inventory() or WordNetInventory(wordnet=wordnet_reader())
            self._lesk = SimplifiedLesk(inventory, related=True)
        column = {c: j for j, c in enumerate(classes)}  # only the classes' signatures needed
        first = group[0]
        known = [sense for sense in self._lesk.inventory.senses(first.lemma, first.target_pos)
                 if sense.id in column]  # fmt: skip
        found = np.zeros((len(group), len(classes)))
        if known:
            found[:, [column[sense.id] for sense in known]] = [
                self._lesk.overlaps(inst, known) for inst in group]
        return found


def _frequency_decision(counts: Mapping[str, int]) -> Decision:
    sense = most_frequent(counts)
    senses = sorted(counts)
    frequencies = np.array([counts[s] for s in senses], dtype=float)
    score, margin = _shares(frequencies / frequencies.sum(), senses.index(sense))
    return Decision(sense, MFS, score, margin)


def log_prior(counts: Mapping[str, int], classes: Sequence[str]) -> np.ndarray:
    """log p(sense | key) per class, add-one relative training frequency (WordNet examples may
    bring senses the counts lack)."""
    seen = np.array([counts.get(c, 0) + 1.0 for c in classes])
    return np.log(seen / seen.sum())


def prior_weight(prior: float, prior_count: float, counts: Mapping[str, int]) -> float:
    """The weight of a key's log prior: ``prior * (1 + prior_count / n)`` for a key with n
    training examples, so that a key with few examples leans more on its sense frequencies."""
    return prior * (1.0 + prior_count / sum(counts.values()))


KeyGroup = tuple[str, list[int], list[dict[str, float]], dict[int, np.ndarray],
                 dict[int, dict[str, float]]]


def _classifier_rows(system: AllWordsWSD, instances: Sequence[Instance],
                     cache_vectors: bool = True, encoding: Encoding | None = None
                     ) -> Iterator[KeyGroup]:  # fmt: skip
    """Per key with a classifier: the positions of its instances, their feature rows and
    (with a contextual block) their dense rows and sense-cosine features by position."""
    classified: dict[str, list[int]] = {}
    for i, inst in enumerate(instances):
        if inst.key in system.models_:
            classified.setdefault(inst.key, []).append(i)
    if not classified:
        return
    features = InstanceFeatures(spec_json(system.features), system.context_of(instances))
    dense, extra = _context_rows(system, instances, classified, cache_vectors, encoding)
    for key, positions in classified.items():
        yield key, positions, features.extract([instances[i] for i in positions]), dense, extra


def classifier_groups(system: AllWordsWSD, instances: Sequence[Instance]
                      ) -> Iterator[tuple[str, list[int], list[np.ndarray]]]:  # fmt: skip
    """Per key with a classifier: the positions of its instances and the classifier's own
    scores of each (no prior, gloss or discourse)."""
    for key, positions, rows, dense, extra in _classifier_rows(system, instances):
        model = system.models_[key]
        yield key, positions, model.scores_many(rows, [dense.get(i) for i in positions],
                                   [extra.get(i) for i in positions])


def key_totals(system: AllWordsWSD, model: KeyModel, key: str, group: Sequence[Instance],
               own: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The totals of a key's instances ``group`` (a row each) from the classifier's ``own``
    scores: with the sense prior and the gloss overlap, then also with the rest of the
    document."""
    before = np.array(own, dtype=np.float64)  # a copy: ``own`` stays the classifier's
    if system.prior:
        before += _prior_scores(system, model, key)  # the key's: the same for each instance
    if system.gloss_weight:
        overlaps = system.knowledge.gloss_overlaps_many(group, model.classes)
        before += system.gloss_weight * overlaps
    if not system.discourse_weight:
        return before, before
    return before, one_sense_per_discourse(group, before, system.discourse_weight)


def _prior_scores(system: AllWordsWSD, model: KeyModel, key: str) -> np.ndarray:
    counts = system.sense_counts_[key]
    return prior_weight(system.prior, system.prior_count, counts) * log_prior(counts,
                                                                              model.classes)


def _reasons(system: AllWordsWSD, model: KeyModel, key: str, row: Mapping[str, float],
             extra: Mapping[str, float] | None,
             scores: tuple[np.ndarray, ...], top: int) -> Reasons:
    """The terms of the winner's score margin over the runner-up (see ``Reasons``), the
    ``top`` features by size (the sense cosines ``extra`` among them); ``scores``: the
    classifier's own, with the prior and gloss overlap, with the rest of the document, and
    the total (with the gloss vectors)."""
    own, before, discourse, total = scores
    best, runner_up = np.argsort(-total, kind="stable")[:2]

    def gap(values: np.ndarray) -> float:
        return float(values[best]) - float(values[runner_up])

    rows = model.rows
    features = sorted(((f, gap(v * model.coef[rows[f]].astype(np.float64)))
                       for f, v in model.weighted(row, extra).items() if f in rows),
                      key=lambda term: -abs(term[1]))  # fmt: skip
    rest = sum(value for _, value in features[top:])
    prior = gap(_prior_scores(system, model, key)) if system.prior else 0.0
    bias = gap(model.intercept)
    terms = [("bias", bias), *features[:top],
             (f"{len(features) - top} other features", rest) if len(features) > top else None,
             ("contextual block", gap(own) - bias - sum(v for _, v in features)),
             ("sense prior", prior), ("gloss overlap", gap(before) - gap(own) - prior),
             ("rest of the document", gap(discourse) - gap(before)),
             ("gloss vectors", gap(total) - gap(discourse))]
    return Reasons(model.classes[runner_up],
                   tuple(t for t in terms if t is not None and abs(t[1]) >= 5e-4))


def _classifier_decisions(system: AllWordsWSD, model: KeyModel, key: str,
                          totals: Sequence[np.ndarray]) -> list[Decision]:  # fmt: skip
    """The decision of each of a key's instances from its total scores (all at once: the same
    sums per row as one at a time)."""
    if len(totals) == 0:
        return []
    stacked = np.asarray(totals)  # a key's totals come as one matrix: no copy
    ranked = np.argsort(-stacked, axis=1, kind="stable").tolist()
    probabilities = softmax(stacked / system.score_temperature)
    decisions = []
    frequency = None  # the key's most frequent sense's decision, the same for each instance
    for k, (scores, order) in enumerate(zip(stacked.tolist(), ranked, strict=True)):
        best = order[0]
        if system.margin > 0.0 and scores[best] - scores[order[1]] < system.margin:
            frequency = frequency or _frequency_decision(system.sense_counts_[key])
            decisions.append(frequency)
            continue
        margin = scores[best] - (scores[order[1]] if len(order) > 1 else 0.0)
        decisions.append(Decision(model.classes[best], CLASSIFIER,
                                  float(probabilities[k, best]), margin))  # fmt: skip
    return decisions


def _context_rows(system: AllWordsWSD, instances: Sequence[Instance],
                  classified: Mapping[str, list[int]], cache_vectors: bool = True,
                  encoding: Encoding | None = None
                  ) -> tuple[dict[int, np.ndarray], dict[int, dict[str, float]]]:  # fmt: skip
    """Instance position -> its scaled contextual row, and -> its sense-cosine features (with
    ``sense_weight`` and sense vectors), for the instances a classifier answers (both empty
    without a contextual block); their sentences are encoded together, each once."""
    block = getattr(system, "context_", None)
    if block is None:
        return {}, {}
    order = [i for key, positions in classified.items() for i in positions]
    raw = block.vectors([instances[i] for i in order], system.verbose, cache_vectors, encoding)
    extra = {}
    weighed = getattr(system, "sense_weight", 0.0) and order  # else the vectors go unread
    table = getattr(system, "sense_vectors_", None) if weighed else None
    if table is not None:
        if table.wordnet is None:
            table.wordnet = nltk_wordnet()  # sense keys to synsets, hypernyms
        key_of = {i: key for key, positions in classified.items() for i in positions}
        extra = {i: sense_features.features(table, vector, system.models_[key_of[i]].classes,
                                            system.sense_weight)
                 for i, vector in zip(order, raw, strict=True)}  # fmt: skip
    rows = block.scale(raw) if order else raw
    return dict(zip(order, rows, strict=True)), extra


def _vector_decisions(system: AllWordsWSD, instances: Sequence[Instance],
                      positions: Sequence[int], cache_vectors: bool = True,
                      encoding: Encoding | None = None) -> dict[int, Decision]:  # fmt: skip
    """With ``vector_backoff``, sense vectors and a contextual block: position -> the
    sense-vector decision of each of those instances that has WordNet senses."""
    block = getattr(system, "context_", None)
    if not (system.vector_backoff and block is not None and positions):
        return {}  # the sense vectors go unread
    table = getattr(system, "sense_vectors_", None)
    if table is None:
        return {}
    if table.wordnet is None:
        table.wordnet = nltk_wordnet()  # hypernyms: the compiled lexicon has none
    found = {}
    vectors = block.vectors([instances[i] for i in positions], system.verbose, cache_vectors,
                            encoding)  # fmt: skip
    for i, vector in zip(positions, vectors, strict=True):
        senses = [s for s in system.knowledge.senses(instances[i]) if s.synset]
        if not senses:
            continue
        counts = system.sense_counts_.get(instances[i].key, {})
        scores = (system.vector_prior * log_prior(counts, [s.id for s in senses])
                  + table.cosines(vector, [s.synset for s in senses]))  # fmt: skip
        best = int(np.argmax(scores))
        score, margin = _shares(softmax(scores), best)  # not calibrated
        found[i] = Decision(senses[best].id, VECTORS, score, margin)
    return found


def _one_pass(system: AllWordsWSD, gloss: GlossDecisions, instances: Sequence[Instance],
              glossed: Sequence[Instance]) -> Encoding | None:
    """When the contextual block and the gloss similarity share an encoder: one pass over the
    sentences of the instances either needs, giving the block's vectors, the gloss's target
    vectors and its sentence vectors (each sentence had been encoded three times; the gloss
    needs a pass anyway, its sentence vectors are not cached, so the block's vectors are
    not looked up in the cache either); None otherwise (each encodes its own, the block
    through the cache)."""
    from wsd.systems.gloss_prior import TARGET_WINDOW  # loaded with the gloss system

    block = getattr(system, "context_", None)
    if block is None or not glossed or block.extractor.model != gloss.glosses.model:
        return None
    needed = {id(inst): inst for inst in glossed}
    needed.update((id(inst), inst) for inst in instances if inst.key in system.models_)
    return block.encode(list(needed.values()), (-1,), TARGET_WINDOW)


def decide(system: AllWordsWSD, instances: Sequence[Instance], explain: int = 0,
           cache_vectors: bool = True) -> list[Decision]:  # fmt: skip
    """A decision per instance (already POS-tagged as the system expects): its key's
    classifier (with ``gloss_fusion``, plus the gloss cosines), else (with ``gloss_backoff``,
    by gloss similarity, else) the key's most frequent sense, else the WordNet first sense. With
    ``explain`` > 0, a classifier's decision carries its ``Reasons`` (that many features)."""
    decisions: list[Decision | None] = [None] * len(instances)
    gloss = system.gloss_decisions()
    encoding = None
    if gloss is not None:
        glossed = [inst for inst in instances if (
            system.gloss_fusion if inst.key in system.models_
            else system.gloss_backoff and inst.key in system.sense_counts_)]
        encoding = _one_pass(system, gloss, instances, glossed)
        gloss.prepare(glossed, encoding)
    frequent: dict[str, Decision] = {}  # a key's most frequent sense's decision, made once
    for i, inst in enumerate(instances):
        key = inst.key
        if key in system.models_:
            continue
        counts = system.sense_counts_.get(key)
        if counts:
            backed = (gloss.backoff(inst, counts, explain) if gloss is not None
                      and system.gloss_backoff else None)  # fmt: skip
            if backed is None and key not in frequent:
                frequent[key] = _frequency_decision(counts)
            decisions[i] = backed or frequent[key]
        else:
            first = None if system.backoff == "none" else system.knowledge.first_sense(inst)
            decisions[i] = Decision(first, FIRST_SENSE if first else None)
    unclassified = [i for i, inst in enumerate(instances) if inst.key not in system.models_]
    for i, decision in _vector_decisions(system, instances, unclassified, cache_vectors,
                                         encoding).items():  # fmt: skip
        decisions[i] = decision
    groups = _classifier_rows(system, instances, cache_vectors, encoding)
    for key, positions, rows, dense, extra in groups:
        model = system.models_[key]
        group = [instances[i] for i in positions]
        own = model.score_matrix(rows, [dense.get(i) for i in positions],
                                 [extra.get(i) for i in positions])
        before, discourse = key_totals(system, model, key, group, own)
        scores = discourse
        if gloss is not None and system.gloss_fusion:
            scores = discourse + system.gloss_fusion * np.array(
                [gloss.cosines(inst, model.classes) for inst in group])
        decided = _classifier_decisions(system, model, key, scores)
        for j, (i, total, decision) in enumerate(zip(positions, scores, decided, strict=True)):
            if explain > 0 and decision.source == CLASSIFIER and len(model.classes) > 1:
                decision = replace(decision, reasons=_reasons(
                    system, model, key, rows[j], extra.get(i),
                    (own[j], before[j], discourse[j], total), explain))
            decisions[i] = decision
    return decisions  # type: ignore[return-value]


def prior_decision(terms: Sequence[tuple], source: str,
                   names: Callable[[int, int], Sequence[str]] | None) -> Decision:
    """The answer of a system scoring each sense by a sum of terms (``(sense, term, ...)``
    rows): the best sense, its share of the scores' softmax and its score margin over the
    runner-up (the sum of the reasons' terms); with ``names`` (the terms' names for the best
    and the runner-up), its reasons: each term's part of the margin over the runner-up."""
    if not terms:
        return Decision(None, None)
    scores = np.array([sum(values) for _, *values in terms])
    best = int(np.argmax(scores))  # the first best: WordNet order breaks ties
    shares = softmax(scores)
    runner_up = np.delete(scores, best).max() if len(scores) > 1 else 0.0
    reasons = None
    if names is not None and len(terms) > 1:
        other = int(np.argsort(-scores, kind="stable")[1])
        gaps = [(name, terms[best][k] - terms[other][k])
                for k, name in enumerate(names(best, other), start=1)]  # fmt: skip
        reasons = Reasons(terms[other][0].id, tuple(t for t in gaps if abs(t[1]) >= 5e-4))
    return Decision(terms[best][0].id, source, float(shares[best]),
                    float(scores[best] - runner_up), reasons)
