"""A fixed train/test split over many lexical-sample words, in one process (``wsd lexsample``).

One model per lexelt is trained on the training file (gold from its inline answers or a key
file), every test instance of that lexelt is answered, and the answers are written in scorer2's
format (``lexelt instance_id sense``, sorted by lexelt then id) to a temporary file renamed into
place, so a failed run never leaves half an answer file. With a test key the answers are scored
as scorer2 does (fine-grained; coarse too with a sense map).

Training uses each instance's first gold sense (the first ``<answer>`` or key sense; ``U`` is a
sense like any other, since scorer2 credits it), and a lexelt seen with one sense answers it.
Contexts are POS-tagged once, before any lexelt is trained (``wsd.features.pos`` caches tags by
token tuple), so no context is tagged twice; with contextual features every context is encoded
once too, before training, and each lexelt's model reads the vectors from the cache.
"""

from __future__ import annotations

import os
import time
import warnings
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from wsd.corpora.lexsample import lexelt_of, parse_lexelt, read_lexsample
from wsd.corpora.lexsample_inventory import LexicalSampleInventory
from wsd.evaluation.scorer2 import format_score, read_sense_map, score_lexsample
from wsd.features.pos import ensure_pos
from wsd.instance import Instance
from wsd.persistence import check_output_path, write_text_atomic
from wsd.requests import LexsampleRequest
from wsd.systems.named import SystemSettings, make_learner_system, settings_for
from wsd.systems.supervised import SupervisedWSD

PathLike = str | os.PathLike


@dataclass
class LexicalSampleRun:
    """What ``run_lexsample`` did: answers {id: (lexelt, sense)}, scores (None without a test
    key), how many lexelts were trained and left unanswered, and seconds per stage."""

    answers: dict[str, tuple[str, str]]
    fine: dict | None = None
    coarse: dict | None = None
    lexelts: int = 0
    unanswered_lexelts: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def by_lexelt(instances: Sequence[Instance]) -> dict[str, list[Instance]]:
    """Instances grouped by lexelt item, groups and members in file order."""
    groups: dict[str, list[Instance]] = defaultdict(list)
    for inst in instances:
        groups[lexelt_of(inst)].append(inst)
    return dict(groups)


def _labelled(instances: list[Instance], path: PathLike) -> list[Instance]:
    unlabelled = [inst for inst in instances if not inst.senses]
    if unlabelled:
        source = dict(unlabelled[0].meta).get("source", str(path))
        raise ValueError(f"{source}: training instance {unlabelled[0].id!r} has no sense "
                         f"({len(unlabelled)} without one); give --train-key or <answer> elements")
    return instances


def glosses_for(inventory: LexicalSampleInventory | None, lexelt: str) -> dict[str, str] | None:
    """Sense -> gloss of one lexelt from the dictionary (None without a dictionary)."""
    if inventory is None:
        return None
    lemma, pos = parse_lexelt(lexelt)
    return {sense.id: sense.gloss + (" " + " ".join(sense.examples) if sense.examples else "")
            for sense in inventory.senses(lemma, pos)}


def dictionary_glosses(dictionary: PathLike, instance: Instance) -> dict[str, str]:
    """Sense -> gloss for the word of ``instance`` from a lexical-sample dictionary file."""
    glosses = glosses_for(LexicalSampleInventory.from_file(dictionary), lexelt_of(instance))
    if not glosses:
        raise ValueError(f"{dictionary}: no senses for {lexelt_of(instance)!r}")
    return glosses


def format_run(run: LexicalSampleRun, out: PathLike | None = None) -> str:
    """What ``wsd lexsample`` prints: counts, timings, and scorer2's lines when scored."""
    timing = ", ".join(f"{stage} {value:.1f} s" for stage, value in run.seconds.items())
    lines = [f"{run.lexelts} lexelts trained, {len(run.answers)} test instances answered "
             f"({timing})"]
    if run.unanswered_lexelts:
        lines.append(f"note: no training data for {len(run.unanswered_lexelts)} test lexelt(s) "
                     f"({', '.join(run.unanswered_lexelts[:5])}); left unanswered")
    if out is not None:
        lines.append(f"answers written to {out}")
    if run.fine is not None:
        lines.append(format_score(run.fine, "fine"))
    if run.coarse is not None:
        lines.append(format_score(run.coarse, "coarse"))
    return "\n".join(lines)


def dense_extractors(settings: SystemSettings) -> list:
    """The dense extractors (contextual features) of ``settings``' feature set, their cache
    on; MissingExtraError when their extra is not installed."""
    return [e for e in settings.featurizer().dense_extractors() if e.cache]


def train_lexelt(
    instances: Sequence[Instance], learner: str, settings: SystemSettings,
    glosses: Mapping[str, str] | None = None,
) -> SupervisedWSD:
    """The model of one lexelt; a lexelt seen with a single sense gets the MFS learner (a
    classifier needs two senses to choose between) unless the learner is Lesk."""
    one_sense = len({inst.senses[0] for inst in instances}) < 2
    if one_sense and learner != "lesk":
        system = make_learner_system("mfs", settings, dict(glosses or {}))
    else:
        system = make_learner_system(learner, settings, dict(glosses or {}) or None)
    return system.fit(list(instances))


def write_answers(path: PathLike, answers: Mapping[str, tuple[str, str]]) -> Path:
    """Write ``lexelt instance_id sense`` lines sorted by (lexelt, id) atomically: a temporary
    file in the same folder, renamed over ``path`` once complete."""
    path = Path(path)
    rows = sorted((lexelt, instance_id, sense) for instance_id, (lexelt, sense) in answers.items())
    return write_text_atomic(path, "".join(" ".join(row) + "\n" for row in rows))


def run_lexsample(
    train: PathLike,
    test: PathLike,
    out: PathLike | None = None,
    *,
    train_key: PathLike | None = None,
    test_key: PathLike | None = None,
    dictionary: PathLike | None = None,
    sense_map: PathLike | None = None,
    learner: str = "averaged",
    settings: SystemSettings | None = None,
    progress: bool = False,
) -> LexicalSampleRun:
    """Train one ``learner`` per lexelt of ``train``, answer ``test``, write ``out``, score.

    Every input is read and checked before anything is trained; errors name file and line.
    With contextual features every context is encoded once, before training (``progress``:
    a progress bar).
    """
    settings = settings or SystemSettings()
    dense = [] if learner in ("mfs", "lesk") else dense_extractors(settings)  # extra missing: stop
    clock = time.perf_counter()
    training = _labelled(read_lexsample(train, train_key), train)
    testing = read_lexsample(test, test_key)
    inventory = LexicalSampleInventory.from_file(dictionary) if dictionary else None
    if test_key is None and sense_map is not None:
        raise ValueError("--sense-map needs --test-key: coarse scores compare with the key")
    coarse_map = read_sense_map(sense_map) if sense_map else None
    key_senses = {sense for inst in testing for sense in inst.senses}
    if coarse_map is not None and not key_senses & set(coarse_map):
        warnings.warn(f"{sense_map} maps none of the senses in {test_key}: the coarse-grained "
                      "scores equal the fine-grained ones (a sense map for other data?)",
                      stacklevel=2)
    if learner == "lesk" and inventory is not None:
        bare = [lexelt for lexelt in by_lexelt(training) if not glosses_for(inventory, lexelt)]
        if bare:
            raise ValueError(f"{dictionary} has no senses for {len(bare)} lexelt(s) of {train} "
                             f"({', '.join(bare[:5])}); lesk needs their glosses")
    seconds = {"read": time.perf_counter() - clock}

    clock = time.perf_counter()
    if learner not in ("mfs", "lesk"):
        tagged = ensure_pos([*training, *testing])
        training, testing = tagged[: len(training)], tagged[len(training):]
    seconds["tag"] = time.perf_counter() - clock
    if dense:
        clock = time.perf_counter()
        for extractor in dense:  # every context encoded once, in batches; the lexelts hit the cache
            extractor.vectors([*training, *testing], progress=progress)
        seconds["encode"] = time.perf_counter() - clock

    clock = time.perf_counter()
    answers: dict[str, tuple[str, str]] = {}
    test_groups = by_lexelt(testing)
    train_groups = by_lexelt(training)
    for lexelt, group in train_groups.items():
        model = train_lexelt(group, learner, settings, glosses_for(inventory, lexelt))
        targets = test_groups.get(lexelt, [])
        for inst, sense in zip(targets, model.predict(targets), strict=True):
            answers[inst.id] = (lexelt, sense)
    seconds["train+predict"] = time.perf_counter() - clock
    run = LexicalSampleRun(answers=answers, lexelts=len(train_groups), seconds=seconds,
                           unanswered_lexelts=sorted(set(test_groups) - set(train_groups)))
    if out is not None:
        write_answers(out, answers)
    if test_key is not None:
        gold = {inst.id: inst.senses for inst in testing}
        chosen = {instance_id: sense for instance_id, (_, sense) in answers.items()}
        run.fine = score_lexsample(gold, chosen)
        if coarse_map is not None:
            run.coarse = score_lexsample(gold, chosen, coarse_map)
    return run


def lexsample_command(request: LexsampleRequest) -> Iterator[str]:
    """`wsd lexsample`: one model per lexelt, answers written to ``request.out``; the run's
    summary (and scorer2's scores with --test-key), as printed."""
    check_output_path(request.out, "--out", [request.train, request.test, request.train_key,
                                             request.test_key, request.dictionary,
                                             request.sense_map])
    settings = replace(settings_for(request, "lexsample"),
                       learner_options=request.learner_options())
    if request.models is not None:
        settings = replace(settings, models=request.models)
    run = run_lexsample(request.train, request.test, request.out, train_key=request.train_key,
                        test_key=request.test_key, dictionary=request.dictionary,
                        sense_map=request.sense_map, learner=request.learner,
                        settings=settings, progress=True)
    yield format_run(run, request.out)
