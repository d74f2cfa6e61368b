"""The user file format: TSV and JSONL, validation of every bad row, writing and reading back."""

import json

import pytest

from wsd.corpora.userfile import file_format, load_user_file, write_user_file
from wsd.instance import Instance
from wsd.resources import has_nltk_resource

needs_wordnet = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                   reason="needs NLTK's wordnet (nltk.downloader wordnet)")


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_tsv_with_header_comments_and_ids(tmp_path):
    path = write(
        tmp_path / "bass.tsv",
        "# my bass sentences\n"
        "sense\tsentence\tid\n"
        "bass.fish\tHe caught a huge <<bass>> today.\tb1\n"
        "\n"
        "bass.music\tThe <<bass>> was too loud\tb2\n",
    )
    first, second = load_user_file(path)
    assert first.id == "b1" and first.sense == "bass.fish" and first.lemma == "bass"
    assert first.tokens == ("He", "caught", "a", "huge", "bass", "today", ".")
    assert first.span == (4, 5) and first.target_pos is None
    assert (second.id, second.sense, second.target) == ("b2", "bass.music", "bass")


def test_a_header_may_name_the_sentence_before_the_sense(tmp_path):
    """A header *sentence<TAB>sense* had not been read as one: its own row and every row
    after it were reported bad (the sense held whitespace)."""
    path = write(tmp_path / "bank.tsv",
                 "Sentence\tSense\tid\nWe fished from the <<bank>>.\tbank.river\tr1\n"
                 "The <<bank>> lent us money.\tbank.money\tm1\nA <<bank>> here.\n")
    first, second, third = load_user_file(path, require_senses=False)
    assert (first.id, first.sense, first.target) == ("r1", "bank.river", "bank")
    assert (second.id, second.sense) == ("m1", "bank.money")
    assert third.senses == () and third.target == "bank"  # one column: the sentence
    with pytest.raises(ValueError, match=r"columns must be sense and sentence"):
        load_user_file(write(tmp_path / "twice.tsv", "text\tsense\tsense\nA <<b>>.\tx\ty\n"))


def test_a_header_without_a_sense_heads_unlabelled_rows(tmp_path):
    """A header *sentence* (or *id<TAB>text*) over unlabelled rows had been read as a row
    and reported as having no marker."""
    path = write(tmp_path / "q.tsv", "Sentence\nThe <<bank>> was closed.\nWe fished.\t\n")
    with pytest.raises(ValueError) as caught:
        load_user_file(path, require_senses=False)
    assert str(caught.value).split("\n")[1:] == [
        f"{path}:3: 2 tab-separated columns; expected at most 1 (sentence) (is there a tab "
        "inside the sentence?)"]
    path = write(tmp_path / "q.tsv", "id\ttext\nq1\tThe <<bank>> was closed.\n"
                                     "\tA <<bank>>.\tbank\n")
    with pytest.raises(ValueError, match=r"q.tsv:3: 3 tab-separated columns"):
        load_user_file(path, require_senses=False)
    path = write(tmp_path / "q.tsv", "id\ttext\tlemma\nq1\tThe <<banks>> closed.\tbank\n"
                                     "q2\tA <<bank>>.\n")
    first, second = load_user_file(path, require_senses=False)
    assert (first.id, first.senses, first.lemma, first.target) == ("q1", (), "bank", "banks")
    assert (second.id, second.senses, second.tokens) == ("q2", (), ("A", "bank", "."))
    with pytest.raises(ValueError) as caught:
        load_user_file(path)
    assert str(caught.value).split("\n")[1] == (
        f"{path}:1: header ['id', 'text', 'lemma'] names no sense column; training and "
        "scoring need a sense per row (wsd predict reads unlabelled rows)")
    with pytest.raises(ValueError, match=r"q.tsv:1: header \['sense', 'id'\]: columns must"):
        load_user_file(write(tmp_path / "q.tsv", "sense\tid\nx\tA <<bank>>.\n"))


def test_tsv_default_ids_name_file_and_line(tmp_path):
    path = write(tmp_path / "crane.txt", "crane.bird\tA <<crane>> stood in the marsh\n")
    assert load_user_file(path)[0].id == "crane:1"


def assert_reported(path, expected):
    """Loading ``path`` fails listing exactly the problems {line: text} and no other line."""
    with pytest.raises(ValueError) as caught:
        load_user_file(path)
    header, *rows = str(caught.value).split("\n")
    assert header.endswith(f"{len(expected)} bad row(s); fix them and load again:")
    assert len(rows) == len(expected)
    for row, (line, problem) in zip(rows, sorted(expected.items()), strict=True):
        assert row.startswith(f"{path}:{line}: {problem}")


def test_tsv_every_bad_row_is_reported(tmp_path):
    path = write(
        tmp_path / "bad.tsv",
        "bass.fish\tno marker here\n"  # 1
        "\tan <<unlabelled>> row\n"  # 2
        "a\tb\tc\td\te\n"  # 3
        "just a sentence with <<bass>>\n"  # 4
        "bass.fish\tfine <<bass>> row\tx1\n"  # 5
        "bass.fish\t<<two>> markers <<here>>\n"  # 6
        "bass.fish\tanother <<bass>>\tx1\n"  # 7
        "bass.fish\tempty id <<bass>>\t\n",  # 8
    )
    assert_reported(
        path,
        {
            1: "no <<target>> marker",
            2: "empty sense",
            3: "5 tab-separated columns",
            4: "one column",
            6: "more than one <<target>> marker",
            7: "id 'x1' already used on line 5",
            8: "the id column is empty",
        },
    )


def test_unlabelled_rows_allowed_for_prediction(tmp_path):
    path = write(tmp_path / "new.tsv", "\tan <<unlabelled>> row\njust <<one>> column\n")
    first, second = load_user_file(path, require_senses=False)
    assert first.senses == () and second.senses == ()
    assert (first.target, second.target) == ("unlabelled", "one")


def test_jsonl_rows(tmp_path):
    records = [
        {"text": "He caught a <<bass>>.", "sense": "bass.fish", "id": 7},
        {
            "text": "The <<basses>> sang",
            "senses": ["bass.voice", "bass.music"],
            "lemma": "bass",
            "target_pos": "NOUN",
        },
    ]
    path = write(tmp_path / "b.jsonl", "\n".join(json.dumps(r) for r in records) + "\n\n")
    first, second = load_user_file(path)
    assert (first.id, first.sense, first.lemma) == ("7", "bass.fish", "bass")
    assert second.id == "b:2" and second.senses == ("bass.voice", "bass.music")
    assert second.lemma == "bass" and second.key == "bass#NOUN" and second.target == "basses"
    path = write(tmp_path / "s.jsonl", '{"sentence": "A <<bass>> swam.", "sense": "b.f"}\n'
                                       '{"sentence": "A <<bass>>.", "text": "A <<bass>>."}\n')
    with pytest.raises(ValueError) as caught:  # "sentence" names the text, as in a TSV header
        load_user_file(path)
    assert str(caught.value).split("\n")[1:] == [
        f'{path}:2: give "text" or "sentence", not both']
    path.write_text('{"sentence": "A <<bass>> swam.", "sense": "b.f"}\n', encoding="utf-8")
    assert load_user_file(path)[0].tokens == ("A", "bass", "swam", ".")


def test_jsonl_every_bad_row_is_reported(tmp_path):
    lines = [
        '{"text": "a <<bass>>", "sense": "s"',  # 1 bad JSON
        '["a <<bass>>", "s"]',  # 2 not an object
        '{"text": "no marker", "sense": "s"}',  # 3
        '{"text": "a <<bass>>", "sense": ""}',  # 4 empty sense
        '{"text": "a <<bass>>", "sens": "s"}',  # 5 typo in a key
        '{"text": "a <<bass>>", "sense": "s", "senses": ["s"]}',  # 6
        '{"sense": "s"}',  # 7 no text
        '{"text": "a <<bass>>", "senses": "s"}',  # 8 senses not a list
        '{"text": "a <<bass>>", "sense": "s", "target_pos": "NN"}',  # 9
        '{"text": "a fine <<bass>>", "sense": "s"}',  # 10 good
    ]
    path = write(tmp_path / "bad.jsonl", "\n".join(lines) + "\n")
    assert_reported(
        path,
        {
            1: "bad JSON",
            2: "expected a JSON object, got list",
            3: "no <<target>> marker",
            4: "empty sense",
            5: "unknown key(s) sens",
            6: 'give "sense" or "senses", not both',
            7: 'missing "text"',
            8: '"senses" must be a list',
            9: '"target_pos" must be one of NOUN',
        },
    )


def test_format_by_extension_or_argument(tmp_path):
    assert file_format("x.TSV") == "tsv" and file_format("x.json-lines") == "jsonl"
    assert file_format("x.data", format="jsonl") == "jsonl"
    with pytest.raises(ValueError, match=r"x.csv: .*'.csv'; name the file .tsv or .txt "
                                         r"\(tab-separated\) \(a spreadsheet's CSV: save it as "
                                         r"tab-separated text.*format='tsv'"):
        file_format("x.csv")
    with pytest.raises(ValueError, match=r"'\(none\)'; name the file .tsv or .txt "
                                         r"\(tab-separated\), or .jsonl"):
        file_format("rows")
    with pytest.raises(ValueError, match="unknown format 'csv'"):
        file_format("x.tsv", format="csv")
    path = write(tmp_path / "rows.data", '{"text": "a <<bass>>", "sense": "s"}\n')
    assert load_user_file(path, format="jsonl")[0].sense == "s"


def test_empty_file_is_an_error(tmp_path):
    path = write(tmp_path / "empty.tsv", "# nothing yet\nsense\tsentence\n")
    with pytest.raises(ValueError, match="no rows"):
        load_user_file(path)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.tsv"
    path.write_bytes("s\tcaf\u00e9 <<bass>>\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8"):
        load_user_file(path)


@pytest.mark.parametrize("suffix", [".tsv", ".jsonl"])
def test_write_then_read_back(tmp_path, suffix):
    instances = [
        Instance.from_text("He caught a <<bass>> today", senses=["bass.fish"], id="a"),
        Instance(
            id="b",
            tokens=("I", "like", "ice", "cream"),
            span=(2, 4),
            lemma="ice cream",
            senses=("food",),
        ),
    ]
    path = tmp_path / ("out" + suffix)
    write_user_file(path, instances)
    loaded = load_user_file(path)
    assert loaded == instances


def test_write_tsv_refuses_several_senses(tmp_path):
    inst = Instance.from_text("a <<bass>>", senses=["s1", "s2"], id="x")
    with pytest.raises(ValueError, match="JSONL"):
        write_user_file(tmp_path / "out.tsv", [inst])
    write_user_file(tmp_path / "out.jsonl", [inst])
    assert load_user_file(tmp_path / "out.jsonl")[0].senses == ("s1", "s2")


def test_line_numbers_count_only_newlines(tmp_path):
    path = write(tmp_path / "ff.tsv", "s\ta form\x0cfeed <<bass>>\r\ns\tno marker\r\n")
    with pytest.raises(ValueError, match=r"ff\.tsv:2: no <<target>> marker"):
        load_user_file(path)


def test_inflected_targets_take_the_lemma_another_row_marks(tmp_path):
    """A row marking *bats* had been its own target beside *bat* (refused for training and
    prediction unless a lemma column was added); it takes the lemma as `wsd disambiguate`
    finds it, and a lemma column still decides."""
    path = write(tmp_path / "bats.tsv",
                 "bat.animal\tThe <<bats>> flew out of the cave.\n"
                 "bat.club\tHe swung the <<bat>> hard.\n"
                 "bat.club\tThe cricket <<Bats>> were stacked.\n"
                 "bat.animal\tThe <<batting>> eyelids.\t\tbatting\n")
    instances = load_user_file(path)
    assert [(inst.target, inst.lemma) for inst in instances] == [
        ("bats", "bat"), ("bat", "bat"), ("Bats", "bat"), ("batting", "batting")]


@needs_wordnet
def test_a_marked_word_that_is_a_form_of_two_rows_words_is_a_problem_of_its_row(tmp_path):
    path = write(tmp_path / "axes.tsv", "axe.tool\tAn <<axe>> fell.\naxis.line\tThe <<axis>> "
                 "turned.\naxe.tool\tTwo <<axes>> hung there.\n")
    with pytest.raises(ValueError) as error:
        load_user_file(path)
    assert f"{path}:3: the marked word 'axes' is a form of 'axe' and of 'axis'; give its " \
           "lemma (a lemma column in TSV" in str(error.value)


@needs_wordnet
def test_a_model_finds_the_lemma_of_inflected_rows_as_disambiguate_does(tmp_path):
    from wsd.experiments.disambiguate import disambiguate
    from wsd.features import Featurizer
    from wsd.learners import MulticlassAveragedPerceptron
    from wsd.systems.provenance import check_targets
    from wsd.systems.supervised import SupervisedWSD

    train = load_user_file(write(tmp_path / "t.tsv", "bat.animal\tThe <<bat>> flew at "
                                 "dusk.\nbat.club\tHe swung the <<bat>> hard.\n"))
    model = SupervisedWSD(Featurizer.preset("bow"), MulticlassAveragedPerceptron(seed=0))
    model.fit(train)
    rows = load_user_file(write(tmp_path / "p.tsv", "\tThe <<bats>> flew at dusk.\n"),
                          require_senses=False)
    assert [inst.lemma for inst in check_targets(model.lemmas_, rows, "p.tsv")] == ["bat"]
    assert model.predict(rows) == ["bat.animal"]
    (record,) = disambiguate(model, ["The <<bats>> flew at dusk."], None)
    assert record["sense"] == "bat.animal"
    two = SupervisedWSD(Featurizer.preset("bow"), MulticlassAveragedPerceptron(seed=0))
    two.lemmas_ = ["axe", "axis"]
    axes = load_user_file(write(tmp_path / "a.tsv", "\tTwo <<axes>> hung.\n"),
                          require_senses=False)
    message = "the marked word 'axes' is a form of 'axe' and of 'axis'; give its lemma"
    with pytest.raises(ValueError, match=f"a.tsv: a:1: {message}"):
        check_targets(two.lemmas_, axes, "a.tsv")
    with pytest.raises(ValueError, match=f"sentence 1: {message}"):
        disambiguate(two, ["Two <<axes>> hung."], None)
