"""Property-based tests of every reader of user-controlled input (issue 15's contract).

For any input, a reader either raises a ValueError-family error whose message names the file,
or returns a result that accounts for every input row (one instance per data row or
``<instance>``, one gold entry per key line). Never another exception, never a changed row count
without an error. Inputs are built from the formats' own pieces (tabs, markers, ``#``, tags,
duplicate ids, odd POS, numbers where strings go...) so that both outcomes are common.
``pytest --hypothesis-show-statistics tests/test_fuzz_readers.py`` prints how many inputs ran.
"""

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from wsd import cli
from wsd.corpora.framework import load_framework, read_key_file
from wsd.corpora.userfile import load_user_file
from wsd.experiments.config import load_config
from wsd.persistence import load_model

# Modest by default to keep the suite fast; WSD_FUZZ_EXAMPLES=2000 for a long hunt.
FUZZ = settings(max_examples=int(os.environ.get("WSD_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

# Pieces users' files are made of, hostile ones included.
WORDS = st.sampled_from(["bass", "basses", "Bass", "the", "fish", "a", "é", "ß", "x y", "1"])
PIECES = st.sampled_from(["<<", ">>", "<<bass>>", "<< >>", "\t", "#", " ", "bass.fish",
                          "bass.music", "sense", "sentence", "id", "lemma", "text", "\r", "\x00",
                          "\ufeff", '"', "{", "[", "\\"])
CELL = st.lists(st.one_of(WORDS, PIECES, st.text(max_size=3)), max_size=6).map("".join)


def _fresh(tmp_path: Path, name: str) -> Path:
    """A new file name per example (hypothesis reuses the function's tmp_path)."""
    _fresh.count += 1
    folder = tmp_path / f"case{_fresh.count}"
    folder.mkdir()
    return folder / name


_fresh.count = 0


def _names_file(error: Exception, path: Path) -> None:
    event(f"refused: {type(error).__name__}")
    assert isinstance(error, ValueError), repr(error)
    assert path.name in str(error), str(error)


# -- user TSV ---------------------------------------------------------------------------


def _tsv_data_rows(lines: list[str]) -> int:
    """Rows the TSV contract promises to load: not blank, not a tab-free '#' comment, not the
    header (first such line naming sense and sentence/text)."""
    rows = [line for line in lines
            if line.strip() and not (line.lstrip().startswith("#") and "\t" not in line)]
    if rows:
        cells = [c.strip().lower() for c in rows[0].split("\t")]
        if len(cells) >= 2 and cells[0] == "sense" and cells[1] in ("sentence", "text"):
            rows = rows[1:]
    return len(rows)


WELL_FORMED_TSV = st.tuples(
    st.sampled_from(["bass.fish", "bass.fish", "bass.music", "", "#x", "bass music"]), WORDS,
    WORDS, st.sampled_from(["", "", "\tid1", "\tid2\tbass", "\t\tbass", "\tid 2"])).map(
    lambda t: f"{t[0]}\tA {t[1]} <<{t[2]}>> here.{t[3]}")
TSV_LINE = st.one_of(
    WELL_FORMED_TSV, WELL_FORMED_TSV, WELL_FORMED_TSV,
    st.sampled_from(["", "# note", "sense\tsentence", "sense\ttext\tlemma\tid", "  "]),
    st.lists(CELL, min_size=1, max_size=5).map("\t".join),
)


@FUZZ
@given(lines=st.lists(TSV_LINE, max_size=5), require=st.booleans())
def test_user_tsv_contract(tmp_path, lines, require):
    path = _fresh(tmp_path, "user.tsv")
    text = "\n".join(line.replace("\n", " ") for line in lines)
    path.write_text(text, encoding="utf-8")
    try:
        instances = load_user_file(path, require_senses=require)
    except Exception as error:  # noqa: BLE001 - the contract is checked on any exception
        _names_file(error, path)
        return
    event("loaded")
    assert len(instances) == _tsv_data_rows(text.removeprefix("\ufeff").split("\n"))
    assert len({inst.id for inst in instances}) == len(instances)


# -- user JSONL -------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              CELL, st.sampled_from(["NOUN", "VERB", "verb", "a <<bass>> b", "bass.fish"])),
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.text(max_size=4), children, max_size=3)),
    max_leaves=8)
RECORDS = st.fixed_dictionaries(
    {"text": st.one_of(st.sampled_from(["A <<bass>> here.", "two <<basses>>", "no marker"]),
                       JSON_VALUES)},
    optional={"sense": JSON_VALUES, "senses": JSON_VALUES, "id": JSON_VALUES,
              "lemma": JSON_VALUES, "target_pos": JSON_VALUES, "extra": JSON_VALUES})
WELL_FORMED_RECORDS = st.fixed_dictionaries(
    {"text": st.sampled_from(["A <<bass>> here.", "two <<basses>> swam", "<<Bass>> é"])},
    optional={"sense": st.sampled_from(["bass.fish", "bass.music", "", " "]),
              "id": st.one_of(st.integers(), st.sampled_from(["a1", "a2", "a 3"])),
              "lemma": st.sampled_from(["bass", "", "Bass"]),
              "target_pos": st.sampled_from(["NOUN", "VERB", "noun"])})
JSONL_LINE = st.one_of(
    WELL_FORMED_RECORDS.map(json.dumps), WELL_FORMED_RECORDS.map(json.dumps),
    RECORDS.map(lambda r: json.dumps(r, ensure_ascii=False)),
    st.sampled_from(["", "   ", "{", "NaN", '{"text": "a <<b>>", "sense": Infinity}',
                     '{"text": "a <<b>>", "sense": 1e999}', "[" * 3000 + "]" * 3000,
                     '{"text": "a <<b>>", "id": ' + "9" * 400 + ', "sense": "s"}']),
    CELL)


@FUZZ
@given(lines=st.lists(JSONL_LINE, max_size=4), require=st.booleans())
def test_user_jsonl_contract(tmp_path, lines, require):
    path = _fresh(tmp_path, "user.jsonl")
    text = "\n".join(line.replace("\n", " ") for line in lines)
    path.write_text(text, encoding="utf-8")
    try:
        instances = load_user_file(path, require_senses=require)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded")
    assert len(instances) == sum(1 for line in text.split("\n") if line.strip())


# -- framework XML and key files ------------------------------------------------------------

IDS = st.sampled_from(["t1", "t2", "t3", "s1.t1", ""])
POS = st.sampled_from(["NOUN", "VERB", "ADJ", "ADV", "verb", "X", ""])


def _attrs(**values) -> str:
    return "".join(f' {k}="{v}"' for k, v in values.items() if v is not None)


TOKEN = st.one_of(
    st.tuples(WORDS, POS).map(lambda t: f"<wf{_attrs(lemma=t[0], pos=t[1])}>{t[0]}</wf>"),
    st.tuples(IDS, WORDS, POS).map(
        lambda t: f"<instance{_attrs(id=t[0], lemma=t[1], pos=t[2])}>{t[1]}</instance>"),
    st.sampled_from(["<other/>", "&amp;", "<wf>", "</sentence>"]),
)
SENTENCE = st.tuples(IDS, st.lists(TOKEN, max_size=4)).map(
    lambda t: f'<sentence id="{t[0]}">{"".join(t[1])}</sentence>')
XML_BODY = st.lists(st.one_of(SENTENCE, TOKEN), max_size=4).map(
    lambda parts: '<?xml version="1.0" encoding="UTF-8" ?>\n<corpus lang="en"><text id="d">'
                  + "".join(parts) + "</text></corpus>\n")
DOCTYPE = '<!DOCTYPE corpus [<!ENTITY e "bass">]>\n'
KEY_LINE = st.one_of(
    st.tuples(IDS, st.lists(st.sampled_from(["bass%1:13:00::", "x", "é"]), max_size=3)).map(
        lambda t: " ".join((t[0], *t[1]))),
    CELL)


@FUZZ
@given(body=XML_BODY, doctype=st.booleans(), cut=st.integers(0, 400),
       keys=st.one_of(st.none(), st.lists(KEY_LINE, max_size=5)))
def test_framework_contract(tmp_path, body, doctype, cut, keys):
    xml = _fresh(tmp_path, "d.data.xml")
    text = body.replace("<corpus", DOCTYPE + "<corpus", 1) if doctype else body
    if cut and cut < len(text):
        text = text[:cut]
    xml.write_text(text, encoding="utf-8")
    key = None
    if keys is not None:
        key = xml.with_name("d.gold.key.txt")
        key.write_text("\n".join(keys), encoding="utf-8")
    try:
        instances = load_framework(xml, key)
    except Exception as error:  # noqa: BLE001
        event(f"refused: {type(error).__name__}")
        assert isinstance(error, ValueError), repr(error)
        assert xml.name in str(error) or (key is not None and key.name in str(error)), error
        return
    event("loaded")
    assert len(instances) == len(re.findall(r"<instance\b", text))
    if key is not None:
        assert len(read_key_file(key)) == len(instances)


@FUZZ
@given(lines=st.lists(KEY_LINE, max_size=8), raw=st.binary(max_size=6))
def test_key_file_contract(tmp_path, lines, raw):
    path = _fresh(tmp_path, "k.key.txt")
    path.write_bytes("\n".join(lines).encode("utf-8") + raw)
    try:
        gold = read_key_file(path)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded")
    text = path.read_bytes().decode("utf-8-sig")
    assert len(gold) == sum(1 for line in text.split("\n") if line.split())


# -- model files ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def model_text(tmp_path_factory):
    from wsd.corpora.bundled import load_bundled
    from wsd.experiments.systems import make_system, small_corpus_settings

    model = make_system("averaged", small_corpus_settings(lemmatize=False, epochs=1))
    model.fit(load_bundled("bass")[::6])
    return model.save(tmp_path_factory.mktemp("m") / "m.json").read_text()


def _paths(value, prefix=()):
    """Every path into a JSON value (keys and list indexes)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _paths(item, (*prefix, index))


REPLACEMENTS = st.one_of(JSON_VALUES, st.sampled_from(
    [0, -1, 10**400, 1e308, "1.5", True, [], {}, None, ["a"], [1.0], "@@NaN", "@@1e999",
     "@@" + "[" * 5000 + "]" * 5000]))


@FUZZ
@given(data=st.data())
def test_model_file_contract(tmp_path, model_text, data):
    from wsd.corpora.bundled import load_bundled

    model = json.loads(model_text)
    paths = list(_paths(model))
    path_to = data.draw(st.sampled_from(paths[1:]))
    value = data.draw(REPLACEMENTS)
    target = model
    for step in path_to[:-1]:
        target = target[step]
    if data.draw(st.booleans()) or not isinstance(target, dict):
        target[path_to[-1]] = value
    else:
        del target[path_to[-1]]
    text = json.dumps(model)
    text = re.sub(r'"@@([^"]*)"', r"\1", text)  # raw JSON tokens: NaN, 1e999, deep nesting
    path = _fresh(tmp_path, "m.json")
    path.write_text(text, encoding="utf-8")
    try:
        loaded = load_model(path)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    try:
        answers = loaded.predict(load_bundled("bass")[:3])
    except ValueError as error:  # a model file loads but refuses these instances
        assert "trained for" in str(error), error
        return
    event("loaded and predicted")
    assert len(answers) == 3
    assert set(answers) <= set(loaded.senses)


# -- configs --------------------------------------------------------------------------------

CONFIG_KEYS = st.sampled_from(["command", "corpus", "systems", "folds", "lemmatize", "quiet",
                               "out", "evaluate", "sentences", "input", "epochs", "x", "--y"])
CONFIG_VALUES = st.one_of(JSON_VALUES, st.sampled_from(
    ["compare", "train", "run", "allwords", "predict", "disambiguate", "nope"]))


WELL_FORMED_CONFIG = st.fixed_dictionaries(
    {"command": st.just("compare"), "corpus": st.sampled_from(["bundled:bass", "a.tsv"])},
    optional={"systems": st.one_of(st.lists(st.sampled_from(["mfs", "lesk"]), max_size=2),
                                   st.just("mfs,lesk")),
              "folds": st.integers(-1, 10), "lemmatize": st.booleans(), "quiet": st.booleans(),
              "out": st.sampled_from(["run.seed1", ["x", "y"]]), "seed": st.integers()})


@FUZZ
@given(config=st.one_of(WELL_FORMED_CONFIG, WELL_FORMED_CONFIG,
                        st.dictionaries(CONFIG_KEYS, CONFIG_VALUES, max_size=6), JSON_VALUES),
       toml=st.booleans())
def test_config_contract(tmp_path, config, toml):
    path = _fresh(tmp_path, "c.toml" if toml else "c.json")
    if toml:
        path.write_text("\n".join(f"{k} = {json.dumps(v)}" for k, v in (
            config.items() if isinstance(config, dict) else [("x", config)])), encoding="utf-8")
    else:
        path.write_text(json.dumps(config), encoding="utf-8")
    try:
        argv = load_config(path, cli._config_options)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded")
    assert all(isinstance(arg, str) for arg in argv)
    assert argv[0] in ("compare", "train", "allwords", "predict", "disambiguate")
