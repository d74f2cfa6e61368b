"""Featurizer: presets, save/load, determinism, POS from the corpus or the tagger."""

import json
import warnings

import pytest

import wsd.features.pos as pos_module
from wsd import Instance
from wsd.features import (
    BagOfWords,
    Collocations,
    Featurizer,
    PositionalWords,
    PosTags,
    TargetWord,
    ensure_pos,
)
from wsd.resources import MissingResourceError, has_nltk_resource

TRAIN = [
    Instance.from_text("He caught a huge <<bass>> in the lake", senses=["fish"], id="t1"),
    Instance.from_text("The <<bass>> line of the song is loud", senses=["music"], id="t2"),
    Instance.from_text("She plays <<bass>> in a jazz band", senses=["music"], id="t3"),
]
TEST = [Instance.from_text("They fried the <<bass>> they caught", id="x1")]
TAGGED = Instance(
    "tagged", ("he", "plays", "bass", "well"), (2, 3), "bass", pos=("PRP", "VBZ", "NN", "RB")
)


def test_ims_preset_is_bow_pos_target_pos_and_collocations():
    featurizer = Featurizer.preset("ims")
    assert [type(e) for e in featurizer.extractors] == [
        BagOfWords,
        PosTags,
        TargetWord,
        Collocations,
    ]
    assert featurizer.extractors[0].window is None and featurizer.extractors[1].window == 3
    assert Featurizer.preset("bow", window=2).extractors == [BagOfWords(window=2)]
    local = Featurizer.preset("local", weighting="tfidf").extractors
    assert [(type(e), getattr(e, "window", None)) for e in local] == [
        (PositionalWords, 3),
        (PosTags, 3),
        (TargetWord, None),
    ]
    with pytest.raises(ValueError, match="unknown feature preset 'xyz'"):
        Featurizer.preset("xyz")


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="needs NLTK wordnet data")
def test_presets_can_lemmatize_their_bag_of_words():
    featurizer = Featurizer.preset("full", lemmatize=True)
    assert featurizer.extractors[0] == BagOfWords(lemmatize=True)
    assert featurizer.fit_transform([TRAIN[0]])[0]["bow=catch"] == 1.0


def test_features_of_all_extractors_are_merged_with_corpus_pos():
    featurizer = Featurizer([BagOfWords(), PosTags(window=1), TargetWord()], weighting="count")
    assert featurizer.fit_transform([TAGGED]) == [
        {
            "bow=plays": 1.0,
            "bow=well": 1.0,
            "pos-1=VBZ": 1.0,
            "pos+1=RB": 1.0,
            "target=bass": 1.0,
            "target_pos=NN": 1.0,
        }
    ]


def test_a_feature_from_two_extractors_adds_up():
    # window 1 sees "plays" and "well"; window 2 sees "he" (a stopword), "plays", "well".
    featurizer = Featurizer([BagOfWords(window=1), BagOfWords(window=2)], weighting="count")
    assert featurizer.fit_transform([TAGGED]) == [{"bow=plays": 2.0, "bow=well": 2.0}]


def test_corpus_pos_is_used_without_calling_the_tagger(monkeypatch):
    def no_tagger(tokens):
        raise AssertionError("the tagger must not run when the corpus has tags")

    monkeypatch.setattr(pos_module, "tag_tokens", no_tagger)
    assert ensure_pos([TAGGED]) == [TAGGED]
    assert Featurizer.preset("ims").fit_transform([TAGGED])[0]["pos-1=VBZ"] == 1.0


@pytest.mark.parametrize("weighting", ["binary", "count", "tfidf", "ppmi"])
def test_saved_featurizer_featurizes_new_text_exactly_as_at_training(weighting):
    featurizer = Featurizer.preset("full", weighting=weighting).fit(TRAIN)
    loaded = Featurizer.from_dict(json.loads(json.dumps(featurizer.to_dict())))
    assert loaded.transform(TEST) == featurizer.transform(TEST)
    assert loaded.transform(TRAIN) == featurizer.transform(TRAIN)
    assert loaded.to_dict() == featurizer.to_dict()


def test_featurizing_is_deterministic():
    first = Featurizer.preset("full", weighting="tfidf").fit_transform(TRAIN + TEST)
    again = Featurizer.preset("full", weighting="tfidf").fit_transform(TRAIN + TEST)
    assert first == again
    assert [list(row) for row in first] == [list(row) for row in again]  # same key order


def test_fitting_reads_the_training_instances_only():
    featurizer = Featurizer.preset("bow", weighting="tfidf").fit(TRAIN)
    state = json.dumps(featurizer.to_dict(), sort_keys=True)
    one = featurizer.transform(TEST)
    both = featurizer.transform(TEST + TRAIN[:1])
    assert both[0] == one[0]
    assert json.dumps(featurizer.to_dict(), sort_keys=True) == state


def test_custom_callables_work_but_cannot_be_saved():
    featurizer = Featurizer([lambda inst: {"len": float(len(inst.tokens))}], weighting="count")
    assert featurizer.fit_transform([TAGGED]) == [{"len": 4.0}]
    with pytest.raises(ValueError, match="cannot be saved"):
        featurizer.to_dict()
    with pytest.raises(ValueError, match="at least one"):
        Featurizer([]).fit([TAGGED])  # checked when used; stored as given (scikit-learn style)


def test_missing_tagger_leaves_pos_features_out_with_one_warning(monkeypatch):
    monkeypatch.setattr("wsd.resources._nltk_find", lambda name: False)
    monkeypatch.setattr(pos_module, "_warned_missing_tagger", False)
    with pytest.warns(UserWarning, match="averaged_perceptron_tagger_eng") as caught:
        featurizer = Featurizer.preset("ims").fit(TRAIN)
    assert len(caught) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning
        rows = featurizer.transform(TEST)
    assert not any(f.startswith(("pos", "target_pos")) for f in rows[0])
    assert "coll(-1,1)=the_they" in rows[0] and "bow=fried" in rows[0]


def test_missing_tagger_when_required_says_how_to_get_it(monkeypatch):
    monkeypatch.setattr("wsd.resources._nltk_find", lambda name: False)
    with pytest.raises(
        MissingResourceError, match="nltk.downloader averaged_perceptron_tagger_eng"
    ):
        ensure_pos(TEST, required=True)
    featurizer = Featurizer([PosTags()], require_pos=True)
    with pytest.raises(MissingResourceError):
        featurizer.fit(TRAIN)
    saved = Featurizer([BagOfWords()], require_pos=True).fit(TRAIN).to_dict()
    assert Featurizer.from_dict(saved).require_pos


def test_extractors_without_pos_never_need_the_tagger(monkeypatch):
    monkeypatch.setattr("wsd.resources._nltk_find", lambda name: False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        featurizer = Featurizer([BagOfWords(), TargetWord(pos=False)], require_pos=True)
        rows = featurizer.fit_transform(TEST)
    assert rows[0]["target=bass"] == 1.0


@pytest.mark.skipif(
    not has_nltk_resource("averaged_perceptron_tagger_eng"),
    reason="needs NLTK averaged_perceptron_tagger_eng data",
)
def test_tagger_fills_in_missing_pos_and_caches_per_sentence():
    pos_module.tag_tokens.cache_clear()
    sentence = "The man played the bass and the bass sounded good"
    instances = [
        Instance.from_text(sentence, target="bass", occurrence=0),
        Instance.from_text(sentence, target="bass", occurrence=1),
        TAGGED,
    ]
    tagged = ensure_pos(instances)
    assert tagged[2] is TAGGED
    assert tagged[0].pos == tagged[1].pos and len(tagged[0].pos) == len(tagged[0].tokens)
    assert tagged[0].pos[:3] == ("DT", "NN", "VBD")
    assert pos_module.tag_tokens.cache_info().hits == 1
    assert instances[0].pos is None  # instances are immutable: new ones are returned


def test_multiword_target_from_marked_text_end_to_end():
    inst = Instance.from_text("I want <<ice cream>> now, please.", lemma="ice_cream")
    features = Featurizer.preset("full", weighting="count").fit_transform([inst])[0]
    assert features["target=ice_cream"] == 1.0
    assert features["w-1=want"] == features["w+1=now"] == features["w+2=,"] == 1.0
    assert features["coll(-1,1)=want_now"] == 1.0
    assert not any(f in features for f in ("bow=ice", "bow=cream"))
