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
  (``wsd.knowledge.compiled``, built first if missing, not timed) and wsd's modules
  byte-compiled (as pip leaves an installed package);
- throughput on one core: the plain text of the three framework sets (each document's
  sentences, tokens joined by spaces), then of a longer stretch of SemCor (WordNet's caches,
  cold at first, warm up along it), through ``wsd.disambiguate`` (sentence splitting,
  tokenizing, NLTK's POS tagger, lemmas, expressions, the classifiers), and through the peers
  on the same tokens, each tagging with ``nltk.pos_tag`` and answering every content word;
  with ``--rounds N`` the three in turn N times, the first round and the best printed (on a
  shared machine the pace moves between runs: read the ratios, not the rates), and from 3
  rounds on the peers' ratios paired round by round after the first (median and range: the
  machine's pace drifts less within a round than between the rounds two bests fell in);
- F1 of the framework's scorer on each set's plain text and on its XML, and the gap (the
  three sets are the learnt reader's development sets, docs/reader.md); the plain text
  twice: the XML's tokens joined by spaces, and laid out as a person writes them (*don't*,
  *"causes" of*), which leaves the splitting of words to our tokenizer;
- ``heldout`` (minutes): the same on held-out SemCor documents (fold 0 of 3 by document,
  seed 0) with a model and reader trained on the other folds, the reader's SemCor counts
  (WordNet's) less the fold's own taggings, and the share of the gold units the reader reads
  right in extent, lemma and part of speech (beside the plain reader's);
- ``gap``: where the plain text loses, per set (``wsd.experiments.rawtext_gap``): each gold
  instance under one cause (no unit at its offset or another extent, another lemma, another
  part of speech, the same unit answered otherwise) with the F1 points lost, and for the same
  units the points won back by giving the decision the XML's context lemmas, Penn tags,
  sentence and tokens, and document; with ``heldout`` also on held-out SemCor;
- ``hostile`` (not run by default; no model needed): seconds of the raw-text reading
  (``wsd.text.analyze``: the web view, sentences, tokens, tags, the plain reader) on
  repeats of inputs that had made it quadratic, at a size and at four times that size: a
  ratio near 4 is linear time.

Usage: python benchmarks/raw_text.py [--model PATH] [--sets semeval2007 senseval2 senseval3]
                                     [--parts load cold throughput f1 gap heldout hostile]
                                     [--rounds N] [--semcor-tokens N]
                                     [--reader-joins corpus|wordnet]
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one core

import argparse  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

WSD = str(Path(sys.executable).with_name("wsd"))
PARTS = ["load", "cold", "throughput", "f1", "heldout"]
EXTRA_PARTS = ["gap", "hostile"]  # not run by default
SENTENCE = "She deposited the check at the bank before the river flooded the town."


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def train(path: Path, reader_joins: str = "corpus") -> None:
    start = time.perf_counter()
    subprocess.run([WSD, "allwords", "--save", str(path), "--reader-joins", reader_joins,
                    "--quiet"], check=True)  # fmt: skip
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"train + save (wsd allwords --save): {seconds:.1f} s, peak {peak:.0f} MB")


def load_times(path: Path) -> None:
    code = ("import sys, time; from wsd.systems.allwords.system import AllWordsWSD; "
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
    import compileall

    import wsd
    from wsd.knowledge import lexicon_compiler

    lexicon = lexicon_compiler.ensure()
    # Byte-compiled first, as pip compiles an installed package (the peers' are): in a source
    # checkout run with PYTHONDONTWRITEBYTECODE set, every start had compiled wsd's sources
    # again (0.3 s of a 1.5 s start).
    compileall.compile_dir(Path(wsd.__file__).parent, quiet=1)
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

    from wsd.knowledge.lexicon import penn_letter

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
    from wsd.experiments.rawtext_loss import plain_documents

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


def throughput(path: Path, datasets: list[str], semcor_tokens: int, rounds: int = 1) -> None:
    import nltk
    from nltk.tokenize import TreebankWordTokenizer
    from nltk.wsd import lesk

    import wsd
    from wsd.knowledge import lexicon_compiler

    lexicon = lexicon_compiler.ensure()
    print("WordNet and tagger: " + (f"compiled lexicon {lexicon.path}" if lexicon
                                    else "NLTK's (no compiled lexicon)"))  # fmt: skip
    model = wsd.load_model(path)
    wsd.disambiguate(SENTENCE, model=model)  # WordNet, the tagger: loaded once, not timed
    nltk.pos_tag(["warm"])
    tokenizer = TreebankWordTokenizer()
    simple = _simple_lesk()
    lesk(SENTENCE.split(), "bank", "n")  # the peers' WordNet (NLTK's): loaded, not timed
    simple(SENTENCE.split(), 6, "bank", "n")
    systems = [
        ("wsd.disambiguate (SemCor model)", lambda text, sentences: len(
            wsd.disambiguate(text, model=model))),
        ("nltk.wsd.lesk", lambda text, sentences: _peer_lesk(
            sentences, lambda tokens, i, word, letter: lesk(tokens, word, letter))),
        ("pywsd-style simple Lesk", lambda text, sentences: _peer_lesk(sentences, simple)),
    ]
    for name, text in _texts(datasets, semcor_tokens):
        sentences = [tokenizer.tokenize(line) for line in text.splitlines() if line.strip()]
        n_tokens = sum(map(len, sentences))
        runs: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in systems}
        answered = {}
        for _ in range(rounds):  # the systems in turn, round after round
            for label, run in systems:
                answered[label], seconds, cpu = _timed(run, text, sentences)
                runs[label].append((seconds, cpu))
        print(f"throughput on {name}: {n_tokens:,} tokens, {len(sentences):,} sentences; one "
              "core, POS tagging included, in this order" + (
                  f", {rounds} rounds: the first (caches filling) and the best" if rounds > 1
                  else "") + ":")  # fmt: skip
        ours = runs[systems[0][0]]
        for label, _ in systems:
            (seconds, cpu), best = runs[label][0], min(c for _, c in runs[label])
            rate = n_tokens / cpu
            line = (f"  {label:<34} {rate:>8,.0f} tokens/s CPU, {n_tokens / seconds:>8,.0f} wall  "
                    f"({answered[label]:,} words answered; ours: {cpu / ours[0][1]:.2f}x)")
            if rounds > 1:
                line += (f"; best {n_tokens / best:>8,.0f} tokens/s CPU (ours: "
                         f"{best / min(c for _, c in ours):.2f}x)")
            if rounds > 2 and label != systems[0][0]:
                line += "; " + _paired(runs[label], ours)
            print(line)


def _paired(theirs: list[tuple[float, float]], ours: list[tuple[float, float]]) -> str:
    """Ours over a peer round by round after the first (its CPU time over ours in the same
    round): the median and range. The pace of this shared machine drifts over minutes, so a
    ratio within a round moves less than the ratio of two bests taken in different rounds."""
    ratios = sorted(t / o for (_, t), (_, o) in zip(theirs[1:], ours[1:], strict=True))
    return (f"rounds 2-{len(theirs)} paired: median {statistics.median(ratios):.2f}x "
            f"({ratios[0]:.2f}-{ratios[-1]:.2f}x)")


def _timed(function, *args, **kwargs) -> tuple[Any, float, float]:
    """``(result, wall seconds, CPU seconds)``: on a shared machine the CPU time is the
    steadier figure."""
    start, cpu = time.perf_counter(), time.process_time()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start, time.process_time() - cpu


def f1(path: Path, datasets: list[str]) -> None:
    import wsd
    from wsd.corpora.framework import load_dataset
    from wsd.evaluation.scorer import score_framework
    from wsd.experiments.rawtext_loss import raw_text_answers, raw_vs_xml

    model = wsd.load_model(path)
    print("F1, raw text vs XML input (same model; gap in brackets); raw text as the XML's tokens "
          "joined by spaces | as a person writes them (don't, \"causes\" of):")
    for name in datasets:
        instances = load_dataset(name)
        scores = raw_vs_xml(model, instances)
        gold = {inst.id: inst.senses for inst in instances}
        written = score_framework(gold, raw_text_answers(model, instances, written=True))["F1"]
        xml, spaced, written = (100 * f for f in (scores["xml_F1"], scores["raw_F1"], written))
        print(f"  {name:<12} XML {xml:.1f}  raw {spaced:.1f} ({spaced - xml:+.1f}) | "
              f"{written:.1f} ({written - xml:+.1f})")


def gap(model, name: str, instances) -> None:
    """The plain text's loss on ``instances`` by cause (``wsd.experiments.rawtext_gap``)."""
    from wsd.experiments.rawtext_gap import gap_rows, gap_table
    from wsd.experiments.rawtext_loss import raw_vs_xml

    tagged = model.tagged(instances)
    scores = raw_vs_xml(model, tagged)
    print(f"where the plain text loses on {name}:")
    print("\n".join("  " + line for line in gap_rows(gap_table(model, tagged),
                                                     scores["xml_F1"], scores["raw_F1"])))


def gaps(path: Path, datasets: list[str]) -> None:
    import wsd
    from wsd.corpora.framework import load_dataset

    model = wsd.load_model(path)
    for name in datasets:
        gap(model, name, load_dataset(name))


def heldout(with_gap: bool = False, reader_joins: str = "corpus") -> None:
    """Held-out SemCor: fold 0 of 3 by document (seed 0), the model and its reader trained on
    the other folds: XML vs plain-text F1, and the gold units the reader reads right (beside
    the plain reader's); WordNet's counts less the fold's own taggings (``counts_without``)."""
    from wsd.corpora.framework import load_dataset
    from wsd.experiments.heldout import document_folds
    from wsd.experiments.rawtext_loss import counts_without, raw_vs_xml, units_read_right
    from wsd.systems.allwords.system import AllWordsWSD
    from wsd.text.reader import PLAIN

    semcor = AllWordsWSD().tagged(load_dataset("semcor"))
    train, held_out = document_folds(semcor, 3, seed=0)[0]
    with counts_without(held_out):
        start = time.perf_counter()
        model = AllWordsWSD(reader_joins=reader_joins).fit(train, tagged=True)
        print(f"held-out SemCor: {len(held_out):,} instances; model and reader on the other "
              f"folds trained in {time.perf_counter() - start:.0f} s")  # fmt: skip
        scores = raw_vs_xml(model, held_out)
        xml, plain = 100 * scores["xml_F1"], 100 * scores["raw_F1"]
        print(f"  held-out SemCor XML {xml:.1f}  raw {plain:.2f} ({plain - xml:+.1f})")
        for label, reader in (("learnt reader", model.reader), ("plain reader", PLAIN)):
            right = units_read_right(reader, held_out)
            print(f"  gold units the {label} reads right: extent {100 * right['extent']:.1f}%, "
                  f"+ lemma {100 * right['lemma']:.1f}%, + part of speech "
                  f"{100 * right['pos']:.1f}%")  # fmt: skip
        if with_gap:
            gap(model, "held-out SemCor", held_out)


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
    parser.add_argument("--rounds", type=int, default=1,
                        help="throughput: the systems timed in turn this many times (the first "
                             "round and the best are printed; default 1)")
    parser.add_argument("--parts", nargs="+",
                        choices=[*PARTS, *EXTRA_PARTS], default=PARTS,
                        help="which figures to print (default: all but gap and hostile)")
    from wsd.text.reader import READER_JOINS

    parser.add_argument("--reader-joins", choices=READER_JOINS, default=READER_JOINS[0],
                        help="the reader of the models trained here (wsd allwords "
                             "--reader-joins; default corpus)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    if "hostile" in args.parts:
        hostile()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.model) if args.model else Path(tmp) / "semcor.npz"
        if not args.model and set(args.parts) - {"hostile", "heldout"}:
            train(path, args.reader_joins)
        if "load" in args.parts:
            load_times(path)
        if "cold" in args.parts:
            cold_start(path)
        if "throughput" in args.parts:
            throughput(path, args.sets, args.semcor_tokens, args.rounds)
        if "f1" in args.parts:
            f1(path, args.sets)
        if "gap" in args.parts:
            gaps(path, args.sets)
        if "heldout" in args.parts:
            heldout(with_gap="gap" in args.parts, reader_joins=args.reader_joins)


if __name__ == "__main__":
    main()
