"""Sense inventories: WordNet through NLTK and the bundled files, behind one interface."""

import json

import pytest

import wsd.resources
from wsd.knowledge import BundledInventory, SenseInventory, WordNetInventory, wordnet_pos
from wsd.knowledge.inventory import coarse_pos, readable_gloss
from wsd.resources import MissingResourceError, has_nltk_resource

needs_wordnet = pytest.mark.skipif(
    not has_nltk_resource("wordnet"), reason="NLTK WordNet (wordnet) is not installed"
)


@pytest.fixture(scope="module")
def wordnet_inventory():
    return WordNetInventory()


def test_pos_mapping():
    assert [wordnet_pos(p) for p in ("NOUN", "VERB", "ADJ", "ADV", "s", None)] == [
        "n", "v", "a", "r", "a", None,
    ]
    assert coarse_pos("s") == "ADJ" and coarse_pos("VERB") == "VERB"
    with pytest.raises(ValueError, match="unknown part of speech 'PRON'"):
        wordnet_pos("PRON")


def test_readable_gloss_drops_the_pieces_nltk_leaves_of_quotations():
    # WordNet's gloss: accurate and to the point; "a dead-on feel ..."; "... dead-on
    # dialogue"- Peter S.Prescott. NLTK keeps the quotes as examples and leaves the rest.
    assert readable_gloss("accurate and to the point; ; - Peter S.Prescott") == (
        "accurate and to the point")
    assert readable_gloss("in the habit; ; ; -Henry David Thoreau; ; --Kipling") == "in the habit"
    # an example that lost its opening quote goes; a definition keeps its words
    broken = 'characterized by errors; not agreeing with a model; ; the wrong side of the road"'
    assert readable_gloss(broken) == "characterized by errors; not agreeing with a model"
    assert readable_gloss('a local branch where postal services are available"') == (
        "a local branch where postal services are available")
    # a clean definition is unchanged, balanced quotes and all
    for clean in ("sloping land (especially the slope beside a body of water)",
                  'at or to the front; (`forrad\' is dialectal)', 'a word "quoted" here; and more'):
        assert readable_gloss(clean) == clean


@needs_wordnet
def test_disambiguated_words_show_readable_glosses():
    from nltk.corpus import wordnet

    import wsd

    assert ";" in wordnet.synset("dead-on.s.01").definition()  # NLTK's leftovers
    (word,) = [w for w in wsd.disambiguate("It was a dead-on imitation.", model="lesk")
               if w.token == "dead-on"]  # fmt: skip
    assert word.synset_name == "dead-on.s.01" and word.gloss == "accurate and to the point"


@needs_wordnet
def test_wordnet_senses_are_sense_keys_in_wordnet_order(wordnet_inventory):
    from nltk.corpus import wordnet

    senses = wordnet_inventory.senses("bank", "NOUN")
    assert isinstance(wordnet_inventory, SenseInventory)
    assert [s.id for s in senses[:2]] == ["bank%1:17:01::", "bank%1:14:00::"]
    assert [s.synset for s in senses] == [ss.name() for ss in wordnet.synsets("bank", "n")]
    assert senses[1].gloss == wordnet.synset(senses[1].synset).definition()
    assert senses[1].count == wordnet.lemma_from_key("bank%1:14:00::").count()
    assert all(s.examples == tuple(wordnet.synset(s.synset).examples()) for s in senses)
    every_pos = wordnet_inventory.senses("bank")
    assert len(every_pos) == len(senses) + len(wordnet_inventory.senses("bank", "v"))


@needs_wordnet
def test_wordnet_adjectives_include_satellites_and_multiwords(wordnet_inventory):
    keys = [s.id for s in wordnet_inventory.senses("great", "ADJ")]
    assert keys[0] == "great%5:00:01:large:00"
    good = [s.id for s in wordnet_inventory.senses("good", "ADJ")]
    assert good[0] == "good%3:00:01::" and any(k.startswith("good%5:") for k in good)
    assert wordnet_inventory.senses("ice cream", "NOUN")[0].id == "ice_cream%1:13:00::"
    assert wordnet_inventory.senses("ice_cream", "NOUN")[0].id == "ice_cream%1:13:00::"
    assert wordnet_inventory.senses("qwzxv", "NOUN") == []


@needs_wordnet
def test_exact_lemma_versus_every_morphy_synset(wordnet_inventory):
    exact = [s.id for s in wordnet_inventory.senses("saw", "VERB")]
    assert all(k.startswith("saw%") for k in exact)
    loose = [s.id for s in WordNetInventory(exact_lemma=False).senses("saw", "VERB")]
    assert loose[: len(exact)] == exact and any(k.startswith("see%") for k in loose)
    # an inflected form falls back to its base forms
    assert wordnet_inventory.senses("geese", "NOUN")[0].id == "goose%1:05:00::"


@needs_wordnet
def test_related_glosses_follow_the_chosen_relations(wordnet_inventory):
    from nltk.corpus import wordnet

    river_bank = wordnet_inventory.senses("bank", "NOUN")[0]
    related = wordnet_inventory.related_glosses(river_bank)
    assert wordnet.synset("slope.n.01").definition() in related  # hypernym
    assert "he climbed the steep slope" in related  # its example
    only_hyper = WordNetInventory(relations=("hypernyms",), lemma_relations=(),
                                  include_examples=False)
    assert only_hyper.related_glosses(river_bank) == [wordnet.synset("slope.n.01").definition()]
    quickly = wordnet_inventory.senses("quickly", "ADV")[0]
    pertainym = wordnet.lemma_from_key(quickly.id).pertainyms()[0].synset().definition()
    assert pertainym in wordnet_inventory.related_glosses(quickly)


def test_missing_wordnet_raises_with_the_download_hint(monkeypatch):
    monkeypatch.setattr(wsd.resources, "_nltk_find", lambda resource: False)
    with pytest.raises(MissingResourceError, match="nltk.downloader wordnet"):
        WordNetInventory()


def _write(folder, target, pos, senses):
    entry = {"target": target, "pos": pos, "senses": senses}
    (folder / f"{target}.senses.json").write_text(json.dumps(entry), encoding="utf-8")


def test_bundled_inventory_from_files(tmp_path):
    _write(tmp_path, "crane", "NOUN", [
        {"id": "crane.bird", "gloss": "a tall wading bird", "examples": ["a crane flew"],
         "wordnet": "crane%1:05:00::"},
        {"id": "crane.machine", "gloss": "a lifting machine", "examples": [], "wordnet": None},
    ])
    inventory = BundledInventory(tmp_path)
    assert isinstance(inventory, SenseInventory)
    senses = inventory.senses("Crane", "NOUN")
    assert [s.id for s in senses] == ["crane.bird", "crane.machine"]
    assert senses[0].gloss == "a tall wading bird" and senses[0].examples == ("a crane flew",)
    assert inventory.senses("crane", "n") == senses
    assert inventory.senses("crane") == senses
    assert inventory.senses("crane", "VERB") == []
    assert inventory.senses("heron", "NOUN") == []
    assert inventory.related_glosses(senses[0]) == []
    assert inventory.targets() == ["crane"]


def test_bundled_inventory_errors(tmp_path):
    (tmp_path / "bad.senses.json").write_text('{"target": "bad",\n  "pos": }', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.senses\.json:2"):
        BundledInventory(tmp_path).senses("bad")
    with pytest.raises(MissingResourceError):
        BundledInventory(tmp_path / "absent").senses("bass")


def test_shipped_bundled_inventory():
    from wsd.corpora.bundled import load_bundled_inventory

    inventory = BundledInventory()
    shipped = load_bundled_inventory("bass")
    assert [s.id for s in inventory.senses("bass", shipped["pos"])] == [
        s["id"] for s in shipped["senses"]
    ]
