"""`wsd senses WORD`: the bundled inventory for its targets, WordNet for other words."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import wsd.experiments.senses as senses_module
from wsd.cli import main
from wsd.experiments.senses import format_senses, word_senses
from wsd.knowledge.bundled_senses import bundled_data_dir
from wsd.resources import has_nltk_resource

needs_wordnet = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                   reason="NLTK wordnet is not installed")


def test_bundled_word_lists_the_inventory_file_in_order(capsys):
    listed = json.loads((bundled_data_dir() / "bass.senses.json").read_text())["senses"]
    assert main(["senses", "bass"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("bass: 3 senses (bundled inventory)")
    positions = [out.index(f". {s['id']}") for s in listed]
    assert positions == sorted(positions)
    assert all(s["gloss"].split()[0] in out for s in listed)


@needs_wordnet
def test_other_words_come_from_wordnet_with_pos_filter():
    from nltk.corpus import wordnet

    source, senses = word_senses("line", pos="VERB")
    assert source == "wordnet"
    expected = [lem.key() for ss in wordnet.synsets("line", "v") for lem in ss.lemmas()
                if lem.name().lower() == "line"]
    assert [s.id for s in senses] == expected
    text = format_senses("line", source, senses)
    assert f"{len(expected)} senses (WordNet 3.0)" in text
    assert senses[0].gloss in " ".join(text.split())


@needs_wordnet
def test_a_lemma_pos_key_names_the_part_of_speech(capsys):
    """*bank#v*, as the all-words models name their classifiers, had been an unknown word."""
    assert [s.id for s in word_senses("line#v")[1]] == [s.id for s in word_senses(
        "line", pos="VERB")[1]]
    assert word_senses("run # VERB", pos="v") == word_senses("run", pos="VERB")
    assert word_senses("bank#n")[0] == "bundled"  # the bundled target, as for bank --pos n
    assert main(["senses", "bank#n", "--pos", "v"]) == 2
    assert "'bank#n' names the part of speech n, and --pos v another" in capsys.readouterr().err
    assert main(["senses", "bank#x"]) == 2
    err = capsys.readouterr().err
    assert "'bank#x': 'x' is not a part of speech; write the key as bank#n" in err
    assert "None" not in err  # the Python API's word for every POS means nothing on the CLI


@given(st.text(st.characters(blacklist_characters="#", blacklist_categories=("Cs",)),
               min_size=1).filter(lambda w: w.strip() == w),
       st.sampled_from(["n", "v", "a", "r", "NOUN", "VERB", "ADJ", "ADV"]))
def test_a_key_splits_into_its_word_and_part_of_speech(word, pos):
    assert senses_module._key_pos(f"{word}#{pos}", None) == (word, pos)
    assert senses_module._key_pos(word, pos) == (word, pos)  # no key: as given


@needs_wordnet
def test_an_inflected_or_possessive_word_lists_the_senses_of_its_base_forms_too():
    """*banks* had listed only Banks, the botanist; *saw* only the noun and the verb saw; a
    possessive or a non-breaking hyphen had found nothing."""
    from nltk.corpus import wordnet

    source, senses = word_senses("Banks")
    assert source == "wordnet"
    assert [s.synset for s in senses] == [ss.name() for ss in wordnet.synsets("banks")]
    assert {s.id.split("%")[0] for s in senses} == {"banks", "bank"}
    assert format_senses("Banks", source, senses).startswith(
        "Banks: 19 senses (WordNet 3.0): 1 of banks, 18 of bank")
    saw = {s.id.split("%")[0] for s in word_senses("saw", pos="v")[1]}
    assert saw == {"saw", "see"}
    assert word_senses("interest's")[1] == word_senses("interest")[1]
    assert [s.synset for s in word_senses("state\u2011of\u2011the\u2011art")[1]] == [
        "state-of-the-art.s.01"]
    assert word_senses("bank\u2019s") == word_senses("bank")  # the bundled inventory
    # an expression inflects its first or last word: WordNet has no *looked up* as it is
    assert [s.id for s in word_senses("Looked  up")[1]] == ["look_up%2:32:00::"]
    assert word_senses("ice creams", pos="n")[1] == word_senses("ice cream")[1]
    with pytest.raises(ValueError, match="WordNet has no noun 'looked up'"):
        word_senses("looked up", pos="n")
    bundled = word_senses("bank")[1]  # bundled ids are no sense keys: no count per word
    assert format_senses("bank", "bundled", bundled).splitlines()[0] == (
        f"bank: {len(bundled)} senses (bundled inventory)")


@needs_wordnet
def test_bundled_word_in_another_pos_falls_back_to_wordnet():
    source, senses = word_senses("crane", pos="v")
    assert source == "wordnet" and all(".v." in s.synset for s in senses)


@needs_wordnet
def test_unknown_word_is_one_clear_error(capsys):
    assert main(["senses", "xyzzyq"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "wsd senses: error: WordNet has no 'xyzzyq'; check the spelling"


def test_bundled_inventory_refuses_other_words(capsys):
    assert main(["senses", "serve", "--inventory", "bundled"]) == 2
    assert "bundled targets: bank, bass, crane, line, plant" in capsys.readouterr().err


def test_missing_wordnet_gives_the_downloader_hint(monkeypatch, capsys):
    monkeypatch.setattr(senses_module, "has_nltk_resource", lambda name: False)
    assert main(["senses", "serve"]) == 2
    err = capsys.readouterr().err
    assert "python -m nltk.downloader wordnet" in err and "not a bundled target" in err
    assert main(["senses", "plant"]) == 0  # bundled words need no WordNet
    assert "plant.spy" in capsys.readouterr().out
    assert main(["senses", "Banks"]) == 2  # an inflection of a bundled target: named
    assert "(for the bundled bank: wsd senses bank)" in capsys.readouterr().err
