"""The learned reader (``wsd.text.reader``): its training step, what it learns from a corpus,
offsets, and the model file with and without one."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.instance import Instance
from wsd.resources import has_nltk_resource

needs_wordnet = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                   reason="needs NLTK's wordnet (nltk.downloader wordnet)")


def test_one_training_pass_matches_the_hand_worked_updates():
    """Two tokens, two labels, one tag: features bias (0) and one per token (1, 2); gold
    labels 1, 0. Token 0: all scores 0, the guess is label 0 (ties to the first), wrong: the
    bias, feature 1 and the dynamic rows of the start state (5: previous label; 14: the two
    previous; 17: previous label with the tag) gain 1 for label 1 and lose 1 for label 0, at
    c = 1. Token 1 follows the guess 0 (rows 3, 12, 15): the bias now scores label 1 higher,
    wrong again: the bias, feature 2 and those rows gain 1 for label 0, lose 1 for label 1,
    at c = 2. Averaged, W - U / 3."""
    from wsd.learners.greedy import train_greedy
    from wsd.learners.greedylabel import dynamic_rows

    X = np.array([[0, 1], [0, 2]])
    W = train_greedy(X, np.array([0, 0]), np.array([0, 2]), np.array([1, 0]), n_static=3,
                     n_labels=2, n_tags=1, epochs=1)  # fmt: skip
    assert W.shape == (3 + dynamic_rows(2, 1), 2) == (18, 2)
    expected = np.zeros((18, 2))
    expected[0] = [-1 / 3, 1 / 3]  # -1 + 1 = 0 minus U / c = (-1 + 2, 1 - 2) / 3
    for row in (1, 5, 14, 17):
        expected[row] = [-2 / 3, 2 / 3]  # -1 + 1/3, 1 - 1/3
    for row in (2, 3, 12, 15):
        expected[row] = [1 / 3, -1 / 3]  # 1 - 2/3, -1 + 2/3
    np.testing.assert_allclose(W, expected)


def _corpus(sentences: list[list[tuple[str, str | None, str | None]]]) -> list[Instance]:
    """Instances from hand-written sentences of ``(token, lemma, POS)`` (None: no unit);
    a token with spaces is one unit of several words, as the framework writes them."""
    found = []
    for n, sentence in enumerate(sentences):
        tokens = tuple(token.replace(" ", "_") for token, _, _ in sentence)
        for k, (_, lemma, pos) in enumerate(sentence):
            if pos is not None:
                found.append(Instance(id=f"d.s{n}.t{k}", tokens=tokens, span=(k, k + 1),
                                      lemma=lemma, target_pos=pos, senses=("x",),
                                      meta=(("document", "d"), ("sentence", f"s{n}"))))
    return found


N, V, A = "NOUN", "VERB", "ADJ"
# Compounds WordNet has, joined as the corpus joins them; proper names with their kind;
# common words in running text and in title-case headings.
CORPUS = [
    [("The", None, None), ("ice cream", "ice_cream", N), ("melted", "melt", V), (".", None, None)],
    [("A", None, None), ("credit card", "credit_card", N), ("expired", "expire", V),
     (".", None, None)],
    [("She", None, None), ("bought", "buy", V), ("a", None, None), ("hot dog", "hot_dog", N),
     (".", None, None)],
    [("His", None, None), ("blood pressure", "blood_pressure", N), ("rose", "rise", V),
     (".", None, None)],
    [("The", None, None), ("bank", "bank", N), ("raised", "raise", V), ("interest rates",
     "interest_rate", N), (".", None, None)],
    [("Durwood Pye", "person", N), ("visited", "visit", V), ("the", None, None),
     ("town", "town", N), (".", None, None)],
    [("Mayor Hartsfield", "person", N), ("opened", "open", V), ("the", None, None),
     ("bank", "bank", N), (".", None, None)],
    [("Then", None, None), ("Mrs. Kowalski", "person", N), ("sold", "sell", V), ("the", None,
     None), ("house", "house", N), (".", None, None)],
    [("New", "new", A), ("Rules", "rule", N), ("For", None, None), ("Small", "small", A),
     ("Banks", "bank", N)],
    [("Local", "local", A), ("Council", "council", N), ("Opens", "open", V), ("New", "new", A),
     ("Office", "office", N)],
    [("Old", "old", A), ("Houses", "house", N), ("And", None, None), ("Their", None, None),
     ("Owners", "owner", N)],
    [("It", None, None), ("'s", "be", V), ("cold", "cold", A), (".", None, None)],
    # names whose last word says their kind
    [("The", None, None), ("Pye Company", "group", N), ("hired", "hire", V),
     ("Mrs. Kowalski", "person", N), (".", None, None)],
    [("Then", None, None), ("Hartsfield Company", "group", N), ("sold", "sell", V),
     ("the", None, None), ("house", "house", N), (".", None, None)],
    # a hyphenated word WordNet lacks, as SemCor's text gives one: its pieces apart
    [("They", None, None), ("built", "build", V), ("a", None, None), ("brick", "brick", N),
     ("-", None, None), ("walled", None, None), ("house", "house", N), (".", None, None)],
]  # fmt: skip


@functools.cache
def _reader():
    from wsd.systems.allwords.readertraining import train_reader

    return train_reader(_corpus(CORPUS * 3), epochs=10, seed=0)


def _read(text: str) -> list[tuple[str, str, str | None]]:
    from wsd.text import analyze

    return [(w.text, w.lemma, w.pos) for s in analyze(text, _reader()) for w in s.words]


@needs_wordnet
def test_the_reader_learns_the_corpus_it_was_trained_on():
    """Its own sentences come back as they were annotated (units, lemmas, parts of speech)."""
    from wsd.systems.allwords.readertraining import corpus_sentences
    from wsd.text.reader import LABELS

    sentences, lemmas, documents = corpus_sentences(_corpus(CORPUS))
    assert documents == ["d"] * len(sentences)
    assert sentences[0] == (["The", "ice", "cream", "melted", "."],
                            [0, LABELS.index("B-NOUN"), 1, LABELS.index("B-VERB"), 0])
    assert lemmas == {"'s#v": "be"}  # only where WordNet's base form differs (or is none)
    assert ("ice cream", "ice_cream", "NOUN") in _read("The ice cream melted.")


@needs_wordnet
def test_a_wordnet_compound_the_corpus_never_saw_is_joined_where_the_labeller_says_so():
    """*greenhouse gases* is not in the corpus; a WordNet expression starts there (a feature),
    and the corpus joins the expressions WordNet has: the labeller begins a unit on
    *greenhouse* and goes on over *gases*, and the unit's lemma is WordNet's expression."""
    from wsd.text.reader import LABELS

    reader = _reader()
    tokens = ["The", "greenhouse", "gases", "rose", "."]
    labels, _ = reader.labels([(tokens, ["DT", "NN", "NNS", "VBD", "."])])
    assert [LABELS[k] for k in labels][:3] == ["O", "B-NOUN", "I"]
    assert ("greenhouse gases", "greenhouse_gas", "NOUN") in _read(
        "The greenhouse gases rose.")


@needs_wordnet
def test_a_hyphenated_word_wordnet_lacks_is_read_as_the_piece_the_labeller_makes_a_unit():
    """*brick-walled* is never in the corpus as one word; the corpus has its pieces apart
    (*brick - walled*), *brick* a noun, *walled* no unit. WordNet lacks the whole word, so
    the reader labels its pieces and reads the word as its first unit, over the whole word;
    a hyphenated word WordNet has (*re-election*: reelection) stays whole."""
    from wsd.text.reader import LABELS

    reader = _reader()
    assert reader._pieces(["a", "brick-walled", "house"]) == (
        ["a", "brick", "-", "walled", "house"], [0, 1, 1, 1, 2])
    assert reader._pieces(["the", "re-election", "of", "tax-cutting"]) == (
        ["the", "re-election", "of", "tax", "-", "cutting"], [0, 1, 2, 3, 3, 3])
    assert reader._pieces(["the", "re-election", "-"]) is None
    labels, _ = reader.labels([(["a", "brick", "-", "walled", "house"],
                                ["DT", "NN", "HYPH", "VBN", "NN"])])
    assert [LABELS[k] for k in labels][1:3] == ["B-NOUN", "O"]
    words = _read("They built a brick-walled house.")
    assert ("brick-walled", "brick", "NOUN") in words and ("house", "house", "NOUN") in words
    assert ("re-election", "reelection", "NOUN") in _read("They built a re-election house.")


@needs_wordnet
def test_a_unit_begun_inside_a_split_word_keeps_the_tokens_it_goes_on_over():
    """Pieces *the tumor - suppressor gene ,*: the labeller reads *tumor* a noun and begins
    *suppressor gene* inside the word already read; *gene* had been lost from the sentence's
    words. It is read on its own in the unit's part of speech; a name's tail stays a name of
    its kind (*Bristol-Myers Squibb Co.*); a unit ending inside the word is dropped."""
    from wsd.text.reader import Unit

    reader = _reader()
    tokens, tags = ["the", "tumor-suppressor", "gene", ","], ["DT", "NN", "NN", ","]
    owner = [0, 1, 1, 1, 2, 3]  # the, tumor, -, suppressor, gene, ","
    pieces = [Unit(0, 1, "the", None), Unit(1, 2, "tumor", N), Unit(2, 3, "-", None),
              Unit(3, 5, "suppressor_gene", N), Unit(5, 6, ",", None)]
    assert reader._rejoined(pieces, owner, tokens, tags) == [
        Unit(0, 1, "the", None), Unit(1, 2, "tumor", N), Unit(2, 3, "gene", N),
        Unit(3, 4, ",", None)]
    tokens, tags = ["Bristol-Myers", "Squibb", "Co."], ["NNP", "NNP", "NNP"]
    pieces = [Unit(0, 1, "bristol", None), Unit(1, 2, "-", None),
              Unit(2, 5, "group", N, name=True)]
    assert reader._rejoined(pieces, [0, 0, 0, 1, 2], tokens, tags) == [
        Unit(0, 1, "bristol", None), Unit(1, 3, "group", N, name=True)]
    pieces = [Unit(0, 1, "brick", N), Unit(1, 3, "x", V)]  # *brick-walled*: inside the word
    assert reader._rejoined(pieces, [0, 0, 0], ["brick-walled"], ["JJ"]) == [
        Unit(0, 1, "brick", N)]


@needs_wordnet
@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["tumor-suppressor", "gene", "Bristol-Myers", "Squibb", "Co.",
                                 "brick-walled", "ice", "cream", "Pye", "bank", "the", "-",
                                 ",", "New", "York-Pennsylvania"]), min_size=1, max_size=12),
       st.data())
def test_the_units_of_a_sentence_cover_each_of_its_tokens_once(tokens, data):
    """Whatever the labeller says over a sentence's pieces (any labels, any scores), each
    token is in exactly one unit: none lost, none read twice."""
    import copy

    from wsd.text.reader import LABELS
    from wsd.text.tagger import penn_tags

    reader = copy.copy(_reader())
    n = len((reader._pieces(tokens) or (tokens,))[0])
    labels = data.draw(st.lists(st.integers(0, len(LABELS) - 1), min_size=n, max_size=n))
    scores = np.array(data.draw(st.lists(st.lists(st.floats(-5, 5), min_size=len(LABELS),
                                                  max_size=len(LABELS)),
                                         min_size=n, max_size=n)))  # fmt: skip
    reader.labels = lambda sentences: (labels, scores)
    [units] = reader.units([(tokens, penn_tags(tokens))])
    assert [k for unit in units for k in range(unit.start, unit.end)] == list(range(len(tokens)))


@needs_wordnet
def test_a_content_word_the_labeller_leaves_out_is_a_name_only_for_a_proper_noun():
    """The tagger reads a content word where the labeller says O, whose runner-up is a name:
    the word takes the best unit that fits the tagger's reading. *n't* (an adverb WordNet
    lacks) is no unit, not a group; *Lucia* (a proper noun) a group, the runner-up; *bank*
    (a noun) the noun bank, the next label after the name."""
    from wsd.text.reader import LABELS, Unit

    reader = _reader()
    ranked = [LABELS.index(label) for label in ("O", "B-group", "B-NOUN", "B-ADV", "I")]
    assert reader._unit(["n't"], "RB", 0, 1, "*", ranked) == Unit(0, 1, "n't", None)
    assert reader._unit(["Lucia"], "NNP", 0, 1, "*", ranked) == Unit(0, 1, "group", N, name=True)
    assert reader._unit(["bank"], "NN", 0, 1, "*", ranked) == Unit(0, 1, "bank", N)
    # a stray I (a unit goes on after none) is still the best-scored unit, a name included
    assert reader._unit(["bank"], "NN", 0, 1, "I", ranked[1:]) == Unit(0, 1, "group", N,
                                                                       name=True)
    assert reader._unit(["bank"], "NN", 0, 1, "I", ranked) == Unit(0, 1, "bank", None)


@needs_wordnet
def test_a_common_word_the_labeller_leaves_out_is_read_in_the_tagger_s_part_of_speech():
    """The tagger reads *has* as a verb (VBZ) where the labeller says O with a noun as its
    runner-up: the verb have, not the noun ha (whose plural *has* also is); where WordNet
    lacks the word in the tagger's part of speech (*suicide* tagged JJ), the labeller's best
    unit."""
    from wsd.text.reader import LABELS, Unit

    reader = _reader()
    ranked = [LABELS.index(label) for label in ("O", "B-NOUN", "B-VERB", "B-ADJ", "I")]
    assert reader._unit(["has"], "VBZ", 0, 1, "*", ranked) == Unit(0, 1, "have", V)
    assert reader._unit(["has"], "VBZ", 0, 1, "I", ranked) == Unit(0, 1, "has", None)
    assert reader._unit(["suicide"], "JJ", 0, 1, "*", ranked) == Unit(0, 1, "suicide", N)


@needs_wordnet
def test_names_are_read_as_the_corpus_tags_them():
    """A capitalised run WordNet lacks is one name whose lemma is its kind."""
    words = _read("Then Mrs. Halvorsen visited the bank.")
    assert ("Mrs. Halvorsen", "person", "NOUN") in words
    assert ("bank", "bank", "NOUN") in words


def test_a_capitalised_run_is_a_feature_of_each_of_its_words():
    """Each capitalised token gets the run it is in: its last word, and that word's ending
    with the run's length and the token's place in it; a sentence's first word alone none."""
    from wsd.text.readerfeatures import capitalised_runs

    assert capitalised_runs("Then the Baltimore Orioles beat New York Yankee Stadium .".split()) \
        == [None, None, ("orioles", "les|2|B"), ("orioles", "les|2|E"), None,
            ("stadium", "ium|3|B"), ("stadium", "ium|3|I"), ("stadium", "ium|3|I"),
            ("stadium", "ium|3|E"), None]  # fmt: skip
    assert capitalised_runs(["Pye", "said", "Ann"]) == [None, None, ("ann", "ann|1|1")]
    assert capitalised_runs(["Mrs.", "Pye"]) == [("pye", "pye|2|B"), ("pye", "pye|2|E")]


@needs_wordnet
def test_a_name_s_kind_is_learnt_from_the_last_word_of_its_run():
    """The corpus's names ending in *Company* are groups, its *Mrs.* names persons: a name
    it never saw is read by its last word."""
    assert ("Halvorsen Company", "group", "NOUN") in _read("Then Halvorsen Company sold the bank.")
    assert ("Mrs. Halvorsen", "person", "NOUN") in _read("Then Mrs. Halvorsen sold the bank.")


@needs_wordnet
def test_a_title_case_heading_is_read_as_common_words_not_names():
    words = _read("New Offices For Local Banks")
    assert ("Offices", "office", "NOUN") in words and ("Banks", "bank", "NOUN") in words
    assert not any(lemma == "person" for _, lemma, _ in words)


@needs_wordnet
@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([*"aB .,'-\n\u00e9\u2019", "bank", "Ice cream", "Pye",
                                 "www.x.com", "<p>", "&amp;"]), max_size=30).map("".join))
def test_offsets_always_point_into_the_input(text):
    from wsd.text import analyze

    for sentence in analyze(text, _reader()):
        assert text[sentence.start : sentence.end] == sentence.text
        last = sentence.start
        for word in sentence.words:
            assert sentence.start <= last <= word.start < word.end <= sentence.end
            assert text[word.start : word.end] == word.text
            last = word.end


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """A small all-words model saved with its reader, and the same file without one."""
    from wsd.systems.allwords.modelfile import write_npz
    from wsd.systems.allwords.system import AllWordsWSD

    system = AllWordsWSD(n_models=1, epochs=2).fit(_corpus(CORPUS * 2))
    assert system.reader_ is None  # too few sentences to learn one
    system.reader_ = _reader()
    folder = tmp_path_factory.mktemp("reader")
    with_reader = system.save(folder / "with.npz")
    without = write_npz(folder / "without.npz", system._header(), system.models_)
    return system, with_reader, without


@needs_wordnet
def test_a_model_file_keeps_its_reader(models):
    from wsd.systems.allwords.system import AllWordsWSD
    from wsd.text.reader import LearnedReader

    system, path, _ = models
    loaded = AllWordsWSD.load(path)
    assert isinstance(loaded.reader, LearnedReader)
    np.testing.assert_array_equal(loaded.reader.W, system.reader.W.astype(np.float32))
    assert loaded.reader.lemmas == system.reader.lemmas
    text = "The greenhouse gases rose. Mrs. Halvorsen visited the bank."
    from wsd.text import analyze

    assert analyze(text, loaded.reader) == analyze(text, system.reader)


class _Written:
    """A reader as a file of another version has it: ``to_file``'s parts, changed."""

    def __init__(self, meta, arrays):
        self.meta, self.arrays = meta, arrays

    def to_file(self):
        return self.meta, self.arrays


@needs_wordnet
def test_a_version_1_reader_still_reads_and_an_unknown_version_is_refused(models, tmp_path):
    """Version 1 had no capitalised-run features (the last templates): its file (no version,
    no run values, weights without their rows) loads and reads as the reader whose run
    weights are zero. A version this wsd does not know is refused, naming file and version."""
    from wsd.systems.allwords.modelfile import ModelFileError, write_npz
    from wsd.systems.allwords.system import AllWordsWSD
    from wsd.text import analyze
    from wsd.text.reader import VERSION_TEMPLATES, LearnedReader

    system, _, _ = models
    reader = system.reader
    meta, _ = reader.to_file()
    old = {**{k: v for k, v in meta.items() if k != "version"},
           "templates": list(VERSION_TEMPLATES[1]),
           "values": {k: v for k, v in meta["values"].items() if k not in ("run", "runs")}}
    run_rows = np.arange(reader.vocabulary.offsets["run"], reader.vocabulary.size)
    W = np.delete(reader.W, run_rows, axis=0).astype(np.float32)
    keep = np.flatnonzero(np.abs(W).max(axis=1) > 0)
    old["rows"] = W.shape[0]
    arrays = {"reader_rows": keep.astype(np.int32), "reader_weights": W[keep].ravel()}
    path = write_npz(tmp_path / "v1.npz", system._header(), system.models_, _Written(old, arrays))
    loaded = AllWordsWSD.load(path).reader
    without_runs = LearnedReader(reader.vocabulary, reader.W.copy(), reader.lemmas)
    without_runs.W[run_rows] = 0
    text = "Then Halvorsen Company sold the bank. They built a brick-walled house."
    assert analyze(text, loaded) == analyze(text, without_runs)
    path = write_npz(tmp_path / "v3.npz", system._header(), system.models_,
                     _Written({**meta, "version": 3}, arrays))
    with pytest.raises(ModelFileError, match="v3.npz.*reader is of version 3"):
        AllWordsWSD.load(path)


@needs_wordnet
def test_a_model_file_without_a_reader_says_so_once_and_answers(models):
    import wsd
    from wsd.systems.allwords.system import AllWordsWSD
    from wsd.text.reader import PLAIN

    _, _, path = models
    loaded = AllWordsWSD.load(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        words = wsd.disambiguate("The bank raised interest rates.", model=loaded)
        wsd.disambiguate("The ice cream melted.", model=loaded)
    notices = [w for w in caught if "no learnt reader" in str(w.message)]
    assert len(notices) == 1
    assert loaded.reader is PLAIN
    assert {w.lemma for w in words} >= {"bank", "raise", "interest_rate"}
    assert all(w.sense_key for w in words)


@needs_wordnet
def test_a_heading_and_a_title_case_line_are_features_of_their_tokens():
    """Where a token stands is a feature: a title-case line without final punctuation (a
    heading), a line in capitals and running text get different ``line`` values, and each
    token's ``place`` carries its own case and whether it begins the sentence."""
    from wsd.text.readerfeatures import SENTENCE_TEMPLATES, sentence_values

    column = {name: k for k, name in enumerate(SENTENCE_TEMPLATES[2:])}

    def values(text: str, name: str) -> list[str | None]:
        tokens = text.split()
        return [row[column[name]] for row in sentence_values(tokens, ["NN"] * len(tokens))]

    heading = "European Committee For Medicinal Products"
    assert set(values(heading, "line")) == {"title"}
    assert set(values(heading + " .", "line")) == {"title."}
    assert set(values("EUROPEAN COMMITTEE REPORT", "line")) == {"caps"}
    assert set(values("The committee met in Brussels .", "line")) == {"text."}
    assert values(heading, "place")[:2] == ["title|C|1", "title|C|0"]
    assert values("a report on Medicinal products", "place")[3] == "text|C|0"


@needs_wordnet
def test_capitalised_adjectives_and_nouns_of_a_heading_are_not_read_as_names():
    """Issue 35's set B: *European*, *Committee*, *Medicinal* in a heading were read as names
    (group, person). Words WordNet has, capitalised only because the line is in title case,
    are common words; a capitalised run WordNet lacks in running text stays a name."""
    words = _read("Medicinal Products For European Committees")
    assert not any(lemma in ("person", "group", "location") for _, lemma, _ in words), words
    assert ("Products", "product", "NOUN") in words and ("Committees", "committee", "NOUN") in words
    assert ("Mrs. Halvorsen", "person", "NOUN") in _read("Then Mrs. Halvorsen visited the bank.")


@needs_wordnet
def test_the_gap_table_puts_each_gold_unit_under_one_cause(models):
    """The gold leaves *interest rates* apart, the reader joins it (as its corpus did): both
    words are extent errors (one read longer, one inside a unit begun before it); *bank* and
    *raised* are read as the gold has them. The waterfall's steps telescope from the plain
    text's right answers to the XML's."""
    from wsd.experiments.rawtext_gap import CAUSES, STEPS, gap_rows, gap_table

    system, _, _ = models
    gold = _corpus([[("The", None, None), ("bank", "bank", N), ("raised", "raise", V),
                     ("interest", "interest", N), ("rates", "rate", N), (".", None, None)]])
    table = gap_table(system, system.tagged(gold))
    assert table.total == 4
    assert table.instances == {"extent": 2, "lemma": 0, "pos": 0, "same unit": 2}
    # *interest* gets interest_rate's sense (x, as every sense of the toy corpus), *rates* none
    assert table.raw_right["extent"] == 1
    assert table.same_tokens == 0  # the raw sentence has interest_rates as one token
    assert table.raw_right["same unit"] + sum(table.gained[s] - table.lost[s] for s in STEPS) \
        == table.xml_right["same unit"]
    # the XML answers interest#NOUN and rate#NOUN, which the toy corpus never had: wrong
    assert table.xml_right["extent"] == 0 and table.points("extent") == -25.0
    assert len(gap_rows(table, 0.5, 0.25)) == 1 + len(CAUSES) + 1 + len(STEPS)


def test_sentences_written_as_headings_keep_their_labels():
    """The reader also learns from some of the corpus's sentences written as title-case
    headings: first word and words of four letters or more capitalised, no final period;
    *Durwood* was a name already and stays one, *cream* goes on with *ice*'s unit."""
    from wsd.systems.allwords.readertraining import HEADING_EVERY, as_heading, headings

    words = ["the", "ice", "cream", "melted", "for", "Durwood", "."]
    labels = [0, 2, 1, 3, 0, 6, 0]
    assert as_heading(words, labels) == (["The", "ice", "Cream", "Melted", "for", "Durwood"],
                                         [0, 2, 1, 3, 0, 6])
    assert as_heading(["Stop"], [3]) == (["Stop"], [3])
    corpus = [(["w"] * n, [0] * n) for n in range(1, 31)]  # sentences of 1 to 30 words
    chosen = headings(corpus, seed=0)
    assert len(chosen) == len(corpus) // HEADING_EVERY == 3
    assert all(3 <= len(w) <= 12 and w[0] == "W" for w, _ in chosen)
    assert chosen == headings(corpus, seed=0) != headings(corpus, seed=1)


@needs_wordnet
def test_withheld_counts_take_taggings_out_of_the_counts_and_the_base_forms_they_decide():
    """*found* as an inflected verb is *find*, SemCor's commoner verb; with *find*'s taggings
    held back the counts favour *found* (to found a city). The cache of base forms is
    forgotten on entry and on exit, so each answer follows the counts of its moment."""
    from wsd.knowledge.lexicon import base_form, tagged_count, withheld_counts

    find, bank = tagged_count("find", "v"), tagged_count("bank", "n")
    assert find > tagged_count("found", "v") > 0 and bank > 2
    assert base_form("found", "v", True) == "find"
    with withheld_counts({("find", "v"): find, ("bank", "n"): 2, ("found", "n"): 0}):
        assert tagged_count("find", "v") == 0 and tagged_count("bank", "n") == bank - 2
        assert tagged_count("Bank", "n") == bank - 2  # the lemma in any case
        assert base_form("found", "v", True) == "found"
    assert (tagged_count("find", "v"), tagged_count("bank", "n")) == (find, bank)
    assert base_form("found", "v", True) == "find"


@needs_wordnet
def test_counts_without_instances_are_what_the_readers_word_features_read():
    """Held-out documents read as new text: the reader's count of a word in each part of
    speech no longer counts the documents' own taggings, and is as before after the block."""
    from wsd.experiments.rawtext_loss import counts_without
    from wsd.knowledge.lexicon import tagged_count
    from wsd.text.readerfeatures import TYPE_TEMPLATES, type_features

    noun_count = TYPE_TEMPLATES.index("cn")
    bank = tagged_count("bank", "n")
    held = [Instance(id=f"d.s0.t{k}", tokens=("Bank",), span=(0, 1), lemma="Bank",
                     target_pos="NOUN", senses=("bank%1:14:00::",))
            for k in range(bank)]  # fmt: skip
    untagged = Instance(id="d.s1.t0", tokens=("bank",), span=(0, 1), lemma="bank",
                        target_pos="NOUN", senses=())  # fmt: skip
    before = type_features("bank")
    assert before[noun_count] != "0"
    with counts_without([*held, untagged]):
        assert tagged_count("bank", "n") == 0 and tagged_count("bank", "v") > 0
        assert type_features("bank")[noun_count] == "0"
    assert type_features("bank") == before and tagged_count("bank", "n") == bank


@needs_wordnet
def test_training_reads_each_documents_sentences_without_its_own_taggings(monkeypatch):
    """Each run of one document's sentences is read with that document's taggings of
    one-word lemmas held back from the counts (a word's count features then see what new
    text's would), headings with their source's; the counts and the word features are as
    before once the rows are made."""
    from collections import Counter

    from wsd.knowledge.lexicon import tagged_count
    from wsd.systems.allwords import readertraining
    from wsd.text.readerfeatures import Vocabulary, type_features

    corpus = _corpus([[("The", None, None), ("bank", "bank", N), ("closed", "close", V)]] * 3)
    other = [Instance(id=f"e.s0.t{k}", tokens=("Banks", "failed"), span=(k, k + 1),
                      lemma=lemma, target_pos=pos, senses=("x",),
                      meta=(("document", "e"), ("sentence", "s0")))
             for k, (lemma, pos) in enumerate([("bank", N), ("fail", V)])]  # fmt: skip
    taggings = readertraining.document_taggings([*corpus, *other])
    assert taggings == {"d": Counter({("bank", "n"): 3, ("close", "v"): 3}),
                        "e": Counter({("bank", "n"): 1, ("fail", "v"): 1})}  # fmt: skip
    sentences, _, documents = readertraining.corpus_sentences([*corpus, *other])
    assert documents == ["d", "d", "d", "e"]
    tagged = [(words, ["DT", "NN", "VBD"][: len(words)]) for words, _ in sentences]
    bank, plain = tagged_count("bank", "n"), type_features("bank")
    vocabulary = Vocabulary.learn(Counter(w for words, _ in tagged for w in words), tagged)
    seen = []
    made = Vocabulary.rows

    def rows(self, part):
        seen.append(([words for words, _ in part], tagged_count("bank", "n"),
                     type_features.cache_info().currsize))  # words' features made afresh
        return made(self, part)

    monkeypatch.setattr(Vocabulary, "rows", rows)
    X = readertraining.rows_without_own_counts(vocabulary, tagged * 2, documents * 2, taggings)
    runs = [([tagged[0][0]] * 3, bank - 3, 0), ([tagged[3][0]], bank - 1, 0)]
    assert seen == runs * 2  # one run a document, each time the document comes again
    assert len(X) == 2 * sum(len(words) for words, _ in tagged)
    assert tagged_count("bank", "n") == bank and type_features("bank") == plain


@needs_wordnet
def test_a_reader_joining_wordnet_s_expressions_reads_them_without_its_document_s_taggings(
        monkeypatch):
    """``joins="wordnet"``: each document's sentences are read with its taggings of
    expressions held back too (their count feature then says what new text's would: a
    compound the corpus never tagged reads as one it tagged elsewhere); the default holds
    back the one-word lemmas only. An unknown choice is refused."""
    from collections import Counter

    from wsd.systems.allwords import readertraining

    corpus = _corpus(CORPUS[:5] * 3)
    one_word = readertraining.document_taggings(corpus)
    every = readertraining.document_taggings(corpus, expressions=True)
    expressions = Counter({("ice_cream", "n"): 3, ("credit_card", "n"): 3, ("hot_dog", "n"): 3,
                          ("blood_pressure", "n"): 3, ("interest_rate", "n"): 3})
    assert every == {"d": one_word["d"] + expressions}
    assert not set(one_word["d"]) & set(expressions)
    read = []
    made = readertraining.rows_without_own_counts

    def rows(vocabulary, tagged, documents, taggings):
        read.append(taggings)
        return made(vocabulary, tagged, documents, taggings)

    monkeypatch.setattr(readertraining, "rows_without_own_counts", rows)
    readertraining.train_reader(corpus, epochs=1, joins="corpus")
    readertraining.train_reader(corpus, epochs=1, joins="wordnet")
    assert read == [one_word, every]
    with pytest.raises(ValueError, match="reader joins must be one of corpus, wordnet"):
        readertraining.train_reader(corpus, epochs=1, joins="all")
