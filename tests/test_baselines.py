"""Baselines: most frequent sense (ties, fallback), WordNet first sense keys, random sense."""

import pytest

from wsd.instance import Instance
from wsd.knowledge.inventory import Sense
from wsd.resources import has_nltk_resource
from wsd.systems.baselines import MostFrequentSense, RandomSense, WordNetFirstSense

needs_wordnet = pytest.mark.skipif(
    not has_nltk_resource("wordnet"), reason="NLTK WordNet (wordnet) is not installed"
)


def inst(lemma, sense=None, pos="NOUN", id="i"):
    return Instance(
        id=id, tokens=("the", lemma), span=(1, 2), lemma=lemma,
        senses=(sense,) if sense else (), target_pos=pos,
    )


class ListInventory:
    """A fixed inventory: lemma -> sense ids."""

    def __init__(self, table):
        self.table = table

    def senses(self, lemma, pos=None):
        return [Sense(id=s, gloss=s) for s in self.table.get(lemma, [])]

    def related_glosses(self, sense):
        return []


def test_mfs_counts_per_key_and_breaks_ties_by_smallest_sense():
    train = [
        inst("bass", "fish"), inst("bass", "music"), inst("bass", "music"),
        inst("bass", "voice", pos="ADJ"), inst("bass", "low", pos="ADJ"),
        inst("crane", "zbird"), inst("crane", "amachine"),
    ]
    mfs = MostFrequentSense(fallback="none").fit(train)
    test = [inst("bass"), inst("bass", pos="ADJ"), inst("crane")]
    assert mfs.predict(test) == ["music", "low", "amachine"]
    assert mfs.counts_["bass#NOUN"] == {"fish": 1, "music": 2}


def test_mfs_key_is_the_lemma_without_target_pos():
    train = [inst("bass", "fish", pos=None), inst("bass", "music", pos="NOUN")]
    mfs = MostFrequentSense(fallback="none").fit(train)
    assert mfs.predict([inst("bass", pos=None), inst("bass", pos="NOUN")]) == ["fish", "music"]


def test_mfs_fallbacks_for_unseen_keys():
    train = [inst("bass", "fish")]
    unseen = [inst("bass"), inst("plant")]
    assert MostFrequentSense(fallback="none").fit(train).predict(unseen) == ["fish", None]
    by_callable = MostFrequentSense(fallback=lambda i: i.lemma + "!").fit(train)
    assert by_callable.predict(unseen) == ["fish", "plant!"]
    other = WordNetFirstSense(ListInventory({"plant": ["plant.factory", "plant.flora"]}))
    assert MostFrequentSense(fallback=other).fit(train).predict(unseen) == ["fish", "plant.factory"]


@needs_wordnet
def test_mfs_default_fallback_is_wordnet_first_sense_when_pos_is_known():
    mfs = MostFrequentSense().fit([inst("bass", "fish")])
    answers = mfs.predict([inst("bank", pos="NOUN"), inst("bank", pos=None)])
    assert answers == ["bank%1:17:01::", None]


def test_mfs_errors():
    with pytest.raises(ValueError, match="not fitted"):
        MostFrequentSense().predict([inst("bass")])
    with pytest.raises(ValueError, match="fallback"):
        MostFrequentSense(fallback="second_sense").fit([inst("bass", "fish")])


def test_mfs_score_counts_any_gold_sense_as_correct():
    gold = Instance(id="g", tokens=("bass",), span=(0, 1), lemma="bass", senses=("x", "fish"),
                    target_pos="NOUN")
    mfs = MostFrequentSense(fallback="none").fit([inst("bass", "fish")])
    assert mfs.score([gold, inst("plant", "flora")]) == 0.5


@needs_wordnet
@pytest.mark.parametrize(
    "lemma, pos, key",
    [
        ("bank", "NOUN", "bank%1:17:01::"),
        ("refer", "VERB", "refer%2:32:01::"),
        ("good", "ADJ", "good%3:00:01::"),
        ("great", "ADJ", "great%5:00:01:large:00"),  # the first synset is a satellite
        ("quickly", "ADV", "quickly%4:02:00::"),
        ("ice cream", "NOUN", "ice_cream%1:13:00::"),
        ("Bank", "n", "bank%1:17:01::"),
    ],
)
def test_wordnet_first_sense_keys(lemma, pos, key):
    assert WordNetFirstSense().predict([inst(lemma, pos=pos)]) == [key]


@needs_wordnet
def test_wordnet_first_sense_unknown_word_and_pos():
    assert WordNetFirstSense().predict([inst("qwzxv")]) == [None]
    with pytest.raises(ValueError, match="unknown part of speech"):
        WordNetFirstSense().predict([inst("bank", pos="PRON")])


def test_random_sense_is_seeded_and_uses_training_senses_first():
    inventory = ListInventory({"plant": ["p1", "p2", "p3"]})
    train = [inst("bass", s) for s in ("fish", "music", "voice")]
    test = [inst("bass", id=str(n)) for n in range(30)] + [inst("plant"), inst("zzz")]
    first = RandomSense(seed=7, inventory=inventory).fit(train).predict(test)
    again = RandomSense(seed=7, inventory=inventory).fit(train).predict(test)
    other = RandomSense(seed=8, inventory=inventory).fit(train).predict(test)
    assert first == again
    assert first != other
    assert set(first[:30]) == {"fish", "music", "voice"}
    assert first[30] in {"p1", "p2", "p3"} and first[31] is None
