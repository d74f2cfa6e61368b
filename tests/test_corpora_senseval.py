"""The NLTK senseval loader, on the real corpus (skipped when the senseval data is absent)."""

import nltk
import pytest

from wsd.corpora import senseval
from wsd.corpora.senseval import load_senseval, senseval_words
from wsd.resources import MissingResourceError, has_nltk_resource

needs_senseval = pytest.mark.skipif(
    not has_nltk_resource("senseval"), reason="NLTK senseval corpus not installed"
)

EXPECTED = {  # word: (instances, senses, target POS, inflected forms of the target)
    "hard": (4333, 3, "ADJ", {"hard", "harder", "hardest"}),
    "interest": (2368, 6, "NOUN", {"interest", "interests"}),
    "line": (4146, 6, "NOUN", {"line", "lines", "lined"}),
    "serve": (4378, 4, "VERB", {"serve", "served", "serving", "serves"}),
}


def test_words_listed():
    assert senseval_words() == ["hard", "interest", "line", "serve"]


def test_unknown_word_names_the_valid_ones():
    with pytest.raises(ValueError, match="hard, interest, line, serve"):
        load_senseval("bass")


def test_missing_corpus_names_the_downloader(monkeypatch, tmp_path):
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    with pytest.raises(MissingResourceError, match="nltk.downloader senseval"):
        senseval._load.__wrapped__("hard")  # bypass the cache


@needs_senseval
@pytest.mark.parametrize("word", sorted(EXPECTED))
def test_counts_and_shape(word):
    n_instances, n_senses, target_pos, forms = EXPECTED[word]
    instances = load_senseval(word)
    assert len(instances) == n_instances
    assert len({inst.sense for inst in instances}) == n_senses
    assert len({inst.id for inst in instances}) == n_instances
    assert instances[0].id == f"{word}.0001"
    for inst in instances:
        assert inst.lemma == word and inst.target_pos == target_pos
        assert inst.key == f"{word}#{target_pos}"
        assert len(inst.senses) == 1
        assert inst.target in forms
        assert len(inst.pos) == len(inst.tokens)


@needs_senseval
def test_first_hard_instance_matches_nltk():
    first = load_senseval("hard.pos")[0]
    raw = nltk.corpus.senseval.instances("hard.pos")[0]
    assert first.tokens == tuple(w for w, _ in raw.context)
    assert first.pos == tuple(t for _, t in raw.context)
    assert first.span == (20, 21) and first.target == "hard"
    assert first.pos[20] == "JJ" and first.sense == "HARD1"


@needs_senseval
def test_untagged_tokens_get_the_empty_tag():
    instances = load_senseval("line")
    pairs = [pair for inst in instances for pair in zip(inst.tokens, inst.pos, strict=True)]
    untagged = [(token, tag) for token, tag in pairs if tag == ""]
    assert len(untagged) == 243  # the plain strings NLTK yields for line.pos
    assert ("FRASL", "") in untagged


@needs_senseval
def test_cached_but_returns_a_fresh_list():
    first, second = load_senseval("interest"), load_senseval(" Interest.pos")
    assert first == second and first is not second
    first.clear()
    assert len(load_senseval("interest")) == 2368
