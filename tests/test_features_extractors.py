"""Hand-worked examples for every extractor, window edges and multiword targets."""

import json
from dataclasses import replace

import pytest

from wsd import Instance
from wsd.features import (
    IMS_COLLOCATIONS,
    BagOfWords,
    Collocations,
    PositionalWords,
    PosTags,
    Supersenses,
    TargetWord,
    extractor_from_dict,
    extractor_names,
    extractor_to_dict,
)
from wsd.resources import MissingResourceError, has_nltk_resource

#            0      1      2         3      4      5       6         7         8
TOKENS = ("The", "man", "played", "the", "old", "bass", "guitar", "loudly", ".")
TAGS = ("DT", "NN", "VBD", "DT", "JJ", "NN", "NN", "RB", ".")
BASS = Instance("bass.1", TOKENS, (5, 6), "bass", pos=TAGS)
# Target first and last in its sentence, and a two-token target.
FIRST = Instance("first", ("Bass", "is", "low", "."), (0, 1), "bass", pos=("NN", "VBZ", "JJ", "."))
LAST = Instance(
    "last", ("I", "like", "the", "bass"), (3, 4), "bass", pos=("PRP", "VBP", "DT", "NN")
)
ICE_CREAM = Instance(
    "ice",
    ("I", "want", "ice", "cream", "now", "please"),
    (2, 4),
    "ice_cream",
    pos=("PRP", "VBP", "NN", "NN", "RB", "UH"),
)


def test_bag_of_words_whole_sentence_drops_target_stopwords_and_punctuation():
    # The/the are stopwords, "." is punctuation, "bass" is the target.
    assert BagOfWords()(BASS) == {
        "bow=man": 1.0,
        "bow=played": 1.0,
        "bow=old": 1.0,
        "bow=guitar": 1.0,
        "bow=loudly": 1.0,
    }


def test_bag_of_words_window_counts_and_options():
    # window 2: tokens 3..4 on the left, 6..7 on the right.
    assert BagOfWords(window=2)(BASS) == {"bow=old": 1.0, "bow=guitar": 1.0, "bow=loudly": 1.0}
    # Keeping stopwords counts "The" and "the" together once lowercased.
    kept = BagOfWords(stopwords=False, drop_punctuation=False)(BASS)
    assert kept["bow=the"] == 2.0 and kept["bow=."] == 1.0 and "bow=bass" not in kept
    cased = BagOfWords(stopwords=False, lowercase=False)(BASS)
    assert cased["bow=The"] == 1.0 and cased["bow=the"] == 1.0


def test_bag_of_words_window_at_sentence_edges():
    assert BagOfWords(window=2)(FIRST) == {"bow=low": 1.0}  # "is" is a stopword
    assert BagOfWords(window=5, stopwords=False)(LAST) == {
        "bow=i": 1.0,
        "bow=like": 1.0,
        "bow=the": 1.0,
    }


def test_bag_of_words_multiword_target_excludes_the_whole_span():
    assert BagOfWords(window=1, stopwords=False)(ICE_CREAM) == {"bow=want": 1.0, "bow=now": 1.0}


def test_bag_of_words_rejects_bad_options():
    with pytest.raises(ValueError, match="window"):
        BagOfWords(window=0)
    with pytest.raises(ValueError, match="stopwords"):
        BagOfWords(stopwords="french")


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="needs NLTK wordnet data")
def test_bag_of_words_lemmatizes_with_morphy():
    inst = Instance.from_text("the players played <<bass>> with geese")
    assert BagOfWords(lemmatize=True)(inst) == {
        "bow=player": 1.0,
        "bow=play": 1.0,
        "bow=goose": 1.0,
    }


def test_lemmatize_without_wordnet_says_how_to_get_it(monkeypatch):
    monkeypatch.setattr("wsd.resources._nltk_find", lambda name: False)
    monkeypatch.setattr("wsd.knowledge.compiled.active", lambda: None)  # nor a compiled copy
    with pytest.raises(MissingResourceError, match="nltk.downloader wordnet"):
        BagOfWords(lemmatize=True)
    with pytest.raises(MissingResourceError, match="nltk.downloader stopwords"):
        BagOfWords(stopwords="nltk")
    assert BagOfWords()(BASS)  # the built-in stopword list needs no data


@pytest.mark.skipif(not has_nltk_resource("stopwords"), reason="needs NLTK stopwords data")
def test_nltk_stopword_list_option():
    from nltk.corpus import stopwords

    english = set(stopwords.words("english"))
    inst = Instance.from_text("the man played <<bass>> and sang loudly")
    expected = {f"bow={w}": 1.0 for w in ("man", "played", "and", "sang", "loudly")}
    assert BagOfWords(stopwords="nltk")(inst) == {
        f: v for f, v in expected.items() if f[4:] not in english
    }
    assert "bow=man" in BagOfWords(stopwords="nltk")(inst)


def test_positional_words_and_padding():
    assert PositionalWords(window=2)(BASS) == {
        "w-2=the": 1.0,
        "w-1=old": 1.0,
        "w+1=guitar": 1.0,
        "w+2=loudly": 1.0,
    }
    assert PositionalWords(window=2)(FIRST) == {
        "w-2=<s>": 1.0,
        "w-1=<s>": 1.0,
        "w+1=is": 1.0,
        "w+2=low": 1.0,
    }
    assert PositionalWords(window=1, lowercase=False)(LAST) == {"w-1=the": 1.0, "w+1=</s>": 1.0}
    assert PositionalWords(window=1)(ICE_CREAM) == {"w-1=want": 1.0, "w+1=now": 1.0}


def test_pos_tags_of_neighbours():
    assert PosTags(window=3)(BASS) == {
        "pos-3=VBD": 1.0,
        "pos-2=DT": 1.0,
        "pos-1=JJ": 1.0,
        "pos+1=NN": 1.0,
        "pos+2=RB": 1.0,
        "pos+3=.": 1.0,
    }
    assert PosTags(window=2)(LAST) == {
        "pos-2=VBP": 1.0,
        "pos-1=DT": 1.0,
        "pos+1=</s>": 1.0,
        "pos+2=</s>": 1.0,
    }
    assert PosTags(window=1)(ICE_CREAM) == {"pos-1=VBP": 1.0, "pos+1=RB": 1.0}
    untagged = Instance("u", ("a", "b"), (0, 1), "a")
    assert PosTags()(untagged) == {}


def test_ims_collocations_hand_worked():
    # offsets: -3 played, -2 the, -1 old, [bass], +1 guitar, +2 loudly, +3 "."
    assert Collocations()(BASS) == {
        "coll(-2,-2)=the": 1.0,
        "coll(-1,-1)=old": 1.0,
        "coll(1,1)=guitar": 1.0,
        "coll(2,2)=loudly": 1.0,
        "coll(-2,-1)=the_old": 1.0,
        "coll(-1,1)=old_guitar": 1.0,
        "coll(1,2)=guitar_loudly": 1.0,
        "coll(-3,-1)=played_the_old": 1.0,
        "coll(-2,1)=the_old_guitar": 1.0,
        "coll(-1,2)=old_guitar_loudly": 1.0,
        "coll(1,3)=guitar_loudly_.": 1.0,
    }
    assert len(IMS_COLLOCATIONS) == 11


def test_collocations_at_sentence_edges_and_multiword():
    first = Collocations()(FIRST)
    assert first["coll(-3,-1)=<s>_<s>_<s>"] == 1.0
    assert first["coll(-1,1)=<s>_is"] == 1.0
    assert first["coll(1,3)=is_low_."] == 1.0
    last = Collocations()(LAST)
    assert last["coll(1,3)=</s>_</s>_</s>"] == 1.0
    assert last["coll(-2,1)=like_the_</s>"] == 1.0
    ice = Collocations(spans=[(-1, 1), (-2, 2)])(ICE_CREAM)
    assert ice == {"coll(-1,1)=want_now": 1.0, "coll(-2,2)=i_want_now_please": 1.0}
    far = Collocations(spans=[(-6, -5), (4, 5), (-1, 3)])(BASS)  # -5 is "The", -6 before it
    assert far == {
        "coll(-6,-5)=<s>_the": 1.0,
        "coll(4,5)=</s>_</s>": 1.0,
        "coll(-1,3)=old_guitar_loudly_.": 1.0,
    }
    with pytest.raises(ValueError, match="non-target"):
        Collocations(spans=[(0, 0)])


def test_target_form_and_pos():
    assert TargetWord()(BASS) == {"target=bass": 1.0, "target_pos=NN": 1.0}
    assert TargetWord()(FIRST) == {"target=bass": 1.0, "target_pos=NN": 1.0}
    assert TargetWord(lowercase=False, pos=False)(FIRST) == {"target=Bass": 1.0}
    assert TargetWord()(ICE_CREAM) == {"target=ice_cream": 1.0, "target_pos=NN_NN": 1.0}
    assert TargetWord()(Instance("u", ("basses",), (0, 1), "bass")) == {"target=basses": 1.0}
    assert TargetWord().uses_pos and not TargetWord(pos=False).uses_pos


@pytest.mark.parametrize(
    "extractor",
    [
        BagOfWords(window=3, stopwords=False, lemmatize=False),
        PositionalWords(window=1),
        PosTags(window=2),
        Collocations(spans=[(-1, 1)]),
        TargetWord(form=False),
    ],
)
def test_extractors_rebuild_from_json_config(extractor):
    config = json.loads(json.dumps(extractor_to_dict(extractor)))
    rebuilt = extractor_from_dict(config)
    assert rebuilt == extractor
    for inst in (BASS, FIRST, LAST, ICE_CREAM):
        assert rebuilt(inst) == extractor(inst)


def test_unknown_or_unsaveable_extractors_are_clear_errors():
    assert {"bow", "collocations", "pos", "target", "words"} <= set(extractor_names())
    with pytest.raises(ValueError, match="unknown feature extractor 'ngrams'"):
        extractor_from_dict({"name": "ngrams"})
    with pytest.raises(ValueError, match="cannot be saved"):
        extractor_to_dict(lambda inst: {})


def test_a_saved_featurizer_whose_extractor_is_not_a_config_is_refused():
    """A model file with ``"extractors": [0]`` had loaded and failed at prediction with a
    TypeError (found by the model-file fuzz test)."""
    from wsd.features.featurizer import Featurizer

    record = Featurizer([BagOfWords()]).fit([BASS, FIRST]).to_dict()
    for extractors in ([0], [{"name": "bow"}, "bow"], {"name": "bow"}):
        with pytest.raises(ValueError, match="extractors must be a list of"):
            Featurizer.from_dict({**record, "extractors": extractors})


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="needs NLTK wordnet data")
def test_supersenses_of_the_nearest_nouns_and_of_the_sentence():
    tokens = ("The", "chef", "grilled", "the", "bass", "with", "lemon", "for", "guests")
    tags = ("DT", "NN", "VBD", "DT", "NN", "IN", "NN", "IN", "NNS")
    inst = Instance(id="x", tokens=tokens, span=(4, 5), lemma="bass", pos=tags)
    # chef: noun.person; lemon: noun.food (first senses); grill: verb.change; guests -> guest
    assert Supersenses()(inst) == {
        "ss_left=noun.person": 1.0,
        "ss_right=noun.food": 1.0,
        "ss_bag=noun.person": 1.0,
        "ss_bag=verb.change": 1.0,
        "ss_bag=noun.food": 1.0,
    }
    assert Supersenses(bag=False, reach=1)(inst) == {}  # "the" and "with" are not nouns
    assert Supersenses(bag=False, reach=2)(inst) == {"ss_right=noun.food": 1.0}
    assert Supersenses()(replace(inst, pos=None)) == {}  # no tags, no supersenses
    # the corpus lemmas, when the instance has them, are the words looked up
    lemmas = ("the", "oboe", "grill", "the", "bass", "with", "lemon", "for", "guest")
    with_lemmas = replace(inst, meta=(("lemmas", lemmas),))
    assert Supersenses(bag=False)(with_lemmas)["ss_left=noun.artifact"] == 1.0
    again = extractor_from_dict(extractor_to_dict(Supersenses(reach=3, bag=False)))
    assert again == Supersenses(reach=3, bag=False)
    with pytest.raises(ValueError, match="reach"):
        Supersenses(reach=-1)


def test_supersenses_without_wordnet_say_how_to_get_it(monkeypatch):
    monkeypatch.setattr("wsd.resources._nltk_find", lambda name: False)
    monkeypatch.setattr("wsd.knowledge.compiled.active", lambda: None)  # nor a compiled copy
    with pytest.raises(MissingResourceError, match="nltk.downloader wordnet"):
        Supersenses()
