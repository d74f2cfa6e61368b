"""Raw text end to end: the all-words model file, a cold ``wsd disambiguate`` and throughput on
plain text beside ``nltk.wsd.lesk`` and a pywsd-style simple Lesk, and raw-text vs XML F1.

Prints, for the SemCor model (``AllWordsWSD()`` defaults; trained here with ``wsd allwords
--save`` unless ``--model`` names one):

- train + save: wall seconds and peak resident memory of that process;
- model file size; load time of the file (WordNet already loaded: the file's own cost) and of
  a first load in a fresh process (WordNet's loading included: the compiled lexicon's when
  there is one);
- cold start: wall (and CPU) seconds of ``wsd disambiguate --model PATH "..."``, median of 3,
  beside a cold ``nltk.wsd.lesk`` (a fresh Python importing NLTK, tagging the sentence and
  answering one word: the peer's cheapest start), with the compiled lexicon
  (``wsd.knowledge.compiled``, built first if missing, not timed);
- throughput on one core: the plain text of the three framework sets (each document's
  sentences, tokens joined by spaces), then of a longer stretch of SemCor (WordNet's caches,
  cold at first, warm up along it), through ``wsd.disambiguate`` (sentence splitting,
  tokenizing, NLTK's POS tagger, lemmas, expressions, the classifiers), and through the peers
  on the same tokens, each tagging with ``nltk.pos_tag`` and answering every content word;
- F1 of the framework's scorer on each set's plain text and on its XML (semeval2007 is the
  dev set the raw-text rules were chosen on; senseval2/3 are reported only); the plain text
  twice: the XML's tokens joined by spaces, and laid out as a person writes them (*don't*,
  *"causes" of*), which leaves the splitting of words to our tokenizer;
- ``joins`` (not run by default; minutes): raw-text F1 per share of ``wsd.text.conventions``'s
  expression-join rule (and WordNet's counts alone), on semeval2007 with the SemCor model and
  on held-out SemCor documents (fold 0 of 3 by document, seed 0) with a model trained on the
  other folds: how ``JOIN_SHARE`` was chosen;
- ``retag`` (not run by default; minutes): the same for the corpus's parts of speech per word
  form and tag, per ``MIN_RETAGGED`` and ``RETAG_SHARE`` (the counts from the model's corpus:
  all SemCor for semeval2007, the other folds for held-out SemCor);
- ``names`` (not run by default; minutes): the same with proper names left apart, joined as
  person alone, and joined with the kind naive Bayes gives them (``wsd.text.names``; the
  counts from the model's corpus);
- ``hostile`` (not run by default; no model needed): seconds of the raw-text reading
  (``wsd.text.analyze``: the web view, sentences, tokens, tags, lemmas, expressions) on
  repeats of inputs that had made it quadratic, at a size and at four times that size: a
  ratio near 4 is linear time.

Usage: python benchmarks/raw_text.py [--model PATH] [--sets semeval2007 senseval2 senseval3]
                                     [--parts load cold throughput f1 joins retag names
                                             hostile]
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one core

import argparse  # noqa: E402
import functools  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

WSD = str(Path(sys.executable).with_name("wsd"))
PARTS = ["load", "cold", "throughput", "f1"]
JOIN_SHARES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.7)
# (MIN_RETAGGED, RETAG_SHARE) pairs
RETAGS = ((1, 0.7), (2, 0.7), (3, 0.6), (3, 0.7), (3, 0.8), (5, 0.7), (10, 0.7), (20, 0.8))
SENTENCE = "She deposited the check at the bank before the river flooded the town."


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def train(path: Path) -> None:
    start = time.perf_counter()
    subprocess.run([WSD, "allwords", "--save", str(path), "--quiet"], check=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"train + save (wsd allwords --save): {seconds:.1f} s, peak {peak:.0f} MB")


def load_times(path: Path) -> None:
    code = ("import sys, time; from wsd.allwords.system import AllWordsWSD; "
            "t, c = time.perf_counter(), time.process_time(); AllWordsWSD.load(sys.argv[1]); "
            "first = (time.perf_counter() - t, time.process_time() - c); runs = []\n"
            "for _ in range(3):\n t, c = time.perf_counter(), time.process_time(); "
            "AllWordsWSD.load(sys.argv[1]); "
            "runs.append((time.perf_counter() - t, time.process_time() - c))\n"
            "print(*first, *sorted(runs)[1])")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code, str(path)], check=True,
                         capture_output=True, text=True).stdout.split()  # fmt: skip
    first_wall, first_cpu, wall, cpu = map(float, out)
    print(f"model file: {path.stat().st_size / 1e6:.1f} MB; load {wall:.2f} s wall, {cpu:.2f} s "
          f"CPU (median of 3, WordNet loaded); first load in a fresh process {first_wall:.2f} s "
          f"wall, {first_cpu:.2f} s CPU (WordNet included)")


PEER_COLD = ("import sys, nltk; from nltk.wsd import lesk; tokens = sys.argv[1].split(); "
             "nltk.pos_tag(tokens); print(lesk(tokens, 'bank', 'n'))")


def _cold(command: list[str]) -> tuple[float, float]:
    """Median wall and CPU seconds of 3 runs of ``command`` in a fresh process."""
    walls, cpus = [], []
    for _ in range(3):
        cpu, start = _children_cpu(), time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
        cpus.append(_children_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def cold_start(path: Path) -> None:
    from wsd.knowledge import compiled

    lexicon = compiled.ensure()
    print("WordNet and tagger: " + (f"compiled lexicon {lexicon.path}" if lexicon
                                    else "NLTK's (no compiled lexicon)"))  # fmt: skip
    for label, command in (
        ('`wsd disambiguate --model PATH "..."`', [WSD, "disambiguate", "--model", str(path),
                                                  SENTENCE]),
        ("`nltk.wsd.lesk` (import, pos_tag, one word)", [sys.executable, "-c", PEER_COLD,
                                                          SENTENCE]),
    ):  # fmt: skip
        wall, cpu = _cold(command)
        print(f"cold start {label:<45} {wall:.2f} s wall, {cpu:.2f} s CPU (median of 3)")


def _peer_lesk(sentences: list[list[str]], answer) -> int:
    """Tag each sentence with nltk.pos_tag and answer every content word with ``answer``."""
    import nltk

    from wsd.text.lexicon import penn_letter

    answered = 0
    for tokens in sentences:
        for i, (word, tag) in enumerate(nltk.pos_tag(tokens)):
            letter = penn_letter(tag)
            if letter and answer(tokens, i, word, letter) is not None:
                answered += 1
    return answered


def _simple_lesk():
    """pywsd's simple_lesk, in short: the synset whose definition, examples and lemma names
    share most (non-stopword, lowercased) words with the sentence; ties to the first."""
    from nltk.corpus import stopwords, wordnet

    stop = set(stopwords.words("english"))
    signatures: dict[str, set[str]] = {}

    def signature(synset) -> set[str]:
        if synset.name() not in signatures:
            text = " ".join([synset.definition(), *synset.examples(),
                             *(n.replace("_", " ") for n in synset.lemma_names())])  # fmt: skip
            signatures[synset.name()] = {w for w in text.lower().split() if w not in stop}
        return signatures[synset.name()]

    def answer(tokens, i, word, letter):
        context = {t.lower() for t in tokens if t.lower() not in stop}
        synsets = wordnet.synsets(word, letter)
        if not synsets:
            return None
        return max(synsets, key=lambda s: len(signature(s) & context))

    return answer


def _texts(datasets: list[str], semcor_tokens: int) -> list[tuple[str, str]]:
    """``(name, plain text)``: the three framework sets, then a stretch of SemCor (longer
    text, on which WordNet's caches warm up as they do on a user's long document)."""
    from wsd.corpora.framework import load_dataset
    from wsd.evaluation.rawtext import plain_documents

    sets = "\n".join(text for name in datasets for text, _ in plain_documents(load_dataset(name)))
    lines, count = [], 0
    for text, _ in plain_documents(load_dataset("semcor")):
        for line in text.splitlines():
            lines.append(line)
            count += len(line.split())
            if count >= semcor_tokens:
                return [(" + ".join(datasets), sets), (f"SemCor's first {count:,} tokens",
                                                       "\n".join(lines))]  # fmt: skip
    return [(" + ".join(datasets), sets), ("SemCor", "\n".join(lines))]


def throughput(path: Path, datasets: list[str], semcor_tokens: int) -> None:
    import nltk
    from nltk.tokenize import TreebankWordTokenizer
    from nltk.wsd import lesk

    import wsd
    from wsd.knowledge import compiled

    lexicon = compiled.ensure()
    print("WordNet and tagger: " + (f"compiled lexicon {lexicon.path}" if lexicon
                                    else "NLTK's (no compiled lexicon)"))  # fmt: skip
    model = wsd.load_model(path)
    wsd.disambiguate(SENTENCE, model=model)  # WordNet, the tagger: loaded once, not timed
    nltk.pos_tag(["warm"])
    tokenizer = TreebankWordTokenizer()
    simple = _simple_lesk()
    lesk(SENTENCE.split(), "bank", "n")  # the peers' WordNet (NLTK's): loaded, not timed
    simple(SENTENCE.split(), 6, "bank", "n")
    for name, text in _texts(datasets, semcor_tokens):
        sentences = [tokenizer.tokenize(line) for line in text.splitlines() if line.strip()]
        n_tokens = sum(map(len, sentences))
        ours, seconds, cpu = _timed(wsd.disambiguate, text, model=model)
        rows = [("wsd.disambiguate (SemCor model)", seconds, cpu, len(ours))]
        for peer, answer in (
            ("nltk.wsd.lesk", lambda tokens, i, word, letter: lesk(tokens, word, letter)),
            ("pywsd-style simple Lesk", simple),
        ):
            answered, seconds, cpu = _timed(_peer_lesk, sentences, answer)
            rows.append((peer, seconds, cpu, answered))
        print(f"throughput on {name}: {n_tokens:,} tokens, {len(sentences):,} sentences; one "
              "core, POS tagging included, in this order:")
        ours_rate = n_tokens / rows[0][2]
        for label, seconds, cpu, answered in rows:
            rate, wall_rate = n_tokens / cpu, n_tokens / seconds
            print(f"  {label:<34} {rate:>8,.0f} tokens/s CPU, {wall_rate:>8,.0f} wall  "
                  f"({answered:,} words answered; ours: {ours_rate / rate:.2f}x)")


def _timed(function, *args, **kwargs) -> tuple[Any, float, float]:
    """``(result, wall seconds, CPU seconds)``: on a shared machine the CPU time is the
    steadier figure."""
    start, cpu = time.perf_counter(), time.process_time()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start, time.process_time() - cpu


def f1(path: Path, datasets: list[str]) -> None:
    import wsd
    from wsd.corpora.framework import load_dataset
    from wsd.evaluation.rawtext import raw_text_answers, raw_vs_xml
    from wsd.evaluation.scorer import score_framework

    model = wsd.load_model(path)
    print("F1, raw text vs XML input (same model); raw text as the XML's tokens joined by spaces"
          " | as a person writes them (don't, \"causes\" of):")
    for name in datasets:
        instances = load_dataset(name)
        scores = raw_vs_xml(model, instances)
        gold = {inst.id: inst.senses for inst in instances}
        written = score_framework(gold, raw_text_answers(model, instances, written=True))["F1"]
        xml, spaced, written = (100 * f for f in (scores["xml_F1"], scores["raw_F1"], written))
        print(f"  {name:<12} XML {xml:.1f}  raw {spaced:.1f} ({spaced - xml:+.1f}) | "
              f"{written:.1f} ({written - xml:+.1f})")


@functools.cache
def _proxies(path: Path) -> list[tuple[str, Any, list, list, Any]]:
    """The two places the raw-text rules were chosen on, as ``(name, model, instances, tagged
    words, unseen)``: semeval2007 with the model at ``path``, and held-out SemCor (fold 0 of 3
    by document, seed 0) with a model trained on the other folds; SemCor's tagged words
    (``wsd.allwords.system.tagged_words``) that trained each model's counts; and how each
    joins an expression its counts do not list. That is by WordNet's counts, which come from
    SemCor: for held-out SemCor, less the held-out documents' own joins, which new text
    would not bring (with them, held-out F1 read 1.5 higher, mostly from expressions SemCor
    joined in those documents only). SemCor is tagged once."""
    from collections import Counter

    import wsd
    from wsd.allwords.heldout import document_folds
    from wsd.allwords.system import AllWordsWSD, tagged_words
    from wsd.corpora.framework import load_dataset
    from wsd.text.conventions import UNIVERSAL_LETTER, wordnet_joins
    from wsd.text.lexicon import expressions, tagged_count

    semcor = AllWordsWSD().tagged(load_dataset("semcor"))
    train, held_out = document_folds(semcor, 3, seed=0)[0]
    start = time.perf_counter()
    fold_model = AllWordsWSD(n_jobs=2).fit(train, tagged=True)
    print(f"held-out SemCor: {len(held_out):,} instances; model on the other folds trained in "
          f"{time.perf_counter() - start:.0f} s")  # fmt: skip
    own = Counter(f"{inst.lemma.lower()}#{UNIVERSAL_LETTER[inst.target_pos]}" for inst in held_out
                  if "_" in inst.lemma and inst.target_pos in UNIVERSAL_LETTER)  # fmt: skip

    def unseen_elsewhere(lemma: str, letter: str) -> bool:
        return lemma in expressions(letter) and tagged_count(lemma, letter) > own[
            f"{lemma}#{letter}"]

    return [("semeval2007", wsd.load_model(path), load_dataset("semeval2007"),
             list(tagged_words(semcor)), wordnet_joins),
            ("held-out SemCor", fold_model, held_out, list(tagged_words(train)),
             unseen_elsewhere)]  # fmt: skip


def _rule_table(path: Path, title: str, rules) -> None:
    """Raw-text F1 on both proxies per rule: ``(label, conventions(model, words, unseen))``."""
    from wsd.evaluation.rawtext import raw_text_answers
    from wsd.evaluation.scorer import score_framework

    proxies = _proxies(path)
    print(title)
    print(f"  {'rule':<32}" + "".join(f"{proxy[0]:>18}" for proxy in proxies))
    for label, conventions in rules:
        row = []
        for _, model, instances, words, unseen in proxies:
            gold = {inst.id: inst.senses for inst in instances}
            answers = raw_text_answers(model, instances, conventions(model, words, unseen))
            row.append(100 * score_framework(gold, answers)["F1"])
        print(f"  {label:<32}" + "".join(f"{f1:>18.2f}" for f1 in row), flush=True)


def joins(path: Path) -> None:
    from wsd.text.conventions import JOIN_SHARE, CorpusConventions

    rules = [("WordNet's counts (no corpus)",
              lambda model, words, unseen: CorpusConventions({}, unseen=unseen))] + [
        (f"corpus share >= {share}",
         lambda model, words, unseen, share=share: CorpusConventions(
             model.conventions_["expressions"], share, unseen=unseen))
        for share in JOIN_SHARES]  # fmt: skip
    _rule_table(path, f"raw-text F1 per expression-join rule (JOIN_SHARE = {JOIN_SHARE}):", rules)


def retag(path: Path) -> None:
    from wsd.text.conventions import (
        MIN_RETAGGED,
        RETAG_SHARE,
        CorpusConventions,
        count_parts_of_speech,
    )

    def conventions(minimum: int, share: float):
        def build(model, words, unseen) -> CorpusConventions:
            found = model.conventions_
            counts = count_parts_of_speech(words, minimum, share) if minimum else {}
            return CorpusConventions(found["expressions"], separated=found.get("separated"),
                                     parts_of_speech=counts, min_retagged=minimum,
                                     retag_share=share, unseen=unseen)  # fmt: skip
        return build

    rules = [("the tagger's (no corpus counts)", conventions(0, 1.0))] + [
        (f"corpus: >= {minimum} and >= {share}", conventions(minimum, share))
        for minimum, share in RETAGS]  # fmt: skip
    _rule_table(path, f"raw-text F1 per part-of-speech rule (MIN_RETAGGED = {MIN_RETAGGED}, "
                      f"RETAG_SHARE = {RETAG_SHARE}):", rules)  # fmt: skip


def names(path: Path) -> None:
    from wsd.text.conventions import CorpusConventions
    from wsd.text.names import NAME_KINDS, TOTALS

    def conventions(kinds: str):
        def build(model, words, unseen) -> CorpusConventions:
            found = model.conventions_
            counts = {"apart": None, "all person": {TOTALS: (1,) + (0,) * (len(NAME_KINDS) - 1)},
                      "naive Bayes": found.get("names")}[kinds]
            return CorpusConventions(found["expressions"], separated=found.get("separated"),
                                     parts_of_speech=found.get("parts_of_speech"),
                                     unseen=unseen, names=counts)  # fmt: skip
        return build

    rules = [("names apart", conventions("apart")),
             ("names joined, all person", conventions("all person")),
             ("names joined, naive Bayes kind", conventions("naive Bayes"))]  # fmt: skip
    _rule_table(path, "raw-text F1 with proper names (wsd.text.names):", rules)


# Inputs that had made the reading quadratic: the e-mail pattern on a run without @, unclosed
# comments, initials at each of which sentence splitting re-read the sentence, a long wrapped
# paragraph, and a sentence of punctuation alone (never cut into pieces: the tags were copied
# per token).
HOSTILE = {
    "'_a' (no @)": "_a",
    "'<!--'": "<!--",
    "'A. '": "A. ",
    "wrapped lines": "the bank of the river was full of water after the long storm\n",
    "'\u2026' (ellipses)": "\u2026",
    "', '": ", ",
    "'```' lines": "```\n",
    "'finan-' / 'cial' lines": "finan-\ncial ",
}


def hostile(size: int = 10_000) -> None:
    from wsd.text import analyze

    analyze("Warm up the tagger and WordNet.")
    print(f"hostile input, seconds of wsd.text.analyze at {size:,} and {4 * size:,} repeats "
          "(a ratio near 4: linear):")
    for label, piece in HOSTILE.items():
        times = [_timed(analyze, piece * repeats)[1] for repeats in (size, 4 * size)]
        print(f"  {label:<26} {times[0]:>7.2f} s {times[1]:>7.2f} s  ratio "
              f"{times[1] / max(times[0], 1e-9):.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="an all-words .npz model (default: train one)")
    parser.add_argument("--sets", nargs="+", default=["semeval2007", "senseval2", "senseval3"])
    parser.add_argument("--semcor-tokens", type=int, default=40_000,
                        help="how much of SemCor's text the second throughput run reads")
    parser.add_argument("--parts", nargs="+",
                        choices=[*PARTS, "joins", "retag", "names", "hostile"], default=PARTS,
                        help="which figures to print (default: all but joins, retag, names "
                        "and hostile)")
    args = parser.parse_args()
    if "hostile" in args.parts:
        hostile()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.model) if args.model else Path(tmp) / "semcor.npz"
        if not args.model and set(args.parts) - {"hostile"}:
            train(path)
        if "load" in args.parts:
            load_times(path)
        if "cold" in args.parts:
            cold_start(path)
        if "throughput" in args.parts:
            throughput(path, args.sets, args.semcor_tokens)
        if "f1" in args.parts:
            f1(path, args.sets)
        if "joins" in args.parts:
            joins(path)
        if "retag" in args.parts:
            retag(path)
        if "names" in args.parts:
            names(path)


if __name__ == "__main__":
    main()
