"""The spaCy component "wsd": on a blank English pipeline (no spaCy model to download), its
answers are those of `wsd disambiguate --json` on the same text, token by character offset,
with a span for each unit of several tokens."""

from __future__ import annotations

import json

import pytest
from test_allwords import QUICK, _bank_sentences, _corpus, _load
from test_cli import run

from wsd.resources import has_nltk_resource

spacy = pytest.importorskip("spacy")
pytestmark = pytest.mark.skipif(
    not (has_nltk_resource("wordnet") and has_nltk_resource("averaged_perceptron_tagger_eng")),
    reason="needs NLTK's wordnet and tagger")

TEXT = ("He caught a huge bass. We ate ice cream in New York, then looked up the bank.\n"
        "The money and cash loan went to the bank.")


def cli_words(text: str, *options: str) -> list[dict]:
    result = run("disambiguate", text, "--json", *options)
    assert result.returncode == 0, result.stderr
    return [word for line in result.stdout.splitlines() for word in json.loads(line)["words"]]


def check_same_answers(doc, words: list[dict]) -> None:
    """Every token inside a word of ``words`` has its sense; every other token has none; a
    word of several tokens is one span of the "wsd" group."""
    covered = {}
    for word in words:
        tokens = [t for t in doc if t.idx < word["end"] and t.idx + len(t) > word["start"]]
        assert tokens, word
        for token in tokens:
            covered[token.i] = word
            assert (token._.sense_key, token._.synset, token._.sense_source) == (
                word["sense_key"], word["synset"], word["source"])
            assert token._.sense_margin == pytest.approx(word["margin"], abs=1e-4)
    assert all(token._.synset is None for token in doc if token.i not in covered)
    units = {(span.start_char, span.end_char, span.label_) for span in doc.spans["wsd"]}
    several = {(doc[i].idx, doc[i].idx + len(doc[i])) for i in covered}
    assert units == {(w["start"], w["end"], w["synset"]) for w in words
                     if (w["start"], w["end"]) not in several}  # fmt: skip


def test_without_a_model_lesk_and_the_bundled_targets_answer_as_the_command_line_does():
    nlp = spacy.blank("en")
    nlp.add_pipe("wsd")  # found through the entry point: no import of wsd here
    doc = nlp(TEXT)
    check_same_answers(doc, cli_words(TEXT))
    bass = next(t for t in doc if t.text == "bass")
    assert (bass._.synset, bass._.sense_source) == ("bass.n.08", "classifier")  # the fish
    assert [span.text for span in doc.spans["wsd"]][:3] == ["ice cream", "New York", "looked up"]
    assert [span.label_ for span in doc.spans["wsd"]][:2] == ["ice_cream.n.01", "new_york.n.01"]


def test_with_a_model_file_its_answers_are_the_command_lines(tmp_path):
    from wsd.systems.allwords import AllWordsWSD

    model = AllWordsWSD(**QUICK, epochs=5).fit(_load(_corpus(tmp_path, "t",
                                                             [_bank_sentences(12)])))
    path = model.save(tmp_path / "m.npz")
    nlp = spacy.blank("en")
    nlp.add_pipe("wsd", config={"model": str(path)})
    doc = nlp(TEXT)
    words = cli_words(TEXT, "--model", str(path))
    assert any(w["source"] == "classifier" for w in words)
    check_same_answers(doc, words)
    assert nlp("   ").spans.get("wsd") is None  # nothing to read: the doc as it came


def test_markers_in_a_doc_are_text_and_every_sense_lands_on_its_own_token():
    """``tag_text`` had read ``<<bass>>`` as a marker and given offsets into the text without
    it: the doc's ``<`` tokens got bass's sense and *bank* none."""
    nlp = spacy.blank("en")
    nlp.add_pipe("wsd", config={"model": "lesk"})
    doc = nlp("He caught a <<bass>> by the bank.")
    tagged = {t.text: t._.synset for t in doc if t._.synset}
    assert "<" not in tagged and tagged.get("bass", "").startswith("bass.")
    assert tagged.get("bank", "").startswith("bank.")


def test_a_model_file_that_is_not_there_fails_at_add_pipe_not_at_the_first_doc(tmp_path):
    nlp = spacy.blank("en")
    with pytest.raises(FileNotFoundError, match="nothing.npz"):
        nlp.add_pipe("wsd", config={"model": str(tmp_path / "nothing.npz")})
    (tmp_path / "notes.txt").write_text("not a model\n", encoding="utf-8")
    with pytest.raises(ValueError, match="notes.txt"):
        nlp.add_pipe("wsd", config={"model": str(tmp_path / "notes.txt")})
