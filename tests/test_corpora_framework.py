"""The all-words framework loader: small files written here, and the real data when present."""

import xml.etree.ElementTree as ET

import pytest

from wsd.corpora.framework import (
    dataset_names,
    dataset_paths,
    group_by_key,
    load_dataset,
    load_framework,
    read_key_file,
    write_key_file,
)
from wsd.resources import MissingResourceError, has_framework

XML = """<?xml version="1.0" encoding="UTF-8" ?>
<corpus lang="en" source="toy">
<text id="d000" source="br-x01">
<sentence id="d000.s000">
<wf lemma="the" pos="DET">The</wf>
<instance id="d000.s000.t000" lemma="bass" pos="NOUN">bass</instance>
<instance id="d000.s000.t001" lemma="swim" pos="VERB">swam</instance>
<instance id="d000.s000.t002" lemma="look_away" pos="VERB">looked away</instance>
<wf lemma="." pos=".">.</wf>
</sentence>
</text>
<text id="d001">
<sentence id="d001.s000">
<wf lemma="a" pos="DET">A</wf>
<instance id="d001.s000.t000" lemma="bass" pos="NOUN">bass</instance>
<wf lemma="play" pos="VERB">played</wf>
</sentence>
</text>
</corpus>
"""
KEY = """d000.s000.t000 bass%1:13:02::
d000.s000.t001 swim%2:38:00::

d000.s000.t002 look_away%2:39:00:: look_away%2:39:01::
d001.s000.t000 bass%1:10:00::
"""


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def toy(tmp_path):
    return write(tmp_path / "toy.data.xml", XML), write(tmp_path / "toy.gold.key.txt", KEY)


def test_instances_from_toy_files(toy):
    instances = load_framework(*toy)
    assert [inst.id for inst in instances] == [
        "d000.s000.t000",
        "d000.s000.t001",
        "d000.s000.t002",
        "d001.s000.t000",
    ]
    first, second, third, fourth = instances
    assert first.tokens == ("The", "bass", "swam", "looked away", ".")
    assert first.pos == ("DET", "NOUN", "VERB", "VERB", ".")
    assert [inst.span for inst in instances] == [(1, 2), (2, 3), (3, 4), (1, 2)]
    assert (first.lemma, first.target_pos, first.key) == ("bass", "NOUN", "bass#NOUN")
    assert third.target == "looked away" and third.key == "look_away#VERB"
    assert third.senses == ("look_away%2:39:00::", "look_away%2:39:01::")
    assert fourth.tokens == ("A", "bass", "played") and fourth.sense == "bass%1:10:00::"
    lemmas = ("the", "bass", "swim", "look_away", ".")
    assert dict(first.meta) == {"document": "d000", "source": "br-x01", "sentence": "d000.s000",
                                "lemmas": lemmas}  # fmt: skip
    assert dict(fourth.meta) == {"document": "d001", "sentence": "d001.s000",
                                 "lemmas": ("a", "bass", "play")}  # fmt: skip


def test_one_sentence_shares_its_tuples(toy):
    first, second, third, fourth = load_framework(*toy)
    assert first.tokens is second.tokens is third.tokens
    assert first.pos is third.pos and first.meta is third.meta
    assert first.tokens is not fourth.tokens


def test_a_token_without_lemma_reads_its_lowercased_text(tmp_path):
    xml = XML.replace('<wf lemma="a" pos="DET">A</wf>', '<wf pos="DET">A</wf>')
    instances = load_framework(write(tmp_path / "x.data.xml", xml))
    assert dict(instances[-1].meta)["lemmas"] == ("a", "bass", "play")
    assert dict(instances[0].meta)["lemmas"][3] == "look_away"


def test_without_key_instances_are_unlabelled(toy):
    instances = load_framework(toy[0])
    assert len(instances) == 4 and all(inst.senses == () for inst in instances)


def test_group_by_key(toy):
    groups = group_by_key(load_framework(*toy))
    assert list(groups) == ["bass#NOUN", "swim#VERB", "look_away#VERB"]
    assert [inst.id for inst in groups["bass#NOUN"]] == ["d000.s000.t000", "d001.s000.t000"]


def test_malformed_xml_names_file_and_line(tmp_path):
    broken = XML.replace('</sentence>\n</text>\n<text id="d001">', '</text>\n<text id="d001">')
    path = write(tmp_path / "broken.data.xml", broken)
    line = broken.splitlines().index("</text>") + 1
    with pytest.raises(ValueError, match=rf"broken\.data\.xml:{line}:\d+: malformed XML"):
        load_framework(path)


def test_truncated_xml_is_an_error(tmp_path):
    path = write(tmp_path / "cut.data.xml", XML[: XML.index('<text id="d001">')])
    with pytest.raises(ValueError, match=r"cut\.data\.xml:\d+:\d+: malformed XML"):
        load_framework(path)


def test_instance_without_lemma(tmp_path):
    path = write(tmp_path / "x.data.xml", XML.replace(' lemma="swim"', ""))
    with pytest.raises(ValueError, match="d000.s000.*lacks its id, lemma or pos"):
        load_framework(path)


def test_unexpected_element_in_sentence(tmp_path):
    path = write(
        tmp_path / "x.data.xml",
        XML.replace('<wf lemma="a"', '<w lemma="a"', 1).replace("A</wf>", "A</w>"),
    )
    with pytest.raises(ValueError, match="<w> element"):
        load_framework(path)


def test_key_missing_an_instance(toy, tmp_path):
    key = write(tmp_path / "short.key", KEY.replace("d001.s000.t000 bass%1:10:00::\n", ""))
    with pytest.raises(ValueError, match=r"no gold line for 1 instance.*d001\.s000\.t000"):
        load_framework(toy[0], key)


def test_key_with_an_unknown_id(toy, tmp_path):
    key = write(tmp_path / "long.key", KEY + "d009.s000.t000 bass%1:10:00::\n")
    with pytest.raises(ValueError, match=r"1 gold id\(s\) that are not instances.*d009"):
        load_framework(toy[0], key)


def test_read_key_file(toy):
    gold = read_key_file(toy[1])
    assert gold["d001.s000.t000"] == ("bass%1:10:00::",)
    assert len(gold) == 4 and len(gold["d000.s000.t002"]) == 2


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [("a x\nb\n", 2, "expected 'instance_id"), ("a x\n\na y\n", 3, "appears twice")],
)
def test_bad_key_lines(tmp_path, text, line, problem):
    path = write(tmp_path / "bad.key", text)
    with pytest.raises(ValueError, match=rf"bad\.key:{line}: .*{problem}"):
        read_key_file(path)


def test_write_key_file_round_trip(tmp_path):
    path = tmp_path / "pred.key"
    write_key_file(path, {"i1": "bass%1:13:02::", "i2": None, "i3": ["k1", "k2"], "i4": []})
    assert path.read_text() == "i1 bass%1:13:02::\ni3 k1 k2\n"
    assert read_key_file(path) == {"i1": ("bass%1:13:02::",), "i3": ("k1", "k2")}


@pytest.mark.parametrize("bad", [{"i 1": "k"}, {"i1": "k k"}, {"i1": ["k", ""]}])
def test_write_key_file_rejects_whitespace(tmp_path, bad):
    with pytest.raises(ValueError, match="without whitespace"):
        write_key_file(tmp_path / "pred.key", bad)


def test_dataset_paths_in_a_made_up_root(tmp_path, toy):
    folder = tmp_path / "fw" / "Evaluation_Datasets" / "semeval2007"
    folder.mkdir(parents=True)
    write(folder / "semeval2007.data.xml", XML)
    write(folder / "semeval2007.gold.key.txt", KEY)
    root = tmp_path / "fw"
    assert dataset_paths("SemEval2007", root) == (
        folder / "semeval2007.data.xml",
        folder / "semeval2007.gold.key.txt",
    )
    assert dataset_names(root) == ["semeval2007"]
    assert len(load_dataset("semeval2007", root)) == 4
    with pytest.raises(MissingResourceError, match="semcor"):
        dataset_paths("semcor", root)


def test_unknown_dataset_name(tmp_path):
    with pytest.raises(ValueError, match="semcor, senseval2"):
        dataset_paths("senseval9", tmp_path)




needs_framework = pytest.mark.skipif(
    not has_framework(),
    reason="WSD evaluation framework data (../shared/data/wsd_framework) absent",
)


@needs_framework
@pytest.mark.parametrize(
    ("name", "count"), [("semeval2007", 455), ("senseval2", 2282), ("senseval3", 1850)]
)
def test_real_evaluation_sets(name, count):
    instances = load_dataset(name)
    assert len(instances) == count
    assert all(
        inst.senses and inst.target_pos in {"NOUN", "VERB", "ADJ", "ADV"} for inst in instances
    )
    # independent check: parse the whole tree and rebuild the first instance's sentence
    xml_path, key_path = dataset_paths(name)
    sentence = next(ET.parse(xml_path).getroot().iter("sentence"))
    first = instances[0]
    assert first.tokens == tuple(token.text for token in sentence)
    assert first.id == sentence.find("instance").get("id")
    assert first.senses == tuple(
        next(
            line for line in key_path.read_text().splitlines() if line.startswith(first.id + " ")
        ).split()[1:]
    )


@needs_framework
def test_real_semcor_count():
    instances = load_dataset("semcor")
    assert len(instances) == 226036
    assert instances[0].key == "group#NOUN" and instances[0].target == "Fulton_County_Grand_Jury"
