"""Sense keys of every WordNet lemma resolve: no lemma can crash sense lookup.

The scan reads WordNet's own files (data.* and index.sense) rather than building all 117,659
NLTK synsets, so it takes a second or two.
"""

import re

import pytest

from wsd.resources import has_nltk_resource

pytestmark = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                reason="needs NLTK wordnet")

_TYPES = {"n": "1", "v": "2", "a": "3", "r": "4", "s": "5"}
_COARSE = {"n": "NOUN", "v": "VERB", "a": "ADJ", "s": "ADJ", "r": "ADV"}


@pytest.fixture(scope="module")
def wordnet():
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet


def _keys_nltk_builds_outside_the_index(wordnet) -> set[tuple[str, str, str]]:
    """(word, coarse POS, key) for every lemma of every synset whose key, as NLTK builds it
    (lower-cased name % type : lexicographer file : lex_id), is not in index.sense."""
    with wordnet.open("index.sense") as lines:
        listed = {line.split(" ", 1)[0].rsplit(":", 2)[0] for line in lines}
    missing = set()
    scanned = 0
    for data_file in ("data.noun", "data.verb", "data.adj", "data.adv"):
        with wordnet.open(data_file) as lines:
            for line in lines:
                if line.startswith(" "):
                    continue  # the licence header
                fields = line.split()
                lexfile, ss_type, count = fields[1], fields[2], int(fields[3], 16)
                for i in range(count):
                    word = re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower()
                    lex_id = int(fields[5 + 2 * i], 16)
                    key = f"{word}%{_TYPES[ss_type]}:{lexfile}:{lex_id:02d}"
                    scanned += 1
                    if key not in listed:
                        missing.add((word, _COARSE[ss_type], key))
    assert scanned == 206_978  # every (lemma, synset) pair of WordNet 3.0
    return missing


def test_no_wordnet_lemma_crashes_sense_lookup(wordnet):
    from wsd.knowledge.inventory import WordNetInventory
    from wsd.knowledge.sensekeys import lemma_for_key

    unlisted = _keys_nltk_builds_outside_the_index(wordnet)
    words = {word for word, _, _ in unlisted}
    assert {"earth", "moon", "sun"} <= words  # the case variants (Earth / earth) that crashed
    inventory = WordNetInventory()
    with wordnet.open("index.sense") as lines:
        index = {line.split()[0] for line in lines}
    for word, pos, key in sorted(unlisted):
        senses = inventory.senses(word, pos)
        assert senses, word
        assert len({s.synset for s in senses}) == len(senses)  # one sense per synset
        for sense in senses:
            assert sense.id in index  # the key gold files use
            inventory.related_glosses(sense)  # used to raise WordNetError
            assert lemma_for_key(wordnet, sense.id).synset().name() == sense.synset
        built = [lem for lem in wordnet.lemmas(word) if lem.key().startswith(key + ":")]
        assert built, key
        assert all(lemma_for_key(wordnet, lem.key()) == lem for lem in built)


def test_case_variant_gets_the_indexed_key(wordnet):
    from wsd.knowledge.sensekeys import lemma_for_key, sense_key

    lower = next(lem for lem in wordnet.synset("earth.n.01").lemmas() if lem.name() == "earth")
    assert lower.key() == "earth%1:17:02::"  # what NLTK builds; index.sense lacks it
    assert sense_key(lower) == "earth%1:17:00::"
    assert lemma_for_key(wordnet, "earth%1:17:02::") == lower
    with pytest.raises(ValueError, match="earth%1:99:00::"):
        lemma_for_key(wordnet, "earth%1:99:00::")
