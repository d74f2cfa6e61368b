"""Gloss vectors and gloss similarity with the prior, on the numpy stand-in encoder and a small
hand-made WordNet (no model, no NLTK data needed)."""

import hashlib
import io
import json
import re
import shutil

import numpy as np
import pytest
from context_encoder import standin_encoder, unwritable

from wsd.features.gloss_vectors import (
    GlossCacheError,
    GlossStore,
    GlossVectors,
    gloss_text,
    sentence_vectors,
    text_words,
)
from wsd.instance import Instance
from wsd.knowledge.inventory import Sense
from wsd.systems.gloss_prior import GlossWithPrior


class Synset:
    def __init__(self, names, definition, examples=()):
        self._names, self._definition, self._examples = names, definition, list(examples)

    def lemma_names(self):
        return self._names

    def definition(self):
        return self._definition

    def examples(self):
        return self._examples


SYNSETS = {
    "pitcher.n.01": Synset(["pitcher", "hurler"], "the player who throws the ball"),
    "pitcher.n.02": Synset(["pitcher", "ewer"], "an open vessel with a spout",
                           ["a pitcher of lemonade"]),
}


class Wordnet:
    def synset(self, name):
        return SYNSETS[name]


class Inventory:
    def senses(self, lemma, pos=None):
        return [Sense("pitcher%1:18:00::", "", synset="pitcher.n.01", count=9),
                Sense("pitcher%1:06:00::", "", synset="pitcher.n.02", count=1)]


@pytest.fixture
def standin(monkeypatch, tmp_path):
    yield from standin_encoder(monkeypatch, tmp_path)


def glosses(tmp_path, **options):
    return GlossVectors("numpy-test", wordnet=Wordnet(), wordnet_id="test-wn",
                        path=tmp_path / "glosses.npz", **options)


def cosine(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_the_gloss_text_holds_names_gloss_and_examples():
    assert gloss_text(SYNSETS["pitcher.n.02"]) == (
        "pitcher, ewer: an open vessel with a spout; a pitcher of lemonade")
    assert text_words("ewer: a spout") == ["ewer", ":", "a", "spout"]


def test_layer_0_pooling_is_the_mean_of_all_pieces_with_cls_and_sep(standin):
    words = ["open", "vessel"]
    ids = [1, *standin.piece_ids("open"), *standin.piece_ids("vessel"), 2]  # ope n | ves sel
    expected = standin.table[ids].mean(axis=0)
    (vector,) = sentence_vectors(standin, [words], layers=(0,))
    np.testing.assert_allclose(vector, expected, rtol=1e-6)


def test_hand_checked_cosines_at_layer_0(standin):
    # The same pieces in another order pool to the same vector: cosine 1. A text and one with
    # a piece table row of its own added: the cosine of the two means, worked out here.
    a, b, c = sentence_vectors(standin, [["vessel", "open"], ["open", "vessel"],
                                         ["open", "vessel", "zzz"]], layers=(0,))
    assert cosine(a, b) == pytest.approx(1.0, abs=1e-6)
    rows = standin.table[[1, *standin.piece_ids("open"), *standin.piece_ids("vessel"), 2]]
    extra = standin.table[standin.piece_ids("zzz")[0]]
    by_hand = (rows.sum(axis=0) + extra) / (len(rows) + 1)
    assert cosine(a, c) == pytest.approx(cosine(rows.mean(axis=0), by_hand), abs=1e-6)


def test_batching_and_padding_do_not_change_a_vector(standin):
    texts = [["a"], ["open", "vessel", "with", "a", "spout"], ["the", "ball"]]
    together = sentence_vectors(standin, texts, batch_size=3)
    for text, vector in zip(texts, together, strict=True):
        np.testing.assert_allclose(sentence_vectors(standin, [text])[0], vector, atol=1e-6)


def test_vectors_are_encoded_once_and_read_back_from_the_file(standin, tmp_path):
    first = glosses(tmp_path).vectors(["pitcher.n.02", "pitcher.n.01"])
    calls = standin.calls
    again = glosses(tmp_path).vectors(["pitcher.n.01", "pitcher.n.02"])
    assert standin.calls == calls  # nothing encoded: read from the file
    for name in SYNSETS:
        assert again[name].dtype == np.float32
        np.testing.assert_array_equal(first[name], again[name])
    expected = sentence_vectors(standin, [text_words(gloss_text(SYNSETS["pitcher.n.01"]))])[0]
    np.testing.assert_allclose(again["pitcher.n.01"], expected, rtol=2e-3, atol=2e-3)  # fp16


def test_only_the_senses_asked_for_are_encoded(standin, tmp_path):
    store = glosses(tmp_path)
    store.vectors(["pitcher.n.01"])
    (part,) = (tmp_path / "glosses.npz.added").glob("*.npz")
    with open(part, "rb") as stream, np.load(stream) as data:
        assert data["names"].tolist() == ["pitcher.n.01"]
        assert data["vectors"].dtype == np.float16
        header = json.loads(str(data["header"]))
    assert header["encoder"] == "numpy-standin-1" and header["wordnet"] == "test-wn"
    assert header["layers"] == [3]


def test_new_vectors_are_added_beside_the_file_and_merged_into_it(standin, tmp_path,
                                                                  monkeypatch):
    """A run that meets new senses writes only their vectors, in a file of their own beside
    the main one; once ``MERGE_AFTER`` have piled up they are merged into the main file; a
    damaged one is left out with a notice naming it, and removed by the next merge."""
    class Many:
        def synset(self, name):
            return Synset([name.split(".")[0]], f"the gloss of {name}")

    monkeypatch.setattr(GlossStore, "MERGE_AFTER", 3)
    main, added = tmp_path / "g.npz", tmp_path / "g.npz.added"

    def store():
        return GlossVectors("numpy-test", wordnet=Many(), wordnet_id="test-wn", path=main)

    first = store().vectors(["a.n.01", "b.n.01"])
    store().vectors(["a.n.01", "c.n.01"])  # c alone is new
    assert not main.exists() and len(list(added.glob("*.npz"))) == 2
    calls = standin.calls
    assert set(store().vectors(["a.n.01", "b.n.01", "c.n.01"])) == {"a.n.01", "b.n.01", "c.n.01"}
    assert standin.calls == calls  # all read back
    store().vectors(["d.n.01"])  # the third: merged
    assert main.exists() and not list(added.glob("*.npz"))
    with open(main, "rb") as stream, np.load(stream) as data:
        assert sorted(data["names"].tolist()) == ["a.n.01", "b.n.01", "c.n.01", "d.n.01"]
    again = store().vectors(["a.n.01", "b.n.01"])
    np.testing.assert_array_equal(again["a.n.01"], first["a.n.01"])
    store().vectors(["e.n.01"])
    (part,) = added.glob("*.npz")
    part.write_bytes(b"cut")
    with pytest.warns(UserWarning, match=f"{part} is damaged"):
        store().vectors(["e.n.01", "f.n.01"])  # e encoded again
    with pytest.warns(UserWarning, match=f"{part} is damaged"):
        store().vectors(["g.n.01"])  # the third part: merged, the damaged one removed
    assert not part.exists() and not list(added.glob("*.npz"))
    with open(main, "rb") as stream, np.load(stream) as data:
        assert sorted(data["names"].tolist()) == [f"{x}.n.01" for x in "abcdefg"]


HEADER = {"encoder": "x", "layers": [5], "pooling": "mean-of-all-pieces", "wordnet": "w"}


def vector(value):
    return {f"s{value}.n.01": np.full(4, value, np.float16)}


def test_a_merge_keeps_what_other_processes_wrote(tmp_path, monkeypatch):
    """Stores sharing a file (processes, in real use): a merge saves the main file on disk
    and the parts it listed, whoever wrote them (it had saved its own process's vectors only),
    replaces the main file by a rename, and removes only the parts it listed: one written
    meanwhile stays for the next merge."""
    monkeypatch.setattr(GlossStore, "MERGE_AFTER", 3)
    first, second = GlossStore(tmp_path / "g.npz", HEADER), GlossStore(tmp_path / "g.npz", HEADER)
    for value in (1, 2, 3):
        first.add(vector(value))
    inode = (tmp_path / "g.npz").stat().st_ino
    second.add(vector(4))
    second.add(vector(5))
    save = GlossStore.save

    def written_meanwhile(store, vectors):
        first.add(vector(6))  # after the merge listed its parts: merged next time
        save(store, vectors)

    monkeypatch.setattr(GlossStore, "save", written_meanwhile)
    second.add(vector(7))  # merges 1-5 and 7
    assert (tmp_path / "g.npz").stat().st_ino != inode  # a new file, renamed over the old
    with open(tmp_path / "g.npz", "rb") as stream, np.load(stream) as data:
        assert sorted(data["names"].tolist()) == [f"s{v}.n.01" for v in (1, 2, 3, 4, 5, 7)]
    (left,) = (tmp_path / "g.npz.added").glob("*.npz")
    with open(left, "rb") as stream, np.load(stream) as data:
        assert data["names"].tolist() == ["s6.n.01"]
    loaded = GlossStore(tmp_path / "g.npz", HEADER).load()
    assert {name: int(v[0]) for name, v in loaded.items()} == {
        f"s{v}.n.01": v for v in range(1, 8)}


def test_a_merge_never_writes_over_a_main_file_it_cannot_read(tmp_path, monkeypatch, capsys):
    """A main file of mode 0600 in a shared cache had been read as damaged by the merge of
    another user's process, and replaced by a file of the parts only."""
    from wsd.features import gloss_vectors, vector_cache

    monkeypatch.setattr(GlossStore, "MERGE_AFTER", 2)
    monkeypatch.setattr(vector_cache, "_NOTED", set())
    store = GlossStore(tmp_path / "g.npz", HEADER)
    store.add(vector(1))
    store.add(vector(2))  # merged: the main file holds 1 and 2
    main = (tmp_path / "g.npz").read_bytes()
    members = gloss_vectors._members

    def unreadable(path):
        if path == tmp_path / "g.npz":
            raise PermissionError(13, "Permission denied", str(path))
        return members(path)

    monkeypatch.setattr(gloss_vectors, "_members", unreadable)
    with pytest.warns(UserWarning, match="g.npz cannot be read"):
        assert set(store.load()) == set()  # left out when loading, with a notice
    store.add(vector(3))
    store.add(vector(4))  # the merge stops: nothing written over the main file
    assert (tmp_path / "g.npz").read_bytes() == main
    assert len(list((tmp_path / "g.npz.added").glob("*.npz"))) == 2  # the parts kept
    assert "could not write the gloss-vector cache" in capsys.readouterr().err


def test_a_part_merged_while_it_is_read_is_found_in_the_main_file(tmp_path, monkeypatch,
                                                                    recwarn):
    """A load lists the parts, then reads them: one that another process merged and removed
    in between is skipped without a notice, and its vectors read from the new main file."""
    monkeypatch.setattr(GlossStore, "MERGE_AFTER", 3)
    writer, reader = GlossStore(tmp_path / "g.npz", HEADER), GlossStore(tmp_path / "g.npz", HEADER)
    writer.add(vector(1))
    writer.add(vector(2))
    read = reader._read

    def merged_meanwhile(path):
        if path.parent == reader.added and len(writer._parts()) == 2:
            writer.add(vector(3))  # the third part: the two listed are merged and removed
        return read(path)

    monkeypatch.setattr(reader, "_read", merged_meanwhile)
    loaded = reader.load()
    assert not list((tmp_path / "g.npz.added").glob("*.npz"))  # merged and removed
    assert sorted(loaded) == ["s1.n.01", "s2.n.01", "s3.n.01"] and not recwarn.list


def test_a_merge_another_process_is_making_is_left_to_it(tmp_path, monkeypatch):
    """One process merges at a time: while the lock is held (an flock, dropped by the kernel
    if its holder dies, so never left stale), another leaves the parts to the holder."""
    fcntl = pytest.importorskip("fcntl")
    monkeypatch.setattr(GlossStore, "MERGE_AFTER", 2)
    store = GlossStore(tmp_path / "g.npz", HEADER)
    store.add(vector(1))
    with open(tmp_path / "g.npz.added" / "merge.lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        store.add(vector(2))
        assert not (tmp_path / "g.npz").exists()
        assert len(list((tmp_path / "g.npz.added").glob("*.npz"))) == 2
    store.add(vector(3))  # the lock is free again
    assert not list((tmp_path / "g.npz.added").glob("*.npz"))
    assert sorted(store.load()) == ["s1.n.01", "s2.n.01", "s3.n.01"]


def test_a_file_of_another_encoder_or_wordnet_is_refused(standin, tmp_path):
    glosses(tmp_path).vectors(["pitcher.n.01"])
    header = {"encoder": "another-encoder", "layers": [3], "pooling": "mean-of-all-pieces",
              "wordnet": "test-wn"}
    with pytest.raises(GlossCacheError, match="encoder 'numpy-standin-1'.*delete"):
        GlossStore(tmp_path / "glosses.npz", header).load()
    other = GlossVectors("numpy-test", wordnet=Wordnet(), wordnet_id="another-wordnet",
                         path=tmp_path / "glosses.npz")
    with pytest.raises(GlossCacheError, match="wordnet 'test-wn', not 'another-wordnet'"):
        other.vectors(["pitcher.n.01"])


def damaged(whole: bytes, damage: str) -> bytes:
    """A gloss-vector file's bytes cut in half, garbage, a lone .npy array, or whole but with a
    NaN among its vectors."""
    if damage == "cut":
        return whole[: len(whole) // 2]
    if damage == "garbage":
        return b"garbage"
    out = io.BytesIO()
    if damage == "npy":
        np.save(out, np.zeros(3))
        return out.getvalue()
    with np.load(io.BytesIO(whole)) as data:
        members = {name: data[name] for name in data.files}
    members["vectors"] = members["vectors"].copy()
    members["vectors"][0, 0] = np.nan
    np.savez(out, **members)
    return out.getvalue()


@pytest.mark.parametrize("where", ["main", "part"])
@pytest.mark.parametrize("damage", ["cut", "garbage", "npy", "nan"])
def test_a_damaged_file_is_left_out_with_a_notice_and_encoded_again(standin, tmp_path, where,
                                                                   damage):
    first = glosses(tmp_path).vectors(["pitcher.n.01", "pitcher.n.02"])
    (part,) = (tmp_path / "glosses.npz.added").glob("*.npz")
    target = part if where == "part" else tmp_path / "glosses.npz"
    whole = part.read_bytes()
    part.rename(target)  # "main": the vectors are the main file's
    target.write_bytes(damaged(whole, damage))
    calls = standin.calls
    with pytest.warns(UserWarning, match=rf"cache file {re.escape(str(target))} is damaged "
                                         r"\(.+\); left out"):
        again = glosses(tmp_path).vectors(["pitcher.n.01", "pitcher.n.02"])
    assert standin.calls > calls  # encoded again, never read from the damaged file
    for name, vector in first.items():
        np.testing.assert_array_equal(again[name], vector)


@pytest.mark.parametrize("how", ["read-only", "full", "file"])
def test_a_cache_that_cannot_be_written_is_noted_once_and_gives_the_same_vectors(
        standin, tmp_path, monkeypatch, capsys, how):
    """The cache only saves time: a folder that cannot be written is one notice per process,
    naming it and why; the vectors are those of a writable cache, bit for bit, and what the
    folder holds is still read."""
    def gloss_vectors():
        return GlossVectors("numpy-test", wordnet=Wordnet(), wordnet_id="test-wn")

    expected = gloss_vectors().vectors(["pitcher.n.01", "pitcher.n.02"])
    cache = tmp_path / "cache"
    shutil.rmtree(cache)
    if how != "file":  # a cache filled before: pitcher.n.01 is read from it
        gloss_vectors().vectors(["pitcher.n.01"])
    reason = unwritable(how, cache, monkeypatch)
    rows = standin.rows
    for _ in range(2):  # two runs of one process
        found = gloss_vectors().vectors(["pitcher.n.01", "pitcher.n.02"])
        for name, vector in expected.items():
            assert found[name].tobytes() == vector.tobytes()
    assert standin.rows - rows == (4 if how == "file" else 2)  # pitcher.n.02 each time
    assert not list(cache.rglob("*.tmp")) if cache.is_dir() else True
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"wsd: could not write the gloss-vector cache {cache / 'gloss-vectors'} ({reason}); ")


def sentence(words, lemma="pitcher"):
    return Instance(id="s", tokens=tuple(words), span=(words.index(lemma),
                                                        words.index(lemma) + 1),
                    lemma=lemma, target_pos="NOUN")


def test_the_gloss_term_can_outweigh_the_prior(standin, tmp_path):
    # The context is the very text of the vessel sense's gloss: cosine 1 with it.
    words = text_words(gloss_text(SYNSETS["pitcher.n.02"]))
    inst = sentence(words)
    system = GlossWithPrior(Inventory(), model="numpy-test", mix=1.0, overlap=0.0,
                            glosses=glosses(tmp_path))
    terms = [row[:3] for row in system.sense_terms(inst)]
    assert [round(p, 6) for _, p, _ in terms] == [round(np.log(10 / 12), 6),
                                                  round(np.log(2 / 12), 6)]
    assert terms[1][2] == pytest.approx(system.weight, abs=1e-3)  # weight x cosine 1
    cos_first = terms[0][2] / system.weight
    assert -1 <= cos_first < 0.999
    # It wins exactly when weight x (1 - cos_first) beats the prior's log(10/2).
    needed = np.log(5) / (1 - cos_first)
    for factor, answer in ((1.01, "pitcher%1:06:00::"), (0.99, "pitcher%1:18:00::")):
        system = GlossWithPrior(Inventory(), weight=needed * factor, model="numpy-test",
                                mix=1.0, overlap=0.0, glosses=glosses(tmp_path))
        assert system.predict([inst]) == [answer]


def test_the_context_mixes_the_target_pieces_and_the_sentence(standin, tmp_path):
    from wsd.features.contextual import ContextualEmbedding

    words = ["she", "filled", "the", "pitcher", "with", "lemonade"]
    inst = sentence(words)
    target = ContextualEmbedding("numpy-test", layers=(-1,), cache=False).vectors([inst])[0]
    whole = sentence_vectors(standin, [words])[0]
    vessel = sentence_vectors(standin, [text_words(gloss_text(SYNSETS["pitcher.n.02"]))])[0]
    for mix, expected in ((0.0, cosine(target, vessel)), (1.0, cosine(whole, vessel)),
                          (0.3, 0.7 * cosine(target, vessel) + 0.3 * cosine(whole, vessel))):
        system = GlossWithPrior(Inventory(), weight=2.0, mix=mix, overlap=0.0,
                                model="numpy-test", glosses=glosses(tmp_path))
        sense, _, vectors, overlap = system.sense_terms(inst)[1]
        assert sense.synset == "pitcher.n.02" and overlap == 0.0
        assert vectors == pytest.approx(2.0 * expected, abs=4e-3)


def test_fit_adds_training_counts_to_the_prior(standin, tmp_path):
    system = GlossWithPrior(Inventory(), weight=0.0, overlap=0.0, model="numpy-test",
                            glosses=glosses(tmp_path))
    inst = sentence(["a", "pitcher"])
    assert system.predict([inst]) == ["pitcher%1:18:00::"]
    trained = Instance(id="t", tokens=("pitcher",), span=(0, 1), lemma="pitcher",
                       senses=("pitcher%1:06:00::",))
    system.fit([trained] * 9)  # 9+0+1 against 1+9+1
    assert system.predict([inst]) == ["pitcher%1:06:00::"]


def test_a_system_keeps_only_its_last_batchs_contexts(standin, tmp_path):
    """One system answers every raw-text call of a process: it keeps the contexts of the
    batch it prepared last (reusing those it shares with the one before), not of every
    sentence it has read; the answers are those of a fresh system."""
    system = GlossWithPrior(Inventory(), weight=5.0, overlap=0.0, model="numpy-test",
                            glosses=glosses(tmp_path))
    batches = [[sentence(["a", "pitcher", "of", "water"]), sentence(["the", "pitcher", "threw"])],
               [sentence(["the", "pitcher", "threw"]), sentence(["an", "empty", "pitcher"])]]
    for batch in batches:
        system.prepare(batch)
        rows = standin.rows
        assert set(system._targets) == {(inst.tokens, inst.span) for inst in batch}
        assert set(system._sentences) == {inst.tokens for inst in batch}
        fresh = GlossWithPrior(Inventory(), weight=5.0, overlap=0.0, model="numpy-test",
                               glosses=glosses(tmp_path))
        for inst in batch:
            mine, theirs = system.sense_terms(inst), fresh.sense_terms(inst)
            assert [row[0] for row in mine] == [row[0] for row in theirs]
            assert [row[1:] for row in mine] == [pytest.approx(row[1:]) for row in theirs]
        assert standin.rows > rows  # the fresh system encoded; the prepared one did not ...
    system.prepare(batches[1])
    rows = standin.rows
    system.sense_terms(batches[1][0])
    assert standin.rows == rows  # ... nor does it encode a batch it prepared again


def test_a_sentence_is_encoded_once_for_its_targets_and_its_own_vector(standin, tmp_path):
    """The target vectors and the sentence vector come from one pass of each sentence; those
    a given pass holds (a model's block's) are taken from it, its sentences not encoded."""
    from wsd.features.contextual import ContextualEmbedding

    batch = [sentence(["a", "pitcher", "of", "water"]), sentence(["the", "pitcher", "threw"])]
    system = GlossWithPrior(Inventory(), weight=5.0, overlap=0.0, model="numpy-test",
                            glosses=glosses(tmp_path))
    system.prepare(batch)  # the glosses are encoded here too: count the contexts alone
    fresh = GlossWithPrior(Inventory(), weight=5.0, overlap=0.0, model="numpy-test",
                           glosses=glosses(tmp_path))
    rows = standin.rows
    fresh.prepare(batch)
    assert standin.rows - rows == 2
    block = ContextualEmbedding("numpy-test", layers=(-2,), window=256, cache=False)
    encoding = block.encode(batch, sentence_layers=(-1,), sentence_pieces=128)
    given = GlossWithPrior(Inventory(), weight=5.0, overlap=0.0, model="numpy-test",
                           glosses=glosses(tmp_path))
    rows = standin.rows
    given.prepare(batch, encoding)
    assert standin.rows == rows
    for inst in batch:
        expected = [pytest.approx(row[1:]) for row in system.sense_terms(inst)]
        assert [row[1:] for row in fresh.sense_terms(inst)] == expected
        assert [row[1:] for row in given.sense_terms(inst)] == expected
    # A target the pass did not encode (its sentence is in it) is encoded here, once.
    other_target = Instance(id="o", tokens=batch[0].tokens, span=(3, 4), lemma="water")
    rows = standin.rows
    given.prepare([other_target], encoding)
    assert standin.rows == rows + 1
    # A pass whose sentence vectors pool other layers is not taken.
    empty = [sentence(["an", "empty", "pitcher"])]
    other = block.encode(empty, sentence_layers=(-2,), sentence_pieces=128)
    rows = standin.rows
    given.prepare(empty, other)
    assert standin.rows == rows + 1


def test_vectors_of_another_encoder_under_the_same_name_are_not_reused(standin, tmp_path):
    """A gloss-vector store follows the encoder its model's name loads now: a cache of the
    first encoder's vectors is not handed out for the second's contexts."""
    store = GlossVectors("numpy-test", wordnet=Wordnet(), wordnet_id="test-wn")
    first = store.vectors(["pitcher.n.01"])["pitcher.n.01"]
    standin.identity = "numpy-standin-2"
    standin.table = standin.table[::-1].copy()  # the same name now gives other vectors
    calls = standin.calls
    second = store.vectors(["pitcher.n.01"])["pitcher.n.01"]
    assert standin.calls == calls + 1  # encoded again, by the second encoder
    assert not np.allclose(first, second)
    expected = sentence_vectors(standin, [text_words(gloss_text(SYNSETS["pitcher.n.01"]))])[0]
    np.testing.assert_allclose(second, expected, rtol=2e-3, atol=2e-3)


def test_options_are_checked():
    with pytest.raises(ValueError, match="mix must be from 0 to 1"):
        GlossWithPrior(mix=1.5)
    with pytest.raises(ValueError, match="smoothing must be > 0"):
        GlossWithPrior(smoothing=0)


@pytest.mark.parametrize("layout", ["folder", "zip"])
def test_the_wordnet_identity_through_the_compiled_lexicon_is_nltks(layout, tmp_path,
                                                                    monkeypatch):  # fmt: skip
    """The gloss files' WordNet identity is found from the files the compiled lexicon was
    compiled from (NLTK not imported), and is the digest NLTK's own lookup gives."""
    import types

    import nltk

    from wsd.features import gloss_vectors

    if layout == "folder":
        root = tmp_path / "corpora" / "wordnet"
        root.mkdir(parents=True)
        for name, text in (("data.noun", "n"), ("data.verb", "v"), ("index.sense", "k"),
                           ("index.noun", "not read"), ("lexnames", "not read")):
            (root / name).write_text(text)
    else:
        root = tmp_path / "corpora" / "wordnet.zip"
        root.parent.mkdir(parents=True)
        root.write_bytes(b"a zip of WordNet")
    sources = [{"path": str(tmp_path / "tagger.zip")}, {"path": str(root)}]
    lexicon = types.SimpleNamespace(meta={"sources": sources})
    monkeypatch.setattr(gloss_vectors.compiled, "active", lambda: lexicon)
    through_lexicon = gloss_vectors.wordnet_identity()

    def find(name):
        if layout == "folder" and name == "corpora/wordnet":
            return root
        if layout == "zip" and name == "corpora/wordnet.zip":
            return root
        raise LookupError(name)

    monkeypatch.setattr(gloss_vectors.compiled, "active", lambda: None)
    monkeypatch.setattr(nltk.data, "find", find)
    assert gloss_vectors.wordnet_identity() == through_lexicon
    read = b"nvk" if layout == "folder" else b"a zip of WordNet"  # data.*, index.sense
    assert through_lexicon == hashlib.sha256(read).hexdigest()[:16]
