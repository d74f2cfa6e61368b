"""Load SemCor with ``wsd.corpora.framework`` and print time, peak memory and throughput.

Each method runs in a fresh process so its peak resident memory (ru_maxrss) is its own; "+peak MB"
is the growth over the process's size before loading, "RSS MB" the whole process's peak:
- ``wsd``: our streaming loader, SemCor XML + gold key -> 226k Instances;
- ``etree``: the naive peer, ``ET.parse`` of the whole XML into memory, only counting the
  instance elements (no Instances built), to show what streaming saves.

Usage: python benchmarks/load_semcor.py [--root FRAMEWORK_DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from wsd.corpora.framework import dataset_paths, load_framework


def _peak_rss_mb() -> float:
    # ru_maxrss is in KiB on Linux, in bytes on macOS
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20


def _measure(method: str, root: str | None) -> dict[str, float]:
    xml_path, key_path = dataset_paths("semcor", root)
    baseline = _peak_rss_mb()
    start = time.perf_counter()
    if method == "wsd":
        count = len(load_framework(xml_path, key_path))
    else:
        count = sum(1 for _ in ET.parse(xml_path).getroot().iter("instance"))
    seconds = time.perf_counter() - start
    peak = _peak_rss_mb()
    return {"instances": count, "seconds": seconds, "peak_mb": peak - baseline, "rss_mb": peak}


def _run_child(method: str, root: str | None) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", method]
    if root:
        command += ["--root", root]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", help="framework folder (default: wsd.resources.framework_dir)")
    parser.add_argument("--child", choices=("wsd", "etree"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_measure(args.child, args.root)))
        return

    results = {method: _run_child(method, args.root) for method in ("wsd", "etree")}
    ours = results["wsd"]
    print(f"SemCor: {dataset_paths('semcor', args.root)[0]}")
    header = ("instances", 10), ("seconds", 9), ("inst/s", 10), ("+peak MB", 9), ("RSS MB", 8)
    print(f"{'method':<34}" + "".join(f"{name:>{width}}" for name, width in header))
    labels = {"wsd": "wsd load_framework (+gold key)", "etree": "ET.parse whole tree, count only"}
    for method, r in results.items():
        print(
            f"{labels[method]:<34}{r['instances']:>10,}{r['seconds']:>9.2f}"
            f"{r['instances'] / r['seconds']:>10,.0f}{r['peak_mb']:>9.0f}{r['rss_mb']:>8.0f}"
        )
    peer = results["etree"]
    print(
        f"ratio wsd/etree: time {ours['seconds'] / peer['seconds']:.2f}x, "
        f"peak memory {ours['peak_mb'] / peer['peak_mb']:.2f}x"
    )


if __name__ == "__main__":
    main()
