"""The compact all-words model file: same answers as the model in memory and as the JSON
format it replaces, the layout the docs promise, and clear refusals of bad files."""

import json
import pickle
import zipfile

import numpy as np
import pytest
from test_allwords import QUICK, _bank_sentences, _corpus, _load

from wsd.corpora.framework import dataset_paths, load_framework
from wsd.experiments.allwords_run import run_allwords
from wsd.persistence import load_model, save_model
from wsd.resources import has_framework, has_nltk_resource
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.modelfile import FORMAT, ModelFileError

MEMBERS = {"metadata": "uint8", "vocabulary": "uint8", "weighting_index": "int32",
           "n_rows": "int32", "feature_ids": "int32", "coef": "float32",
           "intercepts": "float32"}  # fmt: skip


@pytest.fixture
def trained(tmp_path):
    money = _bank_sentences(12)
    seeds = [(["a", "seed", "grew", "tall"], 1, "seed%1:20:00::", "seed"),
             (["seed", "the", "players"], 0, "seed%2:33:00::", "seed")] * 3  # fmt: skip
    train = _load(_corpus(tmp_path, "train", [money[:6] + seeds, money[6:]]))
    test = _load(_corpus(tmp_path, "test", [_bank_sentences(8, offset=12) + seeds]))
    return AllWordsWSD(**QUICK, epochs=5).fit(train), test


def _rewrite(path, out, **changes):
    """Copy the model file ``path`` to ``out`` with some arrays replaced."""
    with np.load(path, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    arrays.update(changes)
    with open(out, "wb") as stream:
        np.savez(stream, **arrays)
    return out


def test_npz_round_trip_answers_and_scores_identically(trained, tmp_path):
    system, test = trained
    loaded = AllWordsWSD.load(system.save(tmp_path / "m.npz"))
    assert isinstance(load_model(tmp_path / "m.npz"), AllWordsWSD)
    # the file stores the temperature the system scored with (its default resolved)
    assert loaded.get_params() == {**system.get_params(), "temperature": system.score_temperature}
    assert loaded.sense_counts_ == system.sense_counts_
    assert sorted(loaded.models_) == sorted(system.models_) == ["bank#NOUN", "seed#NOUN"]
    assert loaded.decide(test) == system.decide(test)
    for key, model in system.models_.items():
        for inst, row in zip(test, model.weighting.transform([{"bow=river": 1.0}]), strict=False):
            assert np.array_equal(loaded.models_[key].scores(row), model.scores(row)), inst


def test_the_processes_and_the_progress_bar_leave_the_file_as_it_was(tmp_path):
    """``n_jobs`` and ``verbose`` had been written into the file's params: the same data,
    settings and seed gave other bytes with ``--jobs 2`` or without ``--quiet``."""
    train = _load(_corpus(tmp_path, "train", [_bank_sentences(12)]))
    paths = [AllWordsWSD(**QUICK, epochs=3, n_jobs=jobs, verbose=verbose).fit(train).save(
        tmp_path / f"m{jobs}{verbose}.npz") for jobs, verbose in ((1, False), (2, True))]
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert AllWordsWSD.load(paths[1]).get_params()["n_jobs"] == 1  # the default, as loaded


def test_keys_of_one_weighting_share_it_as_read(trained, tmp_path):
    """The file stores a weighting once for the keys that use it; reading gives those keys one
    object (it was parsed and checked again for every key) that weighs as the saved one."""
    system, _ = trained
    loaded = AllWordsWSD.load(system.save(tmp_path / "m.npz"))
    bank, seed = loaded.models_["bank#NOUN"], loaded.models_["seed#NOUN"]
    assert bank.weighting is seed.weighting
    row = {"bow=river": 1.0, "bow=money": 2.0}
    saved = system.models_["bank#NOUN"].weighting
    assert bank.weighting.transform_one(row) == saved.transform_one(row)


def test_npz_file_layout(trained, tmp_path):
    system, _ = trained
    path = system.save(tmp_path / "m.npz")
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == sorted(f"{name}.npy" for name in MEMBERS)
    with np.load(path, allow_pickle=False) as archive:  # no member needs pickle
        arrays = {name: archive[name] for name in archive.files}
    assert {name: str(a.dtype) for name, a in arrays.items()} == MEMBERS
    metadata = json.loads(arrays["metadata"].tobytes())
    assert (metadata["format"], metadata["version"], metadata["kind"]) == (FORMAT, 1,
                                                                          "AllWordsWSD")
    assert metadata["keys"] == sorted(system.models_)
    vocabulary = arrays["vocabulary"].tobytes().decode().split("\x00")
    assert vocabulary == sorted(set(vocabulary))  # one shared, sorted vocabulary
    rows = sum(len(m.features) for m in system.models_.values())
    assert arrays["feature_ids"].size == rows and len(vocabulary) <= rows
    widths = [len(system.models_[k].classes) for k in metadata["keys"]]
    assert arrays["coef"].size == int(np.dot(arrays["n_rows"], widths))
    # every kept row has a non-zero weight
    start = 0
    for n, width in zip(arrays["n_rows"], widths, strict=True):
        block = arrays["coef"][start : start + n * width].reshape(n, width)
        assert np.all(np.any(block != 0, axis=1))
        start += n * width


def test_legacy_json_models_still_load_with_the_same_answers(trained, tmp_path):
    system, test = trained
    legacy = save_model(system, tmp_path / "old.json")
    assert AllWordsWSD.load(legacy).predict(test) == system.predict(test)
    with pytest.raises(ValueError, match=r"\.npz"):
        system.save(tmp_path / "new.json")


def test_bad_model_files_are_refused_naming_the_file(trained, tmp_path):
    system, _ = trained
    path = system.save(tmp_path / "m.npz")
    with np.load(path, allow_pickle=False) as archive:
        metadata = json.loads(archive["metadata"].tobytes())
        coef = archive["coef"]
        n_rows = archive["n_rows"]

    def meta(**changes):
        return np.frombuffer(json.dumps({**metadata, **changes}).encode(), dtype=np.uint8)

    cases = {
        "newer.npz": ({"metadata": meta(version=4)}, "version 4"),
        "format.npz": ({"metadata": meta(format="other")}, "not a wsd all-words model"),
        "nan.npz": ({"coef": np.where(np.arange(coef.size) == 0, np.nan, coef)
                     .astype(np.float32)}, "non-finite"),  # fmt: skip
        "short.npz": ({"coef": coef[:-1]}, "inconsistent"),
        "rows.npz": ({"n_rows": n_rows + 1}, "inconsistent"),
        "dtype.npz": ({"coef": coef.astype(np.float64)}, "float32"),
        "ids.npz": ({"feature_ids": np.full_like(
            np.load(path)["feature_ids"], 10**6)}, "outside its vocabulary"),  # fmt: skip
    }
    for name, (changes, message) in cases.items():
        bad = _rewrite(path, tmp_path / name, **changes)
        with pytest.raises(ModelFileError, match=message) as error:
            AllWordsWSD.load(bad)
        assert name in str(error.value)
    with open(tmp_path / "object.npz", "wb") as stream:  # an array that needs pickle
        np.savez(stream, metadata=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError, match="pickle"):
        AllWordsWSD.load(tmp_path / "object.npz")
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(system.to_dict()))
    with pytest.raises(ValueError, match="pickle"):
        load_model(tmp_path / "m.pkl")
    (tmp_path / "cut.npz").write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="cut.npz"):
        AllWordsWSD.load(tmp_path / "cut.npz")


@pytest.mark.skipif(not has_framework(), reason="the WSD framework folder is absent")
@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent")
@pytest.mark.skipif(not has_nltk_resource("averaged_perceptron_tagger_eng"),
                    reason="NLTK averaged_perceptron_tagger_eng data absent")
def test_npz_and_json_models_write_identical_key_files_on_the_framework(tmp_path):
    """Default settings (penn tags, supersenses, prior, gloss, discourse), trained on
    semeval2007 (its lemmas: a subset of SemCor's) for speed; key files on all three sets."""
    xml, key = dataset_paths("semeval2007")
    system = AllWordsWSD(n_models=2, epochs=3).fit(load_framework(xml, key))
    npz = system.save(tmp_path / "m.npz")
    legacy = save_model(system, tmp_path / "m.json")
    assert npz.stat().st_size < legacy.stat().st_size / 3
    sets = ["semeval2007", "senseval2", "senseval3"]
    for name, model in (("json", legacy), ("npz", npz)):
        run_allwords(None, sets, out_dir=tmp_path / name, model=model)
    for dataset in sets:
        json_keys = (tmp_path / "json" / f"{dataset}.key.txt").read_text()
        assert json_keys == (tmp_path / "npz" / f"{dataset}.key.txt").read_text()
        assert json_keys.count("\n") > 400


def test_a_model_file_keeps_its_reader_joins_and_an_older_one_reads_as_corpus(trained,
                                                                             tmp_path):
    """``reader_joins`` is a training option the file records; a file written before it
    existed has none and reads as the reader it was trained as ("corpus")."""
    system, _ = trained
    system.reader_joins = "wordnet"
    path = system.save(tmp_path / "w.npz")
    assert AllWordsWSD.load(path).reader_joins == "wordnet"
    with np.load(path, allow_pickle=False) as archive:
        metadata = json.loads(archive["metadata"].tobytes())
    del metadata["params"]["reader_joins"]
    older = _rewrite(path, tmp_path / "older.npz", metadata=np.frombuffer(
        json.dumps(metadata).encode(), dtype=np.uint8))
    assert AllWordsWSD.load(older).reader_joins == "corpus"
