"""The bundled corpus: its content meets the datasheet's promises and the loader validates input."""

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from wsd.corpora.bundled import (
    bundled_targets,
    load_bundled,
    load_bundled_inventory,
    read_jsonl,
    read_source,
)
from wsd.knowledge.bundled_senses import bundled_data_dir, read_inventory
from wsd.resources import has_nltk_resource

TARGETS = bundled_targets()


@pytest.fixture(scope="module")
def corpora():
    return {t: (load_bundled(t), load_bundled_inventory(t)) for t in TARGETS}


def test_the_classic_targets_are_bundled():
    assert {"bass", "crane"} <= set(TARGETS)


@pytest.mark.parametrize("target", TARGETS)
def test_target_loads_enough_labelled_noun_instances(corpora, target):
    instances, inventory = corpora[target]
    assert len(instances) >= 300
    known = {s["id"] for s in inventory["senses"]}
    assert {inst.sense for inst in instances} == known  # every sense used, none unknown
    for inst in instances:
        assert inst.lemma == target
        assert inst.target_pos == inventory["pos"]
        assert inst.target.lower().startswith(target)
        assert len(inst.pos) == len(inst.tokens)
        if inventory["pos"] == "NOUN":
            assert inst.pos[inst.index] in ("NN", "NNS"), inst.id


@pytest.mark.parametrize("target", TARGETS)
def test_inventory_has_gloss_and_two_examples_per_sense(corpora, target):
    _, inventory = corpora[target]
    assert inventory["target"] == target
    assert len(inventory["senses"]) >= 2
    for sense in inventory["senses"]:
        assert sense["id"].startswith(f"{target}.")
        assert len(sense["gloss"].split()) >= 5
        assert len(sense["examples"]) >= 2
        assert all(target in example.lower() for example in sense["examples"])


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data not installed")
@pytest.mark.parametrize("target", TARGETS)
def test_wordnet_keys_name_a_sense_of_the_target(corpora, target):
    from nltk.corpus import wordnet as wn

    _, inventory = corpora[target]
    wn_pos = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}[inventory["pos"]]
    keys = [s["wordnet"] for s in inventory["senses"] if s["wordnet"]]
    assert len(keys) == len(set(keys))
    for key in keys:
        lemma = wn.lemma_from_key(key)
        assert lemma.name().lower() == target
        assert lemma.synset().pos() == wn_pos


@pytest.mark.parametrize("target", TARGETS)
def test_sense_distribution_is_skewed_but_not_degenerate(corpora, target):
    """The commonest sense has 55-85% on targets with two or three senses; on a target with
    many (line: nine) at least twice the uniform share; no sense is unused."""
    instances, inventory = corpora[target]
    counts = Counter(inst.sense for inst in instances)
    majority = max(counts.values()) / len(instances)
    assert min(0.55, 2 / len(inventory["senses"])) <= majority <= 0.85, counts


@pytest.mark.parametrize("target", TARGETS)
def test_ids_unique_and_no_repeated_sentence(corpora, target):
    instances, _ = corpora[target]
    assert len({inst.id for inst in instances}) == len(instances)
    sentences = Counter(" ".join(inst.tokens).lower() for inst in instances)
    assert [s for s, n in sentences.items() if n > 1] == []


@pytest.mark.parametrize("target", TARGETS)
def test_built_jsonl_is_up_to_date_with_the_source(corpora, target):
    instances, inventory = corpora[target]
    rebuilt = read_source(bundled_data_dir() / f"{target}.src.tsv", inventory)
    assert [(i.id, i.tokens, i.span, i.senses) for i in rebuilt] == [
        (i.id, i.tokens, i.span, i.senses) for i in instances
    ], "run: python data/build_bundled.py " + target


def test_unknown_target_lists_the_available_ones():
    with pytest.raises(ValueError, match="available targets: .*bass"):
        load_bundled("no-such-word")
    with pytest.raises(ValueError, match="no-such-word"):
        load_bundled_inventory("no-such-word")


# --- validation on small files written here ----------------------------------------------

INVENTORY = {
    "target": "bass",
    "pos": "NOUN",
    "senses": [
        {"id": "bass.fish", "gloss": "a fish", "examples": ["a", "b"], "wordnet": None},
        {"id": "bass.music", "gloss": "low sound", "examples": ["c", "d"], "wordnet": None},
    ],
}
RECORD = {
    "id": "bass.0001",
    "sense": "bass.fish",
    "tokens": ["a", "big", "bass"],
    "pos": ["DT", "JJ", "NN"],
    "span": [2, 3],
    "lemma": "bass",
}


def write_corpus(folder: Path, lines: list[str]) -> None:
    (folder / "bass.senses.json").write_text(json.dumps(INVENTORY))
    (folder / "bass.jsonl").write_text("".join(line + "\n" for line in lines))


def test_data_dir_option_and_environment_variable(tmp_path, monkeypatch):
    write_corpus(tmp_path, [json.dumps(RECORD)])
    (tmp_path / "orphan.jsonl").write_text("")  # no inventory: not a target
    [inst] = load_bundled("bass", data_dir=tmp_path)
    assert (inst.tokens, inst.span, inst.senses, inst.target_pos) == (
        ("a", "big", "bass"),
        (2, 3),
        ("bass.fish",),
        "NOUN",
    )
    monkeypatch.setenv("WSD_DATA_DIR", str(tmp_path))
    assert bundled_targets() == ["bass"]
    assert bundled_data_dir() == tmp_path


def test_missing_folder_names_the_environment_variable(tmp_path):
    from wsd.resources import MissingResourceError

    with pytest.raises(MissingResourceError, match="WSD_DATA_DIR"):
        bundled_targets(tmp_path / "absent")


@pytest.mark.parametrize(
    "bad_line, message",
    [
        ("{not json", "not valid JSON"),
        (json.dumps({k: v for k, v in RECORD.items() if k != "span"}), "missing key.*span"),
        (json.dumps({**RECORD, "span": [2, 9]}), "outside"),
        (json.dumps({**RECORD, "pos": ["DT"]}), "POS tags"),
        (json.dumps({**RECORD, "span": "2-3"}), "two integers"),
    ],
)
def test_bad_jsonl_line_is_reported_with_file_and_line(tmp_path, bad_line, message):
    write_corpus(tmp_path, [json.dumps(RECORD), "", bad_line])
    with pytest.raises(ValueError, match=rf"bass\.jsonl:3: .*{message}"):
        read_jsonl(tmp_path / "bass.jsonl")


def test_unknown_sense_in_jsonl_is_rejected(tmp_path):
    write_corpus(tmp_path, [json.dumps({**RECORD, "sense": "bass.guitar"})])
    with pytest.raises(ValueError, match="bass.guitar"):
        load_bundled("bass", data_dir=tmp_path)


def test_bad_inventory_is_rejected(tmp_path):
    path = tmp_path / "x.senses.json"
    path.write_text(json.dumps({**INVENTORY, "pos": "NN"}))
    with pytest.raises(ValueError, match="x.senses.json: pos"):
        read_inventory(path)
    path.write_text(json.dumps({**INVENTORY, "senses": INVENTORY["senses"] * 2}))
    with pytest.raises(ValueError, match="listed twice"):
        read_inventory(path)


def test_source_reader_numbers_instances_and_skips_comments(tmp_path):
    path = tmp_path / "bass.src.tsv"
    path.write_text(
        "# a comment\n"
        "bass.fish\tWe caught a <<Bass>> today.\n"
        "\n"
        "bass.music\tShe plays <<bass>> in a band.\n"
    )
    first, second = read_source(path, INVENTORY)
    assert (first.id, first.target, first.span) == ("bass.0001", "Bass", (3, 4))
    assert (second.id, second.target, second.sense) == ("bass.0002", "bass", "bass.music")
    assert first.sense == "bass.fish"
    assert dict(first.meta)["source"] == f"{path}:2"


@pytest.mark.parametrize(
    "bad_row, message",
    [
        ("bass.fsh\tA <<bass>> swam by.", "unknown sense 'bass.fsh'"),
        ("bass.fish\tA bass swam by.", "mark the target exactly once"),
        ("bass.fish\tA <<bass>> and a <<bass>>.", "mark the target exactly once"),
        ("bass.fish\tA <<trout>> swam by.", "the marked word 'trout' is not a form of 'bass'"),
        ("bass.fish A <<bass>> swam by.", "expected 'sense<TAB>sentence'"),
        ("bass.fish\tWe caught a <<bass>>  today.", "same sentence as line 1"),
    ],
)
def test_bad_source_row_is_reported_with_file_and_line(tmp_path, bad_row, message):
    path = tmp_path / "bass.src.tsv"
    path.write_text("bass.fish\tWe caught a <<bass>> today.\n" + bad_row + "\n")
    with pytest.raises(ValueError, match=rf"bass\.src\.tsv:2: {message}"):
        read_source(path, INVENTORY)


def test_loading_needs_no_nltk_data(tmp_path):
    code = "from wsd.corpora.bundled import load_bundled; print(len(load_bundled('bass')))"
    env = {**os.environ, "NLTK_DATA": str(tmp_path), "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert int(done.stdout) >= 300


# --- the build script's own rules (data/build_bundled.py) ---------------------------------


@pytest.fixture(scope="module")
def build_script():
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "data" / "build_bundled.py"
    spec = importlib.util.spec_from_file_location("build_bundled", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_target_tag_is_forced_to_a_noun_tag(build_script):
    assert build_script.target_tag("Bass", "bass", "NNP") == "NN"
    assert build_script.target_tag("cranes", "crane", "VBZ") == "NNS"
    assert build_script.target_tag("bass", "bass", "NNS") == "NNS"  # tagger's noun tag kept


def test_straight_quotes_alternate_for_the_tagger(build_script):
    tokens = ('"', "Hi", ",", '"', "she", "said", ",", '"', "bye", '"')
    assert build_script.tagger_tokens(tokens) == [
        "``", "Hi", ",", "''", "she", "said", ",", "``", "bye", "''"
    ]


def test_two_sentences_on_one_line_are_caught(build_script, tmp_path, capsys):
    path = tmp_path / "bass.src.tsv"
    path.write_text(
        "bass.fish\tHe smiled. it was a <<bass>>.\n"
        "bass.fish\tThey ate the <<bass.>> it was good.\n"
        "bass.fish\tMr. Smith ate the <<bass>>.\n"
    )
    warned, wrong, fine = read_source(path, INVENTORY)
    build_script.check_tokens(warned)
    assert f"{path}:1: token 'smiled.'" in capsys.readouterr().err
    with pytest.raises(ValueError, match=rf"{path}:2: target token 'bass.'"):
        build_script.check_tokens(wrong)
    build_script.check_tokens(fine)
    assert capsys.readouterr().err == ""
