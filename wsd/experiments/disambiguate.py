"""Disambiguate raw sentences with a saved model, or one trained on the spot on bundled data."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from wsd.api import ONE_WORD, scope_of
from wsd.corpora.bundled import bundled_target
from wsd.experiments import rawtext_run as rawtext
from wsd.experiments.textinput import MAX_TEXT_BYTES, read_lines, read_text
from wsd.instance import MARKER, Instance, quoted, token_spans, word_occurrences
from wsd.knowledge.forms import form_lemma, is_form_of, target_lemma
from wsd.requests import DisambiguateRequest
from wsd.resources import DOWNLOAD_ALL, MissingResourceError
from wsd.systems.named import settings_for, train_bundled_model
from wsd.systems.supervised import SupervisedWSD
from wsd.text.web import plain_view

# Answers whose score margin over the runner-up is below this are marked unsure. Measured by
# 5-fold cross-validation of the averaged perceptron on the five bundled targets (bow, tf-idf):
# answers with margin < 0.3 were right 50% of the time (319 of 641), the rest 87% (1,083 of
# 1,250); on the four targets before line, 58% and 89% (benchmarks/bundled_defaults.py).
UNSURE_MARGIN = 0.3
TOP_FEATURES = 5  # features shown per answer of a bundled target, or with --target


def parse_sentence(text: str, target: str | None, index: int, where: str | None = None) -> Instance:
    """An instance from a sentence with the target marked as <<word>> or named by ``target``:
    the word itself, else any inflection of it (*cranes* for crane). Where it occurs more than
    once, the first is answered, with a notice. Text from the web or a terminal is read as a
    person sees it (``wsd.text.web``: markup and colour codes are blanks). ``where`` names the
    sentence in messages (*story.txt:3*; default *sentence INDEX*)."""
    where = where or f"sentence {index}"
    text = plain_view(text).text  # the same length: the marked word's offsets stay
    if "<<" in text or target is None:
        markers = len(MARKER.findall(text))
        if markers != 1:
            problem = ("more than one <<word>> marker" if markers else
                       "no <<word>> marker (a << without its >>, or an empty <<>>)")
            raise ValueError(f"{where}: {problem} in {quoted(text)}; mark the one word to "
                             "disambiguate" + ("" if target else ", or give --target WORD"))
        inst = Instance.from_text(text, id=f"s{index}", lemma=target)
        if target and inst.target.lower() != target.lower() and not is_form_of(inst.target,
                                                                                target):
            raise ValueError(f"{where}: the <<marker>> holds {inst.target!r}, not a form of "
                             f"--target {target!r}; mark the target word, or leave --target out")
        return inst
    tokens = token_spans(text)
    starts, ends = {start for start, _ in tokens}, {end for _, end in tokens}
    found = [(start, end) for start, end in word_occurrences(text, target)
             if start in starts and end in ends]  # whole tokens, not inside *bank'sbank*
    if not found:
        found = [span for span in tokens if is_form_of(text[span[0] : span[1]], target)]
    if not found:
        raise ValueError(f"{where}: {target!r} does not occur in {quoted(text)} (in any "
                         "inflection); mark the word to disambiguate as <<word>>")
    if len(found) > 1:
        warnings.warn(f"{where}: {target!r} occurs {len(found)} times; the first is "
                      "disambiguated (mark another as <<word>>)", stacklevel=2)
    start, end = found[0]  # marked, so that the target is that word alone (not *bank,*)
    marked = f"{text[:start]}<<{text[start:end]}>>{text[end:]}"
    return Instance.from_text(marked, id=f"s{index}", lemma=target)


def _for_model(model: SupervisedWSD, inst: Instance, where: str) -> Instance:
    """``inst`` with the model's lemma when its marked word is a form of it; ValueError when
    the model was trained for another word (it would label this one with a wrong sense)."""
    if not model.lemmas_ or inst.lemma in model.lemmas_:
        return inst
    lemma = form_lemma(inst.target, model.lemmas_, where)
    if lemma is not None:
        return replace(inst, lemma=lemma)
    raise ValueError(f"{where}: the marked word {inst.target!r} is not a form of "
                     f"{', '.join(model.lemmas_)}, the word(s) this model was trained for")


def disambiguate(
    model: SupervisedWSD, sentences: Sequence[str], target: str | None, top: int = TOP_FEATURES,
    unsure_below: float = UNSURE_MARGIN, places: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """One record per sentence: the sense, its gloss, the margin over the runner-up, whether the
    answer is unsure (margin below ``unsure_below``) and its breakdown into the bias and the
    ``top`` features for and against (they add up). ``places`` name the sentences in errors
    (*story.txt:3*; default *sentence N*)."""
    if target and model.lemmas_:
        lemma = target_lemma(target, model.lemmas_)
        if lemma is None:
            raise ValueError(f"this model was trained for {', '.join(model.lemmas_)}, "
                             f"not {target!r}")
        target = lemma
    records = []
    for index, text in enumerate(sentences, start=1):
        where = places[index - 1] if places else f"sentence {index}"
        inst = _for_model(model, parse_sentence(text, target, index, where), where)
        why = model.explain(inst, k=top, cache_vectors=False)  # sentences read once
        records.append({
            "sentence": text,
            "target": inst.target,
            "sense": why.sense,
            "gloss": why.gloss,
            "margin": round(why.margin, 4),
            "runner_up": why.runner_up,
            "unsure": why.runner_up is not None and why.margin < unsure_below,
            "features": [[name, round(value, 4)] for name, value in why.features],
            "against": [[name, round(value, 4)] for name, value in why.against],
            "bias": round(why.bias, 4),
            "other_features": round(why.rest, 4),
            "breakdown": why.lines(),
        })
    return records


def _bundled_words_only(text: str, request: DisambiguateRequest,
                        missing: MissingResourceError) -> str:
    """Without NLTK's data (a fresh machine), raw text without a model: the words of the
    bundled targets (the marked one where a line has a <<marker>>), each answered by its
    bundled model as ``--target`` answers it, with one notice; ``missing`` again when the
    text holds none."""
    wanted = []
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for number, line in enumerate(lines, start=1):
        marked = MARKER.search(line)
        words = ([marked.group(1)] if marked else
                 [line[start:end] for start, end in token_spans(plain_view(line).text)])
        targets = dict.fromkeys(t for t in map(bundled_target, words) if t is not None)
        wanted += [(line, f"line {number}", target) for target in targets]
    if not wanted:
        raise missing
    found = list(dict.fromkeys(target for _, _, target in wanted))
    warnings.warn(f"only the bundled words are answered ({', '.join(found)}), by their "
                  f"bundled models: the other words need NLTK's data ({DOWNLOAD_ALL})",
                  stacklevel=2)
    models = {target: train_bundled_model(target, settings_for(request)) for target in found}
    records = [record for line, place, target in wanted for record in disambiguate(
        models[target], [line], target, places=[place],
        top=TOP_FEATURES if request.top is None else request.top)]
    return printed(records, request.json)


def printed(records: Sequence[dict[str, Any]], as_json: bool) -> str:
    """The records as ``wsd disambiguate`` prints them: JSON lines, or readable blocks."""
    if as_json:
        return "\n".join(json.dumps(record, ensure_ascii=False, allow_nan=False)
                         for record in records)
    return "\n\n".join(format_record(record) for record in records)


def format_record(record: dict[str, Any]) -> str:
    """A short human-readable block for one disambiguated sentence."""
    lines = [f"{record['sentence']}", f"  {record['target']} -> {record['sense']}"]
    if record["gloss"]:
        lines[-1] += f": {record['gloss']}"
    if record.get("unsure"):
        lines.append(f"  unsure: a small margin ({record['margin']:.3f} over "
                     f"{record['runner_up']})")
    lines += [f"  {line}" for line in record.get("breakdown", [])]
    return "\n".join(lines)


def disambiguate_command(request: DisambiguateRequest) -> Iterator[str]:
    """`wsd disambiguate`: the answers for the text given, as printed. A bundled target
    without --model is answered by its bundled model, trained here; raw text by an all-words
    model, or by gloss similarity or Lesk with the sense prior."""
    model = rawtext.load_any_model(request.model) if request.model else None
    raw_text = rawtext.uses_raw_text(model, request.target)
    max_size = MAX_TEXT_BYTES if request.max_size is None else request.max_size
    request.check_answering(raw_text)
    if raw_text:
        top = request.top if request.top is not None else (TOP_FEATURES if request.target else 0)
        text = read_text(request.sentences, request.file, request.encoding, max_size)
        try:
            answers = rawtext.disambiguate_text(model, text, request.target,
                                                "json" if request.json else request.format, top)
        except MissingResourceError as missing:
            if model is not None or request.target or request.format != "plain":
                raise
            answers = _bundled_words_only(text, request, missing)
        yield answers
        return
    sentences, places = read_lines(request.sentences, request.file, request.encoding, max_size)
    if model is None:
        model = train_bundled_model(bundled_target(request.target), settings_for(request))
    elif scope_of(model) != ONE_WORD:
        raise ValueError(f"{request.model} holds a {type(model).__name__}, not a model from "
                         "`wsd train` or `wsd allwords --save`")
    unsure_below = UNSURE_MARGIN if request.unsure_below is None else request.unsure_below
    records = disambiguate(model, sentences, request.target, places=places,
                           top=TOP_FEATURES if request.top is None else request.top,
                           unsure_below=unsure_below)
    yield printed(records, request.json)
