"""``wsd lexsample`` end to end: one process for every word versus one process per word.

NLTK's senseval words (hard, interest, line, serve) are written in the Senseval lexical-sample
format to a temporary folder -- untagged, as the standard files are -- with a seeded stratified
80/20 split per word and a test key. Then the same run is timed two ways: ``run_lexsample`` over
all words in this process, and one fresh ``wsd lexsample`` process per word (what a script that
launches the toolkit per word does). The per-stage seconds show the share of POS tagging.

    python benchmarks/lexsample_run.py [--words hard line] [--size 0]

Needs the NLTK ``senseval`` corpus, the tagger and WordNet. Nothing is written to the project.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from wsd.corpora.lexsample import lexelt_of, write_lexsample
from wsd.corpora.senseval import load_senseval, senseval_words
from wsd.evaluation.splits import instance_labels, stratified_kfold
from wsd.experiments.lexsample_run import run_lexsample

LETTER = {"NOUN": "n", "VERB": "v", "ADJ": "a"}


def write_split(words, folder: Path, size: int) -> dict[str, tuple[Path, Path, Path]]:
    """Per word: (train file, test file, test key), untagged, lexelt ``word.letter``."""
    files = {}
    for word in words:
        lexelt = (("lexelt", f"{word}.{LETTER[load_senseval(word)[0].target_pos]}"),)
        instances = [replace(inst, pos=None, meta=lexelt)
                     for inst in load_senseval(word)][: size or None]
        train, test = stratified_kfold(instance_labels(instances), 5, seed=0)[0]
        paths = tuple(folder / f"{word}.{name}" for name in ("train", "test", "test.key"))
        write_lexsample(paths[0], [instances[i] for i in train])
        write_lexsample(paths[1], [instances[i] for i in test], answers=False)
        paths[2].write_text("".join(f"{lexelt_of(instances[i])} {instances[i].id} "
                                    f"{' '.join(instances[i].senses)}\n" for i in test))
        files[word] = paths
    return files


def concatenated(files, folder: Path) -> tuple[Path, Path, Path]:
    joined = tuple(folder / f"all.{name}" for name in ("train", "test", "test.key"))
    for n, path in enumerate(joined):
        path.write_text("".join(paths[n].read_text() for paths in files.values()))
    return joined


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", nargs="+", default=senseval_words(), choices=senseval_words())
    parser.add_argument("--size", type=int, default=0, help="instances per word (0: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = write_split(args.words, folder, args.size)
        train, test, key = concatenated(files, folder)
        start = time.perf_counter()
        run = run_lexsample(train, test, folder / "answers.txt", test_key=key)
        one = time.perf_counter() - start
        stages = ", ".join(f"{stage} {seconds:.1f} s" for stage, seconds in run.seconds.items())
        print(f"one process, {run.lexelts} lexelts, {len(run.answers)} test instances: "
              f"{one:.1f} s ({stages}); fine-grained accuracy {run.fine['precision']:.4f}")
        start = time.perf_counter()
        for word, (word_train, word_test, word_key) in files.items():
            subprocess.run([sys.executable, "-m", "wsd.cli", "lexsample", "--train",
                            str(word_train), "--test", str(word_test), "--test-key",
                            str(word_key), "--out", str(folder / f"{word}.answers")],
                           check=True, capture_output=True)
        apart = time.perf_counter() - start
        print(f"one process per word ({len(files)} launches): {apart:.1f} s; "
              f"ratio {apart / one:.2f}x")


if __name__ == "__main__":
    main()
