"""The raw-text pipeline on hand-written sentences: sentences, offsets, tags, lemmas,
WordNet multi-word expressions, content words and inflected targets."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.resources import has_nltk_resource

pytestmark = [
    pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent"),
    pytest.mark.skipif(not has_nltk_resource("averaged_perceptron_tagger_eng"),
                       reason="NLTK averaged_perceptron_tagger_eng data absent"),
]


def _words(text):
    from wsd.text import analyze

    return [w for s in analyze(text) for w in s.words]


def test_multi_word_expressions_become_one_word():
    words = {w.text: w for w in _words("We ate ice cream in New York. She looked up the word.")}
    assert (words["ice cream"].lemma, words["ice cream"].pos) == ("ice_cream", "NOUN")
    assert (words["New York"].lemma, words["New York"].pos) == ("new_york", "NOUN")
    assert (words["looked up"].lemma, words["looked up"].pos) == ("look_up", "VERB")
    assert "ice" not in words and "up" not in words


def test_sentences_offsets_and_lemmas():
    from wsd.text import analyze

    text = "The dogs barked.  Two cats were sleeping!\nno end mark here\nThe end."
    sentences = analyze(text)
    assert [s.text for s in sentences] == ["The dogs barked.", "Two cats were sleeping!",
                                           "no end mark here", "The end."]  # fmt: skip
    for sentence in sentences:
        assert text[sentence.start : sentence.end] == sentence.text
        for word in sentence.words:
            assert text[word.start : word.end] == word.text
    lemmas = {w.text: (w.lemma, w.pos) for w in _words(text)}
    assert lemmas["dogs"] == ("dog", "NOUN")
    assert lemmas["barked"] == ("bark", "VERB")
    assert lemmas["were"] == ("be", "VERB")
    assert lemmas["The"] == ("the", None)  # a function word is no content word


def test_a_line_without_content_words_has_none():
    from wsd.text import analyze

    sentences = analyze("Of the and or.\nThe bank.")
    assert len(sentences) == 2
    assert not any(w.is_content for w in sentences[0].words)
    assert [w.lemma for w in sentences[1].words if w.is_content] == ["bank"]


def test_target_lemmas_cover_inflections():
    from wsd.text import target_lemmas

    assert {"run", "runs"} <= target_lemmas("runs")
    assert "run" in target_lemmas("running") and "run" in target_lemmas("ran")
    assert target_lemmas("Ice Cream") >= {"ice_cream"}


def test_tags_are_nltks():
    import nltk

    from wsd.text.tagger import penn_tags

    tokens = "The old man the boats , and she saw 3 saws .".split()
    assert penn_tags(tokens) == [tag for _, tag in nltk.pos_tag(tokens)]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab .!?\n'\"-,Zy1")), max_size=60))
def test_offsets_always_point_at_the_words(text):
    from wsd.text import analyze

    for sentence in analyze(text):
        assert text[sentence.start : sentence.end] == sentence.text
        assert sentence.text.strip() == sentence.text != ""
        for word in sentence.words:
            assert text[word.start : word.end] == word.text
            assert sentence.start <= word.start < word.end <= sentence.end
