"""Gloss cosines as classifier features (``gloss_features``), on the numpy stand-in encoder and
a small hand-made WordNet (no model, no NLTK data needed)."""

import json

import numpy as np
import pytest
from context_encoder import standin_encoder

from wsd.features.contextual import ContextualEmbedding
from wsd.features.gloss_vectors import GlossVectors, gloss_text, sentence_vectors, text_words
from wsd.instance import Instance
from wsd.resources import has_nltk_resource
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.gloss_features import GlossCosines, feature_names

PLAYER, VESSEL = "pitcher%1:18:00::", "pitcher%1:06:00::"


class Synset:
    def __init__(self, name, names, definition, examples=()):
        self._name, self._names = name, names
        self._definition, self._examples = definition, list(examples)

    def name(self):
        return self._name

    def lemma_names(self):
        return self._names

    def definition(self):
        return self._definition

    def examples(self):
        return self._examples


class Lemma:
    def __init__(self, synset):
        self._synset = synset

    def synset(self):
        return self._synset


SYNSETS = {
    "pitcher.n.01": Synset("pitcher.n.01", ["pitcher", "hurler"],
                           "the player who throws the ball"),
    "pitcher.n.02": Synset("pitcher.n.02", ["pitcher", "ewer"], "an open vessel with a spout",
                           ["a pitcher of lemonade"]),
}
KEYS = {PLAYER: "pitcher.n.01", VESSEL: "pitcher.n.02"}


class Wordnet:
    def synset(self, name):
        return SYNSETS[name]

    def lemma_for_key(self, key):
        if key not in KEYS:
            raise ValueError(key)
        return Lemma(SYNSETS[KEYS[key]])


@pytest.fixture
def standin(monkeypatch, tmp_path):
    yield from standin_encoder(monkeypatch, tmp_path)


def cosines(tmp_path, mix=0.3):
    glosses = GlossVectors("numpy-test", wordnet=Wordnet(), wordnet_id="test-wn",
                           path=tmp_path / "glosses.npz")
    return GlossCosines("numpy-test", 256, Wordnet(), mix=mix, glosses=glosses)


def unit(vector):
    return vector / np.linalg.norm(vector)


WORDS = ["she", "filled", "the", "pitcher", "with", "lemonade"]
INSTANCE = Instance(id="s", tokens=tuple(WORDS), span=(3, 4), lemma="pitcher",
                    target_pos="NOUN")


def test_hand_checked_cosines_and_features(standin, tmp_path):
    target = ContextualEmbedding("numpy-test", layers=(-1,), cache=False).vectors([INSTANCE])[0]
    whole = sentence_vectors(standin, [WORDS])[0]
    gloss = {name: sentence_vectors(standin, [text_words(gloss_text(s))])[0]
             for name, s in SYNSETS.items()}  # fmt: skip
    for mix in (0.0, 0.3, 1.0):
        context = (1 - mix) * unit(target) + mix * unit(whole)
        expected = [float(unit(context) @ unit(gloss[KEYS[k]])) for k in (PLAYER, VESSEL)]
        system = cosines(tmp_path, mix)
        (found,) = system.contexts([INSTANCE])
        assert found == pytest.approx(context, abs=1e-3)
        assert system.cosines(found[None], [PLAYER, VESSEL])[0] == pytest.approx(expected,
                                                                                 abs=2e-3)
        features = system.features(found, [PLAYER, VESSEL], 3.0)
        assert list(features) == [f"gloss:{PLAYER}", f"gloss:{VESSEL}"]
        assert list(features.values()) == pytest.approx([3 * e for e in expected], abs=6e-3)
    assert not np.allclose(*[cosines(tmp_path, m).contexts([INSTANCE])[0] for m in (0.0, 1.0)])


def test_a_class_wordnet_lacks_gets_cosine_zero(standin, tmp_path):
    system = cosines(tmp_path)
    found = system.cosines(system.contexts([INSTANCE]), ["nothing%1:00:00::", VESSEL])
    assert found[0, 0] == 0.0 and found[0, 1] != 0.0
    assert feature_names(["a%1", "b%2"]) == ["gloss:a%1", "gloss:b%2"]


def test_sentence_vectors_are_encoded_once_and_read_back(standin, tmp_path):
    first = cosines(tmp_path).contexts([INSTANCE])
    rows = standin.rows
    again = cosines(tmp_path).contexts([INSTANCE, INSTANCE])  # the target's vector is cached too
    assert standin.rows == rows
    assert np.array_equal(again, np.vstack([first, first]))
    assert cosines(tmp_path).contexts([]).shape == (0, 0)


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent")
def test_the_system_weighs_gloss_cosines_and_keeps_the_weight_in_its_file(standin, tmp_path):
    """With gloss_cosine_weight, each class of a key has a feature gloss:<class>: training rows
    and a new instance's are weight times the cosine computed here independently (NLTK's
    WordNet glosses, the stand-in encoder); reasons name them; the model file keeps the
    weight (format version 2, which an older wsd refuses) and answers alike."""
    from nltk.corpus import wordnet
    from test_contextual_systems import BANK_MONEY, BANK_RIVER, CONTEXT, QUICK, two_target_sentences

    train = two_target_sentences(30)
    system = AllWordsWSD(features=[CONTEXT], gloss_cosine_weight=2.0, **QUICK).fit(train)
    model = system.models_["bank#NOUN"]
    assert {f for f in model.features if f.startswith("gloss:")} == {
        f"gloss:{BANK_MONEY}", f"gloss:{BANK_RIVER}"}

    test = two_target_sentences(8, offset=300)
    target = ContextualEmbedding("numpy-test", layers=(-1,), cache=False).vectors(test[:1])[0]
    whole = sentence_vectors(standin, [list(test[0].tokens)])[0]
    context = 0.7 * unit(target) + 0.3 * unit(whole)
    expected = {}
    for key in (BANK_MONEY, BANK_RIVER):
        synset = wordnet.lemma_from_key(key).synset()
        gloss = sentence_vectors(standin, [text_words(gloss_text(synset))])[0]
        expected[f"gloss:{key}"] = 2.0 * float(unit(context) @ unit(gloss))
    found = system.gloss_cosines().features(system.gloss_cosines().contexts(test[:1])[0],
                                            model.classes, 2.0)
    assert found == pytest.approx(expected, abs=1e-2)
    (decision,) = system.decide(test[:1], explain=10)
    assert {name for name, _ in decision.reasons.terms} & set(expected)  # reasons name them

    path = system.save(tmp_path / "m.npz")
    loaded = AllWordsWSD.load(path)
    assert loaded.gloss_cosine_weight == 2.0
    with np.load(path) as archive:
        assert json.loads(archive["metadata"].tobytes())["version"] == 2
    assert loaded.decide(test, explain=3) == system.decide(test, explain=3)
    system.gloss_cosine_weight = 0.0  # without the cosines the same weights answer otherwise
    assert [d.score for d in system.decide(test)] != [d.score for d in loaded.decide(test)]
