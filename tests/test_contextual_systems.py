"""Contextual features in every system: the all-words system (one encoding per sentence, the
block saved with the model), `wsd lexsample`, `wsd disambiguate` and `wsd annotate` with a
model trained on them; without the [context] extra each stops with one line. All on the numpy
stand-in encoder (tests/context_encoder.py), never the packaged model."""

import importlib.util
import json
import os
import shutil

import numpy as np
import pytest
from context_encoder import DIM, standin_encoder

from wsd.annotate import load_annotator
from wsd.cli import main
from wsd.experiments.lexsample_run import run_lexsample
from wsd.features import encoders
from wsd.features.contextual import ContextualEmbedding
from wsd.features.encoders import CONTEXT_EXTRA, MissingExtraError
from wsd.instance import Instance
from wsd.resources import has_nltk_resource
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.instance_features import feature_set
from wsd.systems.allwords.modelfile import read_npz
from wsd.systems.named import SystemSettings
from wsd.systems.supervised import SupervisedWSD

LEXSAMPLE = "tests/data/lexsample"
MONEY, RIVER = ["deposit", "money", "loan", "cash"], ["river", "water", "fishing", "mud"]
FISH, MUSIC = ["lake", "caught", "boat", "pier"], ["guitar", "band", "played", "amp"]
BANK_MONEY, BANK_RIVER = "bank%1:14:00::", "bank%1:17:01::"
BASS_FISH, BASS_MUSIC = "bass%1:13:02::", "bass%1:10:00::"
# No NLTK data needed: corpus tags, a plain bag of words, the classifier's scores alone.
QUICK = {"pos_tags": "corpus", "n_models": 1, "prior": 0.0, "margin": 0.0, "gloss_weight": 0.0,
         "discourse_weight": 0.0, "epochs": 5, "gloss_fusion": 0.0, "gloss_backoff": False}
CONTEXT = {"name": "context", "params": {"model": "numpy-test", "layers": [-1], "weight": 2.0}}


@pytest.fixture
def standin(monkeypatch, tmp_path):
    yield from standin_encoder(monkeypatch, tmp_path)


def hide_onnxruntime(monkeypatch):
    """As on a machine without the [context] extra: onnxruntime cannot be found, and the
    default encoder is the packaged one again."""
    monkeypatch.setitem(encoders._FACTORIES, encoders.DEFAULT_ENCODER, encoders._packaged_minilm)
    encoders.load_encoder.cache_clear()
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "onnxruntime" else real(name, *a))


def assert_one_line(capsys, code, *fragments):
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in err


def two_target_sentences(n, offset=0):
    """``n`` sentences, each with a bank and a bass target (one encoding serves both), their
    senses drawn independently from the cue words around them."""
    rng = np.random.default_rng(offset)
    instances = []
    for s in range(offset, offset + n):
        money, fish = bool(rng.integers(2)), bool(rng.integers(2))
        bank_cues = [str(c) for c in rng.choice(MONEY if money else RIVER, 2, replace=False)]
        bass_cues = [str(c) for c in rng.choice(FISH if fish else MUSIC, 2, replace=False)]
        tokens = (bank_cues[0], "bank", bank_cues[1], "and", bass_cues[0], "bass", bass_cues[1],
                  f"at{s}")  # every sentence differs
        meta = (("document", f"d{s // 5}"), ("sentence", f"d{s // 5}.s{s}"))
        instances += [
            Instance(id=f"s{s}.bank", tokens=tokens, span=(1, 2), lemma="bank",
                     target_pos="NOUN", senses=(BANK_MONEY if money else BANK_RIVER,), meta=meta),
            Instance(id=f"s{s}.bass", tokens=tokens, span=(5, 6), lemma="bass",
                     target_pos="NOUN", senses=(BASS_FISH if fish else BASS_MUSIC,), meta=meta)]
    return instances


# ---------------------------------------------------------------- the all-words system

def test_allwords_encodes_each_sentence_once_and_saves_the_block(standin, tmp_path):
    train, test = two_target_sentences(40), two_target_sentences(10, offset=100)
    system = AllWordsWSD(features=[{"name": "bow", "params": {}}, CONTEXT], **QUICK).fit(train)
    assert standin.rows == 40  # 80 targets, 40 sentences: one encoding each
    model = system.models_["bank#NOUN"]
    assert sum(f.startswith("context:") for f in model.features) == DIM

    # The block is standardised with the training statistics (computed here independently).
    raw = ContextualEmbedding(model="numpy-test", layers=(-1,), cache=False)
    train_raw = raw.vectors(train).astype(np.float64)
    expected = ((raw.vectors(test[:1]) - train_raw.mean(axis=0)) / train_raw.std(axis=0)
                * 2.0 / np.sqrt(DIM))
    np.testing.assert_allclose(system.context_.transform(test[:1]), expected, rtol=1e-5)

    rows = standin.rows
    decisions = system.decide(test)
    assert standin.rows - rows == 10  # prediction too: one encoding per (new) sentence
    path = system.save(tmp_path / "model.npz")
    loaded = AllWordsWSD.load(path)
    assert loaded.context_.encoder == standin.identity
    assert loaded.get_params()["features"][-1] == CONTEXT
    header, _ = read_npz(path)  # the encoder and every setting of the block, defaults included
    assert header["context"]["encoder"] == standin.identity
    assert header["context"]["extractor"] == {"name": "context", "params": {
        "model": "numpy-test", "layers": [-1], "window": 256, "weight": 2.0, "batch_size": 32,
        "cache": True}}
    assert loaded.decide(test) == decisions


def bank_sentences(n, offset):
    """``n`` one-target sentences: bank among three money or three river words."""
    rng = np.random.default_rng(offset)
    instances = []
    for s in range(offset, offset + n):
        money = bool(rng.integers(2))
        cues = [str(c) for c in rng.choice(MONEY if money else RIVER, 3, replace=False)]
        instances.append(Instance(id=f"s{s}", tokens=(cues[0], "the", "bank", *cues[1:]),
                                  span=(2, 3), lemma="bank", target_pos="NOUN",
                                  senses=(BANK_MONEY if money else BANK_RIVER,)))
    return instances


def test_allwords_learns_from_the_vector_alone(standin):
    system = AllWordsWSD(features=[CONTEXT], **QUICK).fit(bank_sentences(120, 0))
    test = bank_sentences(60, 1000)
    assert system.score(test) >= 0.9  # the stand-in's vectors do separate the cue words
    scores = system.models_["bank#NOUN"].scores({}, system.context_.transform(test[:1])[0])
    assert np.ptp(scores) > 0  # nothing but the dense block is there to score


def test_allwords_refuses_a_model_from_another_encoder(standin, tmp_path):
    train = two_target_sentences(20)
    path = AllWordsWSD(features=[CONTEXT], **QUICK).fit(train).save(tmp_path / "m.npz")
    standin.identity = "numpy-standin-2"  # the same name now gives other vectors
    with pytest.raises(ValueError, match="retrain"):
        AllWordsWSD.load(path).predict(train[:2])


@pytest.mark.skipif(not (has_nltk_resource("wordnet")
                         and has_nltk_resource("averaged_perceptron_tagger_eng")),
                    reason="NLTK wordnet / averaged_perceptron_tagger_eng data absent")
def test_raw_text_encodes_each_sentence_once(standin):
    from wsd.systems.allwords.plaintext import tag_text

    system = AllWordsWSD(features=[{"name": "bow", "params": {}}, CONTEXT], **QUICK).fit(
        two_target_sentences(40))
    rows = standin.rows
    text = "The money is in the bank and the bass played. A bass swam near the river bank."
    _, words = tag_text(system, text)
    assert {w.lemma for w in words if w.source == "classifier"} >= {"bank", "bass"}
    assert standin.rows - rows == 2


@pytest.mark.skipif(not (has_nltk_resource("wordnet")
                         and has_nltk_resource("averaged_perceptron_tagger_eng")),
                    reason="NLTK wordnet / averaged_perceptron_tagger_eng data absent")
def test_raw_text_leaves_the_vector_cache_alone_and_answers_the_same(standin, tmp_path):
    """Raw text is read once: its vectors are neither looked up in the on-disk cache (each
    look-up reads all of it, the training corpus's vectors included) nor added to it; the
    answers are those of the same instances decided through the cache."""
    from wsd.systems.allwords.plaintext import tag_text, word_instances
    from wsd.text import analyze

    system = AllWordsWSD(features=[{"name": "bow", "params": {}}, CONTEXT], **QUICK).fit(
        two_target_sentences(40))
    cache = tmp_path / "cache"
    before = sorted(p.relative_to(cache) for p in cache.rglob("*.npz"))
    assert before  # training filled it
    text = "The money is in the bank and the bass played. A bass swam near the river bank."
    _, words = tag_text(system, text)
    assert sorted(p.relative_to(cache) for p in cache.rglob("*.npz")) == before
    instances = [inst for _, _, inst in word_instances(analyze(text, system.reader), None)]
    through_cache = system.decide(instances, tagged=True)
    assert sorted(p.relative_to(cache) for p in cache.rglob("*.npz")) != before  # it writes
    assert [w.sense_key for w in words] == [d.sense for d in through_cache]
    assert [w.score for w in words] == [d.score for d in through_cache]


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent "
                    "(the tuned feature set lemmatizes with it)")
def test_allwords_without_the_extra_stops_with_one_line(standin, monkeypatch, tmp_path, capsys):
    path = AllWordsWSD(features=[{"name": "bow", "params": {}}, {"name": "context"}],
                       **QUICK).fit(two_target_sentences(20)).save(tmp_path / "m.npz")
    hide_onnxruntime(monkeypatch)
    with pytest.raises(MissingExtraError, match=r"wsd-perceptron\[context\]"):
        AllWordsWSD(features=feature_set("tuned+context")).fit(two_target_sentences(4))
    with pytest.raises(MissingExtraError, match="m.npz"):
        AllWordsWSD.load(path)
    code = main(["allwords", "--features", "ims+context", "--quiet"])
    assert_one_line(capsys, code, CONTEXT_EXTRA)
    code = main(["disambiguate", "--model", str(path), "the bank"])
    assert_one_line(capsys, code, CONTEXT_EXTRA, "m.npz")
    code = main(["compare", "--corpus", "bundled:bass", "--systems", "mfs,lesk,perceptron",
                 "--features", "context"])  # fmt: skip
    assert_one_line(capsys, code, CONTEXT_EXTRA)  # before mfs and lesk ran: no progress bar


def test_feature_set_names():
    assert feature_set("ims+context")[-1]["name"] == "context"
    assert all(f["name"] != "context" for f in feature_set("tuned"))
    with pytest.raises(ValueError, match="unknown all-words feature set"):
        feature_set("full+context")
    for name in ("tuned+context", "context"):  # a caller's change stays in its own copy
        changed = feature_set(name)
        changed[-1]["params"]["weight"] = 123.0
        assert feature_set(name)[-1]["params"]["weight"] != 123.0
    changed = feature_set("tuned")
    for config in changed:
        config.setdefault("params", {})["probe"] = 1
    assert all("probe" not in f.get("params", {}) for f in feature_set("tuned"))


# ---------------------------------------------------------------- one-word systems

def test_lexsample_encodes_every_context_once_before_training(standin, tmp_path):
    settings = SystemSettings(features="full+context", lemmatize=False, models=1)
    run = run_lexsample(f"{LEXSAMPLE}/train.xml", f"{LEXSAMPLE}/test.xml", tmp_path / "a.txt",
                        test_key=f"{LEXSAMPLE}/test.key", settings=settings)
    contexts = {line for line in (tmp_path / "a.txt").read_text().splitlines()}
    assert len(contexts) == len(run.answers) and "encode" in run.seconds
    from wsd.corpora.lexsample import read_lexsample

    every = read_lexsample(f"{LEXSAMPLE}/train.xml") + read_lexsample(f"{LEXSAMPLE}/test.xml")
    assert standin.rows == len({inst.tokens for inst in every})  # none encoded twice
    assert run.fine is not None


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent "
                    "(its one-line notice would come before the error)")
def test_lexsample_without_the_extra_stops_before_reading(monkeypatch, tmp_path, capsys):
    hide_onnxruntime(monkeypatch)
    code = main(["lexsample", "--train", str(tmp_path / "absent.xml"), "--test",
                 str(tmp_path / "absent.xml"), "--out", str(tmp_path / "a.txt"),
                 "--features", "full+context"])
    assert_one_line(capsys, code, CONTEXT_EXTRA)
    assert not (tmp_path / "a.txt").exists()


def json_records(capsys):
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_disambiguate_a_bundled_word_with_context_features(standin, capsys):
    code = main(["disambiguate", "--target", "bass", "--features", "full+context", "--json",
                 "--top", "1000", "--no-lemmatize", "he caught a huge <<bass>> off the pier"])
    assert code == 0
    (record,) = json_records(capsys)
    terms = dict(record["features"] + record["against"])
    assert "context vector" in terms and not any(t.startswith("context:") for t in terms)
    total = record["bias"] + sum(terms.values()) + record["other_features"]
    assert total == pytest.approx(record["margin"], abs=1e-3)  # the block is one addend
    assert standin.rows > 0


@pytest.fixture
def context_model(standin, tmp_path):
    path = tmp_path / "bass.json"
    assert main(["train", "--corpus", "bundled:bass", "--features", "full+context",
                 "--no-lemmatize", "--out", str(path)]) == 0
    return path


def test_a_trained_context_model_disambiguates_and_annotates(context_model, capsys):
    capsys.readouterr()
    sentences = ["We caught a huge <<bass>> off the pier.", "He plays <<bass>> in a band."]
    assert main(["disambiguate", "--model", str(context_model), "--json", *sentences]) == 0
    model = SupervisedWSD.load(context_model)
    expected = model.predict([Instance.from_text(s, lemma="bass") for s in sentences])
    assert [r["sense"] for r in json_records(capsys)] == expected
    annotated = load_annotator(context_model).annotate(
        " ".join(s.replace("<<", "").replace(">>", "") for s in sentences))
    assert [w["sense_key"] for s in annotated for w in s["words"]] == expected


def test_raw_text_of_a_one_word_context_model_leaves_the_vector_cache_alone(context_model,
                                                                           tmp_path, capsys):
    """``wsd disambiguate`` and ``wsd annotate`` with a one-word context model read their text
    once: no look-up in the on-disk vector cache (each had read all of it, per sentence) and
    nothing added to it (four files a sentence had been added), the answers unchanged."""
    cache = tmp_path / "cache"
    before = sorted(p.relative_to(cache) for p in cache.rglob("*.npz"))
    assert before  # training filled it
    sentences = [f"We caught a huge <<bass>> off pier {n}." for n in range(3)]
    capsys.readouterr()
    assert main(["disambiguate", "--model", str(context_model), "--json", *sentences]) == 0
    answers = [r["sense"] for r in json_records(capsys)]
    load_annotator(context_model).annotate(" ".join(s.replace("<<", "").replace(">>", "")
                                                    for s in sentences))
    assert sorted(p.relative_to(cache) for p in cache.rglob("*.npz")) == before
    model = SupervisedWSD.load(context_model)
    assert answers == model.predict([Instance.from_text(s, lemma="bass") for s in sentences])
    assert sorted(p.relative_to(cache) for p in cache.rglob("*.npz")) != before  # predict caches


def test_a_context_model_without_the_extra_stops_with_one_line(context_model, monkeypatch,
                                                               tmp_path, capsys):
    hide_onnxruntime(monkeypatch)
    capsys.readouterr()
    code = main(["disambiguate", "--model", str(context_model), "a <<bass>> swam by"])
    assert_one_line(capsys, code, CONTEXT_EXTRA, "bass.json")
    text = tmp_path / "doc.txt"
    text.write_text("A bass swam by.\n")
    code = main(["annotate", str(text), "--model", str(context_model), "--out",
                 str(tmp_path / "out"), "--quiet"])
    assert_one_line(capsys, code, CONTEXT_EXTRA)


@pytest.mark.skipif(not (has_nltk_resource("wordnet")
                         and has_nltk_resource("averaged_perceptron_tagger_eng")),
                    reason="NLTK wordnet / averaged_perceptron_tagger_eng data absent")
def test_cli_allwords_trains_and_applies_a_context_model(standin, tmp_path, capsys):
    from test_allwords import _bank_sentences, _corpus, _load

    train = _corpus(tmp_path, "train", [_bank_sentences(12), _bank_sentences(12, 12)])
    model = tmp_path / "m.npz"
    assert main(["allwords", "--train", str(train), "--features", "ims+context", "--models",
                 "1", "--evaluate", str(train), "--save", str(model), "--quiet"]) == 0
    distinct = len({inst.tokens for inst in _load(train)})
    from nltk.corpus import wordnet

    # Training: one encoding per distinct sentence (the block, cached); evaluating with the
    # default gloss fusion: each sentence once more, one pass for the block's vectors and the
    # gloss's target and sentence vectors; and each of bank's noun glosses once.
    assert standin.rows == 2 * distinct + len(wordnet.synsets("bank", "n"))
    assert read_npz(model)[0]["context"]["extractor"]["params"]["weight"] == 8.0
    trained = capsys.readouterr().out
    assert main(["allwords", "--model", str(model), "--evaluate", str(train), "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == trained.splitlines()[:2]  # same scores


# ---------------------------------------------------------------- sense vectors

needs_wordnet = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                   reason="NLTK wordnet data absent")


@needs_wordnet
def test_sense_vectors_are_the_training_means_and_survive_the_model_file(standin, tmp_path):
    from wsd.systems.allwords.modelfile import ModelFileError, read_sense_vectors

    train = two_target_sentences(30)
    system = AllWordsWSD(features=[CONTEXT], vector_backoff=True, **QUICK).fit(train)
    table = system.sense_vectors_
    from nltk.corpus import wordnet

    assert table.names == sorted(wordnet.lemma_from_key(key).synset().name() for key in (
        BANK_MONEY, BANK_RIVER, BASS_FISH, BASS_MUSIC))
    raw = ContextualEmbedding(model="numpy-test", layers=(-1,), cache=False).vectors(train)
    money = raw[[i for i, inst in enumerate(train) if inst.senses == (BANK_MONEY,)]].mean(0)
    np.testing.assert_allclose(table.vector("depository_financial_institution.n.01"),
                               money / np.linalg.norm(money), atol=2e-3)
    path = system.save(tmp_path / "m.npz")
    loaded = AllWordsWSD.load(path)
    assert loaded.sense_vectors_.names == table.names
    np.testing.assert_array_equal(loaded.sense_vectors_.matrix, table.matrix)
    assert loaded.sense_vectors_.matrix.dtype == np.float16
    test = two_target_sentences(6, offset=200)
    assert loaded.decide(test) == system.decide(test)

    import zipfile  # a sense-vector member cut short is refused, naming the file
    damaged = tmp_path / "damaged.npz"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(damaged, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            target.writestr(item, data[:-6] if item.filename == "sense_vectors.npy" else data)
    with pytest.raises(ModelFileError, match="damaged.npz.*sense vectors"):
        read_sense_vectors(damaged)
    # A loaded model reads them when first asked for, not at load or for decisions that do
    # not use them; a file changed since it was loaded is refused then, naming it.
    lazy = AllWordsWSD.load(damaged)
    lazy.vector_backoff = False
    assert lazy.decide(test) == system.decide(test)  # read nothing: the damage is not met
    with pytest.raises(ModelFileError, match="damaged.npz.*sense vectors"):
        assert lazy.sense_vectors_ is None
    # the same contents touched or with another mode (their times moved): read as they are
    again = AllWordsWSD.load(path)
    os.utime(path, ns=(0, 0))
    os.chmod(path, 0o600)
    assert again.sense_vectors_.names == table.names
    # other contents with the modification time put back (cp, then touch -r): another
    # model's vectors would have been read beside this one's weights
    again, stat = AllWordsWSD.load(path), path.stat()
    other = AllWordsWSD(features=[CONTEXT], vector_backoff=True, **QUICK).fit(train[::-1])
    other.save(tmp_path / "other.npz")
    shutil.copyfile(tmp_path / "other.npz", path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(ModelFileError, match="m.npz' changed since it was loaded"):
        assert again.sense_vectors_ is None


@needs_wordnet
def test_a_word_without_a_classifier_answers_by_sense_vectors(standin):
    """*deposit* was never seen: with vector_backoff its answer is the WordNet sense whose
    vector (through hypernyms or the lexicographer file) is nearest, not the first sense."""
    from wsd.knowledge.inventory import WordNetInventory
    from wsd.systems.allwords.predict import FIRST_SENSE, VECTORS

    train = two_target_sentences(30)
    system = AllWordsWSD(features=[CONTEXT], vector_backoff=True, **QUICK).fit(train)
    unseen = Instance(id="u", tokens=("cash", "deposit", "at", "the", "bank"), span=(1, 2),
                      lemma="deposit", target_pos="NOUN")
    (decision,) = system.decide([unseen])
    senses = WordNetInventory().senses("deposit", "NOUN")
    raw = ContextualEmbedding(model="numpy-test", layers=(-1,), cache=False).vectors([unseen])
    cosines = system.sense_vectors_.cosines(raw[0], [s.synset for s in senses])
    assert cosines.max() > 0  # some sense got a vector through WordNet
    # no training counts: the add-one prior is uniform, the cosine alone decides
    assert decision.sense == senses[int(np.argmax(cosines))].id
    assert decision.source == VECTORS and 0 <= decision.margin <= decision.score <= 1
    system.vector_backoff = False
    assert system.decide([unseen])[0].source == FIRST_SENSE


@needs_wordnet
def test_sense_cosines_are_features_the_perceptron_weighs(standin, tmp_path):
    """With sense_weight, each class of a key has a feature sense:<class> valued weight times
    the cosine of the instance's raw vector with the class's sense vector (leave-one-out in
    training); the compiled engine learns from them what the dict learner learns from the
    same rows built here independently; the model file keeps the weight and answers alike."""
    from nltk.corpus import wordnet

    from wsd.learners.engine import task_seed
    from wsd.learners.multiclass import MulticlassAveragedPerceptron
    from wsd.systems.allwords.sense_features import features, training_cosines
    from wsd.systems.allwords.sense_vectors import SenseSums

    train = two_target_sentences(30)
    system = AllWordsWSD(features=[CONTEXT], sense_weight=2.0, **QUICK).fit(train)
    model = system.models_["bank#NOUN"]
    assert {f for f in model.features if f.startswith("sense:")} == {
        f"sense:{BANK_MONEY}", f"sense:{BANK_RIVER}"}

    raw = ContextualEmbedding(model="numpy-test", layers=(-1,), cache=False).vectors(train)
    bank = [i for i, inst in enumerate(train) if inst.lemma == "bank"]
    labels = [train[i].senses[0] for i in bank]
    classes = sorted(set(labels))
    sums = SenseSums.fit(train, raw, wordnet)
    cosines = 2.0 * training_cosines(raw[bank], [True] * len(bank), labels, classes,
                                     sums).astype(np.float32)
    scaled = system.context_.scale(raw.copy())[bank]
    rows = [{**{f"context:{j}": float(v) for j, v in enumerate(scaled[r])},
             **{f"sense:{c}": float(cosines[r, k]) for k, c in enumerate(classes)}}
            for r in range(len(bank))]
    theirs = MulticlassAveragedPerceptron(epochs=5, seed=task_seed(0, "bank#NOUN"), margin=1.0,
                                          engine="dict").fit(rows, labels)
    weights = theirs.weights()
    for f in model.features:
        for k, c in enumerate(model.classes):
            assert model.coef[model.rows[f], k] == pytest.approx(weights[f].get(c, 0.0),
                                                                 abs=1e-4)
    assert model.intercept.tolist() == pytest.approx([theirs.biases()[c] for c in
                                                      model.classes], abs=1e-4)

    test = two_target_sentences(8, offset=300)
    new = ContextualEmbedding(model="numpy-test", layers=(-1,), cache=False).vectors(test[:1])
    expected = {c: 2.0 * float(new[0] @ system.sense_vectors_.vector(
        wordnet.lemma_from_key(c).synset().name()) / np.linalg.norm(new[0])) for c in classes}
    found = features(system.sense_vectors_, new[0], classes, 2.0)
    assert found == pytest.approx({f"sense:{c}": v for c, v in expected.items()}, abs=1e-5)
    (decision,) = system.decide(test[:1], explain=10)
    assert {name for name, _ in decision.reasons.terms} & set(found)  # reasons name them

    path = system.save(tmp_path / "m.npz")
    loaded = AllWordsWSD.load(path)
    assert loaded.sense_weight == 2.0
    with np.load(path) as archive:  # an older wsd, which reads version 1, refuses the file
        assert json.loads(archive["metadata"].tobytes())["version"] == 2
    plain = AllWordsWSD(features=[CONTEXT], **QUICK).fit(train).save(tmp_path / "plain.npz")
    with np.load(plain) as archive:
        assert json.loads(archive["metadata"].tobytes())["version"] == 1
    assert loaded.decide(test, explain=3) == system.decide(test, explain=3)
    system.sense_weight = 0.0  # without the cosines the same weights answer otherwise
    assert [d.score for d in system.decide(test)] != [d.score for d in loaded.decide(test)]


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent")
def test_wordnet_examples_are_encoded_into_the_block_of_their_classifier(standin):
    from wsd.knowledge.inventory import WordNetInventory
    from wsd.systems.allwords.context import wordnet_examples

    train = two_target_sentences(30)
    examples = [inst for lemma in ("bank", "bass")
                for inst in wordnet_examples(lemma, "NOUN", WordNetInventory())]
    assert examples
    system = AllWordsWSD(features=[CONTEXT], wordnet_examples=True, **QUICK).fit(train)
    # SemCor's 30 sentences once, then each example sentence once, nothing else.
    assert standin.rows == 30 + len({inst.tokens for inst in examples})
    bank = [inst.senses[0] for inst in examples if inst.lemma == "bank"]
    assert set(system.models_["bank#NOUN"].classes) == {BANK_MONEY, BANK_RIVER, *bank}
    # The block's scaling is fitted on the classifiers' rows: training targets and examples.
    raw = ContextualEmbedding(model="numpy-test", layers=(-1,), cache=False)
    rows = np.vstack([raw.vectors(train), raw.vectors(examples)]).astype(np.float64)
    np.testing.assert_allclose(system.context_.mean, rows.mean(axis=0), rtol=1e-4, atol=1e-6)
    assert system.sense_counts_ == AllWordsWSD(features=[CONTEXT], **QUICK).fit(
        train).sense_counts_  # the examples never count as SemCor's senses
