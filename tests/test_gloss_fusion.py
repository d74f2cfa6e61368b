"""Gloss similarity in the all-words decision (``gloss_fusion``, ``gloss_backoff``), on the numpy
stand-in encoder and NLTK's WordNet glosses, the cosines computed here independently."""

import json
import math

import numpy as np
import pytest
from context_encoder import standin_encoder
from test_contextual_systems import BANK_MONEY, CONTEXT, QUICK, two_target_sentences

from wsd.features.contextual import ContextualEmbedding
from wsd.features.gloss_vectors import gloss_text, sentence_vectors, text_words
from wsd.instance import Instance
from wsd.resources import has_nltk_resource
from wsd.systems.allwords import AllWordsWSD

pytestmark = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                reason="NLTK wordnet data absent")


@pytest.fixture
def standin(monkeypatch, tmp_path):
    yield from standin_encoder(monkeypatch, tmp_path)


def unit(vector):
    return vector / np.linalg.norm(vector)


def hand_cosines(encoder, inst, keys):
    """Each sense key's gloss-vector cosine with 0.7 x the unit target vector (last layer,
    128-piece window) plus 0.3 x the unit sentence vector (GlossWithPrior's defaults)."""
    from nltk.corpus import wordnet

    target = ContextualEmbedding("numpy-test", layers=(-1,), window=128,
                                 cache=False).vectors([inst])[0]  # fmt: skip
    whole = sentence_vectors(encoder, [list(inst.tokens)])[0]
    context = 0.7 * unit(target) + 0.3 * unit(whole)
    found = []
    for key in keys:
        synset = wordnet.lemma_from_key(key).synset()
        gloss = sentence_vectors(encoder, [text_words(gloss_text(synset))])[0]
        found.append(float(unit(context) @ unit(gloss)))
    return np.array(found)


def options(**changes):
    return {**QUICK, "gloss_fusion": 0.0, "gloss_backoff": False, **changes}


def test_the_fusion_adds_weight_times_each_class_gloss_cosine(standin):
    train, test = two_target_sentences(30), two_target_sentences(6, offset=300)
    banks = [inst for inst in test if inst.lemma == "bank"]
    plain = AllWordsWSD(features=[CONTEXT], **options()).fit(train)
    fused = AllWordsWSD(features=[CONTEXT], **options(gloss_fusion=5.0)).fit(train)
    classes = fused.models_["bank#NOUN"].classes
    for inst, before, after in zip(banks, plain.decide(banks, explain=3),
                                   fused.decide(banks, explain=3), strict=True):  # fmt: skip
        cosines = dict(zip(classes, hand_cosines(standin, inst, classes), strict=True))
        terms = dict(after.reasons.terms)
        gap = 5.0 * (cosines[after.sense] - cosines[after.reasons.runner_up])
        assert terms["gloss vectors"] == pytest.approx(gap, abs=0.05)
        if after.sense == before.sense:  # the same two classes: the margin grew by the gap
            assert after.margin == pytest.approx(before.margin + gap, abs=0.05)
        assert "gloss vectors" not in dict(before.reasons.terms)
    # A weight that swamps the classifier answers the class of the highest cosine.
    swamped = AllWordsWSD(features=[CONTEXT], **options(gloss_fusion=1e4)).fit(train)
    for inst, decision in zip(banks, swamped.decide(banks), strict=True):
        cosines = hand_cosines(standin, inst, classes)
        assert decision.sense == classes[int(np.argmax(cosines))]


def test_the_backoff_answers_a_seen_key_without_a_classifier_by_its_glosses(standin):
    from nltk.corpus import wordnet

    # bank seen n times, always in its money sense: no classifier, today its MFS answers.
    train = [inst for inst in two_target_sentences(60) if inst.lemma == "bass"
             or inst.senses[0] == BANK_MONEY][:60]  # fmt: skip
    n = sum(inst.senses[0] == BANK_MONEY for inst in train)
    assert n >= 10
    system = AllWordsWSD(features=[CONTEXT], **options(gloss_backoff=True)).fit(train)
    assert "bank#NOUN" not in system.models_
    test = [inst for inst in two_target_sentences(4, offset=300) if inst.lemma == "bank"]
    unseen = Instance(id="u", tokens=("the", "pitcher", "poured"), span=(1, 2),
                      lemma="pitcher", target_pos="NOUN")
    decisions = system.decide([*test, unseen], explain=3)
    keys = [lemma.key() for synset in wordnet.synsets("bank", "n") for lemma in synset.lemmas()
            if lemma.name().lower() == "bank"]  # fmt: skip
    for inst, decision in zip(test, decisions[:-1], strict=True):
        assert decision.source == "gloss"
        # By hand: log p(s) = log((count + 1) / (n + senses)), the training counts alone.
        prior = {k: math.log(((k == BANK_MONEY) * n + 1) / (n + len(keys))) for k in keys}
        cosines = dict(zip(keys, hand_cosines(standin, inst, keys), strict=True))
        terms = dict(decision.reasons.terms)
        runner_up = decision.reasons.runner_up
        assert terms.get("sense prior (training counts)", 0.0) == pytest.approx(
            prior[decision.sense] - prior[runner_up])
        (vectors,) = [v for name, v in terms.items() if name.startswith("gloss vectors")]
        assert vectors == pytest.approx(10 * (cosines[decision.sense] - cosines[runner_up]),
                                        abs=0.05)
    assert decisions[-1].source == "first-sense"  # a key never seen keeps WordNet's first sense
    system.gloss_backoff = False
    assert {d.source for d in system.decide(test)} == {"mfs"}


def test_the_block_and_the_glosses_share_one_pass(standin, monkeypatch):
    """The block's vectors, the gloss target vectors and the sentence vectors come from one
    pass of each sentence, with the vector cache (XML input) and without it (raw text); the
    decisions are those of separate passes (each sentence had been encoded three times)."""
    from wsd.systems.allwords import predict

    train, test = two_target_sentences(30), two_target_sentences(4, offset=300)
    settings = options(gloss_fusion=5.0, gloss_backoff=True)
    fit = [AllWordsWSD(features=[CONTEXT], **settings).fit(train) for _ in range(3)]
    with monkeypatch.context() as patch:
        patch.setattr(predict, "_one_pass", lambda *args: None)
        rows = standin.rows
        apart = fit[0].decide(test, explain=3, cache_vectors=False)
        assert standin.rows - rows > 8  # the glosses (now in their file), block 4, gloss 4
    decided = []
    for system, cache_vectors in ((fit[1], False), (fit[2], True)):
        rows = standin.rows
        decided.append(system.decide(test, explain=3, cache_vectors=cache_vectors))
        assert standin.rows - rows == 4  # four sentences, once each
    for one in decided:
        assert [d.sense for d in one] == [d.sense for d in apart]
        assert [d.margin for d in one] == pytest.approx([d.margin for d in apart], abs=1e-5)
        assert [dict(d.reasons.terms) for d in one] == [
            pytest.approx(dict(d.reasons.terms), abs=1e-5) for d in apart]


def test_the_options_round_trip_and_older_files_load_with_them_off(standin, tmp_path):
    train, test = two_target_sentences(20), two_target_sentences(4, offset=300)
    system = AllWordsWSD(features=[CONTEXT], **options(gloss_fusion=5.0, gloss_backoff=True))
    system.fit(train)
    path = system.save(tmp_path / "m.npz")
    loaded = AllWordsWSD.load(path)
    assert (loaded.gloss_fusion, loaded.gloss_backoff) == (5.0, True)
    with np.load(path) as archive:  # an older wsd, which reads up to version 2, refuses it
        assert json.loads(archive["metadata"].tobytes())["version"] == 3
    assert loaded.decide(test, explain=3) == system.decide(test, explain=3)
    older = system.to_dict()
    for name in ("gloss_fusion", "gloss_backoff"):
        del older["params"][name]
    again = AllWordsWSD.from_dict(older)
    assert (again.gloss_fusion, again.gloss_backoff) == (0.0, False)
    assert AllWordsWSD().gloss_fusion == 200.0 and AllWordsWSD().gloss_backoff is True
    for bad in ({"gloss_fusion": -1.0}, {"gloss_backoff": "yes"}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            AllWordsWSD(features=[CONTEXT], **options(**bad)).fit(train)


def test_a_fused_model_scores_at_the_fusion_temperature_unless_one_is_given(standin, tmp_path):
    from scipy.special import logit

    from wsd.systems.allwords.system import (
        DEFAULT_CONTEXT_TEMPERATURE,
        DEFAULT_FUSION_TEMPERATURE,
        DEFAULT_TEMPERATURE,
    )

    train, test = two_target_sentences(30), two_target_sentences(6, offset=300)
    fused = AllWordsWSD(features=[CONTEXT], **options(gloss_fusion=5.0)).fit(train)
    plain = AllWordsWSD(features=[CONTEXT], **options()).fit(train)
    given = AllWordsWSD(features=[CONTEXT], **options(gloss_fusion=5.0, temperature=3.0))
    sparse = AllWordsWSD(features=[{"name": "bow", "params": {}}], **options(gloss_fusion=5.0))
    assert (fused.score_temperature, plain.score_temperature) == (
        DEFAULT_FUSION_TEMPERATURE, DEFAULT_CONTEXT_TEMPERATURE)
    assert sparse.fit(train).score_temperature == DEFAULT_TEMPERATURE  # no block: no fusion
    assert given.fit(train).score_temperature == 3.0  # an explicit temperature wins
    assert len({DEFAULT_FUSION_TEMPERATURE, DEFAULT_CONTEXT_TEMPERATURE, DEFAULT_TEMPERATURE}) == 3
    # The temperature changes no answer; on a two-class key, margin = T · logit(score).
    for system in (fused, plain):
        answers, checked = {}, 0
        for temperature in (DEFAULT_TEMPERATURE, None):
            system.temperature = temperature
            answers[temperature] = system.decide(test)
            for inst, d in zip(test, answers[temperature], strict=True):
                if d.source == "classifier" and len(system.models_[inst.key].classes) == 2:
                    assert d.margin == pytest.approx(system.score_temperature * logit(d.score))
                    checked += 1
        assert checked >= 4
        assert [(d.sense, d.source, d.margin) for d in answers[None]] == [
            (d.sense, d.source, d.margin) for d in answers[DEFAULT_TEMPERATURE]]
        assert sum(d.source == "classifier" for d in answers[None]) >= 3
        assert all(b.score < a.score for a, b in zip(answers[DEFAULT_TEMPERATURE], answers[None],
                                                     strict=True) if a.source == "classifier")
    # A file stores the temperature it scored with, and keeps it when the default moves.
    path = fused.save(tmp_path / "m.npz")
    assert AllWordsWSD.load(path).temperature == DEFAULT_FUSION_TEMPERATURE
    plain.temperature = None
    assert AllWordsWSD.load(plain.save(tmp_path / "p.npz")).temperature == (
        DEFAULT_CONTEXT_TEMPERATURE)
    older = {**fused.to_dict()}
    older["params"] = {**older["params"], "temperature": DEFAULT_TEMPERATURE}
    assert AllWordsWSD.from_dict(older).score_temperature == DEFAULT_TEMPERATURE
