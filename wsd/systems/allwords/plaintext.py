"""Disambiguating raw text: every content word of ``wsd.text.analyze``'s sentences (as the
model's reader reads them) gets a WordNet sense from an all-words model (its classifier, else
the most frequent SemCor sense, else the WordNet first sense) or, without a model, from gloss
similarity with the sense prior (with the [context] extra; ``wsd.systems.gloss_prior``) or
Lesk with the sense prior (without it, or asked for by name: ``model="lesk"``;
``model="gloss"`` asks for the other).

``annotate_text(model, text, target=None)`` gives one JSON-able record per sentence (the
schema of ``wsd disambiguate --json``); ``disambiguate(text, model=None, target=None)`` the same
as ``TaggedWord`` objects whose ``synset`` is an NLTK ``Synset``.
"""

from __future__ import annotations

import functools
import gc
import os
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from wsd.features.encoders import DEFAULT_ENCODER, MissingExtraError, check_encoder
from wsd.instance import Instance, unmark
from wsd.knowledge.inventory import (
    Sense,
    WordNetInventory,
    nltk_wordnet,
    readable_gloss,
    shared_inventory,
)
from wsd.knowledge.lexicon import POS_LETTER, american, wordnet
from wsd.knowledge.normalise import BUILTIN_STOPWORDS
from wsd.knowledge.sensekeys import lemma_for_key
from wsd.persistence import check_text, file_identity
from wsd.systems.allwords.bundled_answers import with_bundled_answers
from wsd.systems.allwords.predict import Decision, Reasons, prior_decision
from wsd.systems.allwords.system import AllWordsWSD
from wsd.systems.gloss_prior import GlossWithPrior
from wsd.systems.lesk import LeskWithPrior, SimplifiedLesk
from wsd.text import Sentence, analyze, target_lemmas
from wsd.text.pipeline import is_target
from wsd.text.reader import PLAIN

LESK = "lesk"
GLOSS = "gloss"
NO_MODEL_SYSTEMS = (GLOSS, LESK)  # what answers without a model, asked for by name
ModelLike = AllWordsWSD | str | Path | None


@dataclass(frozen=True)
class TaggedWord:
    """A disambiguated word of the input: where it is (``start``/``end``: character offsets
    into the whole text), its lemma and coarse POS, the chosen sense (``sense_key``, synset
    name ``synset_name``, ``gloss``), how sure the system was (``score``: for a classifier,
    the calibrated probability that such an answer is right, for "mfs" the sense's training
    share, for gloss similarity and Lesk its softmax share; ``margin``: its score margin over
    the runner-up sense, in the units of the scores that chose it, see ``Decision``; both None
    for the WordNet first sense; a bundled target's model, without an all-words model, gives
    its perceptron's margin and no score) and which system chose it (``source``:
    "classifier", "mfs", "first-sense", "gloss" or "lesk"). Asked for (``explain``), a
    classifier's, gloss similarity's or Lesk's answer says why: the ``runner_up`` synset and
    the ``reasons``, the terms of its score margin over it (``("bow=deposit", 0.47)``, the
    bias, the sense prior, the gloss vectors, ...)."""

    token: str
    start: int
    end: int
    lemma: str
    pos: str
    sense_key: str | None
    synset_name: str | None
    gloss: str | None
    score: float | None
    margin: float | None
    source: str | None
    sentence: int
    runner_up: str | None = None
    reasons: tuple[tuple[str, float], ...] = ()

    @property
    def synset(self):
        """The NLTK ``Synset`` of the chosen sense (None when there is none)."""
        return nltk_wordnet().synset(self.synset_name) if self.synset_name else None

    def to_record(self) -> dict[str, Any]:
        """The word as in ``--json`` output (``synset`` is the synset's name)."""
        record = asdict(self)
        del record["sentence"]
        record["synset"] = record.pop("synset_name")
        for name in ("score", "margin"):
            if record[name] is not None:
                record[name] = round(record[name], 4)
        found = {name: record[name] for name in RECORD_FIELDS}
        if self.reasons:
            found["reasons"] = {"runner_up": self.runner_up,
                                "terms": [[name, round(value, 4)] for name, value in self.reasons]}
        return found


RECORD_FIELDS = ("token", "start", "end", "lemma", "pos", "sense_key", "synset", "gloss",
                 "score", "margin", "source")  # fmt: skip


def _inventory() -> WordNetInventory:
    """The shared inventory of the WordNet reader active now (not cached here: the reader
    changes when the compiled lexicon is built or dropped, and ``shared_inventory`` keeps one
    per reader)."""
    return shared_inventory(wordnet())


def _lesk() -> LeskWithPrior:
    return _lesk_over(_inventory())


@functools.lru_cache(maxsize=2)
def _lesk_over(inventory: WordNetInventory) -> LeskWithPrior:
    return LeskWithPrior(SimplifiedLesk(inventory))


def load_system(model: ModelLike) -> AllWordsWSD | None:
    """An all-words system from a model file path (or the system itself; None stays None).
    A file is loaded once while it is unchanged, so that calling ``disambiguate(sentence,
    model=path)`` sentence by sentence does not load it each time (0.4 s a call)."""
    if model is None or isinstance(model, AllWordsWSD):
        return model
    if not isinstance(model, str | os.PathLike):
        raise TypeError(f"model must be an all-words model (from `wsd allwords --save`), its "
                        f"file or None, not a {type(model).__name__}" + (
                            "; a one-word model answers with model.predict(instances)"
                            if hasattr(model, "predict") else ""))
    if isinstance(model, str) and not model.strip():
        raise ValueError("model is empty: give a model file's path, None, or one of "
                         f"{', '.join(map(repr, NO_MODEL_SYSTEMS))}")
    path = Path(model).expanduser()
    if isinstance(model, str):
        refuse_misnamed_system(model)
    try:
        identity = file_identity(path.resolve())
    except (OSError, TypeError, ValueError):  # AllWordsWSD.load says what is wrong
        return AllWordsWSD.load(path)
    return _load_file(str(path.resolve()), identity)


def refuse_misnamed_system(name: str) -> None:
    """ValueError for a model name that is no file here but a system's in another case
    (*LESK*, *Gloss*) or one that needs a model (*mfs*): "no such file" would mislead."""
    if name.lower() in NO_MODEL_SYSTEMS + ("mfs",) and not Path(name).expanduser().exists():
        raise ValueError(f"model {name!r} is no model file here; the systems that answer "
                         f"without one are named {', '.join(map(repr, NO_MODEL_SYSTEMS))} "
                         "(lowercase), and no model at all takes the default")


@functools.lru_cache(maxsize=2)
def _load_file(path: str, identity: tuple[int, ...]) -> AllWordsWSD:
    """The model at ``path`` while its ``file_identity`` is ``identity``: a file replaced since
    (even with its size and modification time put back) is loaded again."""
    return AllWordsWSD.load(path)


def word_instances(sentences: Sequence[Sentence], wanted: frozenset[str] | None):
    """One instance per content word (of the ``wanted`` lemmas, when given), in text order,
    with its sentence's words as tokens, Penn tags and lemmas (one document: the text)."""
    found = []
    for n, sentence in enumerate(sentences):
        words = sentence.words
        tokens = tuple("_".join(w.form.split()) for w in words)  # SemCor writes took_place
        tags = tuple(w.tag for w in words)
        meta = (("document", "text"), ("sentence", f"s{n}"),
                ("lemmas", tuple(w.lemma for w in words)))  # fmt: skip
        for i, word in enumerate(words):
            if not word.is_content:
                continue
            if wanted is not None and not is_target(word, wanted):
                continue
            inst = Instance(id=f"s{n}.w{i}", tokens=tokens, span=(i, i + 1),
                            lemma=american(word.lemma, POS_LETTER[word.pos]), pos=tags,
                            target_pos=word.pos, meta=meta)  # fmt: skip
            found.append((n, word, inst))
    return found


def _gloss() -> GlossWithPrior:
    return _gloss_over(_inventory())


@functools.lru_cache(maxsize=2)
def _gloss_over(inventory: WordNetInventory) -> GlossWithPrior:
    return GlossWithPrior(inventory)


def no_model_system() -> str:
    """What answers without a model: gloss similarity with the prior ("gloss") when the
    [context] extra is installed, else Lesk with the prior ("lesk"). An extra installed but
    broken (BrokenExtraError) or a missing encoder file (EncoderError) is an error, not Lesk:
    whoever installed the extra expects gloss similarity's answers, not others in silence."""
    try:
        check_encoder(DEFAULT_ENCODER)
    except MissingExtraError:
        return LESK
    return GLOSS


def _shared(found: Sequence[str], top: int) -> str:
    """*ball/pitch*: up to ``top`` of the words a signature shares, or *none*."""
    return "/".join(found[:top]) + ("/..." if len(found) > top else "") or "none"


def _lesk_decision(inst: Instance, explain: int = 0) -> Decision:
    """Lesk with the sense prior's answer; with ``explain`` > 0, its reasons: the prior's and
    the gloss overlap's terms of the margin over the runner-up, and the context words each of
    the two senses' signatures shares."""
    terms = _lesk().sense_terms(inst)

    def names(best: int, other: int) -> tuple[str, str]:
        shared = [_shared(_lesk().lesk.shared_words(inst, terms[k][0]), explain)
                  for k in (best, other)]  # fmt: skip
        return "sense prior", f"gloss overlap ({shared[0]} vs {shared[1]})"

    return prior_decision(terms, LESK, names if explain > 0 else None)


def _gloss_decisions(instances: Sequence[Instance], explain: int = 0) -> list[Decision]:
    """Gloss similarity with the sense prior's answers; with ``explain`` > 0, their reasons:
    the prior's, the gloss vectors' and the gloss overlap's terms of the margin over the
    runner-up, with the two senses' cosines and shared words."""
    system = _gloss()
    system.prepare(instances)
    decisions = []
    for inst in instances:
        terms = system.sense_terms(inst)

        def names(best: int, other: int, inst=inst, terms=terms) -> tuple[str, str, str]:
            cosines = [terms[k][2] / system.weight if system.weight else 0.0
                       for k in (best, other)]  # fmt: skip
            shared = [_shared(system.shared_words(inst, terms[k][0]), explain)
                      for k in (best, other)]  # fmt: skip
            return ("sense prior", f"gloss vectors (cosine {cosines[0]:.2f} vs {cosines[1]:.2f})",
                    f"gloss overlap ({shared[0]} vs {shared[1]})")

        decisions.append(prior_decision(terms, GLOSS, names if explain > 0 else None))
    return decisions


def _sense(inst: Instance, key: str | None) -> Sense | None:
    if key is None:
        return None
    for sense in _inventory().senses(inst.lemma, inst.target_pos):
        if sense.id == key:
            return sense
    try:  # a key of another spelling of the lemma (e.g. a capitalised one)
        lemma = lemma_for_key(wordnet(), key)
    except (LookupError, ValueError):
        return Sense(id=key, gloss="")
    return Sense(id=key, gloss=lemma.synset().definition(), synset=lemma.synset().name())


def _explained(inst: Instance, reasons: Reasons | None) -> dict[str, Any]:
    """``TaggedWord``'s ``runner_up`` (a synset name) and ``reasons`` from a decision's."""
    if reasons is None:
        return {}
    runner_up = _sense(inst, reasons.runner_up)
    return {"runner_up": runner_up.synset if runner_up else reasons.runner_up,
            "reasons": reasons.terms}


def written_key(key: str | None, lemma: str) -> str | None:
    """The key of sense ``key`` under ``lemma``, the word's lemma as written, where the model
    read another spelling (*colour*: the answer color%1:07:00:: is colour%1:07:00::); ``key``
    itself where ``lemma`` is not in its synset."""
    if key is None:
        return None
    try:
        chosen = lemma_for_key(wordnet(), key)
    except (LookupError, ValueError):
        return key
    return next((other.key() for other in chosen.synset().lemmas()
                 if other.name().lower() == lemma), key)  # fmt: skip


def _cyclic_gc_paused(function):
    """``function`` run with Python's cyclic garbage collector paused (as ``timeit`` runs
    code; enabled again after, if it was): reading a long text keeps many new cache entries,
    whose collections scanned every object of the process, the WordNet of a peer such as
    NLTK's included (a sixth of the raw-text time, ``docs/reader.md``). Nothing of the path
    makes reference cycles, so memory is freed as before."""

    @functools.wraps(function)
    def paused(*args: Any, **kwargs: Any) -> Any:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return paused


@_cyclic_gc_paused
def tag_text(model: ModelLike, text: str, target: str | None = None, reader: Any = None,
             check_english: bool = True, explain: int = 0, markers: bool = True,
             ) -> tuple[list[Sentence], list[TaggedWord]]:  # fmt: skip
    """The sentences of ``text`` and its disambiguated words (only ``target``'s, any
    inflection, when given): the model's answers, or without one (or with ``model`` "gloss" or
    "lesk"), gloss similarity or Lesk with the sense prior (see ``no_model_system``).
    ``reader``: what reads the text into words (default: the model's, ``AllWordsWSD.reader``;
    without a model the plain reader, ``wsd.text.reader.PLAIN``); ``check_english``: warn
    when the text does not look like English; ``explain``: a classifier's, gloss similarity's
    or Lesk's answer gives its reasons, with that many features or words. Words marked as
    ``<<word>>`` are the only ones answered (offsets are then into the text without the
    markers; ``markers=False``: ``<<`` and ``>>`` are text, and the offsets always index
    ``text``, as a spaCy Doc's tokens need). Without a model, a bundled target (bass, bank,
    crane, line, plant) is answered by its bundled model, as on the command line (unless a
    system was asked for by name). ValueError for text holding a lone surrogate."""
    _check_input(text, target)
    if isinstance(explain, bool) or not isinstance(explain, int):
        raise TypeError(f"explain must be an int >= 0 (the features or words shown per "
                        f"answer), not {explain!r}")
    if explain < 0:
        raise ValueError(f"explain must be 0 or more (the features or words shown per "
                         f"answer), got {explain}")
    if reader is not None and not callable(getattr(reader, "units", None)):
        raise TypeError(f"reader must read text into units (wsd.text.reader.PLAIN, or a "
                        f"model's .reader), not a {type(reader).__name__}")
    text, marked = unmark(text) if markers else (text, [])
    by_name = model if isinstance(model, str) and model in NO_MODEL_SYSTEMS else None
    system = None if by_name else load_system(model)
    if reader is None:
        reader = system.reader if system else PLAIN
    sentences = analyze(text, reader)
    if check_english:
        _check_english(sentences)
    found = word_instances(sentences, target_lemmas(target) if target else None)
    instances = [inst for _, _, inst in found]
    if system is not None:
        decisions = (system.decide(instances, tagged=True, explain=explain, cache_vectors=False)
                     if instances else [])  # fmt: skip
    elif (by_name or no_model_system()) == GLOSS:
        decisions = _gloss_decisions(instances, explain) if instances else []
    else:
        decisions = [_lesk_decision(inst, explain) for inst in instances]
    words = []
    for (n, word, inst), decision in zip(found, decisions, strict=True):
        sense = _sense(inst, decision.sense)
        key = decision.sense if inst.lemma == word.lemma else written_key(decision.sense,
                                                                              word.lemma)
        words.append(TaggedWord(
            token=word.text, start=word.start, end=word.end, lemma=word.lemma, pos=word.pos,
            sense_key=key, synset_name=sense.synset if sense else None,
            gloss=readable_gloss(sense.gloss) if sense else None, score=decision.score,
            margin=decision.margin, source=decision.source, sentence=n,
            **_explained(inst, decision.reasons)))  # fmt: skip
    if marked:
        words = [word for word in words if any(word.start <= at < word.end for at in marked)]
        if target is not None and not words:  # as the command line refuses it
            raise ValueError(f"no <<marked>> word is a form of target {target!r}: mark "
                             f"{target!r}, or give no target")
    if system is None and by_name is None:  # the bundled targets: their models, as on the CLI

        words = with_bundled_answers(words, sentences, explain)
    return sentences, words


# English running text has most of its common words (not names) in WordNet or the stopword
# list: over 70% in every text tried, chat and recipe lists included; French, Spanish, Italian
# and German sentences 0-45% (their *est*, *die*, *Der* read as English words).
ENGLISH_SHARE = 0.6
MIN_WORDS_TO_JUDGE = 6


def _check_english(sentences: Sequence[Sentence]) -> None:
    """A notice when the text does not look like English: a user who pastes French gets
    English senses for *est* (Eastern Standard Time) and German *die* (a cube)."""
    words = [w for s in sentences for w in s.words
             if w.text.isalpha() and not w.tag.startswith("NNP")]  # fmt: skip
    if len(words) < MIN_WORDS_TO_JUDGE:
        return
    known = sum(1 for w in words if w.pos or w.text.lower() in BUILTIN_STOPWORDS
                or w.tag == "MD" or w.lemma == "n't")  # *dont*: do + nt, *cant*: ca + nt
    if known < ENGLISH_SHARE * len(words):
        warnings.warn(f"the text does not look like English ({known} of its {len(words)} "
                      "common words are English words WordNet or the stopword list knows); "
                      "the senses given are WordNet's English ones", stacklevel=3)


def _check_input(text: object, target: object) -> None:
    """TypeError / ValueError for what is not text or not a word, before any work."""
    if not isinstance(text, str):
        hint = ""
        if isinstance(text, bytes | bytearray):
            hint = " (decode bytes first, e.g. data.decode('utf-8'))"
        elif isinstance(text, list | tuple) and all(isinstance(item, str) for item in text):
            hint = (" (tokens, as nltk.wsd.lesk takes them: pass ' '.join(tokens); several "
                    "texts: one call each)")
        raise TypeError(f"text must be a str, not {type(text).__name__}{hint}")
    check_text(text, "text", writable_only=True)  # a lone surrogate: not a character
    if target is not None and not isinstance(target, str):
        raise TypeError(f"target must be a str or None, not {type(target).__name__}")
    if target is not None and not target.strip():
        raise ValueError("target is empty: give the word to disambiguate (any inflection), "
                         "or None for every content word")


def annotate_text(model: ModelLike, text: str, target: str | None = None,
                  check_english: bool = True) -> list[dict[str, Any]]:  # fmt: skip
    """One record per sentence of ``text``: ``{"text": ..., "words": [{"token", "start",
    "end", "lemma", "pos", "sense_key", "synset", "gloss", "score", "margin", "source"}]}``
    (offsets into ``text``). ``model``: an AllWordsWSD, a model file, or None (or "gloss",
    "lesk") for gloss similarity or Lesk with the sense prior; ``target``: keep only that
    word (any inflection); ``check_english``: warn when the text does not look like English."""
    return sentence_records(*tag_text(model, text, target, check_english=check_english))


def sentence_records(sentences: Sequence[Sentence], words: Sequence[TaggedWord]
                     ) -> list[dict[str, Any]]:  # fmt: skip
    """``{"text", "words": [word records]}`` per sentence (see ``annotate_text``)."""
    records: list[dict[str, Any]] = [{"text": s.text, "words": []} for s in sentences]
    for word in words:
        records[word.sentence]["words"].append(word.to_record())
    return records


def disambiguate(text: str, model: ModelLike = None, target: str | None = None
                 ) -> list[TaggedWord]:  # fmt: skip
    """The content words of ``text`` (or only ``target``, any inflection) with a WordNet
    sense each; ``.synset`` is an NLTK ``Synset``. ``model``: an all-words model (file or
    object) from ``wsd allwords --save``; None uses gloss similarity with the sense prior
    (Lesk with it without the [context] extra; either by name: "gloss", "lesk"),
    and for a bundled ``target`` (bass, bank, crane, line, plant) its bundled model, as
    ``wsd disambiguate --target`` does."""
    return tag_text(model, text, target)[1]
