"""The all-words system: ``AllWordsWSD``, a scikit-learn-style estimator tying together
training (``training``), prediction (``predict``) and the model file (``modelfile``)."""

from __future__ import annotations

import warnings
import zipfile
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from wsd import persistence
from wsd.api import ALL_WORDS
from wsd.corpora.framework import group_by_key
from wsd.evaluation.scorer import score_framework
from wsd.features.encoders import MissingExtraError
from wsd.features.weighting import make_weighting
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory, nltk_wordnet
from wsd.learners.inputs import check_update_options
from wsd.resources import MissingResourceError
from wsd.systems.allwords import sense_features
from wsd.systems.allwords.context import neighbour_tokens, sentence_of, wordnet_examples
from wsd.systems.allwords.instance_features import (
    TUNED_FEATURES,
    ContextBlock,
    FeatureSpec,
    extractors,
    spec_json,
)
from wsd.systems.allwords.keymodel import KeyModel, most_frequent
from wsd.systems.allwords.modelfile import (
    NPZ_MAGIC,
    ModelFileError,
    archive_directory,
    read_npz,
    read_sense_vectors,
    write_npz,
)
from wsd.systems.allwords.predict import Decision, Knowledge, decide
from wsd.systems.allwords.sense_vectors import VECTOR_PRIOR, SenseSums, SenseVectors
from wsd.text.reader import (
    MIN_READER_SENTENCES,
    PLAIN,
    READER_JOINS,
    LearnedReader,
    PlainReader,
)
from wsd.text.tagger import penn_tags
from wsd.validation import check_weight

Answer = str | None
DEFAULT_TEMPERATURE = 10.0  # chosen with the weights below (benchmarks/allwords.py)
# (name, lowest, highest) of the integer parameters: each sets a loop or an allocation
PARAM_RANGES = (("n_models", 1, 1000), ("epochs", 1, 100_000), ("context_sentences", 0, 100),
                ("min_examples", 0, 10**9), ("cv_folds", 0, 100))
# How a model is trained, not what it is: left out of model files, so that the same data,
# settings and seed give the same bytes whatever the processes or the progress bar.
RUN_TIME_PARAMS = ("n_jobs", "verbose")
# What a model file written before an option existed behaves like without it.
_OPTION_WAS_OFF = {"gloss_weight": 0.0, "discourse_weight": 0.0, "prior_count": 0.0,
                   "train_margin": 0.0, "temperature": 1.0, "vector_backoff": False,
                   "sense_weight": 0.0, "gloss_fusion": 0.0, "gloss_backoff": False}
DEFAULT_GLOSS_FUSION = 200.0  # chosen on semeval2007 and held-out SemCor (docs/sense-vectors.md)
# The temperature of a model on which the fusion acts: the mean of those fitted with the fusion
# on semeval2007 and held-out SemCor (benchmarks/gloss_classifiers.py --calibration)
DEFAULT_FUSION_TEMPERATURE = 34.2
# The temperature of a model with a contextual block on which the fusion does not act: the
# mean of those fitted without it on the same two places (the same benchmark)
DEFAULT_CONTEXT_TEMPERATURE = 31.9


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
    cross-validation on the training data; ``learner``: "perceptron" (the averaged perceptrons
    above) or "linear_svc" (scikit-learn's LinearSVC with ``C``, a peer for comparison);
    ``update``: "perceptron" (a step of 1 on a mistake, or whenever the gold sense wins by less
    than ``train_margin``) or "pa" (passive-aggressive PA-I steps capped by ``C``; see
    ``wsd.learners.multiclass``); ``wordnet_examples``: add WordNet's example
    sentences to each classifier's training data (not to the sense counts);
    ``min_examples``: keys with fewer training examples answer their most frequent sense;
    ``reader_joins``: which WordNet expressions the raw-text reader (``reader``) learns to
    join: "corpus", those the training corpus tagged, or "wordnet", WordNet's by their words
    and context, tagged there or not (``readertraining.train_reader``; docs/reader.md).

    Decision: the classifier's scores plus ``prior * (1 + prior_count / n) * log p(sense |
    key)`` (add-one training relative frequency; n the key's training examples, so keys with
    few examples lean more on their sense frequencies), plus ``gloss_weight`` times the
    simplified-Lesk overlap of the sentence with each sense's WordNet gloss, examples and
    related glosses
    (``SimplifiedLesk(related=True)``: knowledge SemCor lacks for rare senses), plus
    ``discourse_weight`` times the mean sense distribution of the other instances of the key
    in the same document (``one_sense_per_discourse``); ``margin``: answer the most frequent
    sense when the best total beats the runner-up by less than this; ``backoff``:
    "first_sense" (WordNet first sense for unseen keys) or "none" (no answer);
    ``vector_backoff``: with a contextual block, a key without a classifier (seen with one
    sense, or never) answers by sense vectors instead (``wsd.systems.allwords.sense_vectors``: the
    sense maximising ``vector_prior · log p(sense) + cos(instance, sense vector)`` over the
    lemma's WordNet senses, p the add-one training frequency); ``sense_weight``: with a
    contextual block, each classifier also weighs, per class, ``sense_weight`` times the
    cosine of the instance's vector with that class's sense vector (``sense_features``; 0,
    off: it did not gain on the development sets, docs/sense-vectors.md);
    ``gloss_fusion`` (with a contextual block and WordNet): each classifier's totals also get
    this times each class's gloss-vector cosine with the instance's context
    (``gloss_fusion``, as ``GlossWithPrior`` computes it); ``gloss_backoff``: a key seen in
    training without a classifier answers by its training sense frequencies, the gloss
    vectors and the gloss overlap instead of its most frequent sense (source "gloss");
    ``temperature``: a classifier answer's ``score`` is its share of the softmax of the totals
    divided by this (``wsd.evaluation.calibration``: raw perceptron totals give 0.99 to
    answers right six times in ten); it changes no answer. None (the default):
    ``DEFAULT_FUSION_TEMPERATURE`` where the gloss fusion acts (a contextual block and
    ``gloss_fusion`` > 0), ``DEFAULT_CONTEXT_TEMPERATURE`` with a contextual block without it,
    else ``DEFAULT_TEMPERATURE``; a saved model stores the one it used.

    ``seed``; ``n_jobs`` (joblib processes for training; the model does not depend on it);
    ``verbose`` (a progress bar over the words being trained). The defaults (training with
    ``train_margin=1``; prior 0.1, prior_count 20, gloss 3, discourse 6, margin 0.5) are the
    cell with the best mean F1 of SemEval-2007 and of held-out SemCor documents (3 folds by
    document), never of a test set; the temperature, the mean of the temperatures fitted on
    the same places (``benchmarks/allwords.py``).
    """

    scope = ALL_WORDS

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
        learner: str = "perceptron",
        update: str = "perceptron",
        train_margin: float = 1.0,
        C: float = 1.0,
        wordnet_examples: bool = False,
        min_examples: int = 2,
        margin: float = 0.5,
        prior: float = 0.1,
        prior_count: float = 20.0,
        gloss_weight: float = 3.0,
        discourse_weight: float = 6.0,
        temperature: float | None = None,
        backoff: str = "first_sense",
        vector_backoff: bool = False,
        vector_prior: float = VECTOR_PRIOR,
        sense_weight: float = 0.0,
        gloss_fusion: float = DEFAULT_GLOSS_FUSION,
        gloss_backoff: bool = True,
        reader_joins: str = "corpus",
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
        self.learner = learner
        self.update = update
        self.train_margin = train_margin
        self.C = C
        self.wordnet_examples = wordnet_examples
        self.min_examples = min_examples
        self.margin = margin
        self.prior = prior
        self.prior_count = prior_count
        self.gloss_weight = gloss_weight
        self.discourse_weight = discourse_weight
        self.temperature = temperature
        self.backoff = backoff
        self.vector_backoff = vector_backoff
        self.vector_prior = vector_prior
        self.sense_weight = sense_weight
        self.gloss_fusion = gloss_fusion
        self.gloss_backoff = gloss_backoff
        self.reader_joins = reader_joins
        self.seed = seed
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.knowledge = Knowledge()  # WordNet first senses and glosses, loaded on first use

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
            "learner": self.learner,
            "update": self.update,
            "train_margin": self.train_margin,
            "C": self.C,
            "wordnet_examples": self.wordnet_examples,
            "min_examples": self.min_examples,
            "margin": self.margin,
            "prior": self.prior,
            "prior_count": self.prior_count,
            "gloss_weight": self.gloss_weight,
            "discourse_weight": self.discourse_weight,
            "temperature": self.temperature,
            "backoff": self.backoff,
            "vector_backoff": self.vector_backoff,
            "vector_prior": self.vector_prior,
            "sense_weight": self.sense_weight,
            "gloss_fusion": self.gloss_fusion,
            "gloss_backoff": self.gloss_backoff,
            "reader_joins": self.reader_joins,
            "seed": self.seed,
            "n_jobs": self.n_jobs,
            "verbose": self.verbose,
        }

    def _check_params(self) -> None:
        make_weighting(self.weighting)  # ValueError for an unknown name
        if not extractors(spec_json(self.features)):  # ValueError for an unknown one
            raise ValueError(f"features {self.features!r} names no feature extractor")
        ContextBlock.of(spec_json(self.features))  # MissingExtraError without the [context] extra
        if self.pos_tags not in ("corpus", "penn"):
            raise ValueError(f"pos_tags must be 'corpus' or 'penn', got {self.pos_tags!r}")
        if self.learner not in ("perceptron", "linear_svc"):
            raise ValueError(f"learner must be 'perceptron' or 'linear_svc', got {self.learner!r}")
        check_update_options(self.train_margin, self.update, self.C)
        if self.backoff not in ("first_sense", "none"):
            raise ValueError(f"backoff must be 'first_sense' or 'none', got {self.backoff!r}")
        if self.reader_joins not in READER_JOINS:
            raise ValueError(f"reader_joins must be one of {', '.join(READER_JOINS)}, got "
                             f"{self.reader_joins!r}")
        for name, low, high in PARAM_RANGES:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
            if value > high:  # each allocates or loops that much
                raise ValueError(f"{name} must be at most {high}, got {value!r}")
        for name in ("vector_backoff", "gloss_backoff"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        for name in ("prior", "prior_count", "margin", "gloss_weight", "discourse_weight",
                     "vector_prior", "sense_weight", "gloss_fusion"):
            check_weight(name, getattr(self, name))
        if self.temperature is not None:
            check_weight("temperature", self.temperature, above_zero=True)

    def tagged(self, instances: Sequence[Instance]) -> list[Instance]:
        """The instances with Penn tags when ``pos_tags="penn"``, each sentence tagged once
        (``penn_tags``: ``nltk.pos_tag``'s tags, about four times faster on SemCor)."""
        if self.pos_tags == "corpus":
            return list(instances)
        tags: dict[tuple[str, ...], tuple[str, ...]] = {}
        tagged = []
        for inst in instances:
            if inst.tokens not in tags:
                tags[inst.tokens] = tuple(penn_tags(inst.tokens))
            tagged.append(inst.with_pos(tags[inst.tokens]))
        return tagged

    @property
    def reader(self) -> LearnedReader | PlainReader:
        """How raw text is read for this model: the reader learnt from its training corpus
        (``wsd.text.reader``), or for a model without one (an older file, or a training
        corpus under ``MIN_READER_SENTENCES`` sentences) the plain reader, which says so in
        one notice."""
        found = getattr(self, "reader_", None)
        if found is not None:
            return found
        if not getattr(self, "_plain_notice", False):
            self._plain_notice = True
            warnings.warn("this model has no learnt reader (saved by an older wsd, or trained "
                          f"on fewer than {MIN_READER_SENTENCES} sentences); raw text is read by "
                          "the plain reader (the tagger, WordNet's base forms and longest "
                          "expressions). Train it again with `wsd allwords --save` for the "
                          "learnt one", stacklevel=3)
        return PLAIN

    def context_of(self, instances: Sequence[Instance]):
        """The neighbouring sentences' tokens per sentence (None when ``context_sentences=0``)."""
        if not self.context_sentences:
            return None
        return neighbour_tokens(instances, self.context_sentences)

    def fit(self, instances: Sequence[Instance], tagged: bool = False) -> AllWordsWSD:
        """Count senses per key and train a classifier for every key that needs one;
        ``tagged=True`` when the instances already carry the tags ``pos_tags`` asks for (as
        ``tagged`` gives them: several models trained on parts of one corpus tag it once)."""
        from joblib import Parallel, delayed  # joblib: training only

        from wsd.systems.allwords.keytraining import train_key  # numba: training only
        from wsd.systems.allwords.readertraining import train_reader  # numba: only when training

        self._check_params()
        labelled = [inst for inst in instances if inst.senses]
        labelled = labelled if tagged else self.tagged(labelled)
        if not labelled:
            raise ValueError("no labelled training instances (every instance lacks gold senses)")
        groups = group_by_key(labelled)
        self.sense_counts_ = {
            key: dict(Counter(inst.senses[0] for inst in group)) for key, group in groups.items()
        }
        enough = len({sentence_of(inst) for inst in labelled}) >= MIN_READER_SENTENCES
        self.reader_ = train_reader(labelled, seed=self.seed or 0,
                                    joins=self.reader_joins) if enough else None
        trainable = sorted(
            key for key, group in groups.items()
            if len(self.sense_counts_[key]) > 1 and len(group) >= self.min_examples
        )
        if self.wordnet_examples:
            inventory = WordNetInventory()
            for key in trainable:
                first = groups[key][0]
                extra = wordnet_examples(first.lemma, first.target_pos, inventory)
                groups[key] = groups[key] + self.tagged(extra)
        context = self.context_of(labelled)
        spec = spec_json(self.features)
        self.context_ = ContextBlock.of(spec)
        raw = self.context_.vectors(labelled, self.verbose) if self.context_ else None
        sums = self._fit_sense_sums(labelled, raw)
        self.sense_vectors_ = SenseVectors.of_sums(sums) if sums else None
        dense = self._fit_context([groups[key] for key in trainable], labelled, raw,
                                  sums if self.sense_weight else None)
        del sums
        del raw  # the block holds the rows it needs
        learning = {"epochs": self.epochs, "average": self.average, "seed": self.seed,
                    "n_models": self.n_models, "cv_folds": self.cv_folds, "learner": self.learner,
                    "update": self.update, "train_margin": self.train_margin,
                    "C": self.C}  # fmt: skip

        def group_context(group: list[Instance]):
            if context is None:
                return None
            sentences = {sentence_of(inst) for inst in group}
            return {s: context[s] for s in sentences if s in context}

        jobs = (
            delayed(train_key)(key, groups[key], group_context(groups[key]), spec,
                                self.weighting, learning, *dense(key))
            for key in tqdm(trainable, desc="lemma#pos classifiers", unit="word",
                            disable=not self.verbose)
        )  # fmt: skip
        trained = Parallel(n_jobs=self.n_jobs)(jobs)
        self.models_ = {key: model for key, model in trained if model is not None}
        self.trained_on_ = {"instances": len(labelled), "keys": len(groups)}
        return self

    def _fit_context(self, groups: Sequence[list[Instance]], labelled: Sequence[Instance],
                     raw: np.ndarray | None, sums: SenseSums | None):
        """``key -> (scaled block, names)`` of the training groups ((None, ()) without a
        contextual block); rows come from ``raw`` (the vectors of ``labelled``, each sentence
        encoded once) and only instances outside it (WordNet's examples) are encoded here; the
        scaling is fitted on all groups. With ``sums``, each group's sense-cosine columns
        (``sense_features``, leave-one-out for the instances inside the sums) follow."""
        if self.context_ is None or raw is None:
            return lambda key: (None, ())
        row_of = {id(inst): row for row, inst in enumerate(labelled)}
        members = [inst for group in groups for inst in group]
        others = [inst for inst in members if id(inst) not in row_of]
        extra = self.context_.vectors(others, self.verbose) if others else raw[:0]
        extra_row = {id(inst): row for row, inst in enumerate(others)}
        block = np.empty((len(members), raw.shape[1]), np.float32)
        for row, inst in enumerate(members):
            block[row] = raw[row_of[id(inst)]] if id(inst) in row_of else extra[extra_row[id(inst)]]
        starts = np.cumsum([0] + [len(group) for group in groups])
        spans = {group[0].key: (group, a, b) for group, a, b in zip(groups, starts, starts[1:],
                                                                    strict=False)}
        cosines = {key: self._training_cosines(group, block[a:b], row_of, sums)
                   for key, (group, a, b) in spans.items()} if sums else {}
        block = self.context_.fit_scale(block)

        def dense(key: str):
            group, a, b = spans[key]
            if key not in cosines:
                return block[a:b], self.context_.names
            classes, values = cosines[key]
            return (np.hstack([block[a:b], sense_features.columns(values, self.sense_weight)]),
                    self.context_.names + sense_features.feature_names(classes))

        return dense

    @staticmethod
    def _training_cosines(group: Sequence[Instance], vectors: np.ndarray,
                          row_of: Mapping[int, int], sums: SenseSums):
        """``(classes, cosines)`` of one key's training instances (``sense_features``)."""
        labels = [inst.senses[0] for inst in group]
        classes = sorted(set(labels))
        inside = [id(inst) in row_of for inst in group]
        return classes, sense_features.training_cosines(vectors, inside, labels, classes, sums)

    def _fit_sense_sums(self, labelled: Sequence[Instance],
                        raw: np.ndarray | None) -> SenseSums | None:
        """The sums of the training instances' contextual vectors ``raw`` per synset, the
        source of the sense vectors (None without a contextual block or without WordNet)."""
        if raw is None:
            return None
        try:
            wordnet = nltk_wordnet()  # hypernyms: the compiled lexicon has none
        except MissingResourceError:
            return None
        return SenseSums.fit(labelled, raw, wordnet)

    _sense_vectors: SenseVectors | tuple[Path, tuple[int, ...], tuple] | None = None

    @property
    def sense_vectors_(self) -> SenseVectors | None:
        """The sense vectors (None without them). A loaded model's are read from its file
        when first asked for: most decisions do not use them (a quarter of a second and
        24 MB of a cold start); ModelFileError if the file changed since it was loaded."""
        if isinstance(self._sense_vectors, tuple):
            path, identity, directory = self._sense_vectors
            if not _unchanged(path, identity, directory):
                raise ModelFileError(f"model file {str(path)!r} changed since it was loaded "
                                     "(its sense vectors are read when first used); load it "
                                     "again")
            self._sense_vectors = read_sense_vectors(path)
        return self._sense_vectors

    @sense_vectors_.setter
    def sense_vectors_(self, vectors: SenseVectors | None) -> None:
        self._sense_vectors = vectors

    # ---- answers --------------------------------------------------------------------

    def gloss_decisions(self):
        """The ``GlossDecisions`` of ``gloss_fusion`` and ``gloss_backoff`` (by the contextual
        block's encoder), None when both are off, without a block or without WordNet."""
        if (getattr(self, "context_", None) is None
                or not (self.gloss_fusion or self.gloss_backoff)):  # fmt: skip
            return None
        if getattr(self, "_gloss_decisions", None) is None:
            from wsd.systems.allwords.gloss_fusion import GlossDecisions  # the encoder's modules
            from wsd.systems.gloss_prior import GlossWithPrior

            inventory = self.knowledge.inventory()
            if inventory is None:
                return None
            self._gloss_decisions = GlossDecisions(GlossWithPrior(
                inventory, model=self.context_.extractor.model))
        return self._gloss_decisions

    def _check_fitted(self) -> None:
        if not hasattr(self, "models_"):
            raise ValueError("AllWordsWSD is not fitted: call fit(training instances) first")

    def most_frequent(self, key: str) -> Answer:
        """The most frequent training sense of ``key`` (ties: smallest key), None if unseen."""
        counts = self.sense_counts_.get(key)
        return most_frequent(counts) if counts else None

    def decide(self, instances: Sequence[Instance], tagged: bool = False,
               explain: int = 0, cache_vectors: bool = True) -> list[Decision]:  # fmt: skip
        """A ``Decision`` (sense, source, score, margin) per instance; ``tagged=True`` when the
        instances already carry the Penn tags ``pos_tags="penn"`` asks for; ``explain``: a
        classifier's decision carries its ``Reasons``, with that many features;
        ``cache_vectors=False``: the contextual vectors are neither looked up in nor added to
        the on-disk cache (text read once, as raw text is: each look-up reads the whole
        cache, SemCor's vectors included, and each call would add to it), the same answers."""
        self._check_fitted()
        return decide(self, instances if tagged else self.tagged(instances), explain,
                      cache_vectors)

    def predict(self, instances: Sequence[Instance]) -> list[Answer]:
        """A sense key per instance: its key's classifier, else MFS, else WordNet first sense."""
        return [decision.sense for decision in self.decide(instances)]

    def evaluate(self, instances: Sequence[Instance]) -> dict[str, float | int]:
        """P, R, F1 (fractions) and counts exactly as the framework's scorer computes them."""
        gold = {inst.id: inst.senses for inst in instances}
        answers = self.predict(instances)
        return score_framework(gold, dict(zip(gold, answers, strict=True)))

    def score(self, instances: Sequence[Instance]) -> float:
        """F1 of the framework's scorer (equal to accuracy when every instance is answered)."""
        return float(self.evaluate(instances)["F1"])

    # ---- model files -----------------------------------------------------------------

    @property
    def score_temperature(self) -> float:
        """The temperature a classifier answer's score is computed with (``temperature``)."""
        if self.temperature is not None:
            return self.temperature
        if getattr(self, "context_", None) is None:
            return DEFAULT_TEMPERATURE
        return DEFAULT_FUSION_TEMPERATURE if self.gloss_fusion else DEFAULT_CONTEXT_TEMPERATURE

    def _header(self) -> dict[str, Any]:
        params = {**{name: value for name, value in self.get_params().items()
                     if name not in RUN_TIME_PARAMS}, "temperature": self.score_temperature}
        header = {"params": params, "sense_counts": self.sense_counts_,
                  "trained_on": getattr(self, "trained_on_", {})}  # fmt: skip
        if getattr(self, "context_", None) is not None:
            header["context"] = self.context_.to_dict()  # the encoder and the block's scaling
        return header

    def _restore(self, header: Mapping[str, Any], models: Mapping[str, KeyModel]) -> None:
        self.sense_counts_ = dict(header["sense_counts"])
        self.models_ = models
        self.trained_on_ = dict(header.get("trained_on") or {})
        self.context_ = ContextBlock.of(spec_json(self.features))
        if self.context_ is not None:
            if "context" not in header:
                raise ValueError("the model's features have a contextual block but the model "
                                 "has no scaling for it")
            self.context_.restore(header["context"])

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of model format version 1 (``persistence.save_model``), kept so that
        older model files load; ``save`` writes the compact ``.npz`` format."""
        self._check_fitted()
        return {"kind": type(self).__name__, **self._header(),
                "models": {key: model.to_dict() for key, model in self.models_.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AllWordsWSD:
        system = cls(**{**_OPTION_WAS_OFF, **data["params"]})
        system._restore(data, {key: KeyModel.from_dict(m) for key, m in data["models"].items()})
        return system

    def save(self, path: str | Path) -> Path:
        """Write the whole system as a compact ``.npz`` model file (see ``modelfile``)."""
        self._check_fitted()
        if Path(path).suffix.lower() == ".json":
            raise ValueError(f"{path}: all-words models are saved in the compact .npz format; "
                             "give a path ending in .npz")
        return write_npz(path, self._header(), self.models_, getattr(self, "reader_", None),
                         getattr(self, "sense_vectors_", None))

    @classmethod
    def from_npz(cls, path: str | Path) -> AllWordsWSD:
        """The system saved in an ``.npz`` model file (checked; ValueError naming the file)."""
        # taken before reading, so that a file replaced meanwhile is caught
        identity, directory = persistence.file_identity(path), _directory(path)
        header, models = read_npz(path)
        try:
            system = cls(**{**_OPTION_WAS_OFF, **header["params"]})
            system._check_params()
            system._restore(header, models)
            if "reader" in header:
                system.reader_ = header.pop("reader")
            system._sense_vectors = (Path(path), identity, directory)  # read later
        except MissingExtraError as err:
            raise MissingExtraError(f"model file {str(path)!r}: {err}") from err
        except (TypeError, ValueError) as err:
            raise ModelFileError(f"model file {str(path)!r} has invalid parameters ({err})") \
                from err
        return system

    @classmethod
    def load(cls, path: str | Path) -> AllWordsWSD:
        """A saved system: the ``.npz`` format, or the JSON format of older versions."""
        return persistence.load_model(path, expected=cls)


persistence.register_format(NPZ_MAGIC, AllWordsWSD, AllWordsWSD.from_npz)


def _directory(path: str | Path) -> tuple:
    """``archive_directory(path)``, or () for a file that is no zip (``read_npz`` says why)."""
    try:
        return archive_directory(path)
    except (OSError, zipfile.BadZipFile):
        return ()


def _unchanged(path: Path, identity: tuple[int, ...], directory: tuple) -> bool:
    """Whether the model file at ``path`` holds what it held when it was loaded: the same
    ``file_identity`` or, where that moved (a change of mode, owner or links moves the change
    time too), the same members by their CRC-32s."""
    if not path.exists():
        return False
    return persistence.file_identity(path) == identity or _directory(path) == directory
