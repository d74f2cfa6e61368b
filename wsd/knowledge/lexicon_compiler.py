"""Compiling NLTK's WordNet and averaged-perceptron tagger into the compiled lexicon's ``.npz``
file (read by ``wsd.knowledge.compiled``): ``build()`` writes it, ``ensure()`` builds it once
when it is missing or stale.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from wsd.knowledge import compiled
from wsd.knowledge.compiled import EXAMPLE_SEP, FORMAT_VERSION, LETTERS, SEP, source_files
from wsd.knowledge.inventory import WordNetInventory
from wsd.knowledge.normalise import Normaliser
from wsd.knowledge.sensekeys import lemma_for_key, sense_key
from wsd.persistence import atomic_open
from wsd.resources import TAGGER_RESOURCE, has_nltk_resource, require_nltk_resource

try:
    import fcntl
except ImportError:  # Windows: no lock; concurrent builds each write a whole file, then rename
    fcntl = None  # type: ignore[assignment]

LEXICON_BYTES = 40 << 20  # the compiled file's size (38 MB from WordNet 3.0 and its tagger)
NEEDED_BYTES = LEXICON_BYTES * 3 // 2  # free space asked for before compiling: with a margin
STALE_AGE_S = 3600  # a build writes its file in seconds: an older temporary is a killed one's


def _blob(strings: Iterable[str], sep: str = SEP) -> np.ndarray:
    text = sep.join(strings)
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8)


def _csr(rows: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    indices = np.fromiter((i for r in rows for i in r), dtype=np.int32, count=int(indptr[-1]))
    return indptr, indices


def build(path: str | Path | None = None) -> Path:
    """Compile NLTK's WordNet and tagger into ``path`` (default: ``compiled.cache_path()``);
    returns it.

    MissingResourceError with the downloader hint when either is not installed."""
    require_nltk_resource(TAGGER_RESOURCE)
    inventory = WordNetInventory()  # MissingResourceError if WordNet is absent
    wn = inventory._wn
    path = Path(path) if path is not None else compiled.cache_path()
    arrays: dict[str, np.ndarray] = {}
    index = wn._lemma_pos_offset_map
    synset_ids: dict[tuple[str, int], int] = {}
    synsets: list[Any] = []

    def synset_id(synset) -> int:
        key = (synset.pos(), synset.offset())
        if key not in synset_ids:
            synset_ids[key] = len(synsets)
            synsets.append(synset)
        return synset_ids[key]

    for letter in LETTERS:
        names = sorted(name for name in index if letter in index[name])
        rows = [[synset_id(wn.synset_from_pos_and_offset(letter, offset))
                 for offset in index[name][letter]] for name in names]  # fmt: skip
        arrays[f"index_{letter}_names"] = _blob(names)
        arrays[f"index_{letter}_indptr"], arrays[f"index_{letter}_synsets"] = _csr(rows)
    exceptions = {letter: wn._exception_map[letter] for letter in LETTERS}
    norm = Normaliser(stopwords=True, lemmatize=True, raw_tokens=False)
    vocabulary: dict[str, int] = {}
    lemmas, lemma_rows, related_rows, word_rows, synset_related = [], [], [], [], []
    for synset in synsets:
        texts = [synset.definition(), *synset.examples()]
        words = {w for text in texts for w in norm.text(text)}
        word_rows.append(sorted(vocabulary.setdefault(w, len(vocabulary)) for w in words))
        synset_related.append([synset_id(other) for rel in inventory.relations
                               for other in getattr(synset, rel)()])  # fmt: skip
    for number, synset in enumerate(synsets):
        row = []
        for lemma in synset.lemmas():
            row.append(len(lemmas))
            key = sense_key(lemma)
            lemmas.append((lemma.name(), lemma.count(), key, number))
            of_key = lemma_for_key(wn, key)  # the lemma related_glosses follows for this key
            extra = [synset_id(other.synset()) for rel in inventory.lemma_relations
                     for other in getattr(of_key, rel)()]  # fmt: skip
            related_rows.append(_ordered_related(number, synset_related[number] + extra))
        lemma_rows.append(row)
    arrays["synset_names"] = _blob(s.name() for s in synsets)
    arrays["synset_pos"] = np.frombuffer("".join(s.pos() for s in synsets).encode(), np.uint8)
    arrays["synset_offsets"] = np.array([s.offset() for s in synsets], dtype=np.int64)
    lexnames = sorted({s.lexname() for s in synsets})
    arrays["lexnames"] = _blob(lexnames)
    arrays["synset_lexnames"] = np.array([lexnames.index(s.lexname()) for s in synsets],
                                         dtype=np.int16)  # fmt: skip
    arrays["definitions"] = _blob(s.definition().replace(SEP, " ") for s in synsets)
    arrays["examples"] = _blob(EXAMPLE_SEP.join(e.replace(SEP, " ") for e in s.examples())
                               for s in synsets)  # fmt: skip
    arrays["synset_lemmas_indptr"], _ = _csr(lemma_rows)
    arrays["lemma_names"] = _blob(name for name, _, _, _ in lemmas)
    arrays["lemma_keys"] = _blob(key for _, _, key, _ in lemmas)
    arrays["lemma_counts"] = np.array([count for _, count, _, _ in lemmas], dtype=np.int32)
    arrays["related_indptr"], arrays["related_synsets"] = _csr(related_rows)
    arrays["gloss_vocabulary"] = _blob(sorted(vocabulary, key=vocabulary.get))
    arrays["gloss_words_indptr"], arrays["gloss_words"] = _csr(word_rows)
    tagger = _tagger_arrays()
    meta = {"format": "wsd-raw-text-lexicon", "version": FORMAT_VERSION,
            "sources": source_files("corpora/wordnet", f"taggers/{TAGGER_RESOURCE}"),
            "exceptions": exceptions, "synsets": len(synsets), "lemmas": len(lemmas)}  # fmt: skip
    arrays["meta"] = _blob([json.dumps(meta)])
    arrays.update(tagger)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(path, "wb") as out:
        np.savez(out, **arrays)
    compiled.active.cache_clear()
    return path


def _ordered_related(own: int, related: Sequence[int]) -> list[int]:
    """The related synsets in order, each once, the sense's own synset left out (as
    ``WordNetInventory._related_texts`` walks them)."""
    seen, found = {own}, []
    for other in related:
        if other not in seen:
            seen.add(other)
            found.append(other)
    return found


def _tagger_arrays() -> dict[str, np.ndarray]:
    """NLTK's averaged-perceptron tagger parameters: its tag dictionary and classes as JSON
    texts, its weights as arrays (``compiled.TaggerWeights``: parsing them as JSON had cost
    a tenth of a second at every start): the features, sorted; per feature its classes'
    numbers and weights (float64, as NLTK holds them)."""
    from nltk.tag.perceptron import PerceptronTagger  # NLTK: over a second to import

    tagger = PerceptronTagger()
    weights, tagdict, classes = tagger.encode_json_obj()
    classes = sorted(classes)
    column = {label: n for n, label in enumerate(classes)}
    features = sorted(weights)
    rows = [list(weights[feature].items()) for feature in features]
    indptr, labels = _csr([[column[label] for label, _ in row] for row in rows])
    return {"tagger_tagdict": _blob([json.dumps(tagdict)]),
            "tagger_classes": _blob([json.dumps(classes)]),
            "tagger_features": _blob(features), "tagger_indptr": indptr,
            "tagger_labels": labels.astype(np.int16),
            "tagger_weights": np.array([weight for row in rows for _, weight in row],
                                       dtype=np.float64)}  # fmt: skip


def ensure() -> compiled.CompiledWordNet | None:
    """The compiled lexicon, compiled first (once, about half a minute, with a notice on
    stderr) when missing or stale; None when NLTK's WordNet or tagger is not installed (the
    raw-text path then says how to get them). Processes compiling at once wait for the first."""
    found = compiled.active()
    if found is not None:
        return found
    if not (has_nltk_resource("wordnet") and has_nltk_resource(TAGGER_RESOURCE)):
        return None
    path = compiled.cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.with_suffix(".lock"), "w") as lock:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be compiling it
            compiled.active.cache_clear()
            if compiled.active() is None:
                _remove_unfinished(path, locked=fcntl is not None)
                if not _room_for_lexicon(path.parent):
                    return None
                print(f"wsd: compiling WordNet and the POS tagger into {path} once, for fast "
                      "starts (about half a minute)", file=sys.stderr)
                build(path)
    except OSError as error:  # e.g. a read-only cache folder: NLTK answers, only slower
        print(f"wsd: {_write_problem(path.parent, error)}; using NLTK's WordNet",
              file=sys.stderr)
        return None
    return compiled.active()


def _remove_unfinished(path: Path, *, locked: bool) -> None:
    """Remove the temporary files that builds killed half-way left (``.lexicon-*.npz.*.tmp``,
    written through ``atomic_open``): those of ``path`` when this process holds its lock (no
    other build is writing one then), and any older than ``STALE_AGE_S``."""
    now = time.time()
    for temporary in path.parent.glob(".lexicon-*.npz.*.tmp"):
        with contextlib.suppress(OSError):  # removed meanwhile, or not ours to remove
            if (locked and temporary.name.startswith(f".{path.name}.")
                    or now - temporary.stat().st_mtime > STALE_AGE_S):  # fmt: skip
                temporary.unlink()


def _room_for_lexicon(folder: Path) -> bool:
    """Whether ``folder`` has the space the compiled file needs; if not, says so on stderr
    (compiling takes half a minute or more, and a full disk would waste it at every call)."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:  # cannot tell: try
        return True
    if free >= NEEDED_BYTES:
        return True
    print(f"wsd: not compiling WordNet and the POS tagger for fast starts: the cache folder "
          f"{folder} has {free / 1e6:.0f} MB free, and the compiled lexicon needs about "
          f"{NEEDED_BYTES / 1e6:.0f} MB (free some, or set ${compiled.CACHE_ENV} to another "
          "folder); using NLTK's WordNet", file=sys.stderr)
    return False


def _write_problem(folder: Path, error: OSError) -> str:
    """Why the compiled lexicon could not be written in ``folder``: a file where the folder
    (or one above it) should be is named as such, anything else as ``error`` says."""
    for place in (folder, *folder.parents):
        if place.exists():
            if place.is_dir():
                break
            where = "is" if place == folder else f"cannot be made: {place} is"
            return (f"the cache folder {folder} {where} a file, not a folder (set "
                    f"${compiled.CACHE_ENV} to a folder)")
    return f"could not write the compiled lexicon ({error})"
