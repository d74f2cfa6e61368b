"""Proper names in raw text (``wsd.text.names``): the corpus's name counts and the naive Bayes
kind worked by hand, the pipeline joining a run of proper nouns into one name only with those
counts, and a model carrying them through its file to a person.n.01 answer."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.instance import Instance
from wsd.resources import has_nltk_resource
from wsd.text.names import TOTALS

pytestmark = [
    pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent"),
    pytest.mark.skipif(not has_nltk_resource("averaged_perceptron_tagger_eng"),
                       reason="NLTK averaged_perceptron_tagger_eng data absent"),
]

# person 2, group 1, location 1 names; the two first carry a feature each
COUNTS = {TOTALS: (2, 1, 1), "w=company": (0, 3, 0), "b=in": (0, 0, 3)}


def _instance(n, tokens, i, lemma, sense):
    return Instance(id=f"d.s{n}.t{i}", tokens=tokens, span=(i, i + 1), lemma=lemma,
                    senses=(sense,), target_pos="NOUN",
                    meta=(("document", "d"), ("sentence", f"d.s{n}")))  # fmt: skip


PERSON, GROUP, LOCATION = "person%1:03:00::", "group%1:03:00::", "location%1:03:00::"
CORPUS = [
    _instance(0, ("Judge", "Durwood_Pye", "spoke"), 1, "person", PERSON),
    _instance(1, ("Mr.", "Pye", "left"), 1, "person", PERSON),
    _instance(2, ("the", "Bay_Company", "sold"), 1, "group", GROUP),
    _instance(3, ("in", "Vadstena"), 1, "location", LOCATION),
    _instance(4, ("a", "person", "came"), 1, "person", PERSON),  # no name: the word itself
    _instance(5, ("Person", "to", "person"), 0, "person", PERSON),  # nor capitalised
]


def test_name_counts_by_hand():
    from wsd.text.names import count_names, name_kind

    assert [name_kind(inst) for inst in CORPUS] == ["person", "person", "group", "location",
                                                    None, None]  # fmt: skip
    every = count_names(CORPUS, min_count=1)
    assert every[TOTALS] == (2, 1, 1)
    assert every["w=pye"] == (2, 0, 0)  # Durwood_Pye's words are words of their own
    assert every["w=durwood"] == every["b=judge"] == every["a=spoke"] == (1, 0, 0)
    assert every["w=company"] == every["b=the"] == (0, 1, 0)
    assert every["b=in"] == every["a=</s>"] == (0, 0, 1)  # after the sentence's last word
    assert "w=person" not in every and "b=a" not in every
    assert count_names(CORPUS) == {TOTALS: (2, 1, 1), "w=pye": (2, 0, 0)}  # seen twice
    assert count_names(CORPUS[4:]) == {}


def test_name_kind_is_naive_bayes_with_add_one_by_hand():
    from wsd.text.names import NameKinds

    kinds = NameKinds(COUNTS)
    # features seen per kind: person 0, group 3, location 3; V = 2 features. Priors (n + 1):
    # person 3, group 2, location 2. Acme Company: only w=company is known:
    # person 3 * 1/2 = 1.5, group 2 * 4/5 = 1.6, location 2 * 1/5 = 0.4
    assert kinds.kind(["Acme", "Company"], "the", "sold") == "group"
    # in Vadstena: person 3 * 1/2 = 1.5, group 2 * 1/5, location 2 * 4/5 = 1.6
    assert kinds.kind(["Vadstena"], "In", ".") == "location"  # features in lowercase
    assert kinds.kind(["Pye"], "Mr.", "left") == "person"  # nothing known: the prior
    assert math.isclose(math.exp(kinds.log_prior[0] + kinds.log_unit[0]), 3 / 2)
    rare = NameKinds({TOTALS: (1, 3, 0)})  # every name too rare for a feature: the prior
    assert rare.kind(["Acme", "Company"], "the", "sold") == "group"


def _words(text, conventions):
    from wsd.text import analyze

    return [(w.text, w.lemma, w.pos) for s in analyze(text, conventions) for w in s.words]


def test_the_pipeline_joins_a_run_of_proper_nouns_holding_an_unknown_name():
    from wsd.text.conventions import WORDNET, CorpusConventions

    corpus = CorpusConventions({}, names=COUNTS)
    text = "Judge Durwood Pye met the mayor of New York in Vadstena."
    words = _words(text, corpus)
    assert words[0] == ("Judge Durwood Pye", "person", "NOUN")  # the title with the name
    assert ("New York", "new_york", "NOUN") in words  # WordNet knows every word of it
    assert words[-2] == ("Vadstena", "location", "NOUN")
    assert _words("Acme Company sold it.", corpus)[0] == ("Acme Company", "group", "NOUN")
    assert _words("T and * met.", corpus)[0] == ("T", "t", None)  # no name of two letters
    apart = _words(text, WORDNET)  # no corpus, no names' counts: the words stay apart
    assert apart[:3] == [("Judge", "judge", "NOUN"), ("Durwood", "durwood", None),
                         ("Pye", "pye", None)]  # fmt: skip
    assert CorpusConventions({}).name_kind(["Pye"], "<s>", "</s>") is None


def test_a_model_carries_its_names_through_its_file_to_a_person_answer(tmp_path):
    from wsd.allwords import AllWordsWSD
    from wsd.allwords.modelfile import ModelFileError, _check_conventions
    from wsd.allwords.text import tag_text

    bank = [_instance(10 + n, ("the", "bank", "lent", "money"), 1, "bank",
                      "bank%1:14:00::") for n in range(3)]  # fmt: skip
    system = AllWordsWSD(n_models=1, epochs=1, pos_tags="corpus", gloss_weight=0).fit(
        CORPUS + CORPUS[:2] + bank)  # fmt: skip
    assert system.conventions_["names"] == {TOTALS: (4, 1, 1), "w=pye": (4, 0, 0),
                                            "w=durwood": (2, 0, 0), "b=judge": (2, 0, 0),
                                            "a=spoke": (2, 0, 0), "b=mr.": (2, 0, 0),
                                            "a=left": (2, 0, 0)}  # fmt: skip
    loaded = AllWordsWSD.load(system.save(tmp_path / "m.npz"))
    assert loaded.conventions_ == system.conventions_
    _, words = tag_text(loaded, "Then Durwood Pye spoke to the bank.")
    name = next(w for w in words if w.token == "Durwood Pye")
    assert (name.lemma, name.pos, name.synset_name) == ("person", "NOUN", "person.n.01")
    assert name.synset.name() == "person.n.01"
    _, asked = tag_text(loaded, "Durwood Pye met a person.", target="person")
    assert [w.token for w in asked] == ["person"]  # a name is not the word person
    _, asked = tag_text(loaded, "Durwood Pye met a person.", target="Pye")
    assert [(w.token, w.lemma) for w in asked] == [("Durwood Pye", "person")]

    def bad(problem):
        return ModelFileError(problem)

    _check_conventions({"names": {TOTALS: [1, 0, 0], "w=pye": [1, 0, 0]}}, bad)
    for found in ({"names": {"w=pye": [1, 0, 0]}}, {"names": {TOTALS: [1, 0]}}):
        with pytest.raises(ModelFileError):
            _check_conventions(found, bad)


_PIECES = st.sampled_from(["Durwood", "Pye", "Mr.", "B.", "met", "the", "Judge", "New", "York",
                           "in", "Vadstena", "O'Brien", "Zoë", ".", ",", "T", "*", "'s", "-",
                           "\n", "Acme", "Company", "and"])  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=16))
def test_names_keep_offsets_order_and_the_words_span(pieces):
    """Whatever the text, joining names leaves words in order, apart, at their offsets, and
    covering the same text as the words read without names' counts."""
    from wsd.text import analyze
    from wsd.text.conventions import WORDNET, CorpusConventions
    from wsd.text.names import NAME_KINDS

    text = " ".join(pieces)
    with_names = analyze(text, CorpusConventions({}, names=COUNTS))
    apart = analyze(text, WORDNET)
    assert [(s.start, s.end) for s in with_names] == [(s.start, s.end) for s in apart]
    for sentence, plain in zip(with_names, apart, strict=True):
        ends = [sentence.start]
        for word in sentence.words:
            assert text[word.start : word.end] == word.text
            assert ends[-1] <= word.start < word.end
            ends.append(word.end)
            if word.name:
                assert word.lemma in NAME_KINDS and word.pos == "NOUN"
        starts = {w.start for w in plain.words}
        assert {w.start for w in sentence.words} <= starts  # a name starts where a word did
        if plain.words:  # the last word ends where it did
            assert sentence.words[-1].end == plain.words[-1].end
