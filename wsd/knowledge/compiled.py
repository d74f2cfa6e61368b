"""A compiled copy of what the raw-text path needs from NLTK's WordNet and POS tagger, so that
prediction starts in well under a second instead of importing NLTK (over a second) and
loading its WordNet (about three).

``wsd.knowledge.lexicon_compiler`` reads NLTK's WordNet 3.0 and averaged-perceptron tagger once
and writes one ``.npz`` file (no pickle) to the cache folder ($WSD_CACHE_DIR, else
$XDG_CACHE_HOME/wsd, else ~/.cache/wsd): the lemma index per part of speech, morphy's exception
lists, every synset's name, lexicographer file, gloss and examples, its lemmas (names, SemCor
counts, sense keys), the synsets each sense's gloss overlap reads
(``WordNetInventory.related_glosses``), the words of every gloss as Lesk normalises them, and
the tagger's weights. ``active()`` gives the ``CompiledWordNet`` reader of that file, or None
when there is none or when the NLTK files it was compiled from changed or are gone (the caller
then uses NLTK itself).

``CompiledWordNet`` offers the part of NLTK's WordNet reader the raw-text path uses
(``_morphy``, ``morphy``, ``synsets``, ``all_lemma_names``; synsets and lemmas with
``name``, ``pos``, ``offset``, ``lexname``, ``definition``, ``examples``, ``lemmas``,
``count``, ``key``) with the same answers: ``tests/test_text_compiled.py`` compares them
with NLTK's. The file is named after the NLTK data folder ($NLTK_DATA) it was built from.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import mmap
import os
import struct
import sys
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npy

FORMAT_VERSION = 2  # 2: the tagger's weights as arrays; members mapped, not read
CACHE_ENV = "WSD_CACHE_DIR"
LETTERS = "nvar"
SEP = "\n"
EXAMPLE_SEP = "\x1f"
SCANS = 2_000  # keys and synset names found by a scan before the dicts of all are built
MAX_KEPT_FORMS = 200_000  # base forms kept per (form, part of speech) before starting afresh
_KEY_LETTERS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}  # a sense key's synset type
# Morphy's suffix rules (NLTK's WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS).
SUBSTITUTIONS = {
    "n": [("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")],
    "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")],
    "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    "r": [],
}  # fmt: skip


def cache_dir() -> Path:
    """$WSD_CACHE_DIR, else $XDG_CACHE_HOME/wsd, else ~/.cache/wsd; a leading ``~`` is the home
    folder (a value quoted in a shell, a .env file or a service unit keeps it unexpanded)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "wsd"


def cache_path() -> Path:
    """Where the compiled lexicon for the current $NLTK_DATA lives."""
    source = hashlib.sha1(os.environ.get("NLTK_DATA", "").encode()).hexdigest()[:12]
    return cache_dir() / f"lexicon-v{FORMAT_VERSION}-{source}.npz"


# ---- building (needs NLTK and its data) -------------------------------------------------


def source_files(*resources: str) -> list[dict[str, Any]]:
    import nltk  # NLTK: over a second to import

    found = []
    for resource in resources:
        for candidate in (resource, resource + ".zip"):
            try:
                path = Path(str(nltk.data.find(candidate))).resolve()
            except LookupError:
                continue
            stat = path.stat()
            found.append({"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns})
            break
    return found


# ---- reading -----------------------------------------------------------------------------


def _text(array: np.ndarray) -> str:
    return array.tobytes().decode("utf-8")


def _lines(array: np.ndarray, sep: str = SEP) -> list[str]:
    return _text(array).split(sep) if array.size else [""]


class CompiledSynset:
    """A synset of the compiled lexicon, answering like NLTK's ``Synset``."""

    __slots__ = ("_wn", "_id")

    def __init__(self, wordnet: CompiledWordNet, number: int) -> None:
        self._wn, self._id = wordnet, number

    def name(self) -> str:
        return self._wn._synset_names[self._id]

    def pos(self) -> str:
        return chr(self._wn._arrays["synset_pos"][self._id])

    def offset(self) -> int:
        return int(self._wn._arrays["synset_offsets"][self._id])

    def lexname(self) -> str:
        return self._wn._lexnames[self._wn._synset_lexnames[self._id]]

    def definition(self) -> str:
        return self._wn._definitions[self._id]

    def examples(self) -> list[str]:
        text = self._wn._examples[self._id]
        return text.split(EXAMPLE_SEP) if text else []

    def lemmas(self) -> list[CompiledLemma]:
        start, end = self._wn._synset_lemmas[self._id : self._id + 2]
        return [CompiledLemma(self._wn, n) for n in range(start, end)]

    def lemma_names(self) -> list[str]:
        return [lemma.name() for lemma in self.lemmas()]

    def __repr__(self) -> str:
        return f"CompiledSynset({self.name()!r})"


class CompiledLemma:
    """A lemma (one sense) of the compiled lexicon, answering like NLTK's ``Lemma``;
    ``key()`` is the sense key as WordNet's index.sense spells it (``sense_key``'s answer)."""

    __slots__ = ("_wn", "_id")

    def __init__(self, wordnet: CompiledWordNet, number: int) -> None:
        self._wn, self._id = wordnet, number

    def name(self) -> str:
        return self._wn._lemma_names[self._id]

    def count(self) -> int:
        return int(self._wn._lemma_counts[self._id])

    def key(self) -> str:
        return self._wn._lemma_keys[self._id]

    def synset(self) -> CompiledSynset:
        return CompiledSynset(self._wn, self._wn._lemma_synset(self._id))

    def __repr__(self) -> str:
        return f"CompiledLemma({self.synset().name()}.{self.name()})"


class CompiledWordNet:
    """The compiled lexicon of one file (see the module docstring); tables are decoded on
    first use, so a run that never needs glosses never decodes them."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._arrays = _mapped_members(self.path)
        self._scans = 0  # see ``_scanned``
        self.meta = json.loads(_text(self._arrays["meta"]))
        if self.meta.get("version") != FORMAT_VERSION:
            raise ValueError(f"{self.path}: compiled lexicon version {self.meta.get('version')}"
                             f", this wsd reads version {FORMAT_VERSION}")
        self._exceptions = self.meta["exceptions"]
        self._base_forms: dict[tuple[str, str, bool], tuple[str, ...]] = {}

    def ensure_loaded(self) -> None:
        """Nothing to do (NLTK's reader API)."""

    # -- tables, decoded once --
    @functools.cached_property
    def _index(self) -> dict[str, dict[str, int]]:
        return {letter: {name: n for n, name in enumerate(_lines(
            self._arrays[f"index_{letter}_names"]))} for letter in LETTERS}  # fmt: skip

    @functools.cached_property
    def _index_rows(self) -> dict[str, tuple[list[int], list[int]]]:
        return {letter: (self._arrays[f"index_{letter}_indptr"].tolist(),
                         self._arrays[f"index_{letter}_synsets"].tolist())
                for letter in LETTERS}  # fmt: skip

    @functools.cached_property
    def _synset_names(self) -> list[str]:
        return _lines(self._arrays["synset_names"])

    @functools.cached_property
    def _synset_by_name(self) -> dict[str, int]:
        return {name: n for n, name in enumerate(self._synset_names)}

    @functools.cached_property
    def _lexnames(self) -> list[str]:
        return _lines(self._arrays["lexnames"])

    @functools.cached_property
    def _synset_lexnames(self) -> list[int]:
        return self._arrays["synset_lexnames"].tolist()

    @functools.cached_property
    def _definitions(self) -> list[str]:
        return _lines(self._arrays["definitions"])

    @functools.cached_property
    def _examples(self) -> list[str]:
        return _lines(self._arrays["examples"])

    @functools.cached_property
    def _synset_lemmas(self) -> list[int]:
        return self._arrays["synset_lemmas_indptr"].tolist()

    @functools.cached_property
    def _lemma_names(self) -> list[str]:
        return _lines(self._arrays["lemma_names"])

    @functools.cached_property
    def _lemma_keys(self) -> list[str]:
        return _lines(self._arrays["lemma_keys"])

    @functools.cached_property
    def _lemma_by_key(self) -> dict[str, int]:
        return {key: n for n, key in enumerate(self._lemma_keys)}

    @functools.cached_property
    def _lemma_counts(self) -> list[int]:
        return self._arrays["lemma_counts"].tolist()

    @functools.cached_property
    def _lemma_synsets(self) -> np.ndarray:
        indptr = self._arrays["synset_lemmas_indptr"]
        return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))

    def _lemma_synset(self, lemma: int) -> int:
        return int(self._lemma_synsets[lemma])

    @functools.cached_property
    def _related(self) -> tuple[list[int], list[int]]:
        return self._arrays["related_indptr"].tolist(), self._arrays["related_synsets"].tolist()

    @functools.cached_property
    def _gloss_vocabulary(self) -> list[str]:
        return _lines(self._arrays["gloss_vocabulary"])

    # -- NLTK's reader API --
    def _morphy(self, form: str, pos: str, check_exceptions: bool = True) -> list[str]:
        """NLTK's ``_morphy``: the form itself and its exception-list or suffix-rule base
        forms, those WordNet has as ``pos`` lemmas, in order, each once. Kept per form (the
        raw-text path asks about each word form in several places: 5% of its time)."""
        key = (form, pos, check_exceptions)
        found = self._base_forms.get(key)
        if found is None:
            if len(self._base_forms) >= MAX_KEPT_FORMS:
                self._base_forms.clear()
            found = self._base_forms[key] = self._base_forms_of(form, pos, check_exceptions)
        return list(found)

    def _base_forms_of(self, form: str, pos: str, check_exceptions: bool) -> tuple[str, ...]:
        letter = "a" if pos == "s" else pos
        exceptions = self._exceptions[letter]
        if check_exceptions and form in exceptions:
            forms = exceptions[form]
        else:
            forms = [form[: -len(old)] + new for old, new in SUBSTITUTIONS[letter]
                     if form.endswith(old)]  # fmt: skip
        known = self._index[letter]
        found: list[str] = []
        for candidate in [form, *forms]:
            if candidate in known and candidate not in found:
                found.append(candidate)
        return tuple(found)

    def morphy(self, form: str, pos: str | None = None) -> str | None:
        """NLTK's ``morphy``: the first base form (of the first POS that has one), or None."""
        for letter in [pos] if pos else LETTERS:
            forms = self._morphy(form, letter)
            if forms:
                return forms[0]
        return None

    def synsets(self, lemma: str, pos: str | None = None) -> list[CompiledSynset]:
        """NLTK's ``synsets``: the synsets of every base form of ``lemma``, in index order."""
        lemma = lemma.lower()
        found = []
        for letter in pos or LETTERS:
            letter = "a" if letter == "s" else letter
            indptr, ids = self._index_rows[letter]
            for form in self._morphy(lemma, letter):
                row = self._index[letter][form]
                found += [CompiledSynset(self, n) for n in ids[indptr[row] : indptr[row + 1]]]
        return found

    def spelled_lemmas(self, form: str, letter: str) -> list[tuple[str, int]]:
        """``(name, SemCor count)`` of each lemma spelled ``form`` (any case) in the synsets of
        ``synsets(form, letter)``, in their order, read from the rows without building
        synset and lemma objects (the raw-text path asks this of every new word form)."""
        lower = form.lower()
        letter = "a" if letter == "s" else letter
        names, counts, bounds = self._lemma_names, self._lemma_counts, self._synset_lemmas
        indptr, ids = self._index_rows[letter]
        index = self._index[letter]
        found = []
        for base in self._morphy(lower, letter):
            row = index[base]
            for synset in ids[indptr[row] : indptr[row + 1]]:
                found += [(names[n], counts[n]) for n in range(bounds[synset], bounds[synset + 1])
                          if names[n].lower() == lower]  # fmt: skip
        return found

    def exact_senses(self, name: str, pos: str | None = None
                     ) -> list[tuple[str, str, tuple[str, ...], str, int]]:  # fmt: skip
        """What ``WordNetInventory.senses`` gives for the lowercase lemma ``name`` (words
        joined by '_') where some of ``synsets(name, pos)`` list it: per such synset, its
        entry spelled ``name`` (any case; the one spelled exactly first) as (sense key,
        definition, examples, synset name, count), without building lemma objects."""
        found = []
        names, bounds = self._lemma_names, self._synset_lemmas
        for letter in pos or LETTERS:
            letter = "a" if letter == "s" else letter
            indptr, ids = self._index_rows[letter]
            for form in self._morphy(name, letter):
                row = self._index[letter][form]
                for synset in ids[indptr[row] : indptr[row + 1]]:
                    spelled = [n for n in range(bounds[synset], bounds[synset + 1])
                               if names[n].lower() == name]  # fmt: skip
                    if spelled:
                        n = next((n for n in spelled if names[n] == name), spelled[0])
                        examples = self._examples[synset]
                        found.append((self._lemma_keys[n], self._definitions[synset],
                                      tuple(examples.split(EXAMPLE_SEP)) if examples else (),
                                      self._synset_names[synset], self._lemma_counts[n]))
        return found

    def all_lemma_names(self, pos: str | None = None) -> Iterable[str]:
        """The lemma names of the index (of one part of speech)."""
        if pos is None:
            return iter(dict.fromkeys(n for letter in LETTERS for n in self._index[letter]))
        return iter(self._index["a" if pos == "s" else pos])

    def synset(self, name: str) -> CompiledSynset:
        """The synset called ``name`` (e.g. ``bank.n.01``)."""
        return CompiledSynset(self, self._synset_number(name))

    def _synset_number(self, name: str) -> int:
        """The synset called ``name``, found among the synsets of the lemma it is named after
        (a dict of all the names had cost a twentieth of a second at every start); else
        looked up in that dict (KeyError when WordNet has no such synset)."""
        if self._scanned():
            return self._synset_by_name[name]
        lemma, _, pos = name.rpartition(".")[0].rpartition(".")
        letter = "a" if pos == "s" else pos
        row = self._index[letter].get(lemma.lower()) if letter in LETTERS else None
        if row is not None:
            indptr, ids = self._index_rows[letter]
            names = self._synset_names
            for n in ids[indptr[row] : indptr[row + 1]]:
                if names[n] == name:
                    return n
        return self._synset_by_name[name]

    def lemma_for_key(self, key: str) -> CompiledLemma:
        """The lemma of a sense key (ValueError naming the key when WordNet has none)."""
        try:
            return CompiledLemma(self, self._lemma_number(key))
        except KeyError:
            raise ValueError(f"{key!r} is not a WordNet 3.0 sense key") from None

    def _scanned(self) -> bool:
        """Whether ``SCANS`` keys and synset names were looked up already (from then on they
        are found in the dicts of all of them: a long text looks up thousands)."""
        self._scans += 1
        return self._scans > SCANS

    def _lemma_number(self, key: str) -> int:
        """The lemma of a sense key, found among the senses of the lemma the key names (a
        dict of all the keys had cost a tenth of a second at every start); else looked up in
        that dict (KeyError when WordNet has no such key). A key's lemmas are all in the one
        synset it names."""
        if self._scanned():
            return self._lemma_by_key[key]
        name, _, rest = key.partition("%")
        letter = _KEY_LETTERS.get(rest[:1])
        row = self._index[letter].get(name) if letter else None
        if row is not None:
            indptr, ids = self._index_rows[letter]
            keys, bounds = self._lemma_keys, self._synset_lemmas
            for synset in ids[indptr[row] : indptr[row + 1]]:
                found = [n for n in range(bounds[synset], bounds[synset + 1]) if keys[n] == key]
                if found:  # the last, as in the dict (*A* and *a* of a.n.06 share a key)
                    return found[-1]
        return self._lemma_by_key[key]

    # -- what the gloss overlap reads --
    def related_synsets(self, key: str) -> list[CompiledSynset]:
        """The synsets whose glosses ``WordNetInventory.related_glosses`` gives for a sense
        (its default relations), each once (in the order NLTK gave them when compiling: its
        order changes between processes, as it keeps pointers in sets)."""
        indptr, ids = self._related
        n = self._lemma_number(key)
        return [CompiledSynset(self, i) for i in ids[indptr[n] : indptr[n + 1]]]

    def signature(self, synset: str, key: str) -> frozenset[str]:
        """The words of the gloss and examples of ``synset`` and of the synsets
        ``related_synsets(key)`` gives, as the default Lesk normaliser (built-in stopwords,
        WordNet base forms) gives them: a Lesk signature, built from the word rows at once
        (a set per synset, then their union, had cost a tenth of a first run's time)."""
        indptr, ids = self._related
        n = self._lemma_number(key)
        numbers = [self._synset_number(synset), *ids[indptr[n] : indptr[n + 1]]]
        bounds, words = self._arrays["gloss_words_indptr"], self._arrays["gloss_words"]
        starts = bounds[numbers].tolist()
        ends = bounds[np.add(numbers, 1)].tolist()
        found = np.concatenate([words[a:b] for a, b in zip(starts, ends, strict=True)])
        return frozenset(map(self._gloss_vocabulary.__getitem__, found.tolist()))

    def tagger_params(self) -> tuple[TaggerWeights, dict, list[str]]:
        """NLTK's tagger parameters: weights, tag dictionary, classes."""
        tagdict, classes = (json.loads(_text(self._arrays[f"tagger_{name}"]))
                            for name in ("tagdict", "classes"))  # fmt: skip
        arrays = self._arrays
        weights = TaggerWeights(_lines(arrays["tagger_features"]), arrays["tagger_indptr"],
                                arrays["tagger_labels"], arrays["tagger_weights"], classes)
        return weights, tagdict, classes


class TaggerWeights(Mapping[str, dict[str, float]]):
    """The tagger's weights as NLTK holds them (feature -> {class: weight}), each feature's
    read from the compiled arrays when asked for: ``features`` sorted, and per feature its
    classes' numbers and weights (rows ``indptr[i]:indptr[i + 1]``)."""

    def __init__(self, features: list[str], indptr: np.ndarray, labels: np.ndarray,
                 weights: np.ndarray, classes: list[str]) -> None:  # fmt: skip
        self._features, self._indptr = features, indptr.tolist()
        self._labels, self._weights, self._classes = labels, weights, classes
        self._rows = {feature: i for i, feature in enumerate(features)}

    def get(self, feature: str, default: Any = None) -> Any:
        """Without raising KeyError first: most of a text's features have no weights."""
        return self[feature] if feature in self._rows else default

    def weights_into(self, feature: str, row: np.ndarray) -> bool:
        """Writes the feature's weights into ``row`` at their classes' numbers (the order of
        ``classes``), leaving the rest; False if it has none (the tagger reads each new
        feature so: no dict built)."""
        i = self._rows.get(feature)
        if i is None or self._indptr[i] == self._indptr[i + 1]:
            return False
        start, end = self._indptr[i], self._indptr[i + 1]
        row[self._labels[start:end]] = self._weights[start:end]
        return True

    def __getitem__(self, feature: str) -> dict[str, float]:
        i = self._rows[feature]
        start, end = self._indptr[i], self._indptr[i + 1]
        return dict(zip([self._classes[n] for n in self._labels[start:end].tolist()],
                        self._weights[start:end].tolist(), strict=True))  # fmt: skip

    def __iter__(self) -> Iterator[str]:
        return iter(self._features)

    def __len__(self) -> int:
        return len(self._features)


def _mapped_members(path: Path) -> dict[str, np.ndarray]:
    """The arrays of an uncompressed ``.npz`` file, over a read-only map of it (a call reads
    the pages it uses: reading all 40 MB had cost a tenth of a second at every start);
    ValueError for a compressed or damaged member."""
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()
    with open(path, "rb") as stream:
        data = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    arrays = {}
    for info in members:
        if info.compress_type != zipfile.ZIP_STORED or not info.filename.endswith(".npy"):
            raise ValueError(f"{info.filename} is compressed or not an array")
        name_length, extra_length = struct.unpack_from("<HH", data, info.header_offset + 26)
        start = info.header_offset + 30 + name_length + extra_length
        header = io.BytesIO(data[start : start + min(info.file_size, 1 << 16)])
        read_header = {(1, 0): npy.read_array_header_1_0,
                       (2, 0): npy.read_array_header_2_0}.get(npy.read_magic(header))
        if read_header is None:
            raise ValueError(f"{info.filename} has an unknown .npy version")
        shape, fortran, dtype = read_header(header)
        if dtype.hasobject or fortran or len(shape) != 1:
            raise ValueError(f"{info.filename} is not a plain 1-d array")
        arrays[info.filename[:-4]] = np.frombuffer(data, dtype=dtype, count=shape[0],
                                                   offset=start + header.tell())
    return arrays


def _sources_unchanged(meta: dict[str, Any]) -> bool:
    for source in meta.get("sources", []):
        try:
            stat = os.stat(source["path"])
        except OSError:
            return False
        if stat.st_size != source["size"] or stat.st_mtime_ns != source["mtime_ns"]:
            return False
    return bool(meta.get("sources"))


@functools.cache
def active() -> CompiledWordNet | None:
    """The compiled lexicon for the current $NLTK_DATA, when it exists and the NLTK files it
    was compiled from are unchanged; else None."""
    path = cache_path()
    if not path.is_file():
        return None
    try:
        compiled = CompiledWordNet(path)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        notice = f"wsd: ignoring the compiled lexicon {path} ({error})"
        if notice not in _NOTICES_GIVEN:  # once a process: ensure() looks again under its lock
            _NOTICES_GIVEN.add(notice)
            print(notice, file=sys.stderr)
        return None
    return compiled if _sources_unchanged(compiled.meta) else None


_NOTICES_GIVEN: set[str] = set()


def wordnet_source() -> Path:
    """The WordNet folder or zip NLTK reads: the one the valid compiled lexicon was compiled
    from (unchanged since, and no NLTK import), else found by NLTK as ``source_files`` finds
    it (LookupError when it is not installed)."""
    lexicon = active()
    found = [source for source in (lexicon.meta.get("sources", []) if lexicon else [])
             if Path(source["path"]).name in ("wordnet", "wordnet.zip")]  # fmt: skip
    found = found or source_files("corpora/wordnet")
    if not found:
        raise LookupError("NLTK's wordnet is not installed")
    return Path(found[0]["path"])
