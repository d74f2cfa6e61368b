"""A sentence's bag counted once: each target's bag equals counting the rest afresh, in order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd import Instance
from wsd.features.bow import BagOfWords
from wsd.features.sentencebag import SENTENCES_KEPT, SentenceBag, SentenceBags, float_counts
from wsd.features.supersense import Supersenses, supersense
from wsd.resources import has_nltk_resource

keys = st.lists(st.sampled_from(["", "a", "b", "c", "d"]), min_size=1, max_size=12)


@st.composite
def keys_and_span(draw):
    found = draw(keys)
    start = draw(st.integers(0, len(found) - 1))
    end = draw(st.integers(start + 1, len(found)))
    return found, start, end


@given(keys_and_span())
def test_without_a_span_is_counting_the_rest_afresh(case):
    found, start, end = case
    fresh = float_counts(found[:start] + found[end:])
    without = SentenceBag(found).without(start, end)
    assert list(without.items()) == list(fresh.items())  # the same counts, the same order


def test_hand_worked_bags():
    bag = SentenceBag(["a", "", "b", "a", "c"])
    assert bag.without(3, 4) == {"a": 1.0, "b": 1.0, "c": 1.0}
    assert bag.without(1, 2) == {"a": 2.0, "b": 1.0, "c": 1.0}
    assert list(bag.without(4, 5)) == ["a", "b"]
    assert list(bag.without(0, 1)) == ["b", "a", "c"]  # "a" now after "b", as in the rest
    assert bag.counts == {"a": 2.0, "b": 1.0, "c": 1.0}  # unchanged by the calls


def test_the_store_is_bounded():
    bags = SentenceBags()
    for n in range(SENTENCES_KEPT + 10):
        bags.add(("w", n), SentenceBag(["x"]))
    assert bags.get(("w", 0)) is None and bags.get(("w", SENTENCES_KEPT + 9)) is not None
    assert len(bags._bags) == SENTENCES_KEPT


words = st.lists(st.sampled_from(["bank", "Bank", "the", "river", ".", "money", "banks", "of"]),
                 min_size=1, max_size=15).map(tuple)


@settings(max_examples=200)
@given(words, st.data())
def test_bag_of_words_counts_as_the_window_does(tokens, data):
    """The whole-sentence bag from the sentence's counts is the bag of the tokens around the
    target counted directly (a window wide enough to take the whole sentence)."""
    start = data.draw(st.integers(0, len(tokens) - 1))
    end = data.draw(st.integers(start + 1, len(tokens)))
    sentence, wide = BagOfWords(), BagOfWords(window=len(tokens))
    for _ in range(2):  # the second time from the kept bag
        found = sentence.counts(tokens, (start, end))
        assert list(found.items()) == list(wide.counts(tokens, (start, end)).items())


def _supersenses_by_definition(inst, reach):
    """The nearest noun's supersense on each side within ``reach``, then every other noun's
    and verb's, in order (the definition of ``Supersenses``, position by position)."""
    letters = {"NN": "n", "NNS": "n", "VB": "v", "VBD": "v"}
    start, end = inst.span
    found = {}
    for name, positions in (("ss_left", range(start - 1, max(-1, start - 1 - reach), -1)),
                            ("ss_right", range(end, min(len(inst.tokens), end + reach)))):
        for i in positions:
            if letters.get(inst.pos[i]) == "n":
                if supersense(inst.tokens[i], "n"):
                    found[f"{name}={supersense(inst.tokens[i], 'n')}"] = 1.0
                break
    for i, (word, tag) in enumerate(zip(inst.tokens, inst.pos, strict=True)):
        letter = letters.get(tag)
        if letter and not start <= i < end and supersense(word, letter):
            found.setdefault(f"ss_bag={supersense(word, letter)}", 1.0)
    return found


tagged = st.lists(st.sampled_from([("bass", "NN"), ("lemon", "NN"), ("chef", "NN"),
                                   ("grilled", "VBD"), ("the", "DT"), ("ran", "VBD"),
                                   ("guests", "NNS"), ("xqzt", "NN"), ("with", "IN")]),
                  min_size=1, max_size=12)


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="needs NLTK wordnet data")
@settings(max_examples=150, deadline=None)
@given(tagged, st.data())
def test_supersenses_from_the_sentence_bag_are_those_of_the_definition(words, data):
    start = data.draw(st.integers(0, len(words) - 1))
    end = data.draw(st.integers(start + 1, len(words)))
    tokens, tags = zip(*words, strict=True)
    inst = Instance(id="x", tokens=tokens, span=(start, end), lemma="x", pos=tags)
    for reach in (2, 5):
        for _ in range(2):  # the second time from the kept sentence
            found = Supersenses(reach=reach)(inst)
            assert list(found.items()) == list(_supersenses_by_definition(inst, reach).items())
