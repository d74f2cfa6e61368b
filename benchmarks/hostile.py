"""Hostile-input sweep of the ``wsd`` command, and the memory bounds of ``predict``/``evaluate``.

Every case runs ``wsd`` in its own process under a memory limit (``--memory-mb``, default
2048, as RLIMIT_AS) and a timeout (``--timeout``, default 30 s), with files made for it in a
fresh folder, and is classified:

- clean: the expected outcome (one error line naming the file/line or flag, or a correct run);
- vague: exit 2 but the error does not name what it should, or it is longer than 20 lines;
- traceback: a Python traceback on stderr;
- silent-wrong: exit 0 where an error was due, or an output that is wrong;
- drop: exit 0 with input left out unsaid;
- loss: a file that must survive was changed or replaced;
- hang: still running at the timeout;
- memory: a MemoryError, or killed at the memory limit.

The classes are those of issue 38 (1 a run that cannot finish ... 8 concurrency and resume).
The memory part runs ``wsd predict`` and ``wsd evaluate`` on ``--rows`` (default 10^6) short
rows and ``predict`` on one 50 MB row, and reports each run's peak resident memory (GNU
``/usr/bin/time``'s maximum resident set size).

Usage: nice -n 10 python benchmarks/hostile.py [--only NAME ...] [--rows N] [--no-memory]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import resource
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

WSD = [sys.executable, "-c", "import sys; from wsd.cli import main; sys.exit(main())"]
CLASSES = ("clean", "vague", "traceback", "silent-wrong", "drop", "loss", "hang", "memory")
BASS = "bass%1:13:02::"


@dataclass
class Case:
    name: str
    group: int  # the class, 1-8
    argv: list[str]
    expect: str = "error"  # "error" (exit 2 naming `names`) or "ok" (exit 0, `check` passes)
    names: tuple[str, ...] = ()
    wrong: str = "silent-wrong"  # what an exit 0 where an error was due counts as
    check: Callable[[subprocess.CompletedProcess], str | None] | None = None
    protect: tuple[Path, ...] = ()
    stdin: bytes | None = None
    before: Callable[[], Callable[[], None]] | None = None  # returns a clean-up
    times: int = 1  # runs (a resumed run is the second)
    env: dict[str, str] = field(default_factory=dict)
    file_limit: int | None = None  # RLIMIT_FSIZE: writes beyond it fail (EFBIG)


def digest(path: Path) -> str:
    if path.is_symlink():
        return "link:" + os.readlink(path)
    if path.is_fifo() or path.is_char_device():
        return "special"
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "absent"


# -- fixtures ---------------------------------------------------------------------------------


def _framework(path: Path, documents: list[list[tuple[list[str], int, str]]]) -> Path:
    """A tiny framework dataset: ``path`` = NAME.data.xml and its NAME.gold.key.txt."""
    xml, key = ['<?xml version="1.0" encoding="UTF-8" ?><corpus lang="en" source="toy">'], []
    for d, sentences in enumerate(documents):
        xml.append(f'<text id="d{d:03d}">')
        for s, (words, index, sense) in enumerate(sentences):
            sid = f"d{d:03d}.s{s:03d}"
            xml.append(f'<sentence id="{sid}">')
            for i, word in enumerate(words):
                if i == index:
                    xml.append(f'<instance id="{sid}.t000" lemma="bank" pos="NOUN">{word}'
                               "</instance>")
                else:
                    xml.append(f'<wf lemma="{word}" pos="X">{word}</wf>')
            xml.append("</sentence>")
            key.append(f"{sid}.t000 {sense}")
        xml.append("</text>")
    xml.append("</corpus>")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(xml), encoding="utf-8")
    path.with_name(path.name.replace(".data.xml", ".gold.key.txt")).write_text(
        "\n".join(key) + "\n", encoding="utf-8")
    return path


def _bank(n: int) -> list[tuple[list[str], int, str]]:
    money, river = ["money", "loan", "cash", "deposit"], ["river", "water", "shore", "fish"]
    out = []
    for i in range(n):
        cues, sense = (money, "bank%1:14:00::") if i % 2 == 0 else (river, "bank%1:17:01::")
        out.append(([cues[0], "near", "the", "bank", *cues[1:]], 3, sense))
    return out


def fixtures(root: Path) -> dict[str, Path]:
    """A bass model (wsd train), a toy all-words model (.npz) and a toy framework dataset."""
    from wsd.corpora.framework import load_framework
    from wsd.systems.allwords import AllWordsWSD

    quick = {"features": "ims", "pos_tags": "corpus", "n_models": 1, "prior": 0.0,
             "margin": 0.0, "gloss_weight": 0.0, "discourse_weight": 0.0, "train_margin": 0.0}
    out = {"root": root}
    out["bass"] = root / "bass.json"
    subprocess.run([*WSD, "train", "--corpus", "bundled:bass", "--out", str(out["bass"]),
                    "--features", "bow", "--epochs", "2", "--no-lemmatize"], check=True,
                   capture_output=True)
    toy = _framework(root / "toy.data.xml", [_bank(12)])
    out["toy"] = toy
    train = load_framework(toy, root / "toy.gold.key.txt")
    out["npz"] = AllWordsWSD(**quick, epochs=2).fit(train).save(root / "aw.npz")
    return out


# -- the cases --------------------------------------------------------------------------------


def cases(fx: dict[str, Path], work: Path) -> list[Case]:  # noqa: PLR0915 - one list of cases
    bass, npz, toy = str(fx["bass"]), str(fx["npz"]), fx["toy"]
    w = work

    def f(name: str, data: str | bytes) -> str:
        path = w / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8")
        path.write_bytes(data)
        return str(path)

    def copy(src: str, name: str) -> Path:
        target = w / name
        target.write_bytes(Path(src).read_bytes())
        return target

    rows = "".join(f"bass%1:13:02::\tI caught a <<bass>> in the lake {i}\n" for i in range(3)) \
        + "".join(f"bass%1:10:00::\tplay the <<bass>> guitar loud {i}\n" for i in range(3))
    good_tsv = f("good.tsv", rows)
    out: list[Case] = []

    def add(*args, **kw) -> None:
        out.append(Case(*args, **kw))

    def exit_ok_and(test: Callable[[subprocess.CompletedProcess], bool], bad: str):
        return lambda r: None if r.returncode == 0 and test(r) else bad

    def manifest(folder: str) -> dict:
        try:
            return json.loads((Path(folder) / "manifest.json").read_text())
        except (OSError, ValueError):
            return {}

    # 1. a run that can never finish
    surro = f("surro.jsonl", '{"id": "a", "text": "The bank \\ud800 of the river."}\n'
              + "".join(f'{{"id": "d{i}", "text": "The bank of the river {i}."}}\n'
                        for i in range(5)))
    o1 = str(w / "ann-surro")

    def surrogate_done(r):
        m = manifest(o1)
        counts = m.get("counts", {})
        return None if r.returncode == 0 and m.get("status") == "complete" \
            and counts.get("annotated") == 5 and counts.get("bad") == 1 else "silent-wrong"
    add("annotate-lone-surrogate-twice", 1, ["annotate", surro, "--model", npz, "--out", o1,
                                              "--quiet"], expect="ok", check=surrogate_done,
        times=2)
    add("predict-jsonl-lone-surrogate", 1,
        ["predict", "--model", bass, f("s.jsonl", '{"text": "a <<bass>> \\udc80 x"}\n')],
        names=("s.jsonl:1",))
    add("train-tsv-surrogate-sense", 1,
        ["train", "--corpus", f("s2.jsonl", '{"text": "a <<bass>> x", "sense": "s\\ud800"}\n'
                                '{"text": "a <<bass>> y", "sense": "t"}\n'),
         "--out", str(w / "s2.json")], names=("s2.jsonl:1",))
    add("evaluate-key-surrogate-id", 1,
        ["evaluate", "--model", bass, "--corpus",
         f("s3.jsonl", '{"id": "x\\ud800", "text": "a <<bass>> y", "sense": "bass%1:13:02::"}\n'),
         "--key", str(w / "s3.key")], names=("s3.jsonl:1",))

    # 2. lost files
    t2 = _framework(w / "ev2" / "toy2.data.xml", [_bank(4)])
    t_save = _framework(w / "ev3" / "toy3.data.xml", [_bank(4)])
    gold2 = t_save.with_name("toy3.gold.key.txt")
    add("allwords-save-over-evaluate-gold", 2,
        ["allwords", "--train", str(toy), "--evaluate", str(t_save), "--save", str(gold2),
         "--models", "1", "--epochs", "1", "--quiet"], names=("--save", "toy3.gold.key.txt"),
        wrong="loss", protect=(gold2,))
    a3 = _framework(w / "d1" / "same.data.xml", [_bank(4)])
    b3 = _framework(w / "d2" / "same.data.xml", [_bank(6)])
    add("allwords-two-evaluate-same-name", 2,
        ["allwords", "--model", npz, "--evaluate", str(a3), str(b3), "--out", str(w / "keys")],
        names=("same",), wrong="loss")
    m1 = copy(bass, "keep1.json")
    add("train-window-20000-over-model", 2,
        ["train", "--corpus", "bundled:bass", "--out", str(m1), "--window", "20000"],
        names=("--window",), wrong="loss", protect=(m1,))
    m2 = copy(bass, "keep2.json")
    add("train-seed-2^32-over-model", 2,
        ["train", "--corpus", "bundled:bass", "--out", str(m2), "--seed", "4294967296"],
        names=("--seed",), wrong="loss", protect=(m2,))
    add("evaluate-key-is-errors", 2,
        ["evaluate", "--model", bass, "--corpus", good_tsv, "--key", str(w / "same.txt"),
         "--errors", str(w / "same.txt")], names=("same.txt",), wrong="loss")
    keep_model = copy(bass, "keep3.json")
    add("evaluate-key-is-model", 2,
        ["evaluate", "--model", str(keep_model), "--corpus", good_tsv, "--key", str(keep_model)],
        names=("--key",), wrong="loss", protect=(keep_model,))
    ann_in = w / "annin"
    ann_in.mkdir()
    (ann_in / "a.txt").write_text("The bank of the river.")
    add("annotate-out-inside-input-folder", 2,
        ["annotate", str(ann_in), "--model", npz, "--out", str(ann_in / "out"), "--quiet"],
        names=("--out",), wrong="loss")
    add("train-out-is-corpus", 2,
        ["train", "--corpus", good_tsv, "--out", good_tsv], names=("--out",), wrong="loss",
        protect=(Path(good_tsv),))

    # 3. special files
    target = w / "target.json"
    target.write_bytes(Path(bass).read_bytes())
    link = w / "link.json"
    link.symlink_to(target)
    old_target = digest(target)

    def link_written_through(r):
        if r.returncode != 0:
            return "vague" if "--out" not in r.stderr else None  # refused, naming it: clean
        if not link.is_symlink():
            return "loss"  # the link was replaced by a file; its target left stale
        return None if digest(target) != old_target else "silent-wrong"
    add("train-out-symlink", 3, ["train", "--corpus", "bundled:bass", "--out", str(link),
                                 "--epochs", "1"], expect="ok", check=link_written_through)
    fifo = w / "fifo.json"
    os.mkfifo(fifo)
    add("predict-model-fifo", 3, ["predict", "--model", str(fifo), good_tsv],
        names=("fifo.json",), wrong="hang")
    add("train-out-fifo", 3, ["train", "--corpus", "bundled:bass", "--out", str(fifo),
                              "--epochs", "1"], names=("fifo.json",), wrong="loss",
        protect=(fifo,))
    add("predict-input-dev-zero", 3, ["predict", "--model", bass, "/dev/zero"],
        names=("/dev/zero",))
    add("predict-model-dev-zero", 3, ["predict", "--model", "/dev/zero", good_tsv],
        names=("/dev/zero",))
    add("train-corpus-dev-zero", 3, ["train", "--corpus", "/dev/zero", "--out",
                                     str(w / "z.json")], names=("/dev/zero",))
    add("disambiguate-file-dev-zero", 3, ["disambiguate", "--model", npz, "--file",
                                          "/dev/zero"], names=("/dev/zero",))
    add("annotate-input-dev-zero", 3, ["annotate", "/dev/zero", "--model", npz, "--out",
                                       str(w / "ann-zero"), "--quiet"], names=("/dev/zero",))
    add("run-config-dev-zero", 3, ["run", "/dev/zero"], names=("/dev/zero",))
    null = w / "null"  # a device node of its own: the system's /dev/null is never written
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except OSError:  # not root: a FIFO stands in
        os.mkfifo(null)
    add("evaluate-key-device", 3, ["evaluate", "--model", bass, "--corpus", good_tsv,
                                   "--key", str(null)], names=("null",), wrong="loss",
        protect=(null,))
    add("predict-input-folder", 3, ["predict", "--model", bass, str(w)], names=(str(w),))

    # 4. unbounded memory
    bomb = w / "bomb.npz"

    def make_bomb():
        with zipfile.ZipFile(npz) as archive:
            members = {n: archive.read(n) for n in archive.namelist()}
        n = 3 * 10**9 // 8
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                                      "shape": (n,)})
        with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in members.items():
                if name != "coef.npy":
                    archive.writestr(name, data)
            with archive.open("coef.npy", "w", force_zip64=True) as member:
                member.write(header.getvalue())
                block = bytes(1 << 24)
                for _ in range(n * 8 // len(block)):
                    member.write(block)
        return lambda: None
    add("npz-member-bomb", 4, ["disambiguate", "--model", str(bomb), "The bank."],
        names=("bomb.npz",), before=make_bomb)
    window = f("window.json", Path(bass).read_text().replace('"window": null',
                                                             '"window": 1000000000', 1))
    add("model-window-1e9", 4, ["predict", "--model", window, good_tsv],
        names=("window.json",))

    def npz_params(target: Path, change: Callable[[dict], None]):
        def make():
            with np.load(npz, allow_pickle=False) as archive:
                arrays = {name: archive[name] for name in archive.files}
            meta = json.loads(arrays["metadata"].tobytes())
            change(meta["params"])
            arrays["metadata"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
            with open(target, "wb") as stream:
                np.savez(stream, **arrays)
            return lambda: None
        return make
    spans = w / "spans.npz"
    add("npz-collocation-span-1e9", 4,
        ["disambiguate", "--model", str(spans), "The bank of the river."],
        names=("spans.npz",), before=npz_params(spans, lambda p: p.update(features=[
            {"name": "collocations", "params": {"spans": [[-10**9, 10**9]]}}])))
    meta_params = w / "ctx.npz"
    add("npz-context-sentences-1e9", 4,
        ["disambiguate", "--model", str(meta_params), "The bank of the river."],
        names=("ctx.npz",), before=npz_params(meta_params,
                                              lambda p: p.update(context_sentences=10**9)))
    add("annotate-max-document-size-1e12", 4,
        ["annotate", f("small.txt", "The bank of the river."), "--model", npz, "--out",
         str(w / "ann-big"), "--max-document-size", str(10**12), "--quiet"],
        names=("--max-document-size",))
    add("annotate-workers-1e6", 4,
        ["annotate", str(w / "small.txt"), "--model", npz, "--out", str(w / "ann-w"),
         "--workers", "1000000", "--quiet"], names=("--workers",))
    add("allwords-workers-1e6", 4,
        ["allwords", "--model", npz, "--evaluate", str(t2), "--workers", "1000000"],
        names=("--workers",))
    add("train-window-1e9", 4, ["train", "--corpus", "bundled:bass", "--out",
                                str(w / "win.json"), "--window", str(10**9)],
        names=("--window",))
    add("predict-50MB-row", 4,
        ["predict", "--model", bass,
         f("longrow.tsv", "\tI like the <<bass>> " + "very " * 10_000_000 + "\n")],
        expect="ok", check=lambda r: None if r.returncode in (0, 2) else "silent-wrong")

    # 5. silent wrong results
    add("tsv-bom-mid-file", 5, ["train", "--corpus", f("bom.tsv", rows + "\ufeff" + rows),
                                "--out", str(w / "bom.json")], names=("bom.tsv:7",))
    add("tsv-marker-in-sense", 5,
        ["train", "--corpus", f("mk.tsv", rows + "<<bass>>\tthe <<bass>> x\n"), "--out",
         str(w / "mk.json")], names=("mk.tsv:7",))
    for label, value in (("true", "true"), ("object", '{"a": 1}'), ("1e999", "1e999"),
                         ("float", "1.5"), ("list", "[1]")):
        add(f"jsonl-id-{label}", 5,
            ["predict", "--model", bass,
             f(f"id-{label}.jsonl", f'{{"id": {value}, "text": "a <<bass>> fish"}}\n')],
            names=(f"id-{label}.jsonl:1",))
    add("annotate-utf16-no-bom", 5,
        ["annotate", f("u16.txt", ("The bank of the river. " * 5).encode("utf-16-le")),
         "--model", npz, "--out", str(w / "ann-u16"), "--quiet"], expect="ok",
        check=lambda r: None if r.returncode == 0
        and manifest(str(w / "ann-u16")).get("counts", {}).get("bad") == 1 else "silent-wrong")
    add("disambiguate-utf16le-no-bom", 5,
        ["disambiguate", "--model", npz, "--file",
         f("u16b.txt", "The bank of the river.\n".encode("utf-16-le"))], names=("u16b.txt",))
    add("disambiguate-target-other-marker", 5,
        ["disambiguate", "--target", "bass", "I play the <<guitar>> loud"], names=("guitar",))
    add("allwords-prior-inf", 5, ["allwords", "--model", npz, "--evaluate", str(t2),
                                  "--prior", "inf"], names=("--prior",))
    add("allwords-temperature-nan", 5, ["allwords", "--model", npz, "--evaluate", str(t2),
                                        "--temperature", "nan"], names=("--temperature",))
    add("disambiguate-unsure-below-nan", 5,
        ["disambiguate", "--target", "bass", "--unsure-below", "nan", "a <<bass>> fish"],
        names=("--unsure-below",))
    add("disambiguate-unsure-below-inf", 5,
        ["disambiguate", "--target", "bass", "--unsure-below", "inf", "a <<bass>> fish"],
        names=("--unsure-below",))
    huge = json.loads(Path(bass).read_text())
    huge_text = re.sub(r'("weights": \{"[^"]*": \[)([-0-9.e]+)', r"\g<1>1.7e308",
                       json.dumps(huge), count=1)
    huge_text = re.sub(r'("weight_sums": \{"[^"]*": \[)([-0-9.e]+)', r"\g<1>1.7e308",
                       huge_text, count=1)
    hw = f("hugew.json", huge_text)

    def finite_json(r):
        if r.returncode == 2:
            return None if "hugew.json" in r.stderr else "vague"
        if "NaN" in r.stdout or "Infinity" in r.stdout:
            return "silent-wrong"
        return None
    add("model-weight-1.7e308", 5,
        ["disambiguate", "--model", hw, "--target", "bass", "--json", "--top", "3",
         "I caught a <<bass>> fish in the lake"], expect="ok", check=finite_json)
    tiny = w / "tiny.npz"

    def finite_tiny(r):
        if r.returncode == 2:
            return None if "tiny.npz" in r.stderr else "vague"
        return "silent-wrong" if "NaN" in r.stdout or "Infinity" in r.stdout else None
    add("npz-temperature-1e-300", 5,
        ["disambiguate", "--model", str(tiny), "--json", "The money in the bank near cash."],
        expect="ok", check=finite_tiny,
        before=npz_params(tiny, lambda p: p.update(temperature=1e-300)))
    add("disambiguate-json-temperature-option", 5,
        ["allwords", "--model", npz, "--evaluate", str(t2), "--temperature", "1e-300"],
        names=("--temperature",))
    # resume with a file whose content changed, size and mtime kept
    rdir = w / "resume-in"
    rdir.mkdir()
    doc = rdir / "a.txt"
    doc.write_text("The bank of the river.")
    rout = str(w / "ann-resume")

    def change_content():
        subprocess.run([*WSD, "annotate", str(rdir), "--model", npz, "--out", rout, "--quiet"],
                       capture_output=True)
        stat = doc.stat()
        doc.write_text("The cash in the banks.")
        os.utime(doc, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        return lambda: None

    def resumed_fresh(r):
        if r.returncode == 2:
            return None if "--out" in r.stderr or "ann-resume" in r.stderr else "vague"
        part = Path(rout) / "part-00000.jsonl"
        return None if part.exists() and "cash" in part.read_text() else "silent-wrong"
    add("annotate-resume-content-changed", 5,
        ["annotate", str(rdir), "--model", npz, "--out", rout, "--quiet"], expect="ok",
        check=resumed_fresh, before=change_content)

    # 6. silent drops
    add("predict-one-column-hash-row", 6,
        ["predict", "--model", bass,
         f("hash.tsv", "# the <<bass>> swam\n\tthe <<bass>> fish\n")], expect="ok",
        check=lambda r: None if r.returncode == 2 and "hash.tsv:1" in r.stderr
        or r.returncode == 0 and len(r.stdout.splitlines()) == 2 else "drop")
    nested = _framework(w / "nest" / "nest.data.xml", [_bank(4)])
    nested.write_text(nested.read_text().replace(
        '<wf lemma="near" pos="X">near</wf>', '<wf lemma="near" pos="X">ne<b>ar</b></wf>', 1))
    stray = _framework(w / "stray" / "stray.data.xml", [_bank(4)])
    stray.write_text(stray.read_text().replace(
        '<wf lemma="near" pos="X">near</wf>', '<wf lemma="near" pos="X">near</wf> stray', 1))
    add("allwords-stray-text-in-sentence", 6,
        ["allwords", "--model", npz, "--evaluate", str(stray)], names=("stray.data.xml",),
        wrong="drop")
    add("allwords-nested-wf", 6,
        ["allwords", "--model", npz, "--evaluate", str(nested)], names=("nest.data.xml",),
        wrong="drop")

    # 7. vague errors and floods
    ro = w / "readonly"
    ro.mkdir()

    def make_ro():
        ro.chmod(0o500)
        return lambda: ro.chmod(0o700)
    if os.geteuid() != 0:  # root writes into a read-only folder: nothing to refuse
        add("train-out-read-only-folder", 7, ["train", "--corpus", "bundled:bass", "--out",
                                              str(ro / "m.json")], names=("m.json",),
            before=make_ro)
        add("evaluate-key-read-only-folder", 7,
            ["evaluate", "--model", bass, "--corpus", good_tsv, "--key", str(ro / "k.txt")],
            names=("k.txt",), before=make_ro)
        add("allwords-out-read-only", 7,
            ["allwords", "--model", npz, "--evaluate", str(t2), "--out", str(ro / "keys")],
            names=("keys",), before=make_ro)
    add("train-out-file-too-large", 7, ["train", "--corpus", "bundled:bass", "--out",
                                        str(w / "big.json"), "--epochs", "1"],
        names=("big.json",), file_limit=4096)
    add("train-single-sense", 7,
        ["train", "--corpus", f("one.tsv", rows.replace("bass%1:10:00::", "bass%1:13:02::")),
         "--out", str(w / "one.json")], names=("one.tsv",))
    add("evaluate-empty-gold", 7,
        ["evaluate", "--model", bass, "--corpus",
         f("nogold.tsv", "\tthe <<bass>> fish\n\ta <<bass>> guitar\n")],
        names=("nogold.tsv",))
    empty_gold = _framework(w / "eg" / "eg.data.xml", [_bank(4)])
    empty_gold.with_name("eg.gold.key.txt").write_text("")
    add("allwords-empty-gold", 7,
        ["allwords", "--model", npz, "--evaluate", str(empty_gold)], names=("eg.",))
    add("train-seed-minus-1", 7, ["train", "--corpus", "bundled:bass", "--out",
                                  str(w / "neg.json"), "--seed", "-1"], names=("--seed",))
    add("allwords-jobs-0", 7, ["allwords", "--train", str(toy), "--evaluate", str(t2),
                               "--jobs", "0", "--models", "1", "--epochs", "1", "--quiet"],
        names=("--jobs",))
    add("allwords-seed-minus-1", 7, ["allwords", "--train", str(toy), "--evaluate", str(t2),
                                     "--seed", "-1", "--models", "1", "--quiet"],
        names=("--seed",))
    add("compare-folds-huge", 7, ["compare", "--corpus", "bundled:bass", "--folds",
                                  "100000", "--systems", "mfs"], names=("--folds",))
    flood = f("flood.tsv", "x\n" * 200_000)
    add("train-200k-bad-rows", 7, ["train", "--corpus", flood, "--out", str(w / "fl.json")],
        names=("flood.tsv:1",))
    add("predict-200k-bad-jsonl", 7,
        ["predict", "--model", bass, f("flood.jsonl", "{}\n" * 200_000)],
        names=("flood.jsonl:1",))
    add("run-config-window-negative", 7,
        ["run", f("c.toml", 'command = "train"\ncorpus = "bundled:bass"\nout = "x.json"\n'
                  "window = -5\n")], names=("window",))

    # 8. concurrency and resume state
    lock_out = w / "ann-lock"

    def hold_lock():
        """Start a first run that holds the folder (a slow one: many documents)."""
        src = w / "many.jsonl"
        src.write_text("".join(f'{{"id": "d{i}", "text": "The bank of the river {i}."}}\n'
                               for i in range(4000)))
        first = subprocess.Popen([*WSD, "annotate", str(src), "--model", npz, "--out",
                                  str(lock_out), "--quiet", "--partition-size", "5"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if (lock_out / "manifest.json").exists():
                break
            time.sleep(0.05)

        def stop():
            first.kill()
            first.wait()
        return stop
    add("annotate-two-runs-one-out", 8,
        ["annotate", str(w / "many.jsonl"), "--model", npz, "--out", str(lock_out), "--quiet",
         "--partition-size", "5"], names=("ann-lock",), before=hold_lock)
    jout = w / "ann-journal"

    def damage_journal():
        subprocess.run([*WSD, "annotate", str(w / "small.txt"), "--model", npz, "--out",
                        str(jout), "--quiet"], capture_output=True)
        (jout / "journal.jsonl").write_text(
            '{"partition": "part-00000", "file": "part-00000.jsonl"}\n')
        return lambda: None

    def journal_ok(r):
        if r.returncode == 2:
            return None if "journal" in r.stderr else "vague"
        return None if r.returncode == 0 and manifest(str(jout)).get("counts", {}).get(
            "annotated") == 1 else "silent-wrong"
    add("annotate-damaged-journal", 8,
        ["annotate", str(w / "small.txt"), "--model", npz, "--out", str(jout), "--quiet"],
        expect="ok", check=journal_ok, before=damage_journal)
    add("toml-nested-900", 8, ["run", f("deep.toml", "command = \"demo\"\nx = "
                                        + "[" * 900 + "]" * 900 + "\n")], names=("deep.toml",))
    add("toml-inline-table-nested", 8,
        ["run", f("deep2.toml", "command = \"demo\"\nx = " + "{a = " * 600 + "1" + "}" * 600
                  + "\n")], names=("deep2.toml",))
    add("json-config-nested", 8, ["run", f("deep.json", '{"command": "demo", "x": '
                                           + "[" * 5000 + "]" * 5000 + "}")],
        names=("deep.json",))
    return out


# -- running ----------------------------------------------------------------------------------


def _limits(memory_mb: int, file_limit: int | None) -> Callable[[], None]:
    def apply() -> None:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
    return apply


def run_case(case: Case, memory_mb: int, timeout: float, cwd: Path) -> tuple[str, str]:
    """(class, detail) of one case."""
    stop = case.before() if case.before else None
    try:
        before = {p: digest(p) for p in case.protect}
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", **case.env}
        result = None
        for _ in range(case.times):
            try:
                result = subprocess.run([*WSD, *case.argv], input=case.stdin or b"",
                                        capture_output=True, timeout=timeout, cwd=cwd, env=env,
                                        preexec_fn=_limits(memory_mb, case.file_limit))
            except subprocess.TimeoutExpired:
                return "hang", f"still running after {timeout:.0f} s"
        assert result is not None
        r = subprocess.CompletedProcess(result.args, result.returncode,
                                        result.stdout.decode("utf-8", "replace"),
                                        result.stderr.decode("utf-8", "replace"))
        err = r.stderr
        last = err.strip().splitlines()[-1][:160] if err.strip() else ""
        if "MemoryError" in err or r.returncode in (-9, 137):
            return "memory", last
        if "Traceback" in err:
            return "traceback", last
        if any(digest(p) != before[p] for p in case.protect):
            return "loss", f"exit {r.returncode}: {last}"
        if case.expect == "ok":
            verdict = case.check(r) if case.check else (None if r.returncode == 0 else "vague")
            return verdict or "clean", f"exit {r.returncode}: {last}"
        if r.returncode == 0:
            return case.wrong, "exit 0"
        errors = [line for line in err.splitlines() if "error:" in line]
        if r.returncode != 2 or not errors:
            return "vague", f"exit {r.returncode}: {last}"
        if len(err.splitlines()) > 25 or len(err) > 20_000:
            return "vague", f"flood: {len(err.splitlines())} lines"
        if not all(fragment in err for fragment in case.names):
            return "vague", last
        return "clean", last
    finally:
        if stop:
            stop()


def _peak_child_mb(argv: list[str]) -> tuple[int, float, float]:
    """(exit code, peak resident MB, seconds) of one wsd run, measured by GNU time: a small
    process, so the figure is the run's own (a child forked from this Python process would
    count this process's resident size as its own peak)."""
    started = time.perf_counter()
    with tempfile.NamedTemporaryFile("r") as report:
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name, *WSD, *argv],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peak_kb = float(report.read().strip().splitlines()[-1])
    return result.returncode, peak_kb / 1024, time.perf_counter() - started


def memory_bounds(fx: dict[str, Path], work: Path, rows: int) -> Iterator[str]:
    """Peak memory of predict / evaluate on ``rows`` short rows and of a 50 MB row."""
    bass = str(fx["bass"])
    many = work / "many.tsv"
    with open(many, "w", encoding="utf-8") as stream:
        for i in range(rows):
            sense = "bass%1:13:02::" if i % 2 else "bass%1:10:00::"
            stream.write(f"{sense}\tthe <<bass>> swam {i % 97}\n")
    many_jsonl = work / "many.jsonl"
    with open(many_jsonl, "w", encoding="utf-8") as stream:
        for i in range(rows):
            stream.write(f'{{"text": "the <<bass>> swam {i % 97}"}}\n')
    long_row = work / "long.tsv"
    long_row.write_text("\tI like the <<bass>> " + "very " * 10_000_000 + "\n")
    yield (f"# memory, {rows} rows ({many.stat().st_size / 1e6:.0f} MB TSV), peak resident "
           f"memory (GNU time), {os.cpu_count()} CPUs")
    for label, argv in (
            ("predict one 50 MB row", ["predict", "--model", bass, str(long_row)]),
            (f"evaluate {rows} TSV rows", ["evaluate", "--model", bass, "--corpus",
                                           str(many)]),
            (f"predict {rows} TSV rows", ["predict", "--model", bass, str(many)]),
            (f"predict {rows} JSONL rows", ["predict", "--model", bass, str(many_jsonl)])):
        code, peak, seconds = _peak_child_mb(argv)
        yield f"{label}: exit {code}, peak {peak:,.0f} MB, {seconds:.1f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="run only cases whose name holds one of these")
    parser.add_argument("--memory-mb", type=int, default=2048)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--no-memory", action="store_true", help="skip the memory bounds")
    parser.add_argument("--no-cases", action="store_true", help="only the memory bounds")
    parser.add_argument("--verbose", action="store_true", help="print every case")
    args = parser.parse_args(argv)
    os.environ.setdefault("NLTK_DATA", str(Path(__file__).resolve().parents[2] / "shared"
                                           / "nltk_data"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        fx = fixtures(root)
        work = root / "work"
        work.mkdir()
        counts: Counter[str] = Counter()
        by_group: dict[int, Counter[str]] = {}
        if not args.no_cases:
            for case in cases(fx, work):
                if args.only and not any(o in case.name for o in args.only):
                    continue
                verdict, detail = run_case(case, args.memory_mb, args.timeout, work)
                counts[verdict] += 1
                by_group.setdefault(case.group, Counter())[verdict] += 1
                if args.verbose or verdict != "clean":
                    print(f"{verdict:12} [{case.group}] {case.name}: {detail}", flush=True)
            print(f"\n{sum(counts.values())} cases: "
                  + ", ".join(f"{c} {counts[c]}" for c in CLASSES))
            for group in sorted(by_group):
                print(f"  class {group}: "
                      + ", ".join(f"{c} {n}" for c, n in by_group[group].items()))
        if not args.no_memory:
            for line in memory_bounds(fx, work, args.rows):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
