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

from wsd.corpora.framework import load_framework, read_key_file
from wsd.corpora.userfile import load_user_file
from wsd.experiments.config import load_config
from wsd.persistence import load_model
from wsd.requests import config_options
from wsd.resources import MissingResourceError, has_nltk_resource

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
    header (first such line naming sense and sentence/text, in either order, or made of
    column names only)."""
    rows = [line for line in lines
            if line.strip() and not (line.lstrip().startswith("#") and "\t" not in line)]
    if rows:
        names = {"text": "sentence"}
        cells = [names.get(c.strip().lower(), c.strip().lower()) for c in rows[0].split("\t")]
        if ({*cells[:2]} == {"sense", "sentence"} and len(cells) >= 2) or set(cells) <= {
                "sense", "sentence", "id", "lemma"}:
            rows = rows[1:]
    return len(rows)


WELL_FORMED_TSV = st.tuples(
    st.sampled_from(["bass.fish", "bass.fish", "bass.music", "", "#x", "bass music"]), WORDS,
    WORDS, st.sampled_from(["", "", "\tid1", "\tid2\tbass", "\t\tbass", "\tid 2"])).map(
    lambda t: f"{t[0]}\tA {t[1]} <<{t[2]}>> here.{t[3]}")
TSV_LINE = st.one_of(
    WELL_FORMED_TSV, WELL_FORMED_TSV, WELL_FORMED_TSV,
    st.sampled_from(["", "# note", "sense\tsentence", "sense\ttext\tlemma\tid", "  ",
                     "sentence\tsense", "Text\tSense\tid", "sentence", "id\ttext"]),
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
              "lemma": JSON_VALUES, "target_pos": JSON_VALUES, "extra": JSON_VALUES,
              "sentence": JSON_VALUES})
WELL_FORMED_RECORDS = st.fixed_dictionaries(
    {"text": st.sampled_from(["A <<bass>> here.", "two <<basses>> swam", "<<Bass>> é"])},
    optional={"sense": st.sampled_from(["bass.fish", "bass.music", "", " "]),
              "id": st.one_of(st.integers(), st.sampled_from(["a1", "a2", "a 3"])),
              "lemma": st.sampled_from(["bass", "", "Bass"]),
              "target_pos": st.sampled_from(["NOUN", "VERB", "noun"])})
JSONL_LINE = st.one_of(
    WELL_FORMED_RECORDS.map(json.dumps), WELL_FORMED_RECORDS.map(json.dumps),
    WELL_FORMED_RECORDS.map(lambda r: json.dumps({"sentence" if k == "text" else k: v
                                                  for k, v in r.items()})),  # its other name
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
    from wsd.systems.named import make_system, small_corpus_settings

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
        argv = load_config(path, config_options)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded")
    assert all(isinstance(arg, str) for arg in argv)
    assert argv[0] in ("compare", "train", "allwords", "predict", "disambiguate")


# -- Senseval lexical-sample files, key files, sense maps, dictionaries -----------------------
# (NLTK's senseval reader only reads its own data folders; user Senseval files go through
# wsd.corpora.lexsample, so that is where Senseval-format fuzzing belongs.)

LEX_TOKEN = st.one_of(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzéßABC0123456789", min_size=1, max_size=6),
    st.sampled_from([",", ";", "&", "<", ">", "(", ")", "½", "&amp;", "&frac12", "'s", "x&y"]))
LEX_ID = st.text(alphabet="abcdefghij.0123456789_-:é", min_size=1, max_size=8)
LEXELT = st.sampled_from(["bass.n", "activate.v", "different.a", "art", "call_up.v", "x.r"])
SENSE_ID = st.sampled_from(["1", "2", "U", "38201", "bass%1:13:00::", "s.é"])


def _lex_tokens(tokens: list[str]) -> list[str]:
    from wsd.corpora.lexsample import _tokens

    return _tokens(" ".join(tokens))


@st.composite
def lex_instances(draw):
    from hypothesis import assume

    from wsd.corpora.lexsample import parse_lexelt
    from wsd.instance import Instance

    ids = draw(st.lists(LEX_ID, min_size=1, max_size=4, unique=True))
    instances = []
    for instance_id in ids:
        tokens = draw(st.lists(LEX_TOKEN, min_size=1, max_size=8))
        assume(_lex_tokens(tokens) == tokens)  # text the reader tokenizes back the same
        start = draw(st.integers(0, len(tokens) - 1))
        end = draw(st.integers(start + 1, min(start + 2, len(tokens))))
        item = draw(LEXELT)
        lemma, pos = parse_lexelt(item)
        senses = tuple(draw(st.lists(SENSE_ID, max_size=3, unique=True)))
        meta = (("lexelt", item),) + ((("docsrc", "BNC"),) if draw(st.booleans()) else ())
        instances.append(Instance(id=instance_id, tokens=tuple(tokens), span=(start, end),
                                  lemma=lemma, senses=senses, target_pos=pos, meta=meta))
    return instances


def _lex_row(inst) -> tuple:
    from wsd.corpora.lexsample import lexelt_of

    return (inst.id, inst.tokens, inst.span, inst.lemma, inst.target_pos, inst.senses,
            lexelt_of(inst), dict(inst.meta).get("docsrc"))


@FUZZ
@given(instances=lex_instances(), answers=st.booleans())
def test_lexsample_round_trip(tmp_path, instances, answers):
    from wsd.corpora.lexsample import read_lexsample, write_lexsample

    path = _fresh(tmp_path, "written.xml")
    write_lexsample(path, instances, answers=answers)
    back = read_lexsample(path)
    lexelts = [_lex_row(inst)[6] for inst in instances]
    grouped = sorted(range(len(instances)), key=lambda i: (lexelts.index(lexelts[i]), i))
    expected = [instances[i] if answers else instances[i].with_senses(()) for i in grouped]
    assert [_lex_row(inst) for inst in back] == [_lex_row(inst) for inst in expected]


LEX_PIECES = st.sampled_from([
    '<lexelt item="bass.n">', "</lexelt>", '<instance id="i1">', '<instance id="i2" docsrc="B">',
    "</instance>", '<answer instance="i1" senseid="1"/>', '<answer instance="i2" senseid="U"/>',
    '<answer senseid="a b"/>', "<context>", "</context>", "<head>", "</head>", "bass", "the",
    "&frac12 ;", "&", "&#0;", "&amp;", "<p>", "</p>", "<![CDATA[x<y]]>", "<?pi x?>",
    '<?xml version="1.0"?>', '<?xml version="1.0" encoding="latin-1"?>',
    '<!DOCTYPE corpus SYSTEM "ls.dtd">', '<!DOCTYPE x [<!ENTITY e "bass">]>', "&e;",
    '<!ENTITY a "&b;&b;">', "<corpus>", "</corpus>", "\n", " ", "\ufeff", "<lexelt>",
    '<instance id="">', '<instance id="a b">', "<head></head>", "</wsd-lexsample-root>"])


def _good_instance(instance_id: str) -> str:
    return (f'<instance id="{instance_id}"><answer instance="{instance_id}" senseid="1"/>'
            "<context>a <head>bass</head> b</context></instance>\n")


@st.composite
def with_hostile_pieces(draw, good, pieces):
    """Good parts with up to two hostile pieces put in at random places (so that both loaded
    and refused files are common)."""
    parts = list(draw(good))
    for piece in draw(st.lists(pieces, max_size=2)):
        parts.insert(draw(st.integers(0, len(parts))), piece)
    return "".join(parts)


LEX_BODY = with_hostile_pieces(
    st.lists(st.sampled_from(["i1", "i2", "i3", "i4", "i1"]), min_size=1, max_size=4).map(
        lambda ids: ['<lexelt item="bass.n">\n', *map(_good_instance, ids), "</lexelt>\n"]),
    LEX_PIECES)
LEX_KEY_LINE = st.one_of(
    st.tuples(st.sampled_from(["bass.n", "bass.v"]), st.sampled_from(["i1", "i2", "i3", "i9"]),
              st.lists(SENSE_ID, max_size=2)).map(lambda t: " ".join((t[0], t[1], *t[2]))),
    st.sampled_from(["", "!! comment", "bass.n i1", "bass.n i1 1 !! note"]), CELL)


@FUZZ
@given(body=LEX_BODY, cut=st.one_of(st.just(0), st.integers(0, 600)),
       noise=st.one_of(st.just(b""), st.binary(max_size=4)), at=st.integers(0, 600),
       keys=st.one_of(st.none(), st.none(), st.lists(LEX_KEY_LINE, max_size=4)))
def test_lexsample_contract(tmp_path, body, cut, noise, at, keys):
    from wsd.corpora.lexsample import read_key, read_lexsample

    raw = body.encode("utf-8")
    if cut and cut < len(raw):
        raw = raw[:cut]
    raw = raw[:at] + noise + raw[at:]
    path = _fresh(tmp_path, "data.xml")
    path.write_bytes(raw)
    key = None
    if keys is not None:
        key = path.with_name("data.key")
        key.write_text("\n".join(keys), encoding="utf-8")
    try:
        instances = read_lexsample(path, key)
    except Exception as error:  # noqa: BLE001 - the contract is checked on any exception
        event(f"refused: {type(error).__name__}")
        assert isinstance(error, ValueError), repr(error)
        assert path.name in str(error) or (key is not None and key.name in str(error)), error
        return
    event("loaded")
    assert len(instances) == raw.count(b"<instance ")
    assert len({inst.id for inst in instances}) == len(instances)
    for inst in instances:
        assert 0 <= inst.span[0] < inst.span[1] <= len(inst.tokens)
        assert all(token and not any(c.isspace() for c in inst.id) for token in inst.tokens)
    if key is not None:
        gold = read_key(key)
        assert {inst.id: inst.senses for inst in instances} == {
            i: senses for i, (_, senses) in gold.items()}


@FUZZ
@given(lines=st.lists(LEX_KEY_LINE, max_size=8), raw=st.binary(max_size=6))
def test_lexsample_key_contract(tmp_path, lines, raw):
    from wsd.corpora.lexsample import read_key

    path = _fresh(tmp_path, "k.key")
    path.write_bytes("\n".join(lines).encode("utf-8") + raw)
    try:
        gold = read_key(path)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded")
    text = path.read_bytes().decode("utf-8-sig")
    assert len(gold) == sum(1 for line in text.split("\n") if line.split("!!", 1)[0].split())


@FUZZ
@given(lines=st.lists(st.lists(st.sampled_from(["a", "b", "c", "d", "1", "U", "!!"]),
                               max_size=4).map(" ".join), max_size=8),
       raw=st.binary(max_size=4))
def test_sense_map_contract(tmp_path, lines, raw):
    from wsd.evaluation.scorer2 import read_sense_map

    path = _fresh(tmp_path, "map.txt")
    path.write_bytes("\n".join(lines).encode("utf-8") + raw)
    try:
        mapping = read_sense_map(path)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded")
    firsts = [line.split()[0] for line in path.read_bytes().decode("utf-8-sig").split("\n")
              if line.split()]
    assert sorted(mapping) == sorted(firsts)
    assert all(mapping.get(coarse, coarse) == coarse for coarse in mapping.values())


DICT_PIECES = st.sampled_from([
    '<lexelt item="bass.n">', "</lexelt>", '<sense id="1" gloss="a fish"/>',
    '<sense id="2" gloss="low tone" synset="bass"/>', '<sense id="1" gloss="again"/>',
    '<sense id="3"/>', '<sense id="4">a gloss as text</sense>', '<sense gloss="no id"/>',
    '<sense id="a b" gloss="x"/>', "<dictionary>", "</dictionary>", "&", "&e;",
    '<!DOCTYPE d [<!ENTITY e "x">]>', "\n"])


DICT_BODY = with_hostile_pieces(
    st.lists(st.sampled_from(['<sense id="1" gloss="a fish"/>', '<sense id="2" gloss="low"/>',
                              '<sense id="5">a gloss as text</sense>']), max_size=3, unique=True)
    .map(lambda senses: ['<lexelt item="bass.n">', *senses, "</lexelt>"]), DICT_PIECES)


@FUZZ
@given(text=DICT_BODY)
def test_lexsample_dictionary_contract(tmp_path, text):
    from wsd.corpora.lexsample import read_dictionary

    path = _fresh(tmp_path, "dict.xml")
    path.write_text(text, encoding="utf-8")
    try:
        entries = read_dictionary(path)
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded")
    assert sum(map(len, entries.values())) == text.count("<sense ")
    assert all(gloss for senses in entries.values() for _, gloss, _ in senses)


# -- the all-words .npz model file ---------------------------------------------------------


@pytest.fixture(scope="module")
def npz_bytes(tmp_path_factory):
    from test_allwords import QUICK, _bank_sentences, _corpus, _load

    from wsd.systems.allwords import AllWordsWSD

    folder = tmp_path_factory.mktemp("npz")
    seeds = [(["a", "seed", "grew", "tall"], 1, "seed%1:20:00::", "seed"),
             (["seed", "the", "players"], 0, "seed%2:33:00::", "seed")] * 3
    train = _load(_corpus(folder, "train", [_bank_sentences(8) + seeds]))
    path = AllWordsWSD(**QUICK, epochs=1).fit(train).save(folder / "m.npz")
    return path.read_bytes(), train[:4]


NPZ_VALUES = st.one_of(REPLACEMENTS, st.sampled_from(["@@NaN", "@@-Infinity", "@@1e400"]))


@FUZZ
@given(data=st.data())
def test_npz_model_file_contract(tmp_path, npz_bytes, data):
    import io

    import numpy as np

    from wsd.persistence import load_model

    raw, instances = npz_bytes
    how = data.draw(st.sampled_from(["cut", "flip", "metadata", "array"]))
    if how == "cut":
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    elif how == "flip":
        raw = bytearray(raw)
        for at in data.draw(st.lists(st.integers(0, len(raw) - 1), min_size=1, max_size=4)):
            raw[at] ^= data.draw(st.integers(1, 255))
        raw = bytes(raw)
    else:
        with np.load(io.BytesIO(raw), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
        if how == "metadata":
            metadata = json.loads(arrays["metadata"].tobytes())
            paths = list(_paths(metadata))
            path_to = data.draw(st.sampled_from(paths[1:]))
            target = metadata
            for step in path_to[:-1]:
                target = target[step]
            target[path_to[-1]] = data.draw(NPZ_VALUES)
            text = re.sub(r'"@@([^"]*)"', r"\1", json.dumps(metadata))
            arrays["metadata"] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
        else:
            name = data.draw(st.sampled_from(sorted(arrays)))
            values = arrays[name].copy()
            if values.size and data.draw(st.booleans()):
                values[data.draw(st.integers(0, values.size - 1))] = data.draw(st.sampled_from(
                    [0, 1, 255, -1, 10**6, np.nan, np.inf] if values.dtype.kind == "f"
                    else [0, 1, 255, 127] if values.dtype == np.uint8 else [-1, 0, 10**6]))
            else:
                values = values[: data.draw(st.integers(0, values.size))]
            arrays[name] = values
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        raw = buffer.getvalue()
    path = _fresh(tmp_path, "m.npz")
    path.write_bytes(raw)
    try:
        model = load_model(path)
    except MissingResourceError as error:  # e.g. params {}: the default features need WordNet
        event("refused: a resource it needs is missing")
        assert not has_nltk_resource("wordnet"), repr(error)
        assert "python -m nltk.downloader wordnet" in str(error)
        return
    except Exception as error:  # noqa: BLE001
        _names_file(error, path)
        return
    event("loaded and predicted")
    answers = model.predict(instances)
    assert len(answers) == len(instances)


