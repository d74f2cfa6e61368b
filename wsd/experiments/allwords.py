"""All-words WSD: one averaged perceptron per ``lemma#pos``, IMS-style (Zhong & Ng 2010).

Training (usually SemCor) is split by ``Instance.key``. Every key with at least two senses and
``min_examples`` examples gets its own classifier (the mean of several averaged perceptrons
trained on different shuffles) over IMS features (the lemmas of the sentence, the corpus's own
when the loader kept them, Penn POS tags of +-3 words, the 11 local collocations), the
target's form and WordNet supersenses of the context. At prediction its scores are combined
with a sense prior, the overlap with WordNet glosses and the other instances of the word in
the same document (one sense per discourse); a margin test can hand unsure answers to the
most frequent sense. Other seen keys answer their most frequent training sense; keys never
seen answer the WordNet first sense. Each key is featurized and trained on its own, so memory
holds one key's feature dicts at a time, and keys train in parallel (``n_jobs``) with a per-key
seed (``engine.task_seed``): the model does not depend on ``n_jobs``.

``run_allwords`` is the end-to-end entry point behind ``wsd allwords``: train, disambiguate
framework datasets (``*.data.xml``), write key files and score them like the official scorer.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import special
from tqdm import tqdm

from wsd import persistence
from wsd.corpora.framework import (
    dataset_paths,
    group_by_key,
    load_framework,
    write_key_file,
)
from wsd.evaluation.scorer import score_framework
from wsd.features import BagOfWords, FeatureVectorizer, Featurizer
from wsd.features.pos import TAGGER_RESOURCE
from wsd.features.weighting import Weighting, make_weighting
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory
from wsd.knowledge.lesk import SimplifiedLesk
from wsd.learners.engine import CSRAveragedPerceptron, task_seed
from wsd.resources import MissingResourceError, require_nltk_resource

Answer = str | None
FeatureSpec = str | Sequence[Mapping[str, Any]]

# The IMS features with the sentence's corpus lemmas as bag of words (WordNet morphy for text
# without them) plus the target's own form; the best found on SemEval-2007 (see
# benchmarks/allwords.py) with WordNet supersenses of the context added (TUNED_FEATURES).
IMS_FEATURES: tuple[Mapping[str, Any], ...] = (
    {"name": "lemma_bow", "params": {"lemmatize": True}},
    {"name": "pos", "params": {"window": 3}},
    {"name": "target", "params": {"form": True}},
    {"name": "collocations", "params": {}},
)
TUNED_FEATURES: tuple[Mapping[str, Any], ...] = (
    *IMS_FEATURES,
    {"name": "supersense", "params": {"reach": 5, "bag": True}},
)
# What a model file written before an option existed behaves like without it.
_OPTION_WAS_OFF = {"gloss_weight": 0.0, "discourse_weight": 0.0}


# --------------------------------------------------------------------------- context


def _sentence_of(inst: Instance) -> tuple[str, str]:
    meta = dict(inst.meta)
    return meta.get("document", ""), meta.get("sentence", inst.id)


def neighbour_tokens(
    instances: Sequence[Instance], sentences: int
) -> dict[tuple[str, str], tuple[str, ...]]:
    """For each sentence (``(document, sentence id)`` from ``Instance.meta``), the tokens of the
    ``sentences`` sentences before and after it in the same document, in text order.

    Sentences are known only through the instances they hold (the loader keeps no others), in
    the order the instances come; a sentence without any instance is therefore skipped.
    """
    order: dict[str, list[tuple[str, str]]] = {}
    tokens: dict[tuple[str, str], tuple[str, ...]] = {}
    for inst in instances:
        sentence = _sentence_of(inst)
        if sentence not in tokens:
            tokens[sentence] = inst.tokens
            order.setdefault(sentence[0], []).append(sentence)
    context: dict[tuple[str, str], tuple[str, ...]] = {}
    for in_document in order.values():
        for i, sentence in enumerate(in_document):
            around = in_document[max(0, i - sentences) : i] + in_document[i + 1 : i + 1 + sentences]
            context[sentence] = tuple(t for other in around for t in tokens[other])
    return context


def wordnet_examples(lemma: str, pos: str, inventory: WordNetInventory) -> list[Instance]:
    """Training instances from WordNet's example sentences of each sense of ``lemma``/``pos``.

    An example counts when one of its tokens is the (one-word) lemma, or inflects to it by
    WordNet's morphy; its gold sense is that sense's key. Ids are ``wn:<sense key>:<n>``.
    """
    from nltk.corpus import wordnet
    from nltk.tokenize import TreebankWordTokenizer

    if "_" in lemma or " " in lemma:
        return []
    tokenizer = TreebankWordTokenizer()
    letter = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}.get(pos)
    found = []
    for sense in inventory.lemmas(lemma, pos):
        for n, text in enumerate(sense.synset().examples()):
            tokens = tuple(tokenizer.tokenize(text))
            for i, token in enumerate(tokens):
                word = token.lower()
                if word == lemma or wordnet.morphy(word, letter) == lemma:
                    found.append(Instance(id=f"wn:{sense.key()}:{n}", tokens=tokens,
                                          span=(i, i + 1), lemma=lemma, target_pos=pos,
                                          senses=(sense.key(),)))  # fmt: skip
                    break
    return found


# --------------------------------------------------------------------------- features


@dataclass(frozen=True)
class CorpusLemmaBag(BagOfWords):
    """A bag of words over the corpus's own lemmas of the sentence (``("lemmas", (...))`` in
    ``Instance.meta``, as the framework loader keeps them), the target left out; instances
    without them fall back to their tokens. Options as ``BagOfWords``'s (``lemmatize`` applies
    WordNet's morphy to the tokens of the fallback only)."""

    name = "lemma_bow"

    def __call__(self, inst: Instance) -> dict[str, float]:
        lemmas = inst.corpus_lemmas
        if lemmas is not None:
            return self._plain(replace(inst, tokens=lemmas, pos=None))
        return super().__call__(inst)

    @functools.cached_property
    def _plain(self) -> BagOfWords:
        """The same bag without morphy (corpus lemmas are already base forms)."""
        return BagOfWords(
            window=self.window,
            lowercase=self.lowercase,
            stopwords=self.stopwords,
            drop_punctuation=self.drop_punctuation,
        )


@functools.lru_cache(maxsize=4)
def _extractors(spec_json: str) -> tuple[Any, ...]:
    """The extractors of a feature spec (JSON of a preset name or extractor configs), built once
    per process (a lemmatizing bag of words loads WordNet)."""
    spec = json.loads(spec_json)
    featurizer = Featurizer.preset(spec) if isinstance(spec, str) else Featurizer(spec)
    return tuple(featurizer.extractors)


def _spec_json(features: FeatureSpec) -> str:
    if isinstance(features, str):
        return json.dumps(features)
    return json.dumps([dict(f) for f in features], sort_keys=True)


class _Features:
    """Unweighted feature dicts of instances: the extractors plus the neighbouring sentences'
    words, counted as ``bow=`` features by the spec's bag of words (a default one if none)."""

    def __init__(self, spec_json: str, context: Mapping[tuple[str, str], tuple[str, ...]] | None):
        extractors = _extractors(spec_json)
        self.featurizer = Featurizer(list(extractors))
        bags = [e for e in extractors if isinstance(e, BagOfWords)]
        self.bag = bags[0] if bags else BagOfWords()
        self.context = context

    def extract(self, instances: Sequence[Instance]) -> list[dict[str, float]]:
        rows = self.featurizer.extract(instances)
        if self.context is not None:
            for inst, row in zip(instances, rows, strict=True):
                around = self.context.get(_sentence_of(inst), ())
                if around:
                    holder = Instance(id="", tokens=(*around, ""), span=(len(around),
                                      len(around) + 1), lemma="")  # fmt: skip
                    for f, v in self.bag(holder).items():
                        row[f] = row.get(f, 0.0) + v
        return rows


def one_sense_per_discourse(
    instances: Sequence[Instance], scores: Sequence[np.ndarray], weight: float
) -> list[np.ndarray]:
    """Scores of instances of one key, each plus ``weight`` times the mean softmax of the
    scores of the other instances in its document (Gale et al. 1992: a word keeps its sense
    within a discourse). Instances with no ``document`` in ``meta`` keep their scores."""
    documents: dict[str, list[int]] = {}
    for i, inst in enumerate(instances):
        document = _sentence_of(inst)[0]
        if document:
            documents.setdefault(document, []).append(i)
    softmax = [special.softmax(s) for s in scores]
    smoothed = list(scores)
    for members in documents.values():
        if len(members) < 2:
            continue
        total = np.sum([softmax[i] for i in members], axis=0)
        for i in members:
            smoothed[i] = scores[i] + weight * (total - softmax[i]) / (len(members) - 1)
    return smoothed


# --------------------------------------------------------------------------- one key


def _pack(array: np.ndarray) -> str:
    """Little-endian float32 bytes in base64: a quarter of the size of a JSON list of floats."""
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f4").tobytes()).decode("ascii")


def _unpack(text: str, n_columns: int) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f4").reshape(-1, n_columns).copy()


class _KeyModel:
    """The classifier of one ``lemma#pos``: weighting state, feature rows, weights, biases.

    Weights are kept as float32 (what the model file stores), so a loaded model is the same.
    """

    def __init__(
        self,
        classes: list[str],
        features: list[str],
        coef: np.ndarray,
        intercept: np.ndarray,
        weighting: Weighting,
    ) -> None:
        self.classes = classes
        self.features = features
        self.rows = {f: i for i, f in enumerate(features)}
        self.coef = np.asarray(coef, dtype=np.float32)
        self.intercept = np.asarray(intercept, dtype=np.float32)
        self.weighting = weighting

    def scores(self, features: Mapping[str, float]) -> np.ndarray:
        total = self.intercept.astype(np.float64)
        rows, coef = self.rows, self.coef
        for f, v in self.weighting.transform_one(features).items():
            row = rows.get(f)
            if row is not None:
                total += v * coef[row]
        return total

    def to_dict(self) -> dict[str, Any]:
        return {
            "classes": self.classes,
            "features": self.features,
            "coef": _pack(self.coef),
            "intercept": _pack(self.intercept),
            "weighting": self.weighting.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> _KeyModel:
        n_classes = len(data["classes"])
        return cls(
            classes=list(data["classes"]),
            features=list(data["features"]),
            coef=_unpack(data["coef"], n_classes),
            intercept=_unpack(data["intercept"], n_classes)[0],
            weighting=Weighting.from_dict(data["weighting"]),
        )


def _most_frequent(counts: Mapping[str, int]) -> str:
    """The label with the highest count, ties to the smallest label."""
    return min(counts.items(), key=lambda item: (-item[1], item[0]))[0]


def _fit_perceptron(X, labels: Sequence[str], key: str, learning: Mapping[str, Any]):
    """``(classes, coef (n_features, n_classes), intercept)``: the mean of ``n_models``
    perceptrons trained on different shuffles (seeds from ``key``, ``key#1``, ...)."""
    coef, intercept = 0.0, 0.0
    for r in range(learning["n_models"]):
        learner = CSRAveragedPerceptron(
            epochs=learning["epochs"],
            average=learning["average"],
            seed=task_seed(learning["seed"], key if r == 0 else f"{key}#{r}"),
        ).fit(X, labels)
        coef = coef + learner.coef_.T
        intercept = intercept + learner.intercept_
    n = learning["n_models"]
    return learner.classes_.tolist(), coef / n, intercept / n


def _beats_mfs(X, labels: Sequence[str], key: str, learning: Mapping[str, Any]) -> bool:
    """Whether the classifier answers more held-out examples right than the most frequent
    sense does, in ``cv_folds``-fold cross-validation on the key's training data."""
    folds = learning["cv_folds"]
    order = np.random.default_rng(task_seed(learning["seed"], f"{key}#cv")).permutation(len(labels))
    labels = np.asarray(labels)
    wins = 0
    for fold in range(folds):
        test, train = order[fold::folds], np.setdiff1d(order, order[fold::folds])
        mfs = _most_frequent(Counter(labels[train].tolist()))
        if len(set(labels[train].tolist())) < 2:
            continue  # the classifier would be the MFS
        classes, coef, intercept = _fit_perceptron(X[train], labels[train].tolist(), key,
                                                   learning)  # fmt: skip
        guesses = np.asarray(classes)[np.argmax(X[test] @ coef + intercept, axis=1)]
        wins += int(np.sum(guesses == labels[test])) - int(np.sum(labels[test] == mfs))
    return wins > 0


def _train_key(
    key: str,
    instances: Sequence[Instance],
    context: Mapping[tuple[str, str], tuple[str, ...]] | None,
    spec_json: str,
    weighting: str,
    learning: Mapping[str, Any],
) -> tuple[str, _KeyModel | None]:
    """Featurize one key's training instances, fit its weighting and its perceptron(s).

    ``learning``: epochs, average, seed, n_models and cv_folds. The model is None when
    cross-validation (cv_folds > 1) finds the classifier no better than the most frequent sense.
    """
    rows = _Features(spec_json, context).extract(instances)
    weigher = make_weighting(weighting)
    rows = weigher.fit_transform(rows)
    vectorizer = FeatureVectorizer()
    X = vectorizer.fit_transform(rows)
    labels = [inst.senses[0] for inst in instances]
    if learning["cv_folds"] > 1 and not _beats_mfs(X, labels, key, learning):
        return key, None
    classes, coef, intercept = _fit_perceptron(X, labels, key, learning)
    used = np.flatnonzero(np.any(coef != 0.0, axis=1))  # features whose weights stayed 0 go
    names = vectorizer.feature_names_
    model = _KeyModel(
        classes=classes,
        features=[names[j] for j in used],
        coef=coef[used],
        intercept=intercept,
        weighting=weigher,
    )
    return key, model


# --------------------------------------------------------------------------- the system


@persistence.register_model
class AllWordsWSD:
    """All-words WSD with averaged perceptrons per ``lemma#pos`` and MFS / first-sense backoff.

    Features and learning: ``features``, a Featurizer preset name ("ims") or extractor configs
    (default ``TUNED_FEATURES``: IMS features with a bag of the corpus lemmas, the target's
    form and WordNet supersenses of the context); ``weighting``: binary, count, tfidf or
    ppmi, fitted per key; ``context_sentences``: also count the words of this many sentences
    before and after (documents and sentences from ``Instance.meta``); ``pos_tags``: "penn"
    (each sentence re-tagged with NLTK's Penn Treebank tagger, as IMS does) or "corpus" (the
    tags the data brings, coarse in the framework); ``epochs``, ``average`` (False: the plain
    perceptron); ``n_models``: average the weights of this many perceptrons trained on
    differently shuffled data (less dependence on the order); ``cv_folds``: when > 1, keep a
    key's classifier only if it beats the key's most frequent sense in that many-fold
    cross-validation on the training data; ``wordnet_examples``: add WordNet's example
    sentences to each classifier's training data (not to the sense counts);
    ``min_examples``: keys with fewer training examples answer their most frequent sense.

    Decision: the classifier's scores plus ``prior * log p(sense | key)`` (add-one training
    relative frequency), plus ``gloss_weight`` times the simplified-Lesk overlap of the
    sentence with each sense's WordNet gloss, examples and related glosses
    (``SimplifiedLesk(related=True)``: knowledge SemCor lacks for rare senses), plus
    ``discourse_weight`` times the mean sense distribution of the other instances of the key
    in the same document (``one_sense_per_discourse``); ``margin``: answer the most frequent
    sense when the best total beats the runner-up by less than this; ``backoff``:
    "first_sense" (WordNet first sense for unseen keys) or "none" (no answer).

    ``seed``; ``n_jobs`` (joblib processes for training; the model does not depend on it);
    ``verbose`` (a progress bar over the words being trained). The defaults are the settings
    chosen on SemEval-2007 (``benchmarks/allwords.py``).
    """

    def __init__(
        self,
        features: FeatureSpec = TUNED_FEATURES,
        weighting: str = "binary",
        context_sentences: int = 0,
        pos_tags: str = "penn",
        epochs: int = 10,
        average: bool = True,
        n_models: int = 10,
        cv_folds: int = 0,
        wordnet_examples: bool = False,
        min_examples: int = 2,
        margin: float = 0.0,
        prior: float = 0.5,
        gloss_weight: float = 1.0,
        discourse_weight: float = 3.0,
        backoff: str = "first_sense",
        seed: int | None = 0,
        n_jobs: int = 1,
        verbose: bool = False,
    ) -> None:
        self.features = features
        self.weighting = weighting
        self.context_sentences = context_sentences
        self.pos_tags = pos_tags
        self.epochs = epochs
        self.average = average
        self.n_models = n_models
        self.cv_folds = cv_folds
        self.wordnet_examples = wordnet_examples
        self.min_examples = min_examples
        self.margin = margin
        self.prior = prior
        self.gloss_weight = gloss_weight
        self.discourse_weight = discourse_weight
        self.backoff = backoff
        self.seed = seed
        self.n_jobs = n_jobs
        self.verbose = verbose
        self._wordnet: WordNetInventory | bool | None = None  # loaded on first use
        self._lesk: SimplifiedLesk | None = None

    def get_params(self) -> dict[str, Any]:
        features = self.features if isinstance(self.features, str) else [
            dict(f) for f in self.features
        ]
        return {
            "features": features,
            "weighting": self.weighting,
            "context_sentences": self.context_sentences,
            "pos_tags": self.pos_tags,
            "epochs": self.epochs,
            "average": self.average,
            "n_models": self.n_models,
            "cv_folds": self.cv_folds,
            "wordnet_examples": self.wordnet_examples,
            "min_examples": self.min_examples,
            "margin": self.margin,
            "prior": self.prior,
            "gloss_weight": self.gloss_weight,
            "discourse_weight": self.discourse_weight,
            "backoff": self.backoff,
            "seed": self.seed,
            "n_jobs": self.n_jobs,
            "verbose": self.verbose,
        }

    def _check_params(self) -> None:
        make_weighting(self.weighting)  # ValueError for an unknown name
        _extractors(_spec_json(self.features))  # ValueError for an unknown preset / extractor
        if self.pos_tags not in ("corpus", "penn"):
            raise ValueError(f"pos_tags must be 'corpus' or 'penn', got {self.pos_tags!r}")
        if self.backoff not in ("first_sense", "none"):
            raise ValueError(f"backoff must be 'first_sense' or 'none', got {self.backoff!r}")
        if isinstance(self.n_models, bool) or not isinstance(self.n_models, int) \
                or self.n_models < 1:
            raise ValueError(f"n_models must be an integer >= 1, got {self.n_models!r}")
        for name in ("context_sentences", "min_examples", "cv_folds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
        for name in ("prior", "margin", "gloss_weight", "discourse_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise ValueError(f"{name} must be a number >= 0, got {value!r}")

    def _tagged(self, instances: Sequence[Instance]) -> list[Instance]:
        """The instances with Penn tags when ``pos_tags="penn"``, each sentence tagged once."""
        if self.pos_tags == "corpus":
            return list(instances)
        require_nltk_resource(TAGGER_RESOURCE)
        import nltk

        tags: dict[tuple[str, ...], tuple[str, ...]] = {}
        tagged = []
        for inst in instances:
            if inst.tokens not in tags:
                tags[inst.tokens] = tuple(tag for _, tag in nltk.pos_tag(list(inst.tokens)))
            tagged.append(inst.with_pos(tags[inst.tokens]))
        return tagged

    def _context(self, instances: Sequence[Instance]):
        if not self.context_sentences:
            return None
        return neighbour_tokens(instances, self.context_sentences)

    def fit(self, instances: Sequence[Instance]) -> AllWordsWSD:
        """Count senses per key and train a classifier for every key that needs one."""
        from joblib import Parallel, delayed

        self._check_params()
        labelled = self._tagged([inst for inst in instances if inst.senses])
        if not labelled:
            raise ValueError("no labelled training instances (every instance lacks gold senses)")
        groups = group_by_key(labelled)
        self.sense_counts_ = {
            key: dict(Counter(inst.senses[0] for inst in group)) for key, group in groups.items()
        }
        trainable = sorted(
            key for key, group in groups.items()
            if len(self.sense_counts_[key]) > 1 and len(group) >= self.min_examples
        )
        if self.wordnet_examples:
            inventory = WordNetInventory()
            for key in trainable:
                first = groups[key][0]
                extra = wordnet_examples(first.lemma, first.target_pos, inventory)
                groups[key] = groups[key] + self._tagged(extra)
        context = self._context(labelled)
        spec = _spec_json(self.features)
        learning = {"epochs": self.epochs, "average": self.average, "seed": self.seed,
                    "n_models": self.n_models, "cv_folds": self.cv_folds}  # fmt: skip

        def group_context(group: list[Instance]):
            if context is None:
                return None
            sentences = {_sentence_of(inst) for inst in group}
            return {s: context[s] for s in sentences if s in context}

        jobs = (
            delayed(_train_key)(key, groups[key], group_context(groups[key]), spec,
                                self.weighting, learning)
            for key in tqdm(trainable, desc="lemma#pos classifiers", unit="word",
                            disable=not self.verbose)
        )  # fmt: skip
        trained = Parallel(n_jobs=self.n_jobs)(jobs)
        self.models_ = {key: model for key, model in trained if model is not None}
        return self

    # ---- answers --------------------------------------------------------------------

    def _check_fitted(self) -> None:
        if not hasattr(self, "models_"):
            raise ValueError("AllWordsWSD is not fitted: call fit(training instances) first")

    def most_frequent(self, key: str) -> Answer:
        """The most frequent training sense of ``key`` (ties: smallest key), None if unseen."""
        counts = self.sense_counts_.get(key)
        return _most_frequent(counts) if counts else None

    def _fallback(self, inst: Instance) -> Answer:
        """The WordNet first sense (None without WordNet, a target POS or ``backoff``)."""
        if self.backoff == "none" or not inst.target_pos:
            return None
        if self._wordnet is None:
            try:
                self._wordnet = WordNetInventory()
            except MissingResourceError:
                self._wordnet = False
        senses = self._wordnet.senses(inst.lemma, inst.target_pos) if self._wordnet else []
        return senses[0].id if senses else None

    def _gloss_overlaps(self, inst: Instance, classes: Sequence[str]) -> np.ndarray:
        """Per class, how many distinct context words its WordNet signature shares."""
        if self._lesk is None:
            self._lesk = SimplifiedLesk(related=True)
        overlap = {sense.id: score for sense, score in self._lesk.sense_scores(inst)}
        return np.array([overlap.get(c, 0.0) for c in classes], dtype=float)

    def _scores(self, model: _KeyModel, key: str, inst: Instance, row) -> np.ndarray:
        """The classifier's scores plus the sense prior and the gloss overlap."""
        scores = model.scores(row)
        if self.prior:
            counts = self.sense_counts_[key]  # add-one: WordNet examples may bring new senses
            seen = np.array([counts.get(c, 0) + 1.0 for c in model.classes])
            scores = scores + self.prior * np.log(seen / seen.sum())
        if self.gloss_weight:
            scores = scores + self.gloss_weight * self._gloss_overlaps(inst, model.classes)
        return scores

    def _decide(self, model: _KeyModel, key: str, scores: np.ndarray) -> str:
        ranked = np.argsort(-scores, kind="stable")
        if self.margin > 0.0 and scores[ranked[0]] - scores[ranked[1]] < self.margin:
            return self.most_frequent(key)  # type: ignore[return-value]
        return model.classes[int(ranked[0])]

    def predict(self, instances: Sequence[Instance]) -> list[Answer]:
        """A sense key per instance: its key's classifier, else MFS, else WordNet first sense."""
        self._check_fitted()
        instances = self._tagged(instances)
        answers: list[Answer] = [None] * len(instances)
        classified: dict[str, list[int]] = {}
        for i, inst in enumerate(instances):
            if inst.key in self.models_:
                classified.setdefault(inst.key, []).append(i)
            else:
                answers[i] = self.most_frequent(inst.key) or self._fallback(inst)
        if classified:
            features = _Features(_spec_json(self.features), self._context(instances))
            for key, positions in classified.items():
                model = self.models_[key]
                group = [instances[i] for i in positions]
                scores = [self._scores(model, key, inst, row)
                          for inst, row in zip(group, features.extract(group), strict=True)]
                if self.discourse_weight:
                    scores = one_sense_per_discourse(group, scores, self.discourse_weight)
                for i, total in zip(positions, scores, strict=True):
                    answers[i] = self._decide(model, key, total)
        return answers

    def evaluate(self, instances: Sequence[Instance]) -> dict[str, float | int]:
        """P, R, F1 (fractions) and counts exactly as the framework's scorer computes them."""
        gold = {inst.id: inst.senses for inst in instances}
        answers = self.predict(instances)
        return score_framework(gold, dict(zip(gold, answers, strict=True)))

    def score(self, instances: Sequence[Instance]) -> float:
        """F1 of the framework's scorer (equal to accuracy when every instance is answered)."""
        return float(self.evaluate(instances)["F1"])

    # ---- model files -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        self._check_fitted()
        return {
            "kind": type(self).__name__,
            "params": self.get_params(),
            "sense_counts": self.sense_counts_,
            "models": {key: model.to_dict() for key, model in self.models_.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AllWordsWSD:
        system = cls(**{**_OPTION_WAS_OFF, **data["params"]})
        system.sense_counts_ = {key: dict(c) for key, c in data["sense_counts"].items()}
        system.models_ = {key: _KeyModel.from_dict(m) for key, m in data["models"].items()}
        return system

    def save(self, path: str | Path) -> Path:
        """Write the whole system (parameters, sense counts, every key's model) as JSON."""
        return persistence.save_model(self, path)

    @classmethod
    def load(cls, path: str | Path) -> AllWordsWSD:
        return persistence.load_model(path, expected=cls)


# --------------------------------------------------------------------------- end to end


def resolve_dataset(
    spec: str | os.PathLike, root: str | os.PathLike | None = None
) -> tuple[str, Path, Path | None]:
    """``(name, data.xml, gold key or None)`` for a framework dataset name or a ``*.data.xml``
    path (its gold key is ``<name>.gold.key.txt`` beside it, when that file exists)."""
    text = os.fspath(spec)
    if text.endswith(".xml"):
        xml_path = Path(text)
        if not xml_path.is_file():
            raise ValueError(f"{xml_path} does not exist; give a *.data.xml file or a dataset name")
        name = xml_path.name.removesuffix(".xml").removesuffix(".data")
        key_path = xml_path.with_name(name + ".gold.key.txt")
        return name, xml_path, key_path if key_path.is_file() else None
    xml_path, key_path = dataset_paths(text, root)
    return text, xml_path, key_path


def run_allwords(
    train: str | os.PathLike | None = "semcor",
    evaluate: Sequence[str | os.PathLike] = ("semeval2007",),
    out_dir: str | os.PathLike | None = None,
    root: str | os.PathLike | None = None,
    model_path: str | os.PathLike | None = None,
    model: AllWordsWSD | str | os.PathLike | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Train ``AllWordsWSD(**options)`` on ``train`` and disambiguate every ``evaluate`` dataset.

    Datasets are framework names ('semcor', 'senseval2', 'semeval2007', ...) or ``*.data.xml``
    paths. ``model`` (a fitted AllWordsWSD or a model file) is used instead of training. With
    ``out_dir`` each dataset's answers go to ``<out_dir>/<name>.key.txt``; with ``model_path``
    the system is saved there. Returns one row per dataset: instances, answered, P, R, F1
    (fractions, as ``score_framework``; NaN when the dataset has no gold key).
    """
    datasets = [resolve_dataset(spec, root) for spec in evaluate]  # bad names fail before training
    if model is not None:
        system = model if isinstance(model, AllWordsWSD) else AllWordsWSD.load(model)
    elif train is None:
        raise ValueError("give training data (train=) or a trained model (model=)")
    else:
        _, train_xml, train_key = resolve_dataset(train, root)
        if train_key is None:
            raise ValueError(f"training data {train_xml} has no gold key file beside it")
        system = AllWordsWSD(**options).fit(load_framework(train_xml, train_key))
    if model_path is not None:
        system.save(model_path)
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    rows = []
    for name, xml_path, key_path in datasets:
        instances = load_framework(xml_path, key_path)
        answers = dict(zip((inst.id for inst in instances), system.predict(instances),
                           strict=True))  # fmt: skip
        if out_dir is not None:
            write_key_file(Path(out_dir) / f"{name}.key.txt", answers)
        row: dict[str, Any] = {"dataset": name, "instances": len(instances)}
        if key_path is not None:
            scores = score_framework({inst.id: inst.senses for inst in instances}, answers)
            row.update({k: scores[k] for k in ("answered", "P", "R", "F1")})
        else:
            row.update({"answered": sum(a is not None for a in answers.values()),
                        "P": math.nan, "R": math.nan, "F1": math.nan})  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows, columns=["dataset", "instances", "answered", "P", "R", "F1"])
