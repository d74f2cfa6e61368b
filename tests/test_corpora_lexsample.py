"""The Senseval-2/3 lexical-sample reader on small hand-written files with every quirk."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.corpora.lexsample import (
    lexelt_of,
    load_lexsample,
    parse_lexelt,
    read_dictionary,
    read_key,
    read_lexsample,
    write_lexsample,
)
from wsd.corpora.lexsample_inventory import LexicalSampleInventory
from wsd.corpora.resolve import load_corpus
from wsd.instance import token_spans

DATA = Path(__file__).parent / "data" / "lexsample"


def write(tmp_path: Path, text: str, name: str = "data.xml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_lexelt_item_gives_lemma_and_pos():
    assert parse_lexelt("activate.v") == ("activate", "VERB")
    assert parse_lexelt("Argument.n") == ("argument", "NOUN")
    assert parse_lexelt("different.a") == ("different", "ADJ")
    assert parse_lexelt("call_up.v") == ("call_up", "VERB")
    assert parse_lexelt("art") == ("art", None)


def test_file_without_root_reads_every_lexelt_in_order():
    instances = read_lexsample(DATA / "train.xml")
    assert [inst.id for inst in instances] == [
        "activate.v.1", "activate.v.2", "activate.v.3", "activate.v.4", "different.a.1"]
    first = instances[0]
    assert (first.lemma, first.target_pos, first.key) == ("activate", "VERB", "activate#VERB")
    assert first.target == "activate"
    assert first.tokens[:3] == ("You", "step", "on")
    assert lexelt_of(first) == "activate.v"
    assert dict(first.meta)["docsrc"] == "BNC"
    assert dict(first.meta)["source"].endswith("train.xml:2")
    assert instances[-1].target_pos == "ADJ"


def test_raw_sgml_entities_become_text():
    charcoal = read_lexsample(DATA / "train.xml")[1]
    assert "½" in charcoal.tokens  # &frac12 ; with its space
    assert "&" in charcoal.tokens  # &amp;
    unknown = read_lexsample(DATA / "train.xml")[3]
    assert "unknownent" in unknown.tokens  # an unknown entity stays as written


def test_multi_sense_and_unassignable_answers_are_kept_in_order():
    instances = {inst.id: inst for inst in read_lexsample(DATA / "train.xml")}
    assert instances["activate.v.2"].senses == ("38202", "38203")
    assert instances["activate.v.4"].senses == ("U",)


def test_the_first_of_several_heads_is_the_target():
    inst = read_lexsample(DATA / "train.xml")[2]
    assert inst.span == (4, 5)
    assert inst.tokens[inst.span[0]] == "activate"
    assert inst.tokens.count("activate") == 2  # the second head stays in the text


def test_root_element_and_prologue_are_tolerated_and_lines_kept():
    instances = read_lexsample(DATA / "test.xml")
    assert [inst.senses for inst in instances] == [(), (), ()]
    assert dict(instances[0].meta)["source"].endswith("test.xml:4")


def test_key_file_gives_gold_with_u_and_several_senses():
    key = read_key(DATA / "test.key")
    assert key["activate.v.11"] == ("activate.v", ("38202", "38203"))
    instances = read_lexsample(DATA / "test.xml", DATA / "test.key")
    assert [inst.senses for inst in instances] == [("38201",), ("38202", "38203"), ("U",)]


def test_corpus_name_reads_the_key_beside_the_file(tmp_path):
    data = write(tmp_path, (DATA / "test.xml").read_text(), "EnglishLS.test")
    write(tmp_path, (DATA / "test.key").read_text(), "EnglishLS.test.key")
    assert load_corpus(f"lexsample:{data}")[2].senses == ("U",)
    assert load_lexsample(DATA / "train.xml")[0].senses == ("38201",)


def test_key_that_does_not_match_the_file_is_refused(tmp_path):
    missing = write(tmp_path, "activate.v activate.v.10 38201\n", "short.key")
    with pytest.raises(ValueError, match="no line for 2 instance"):
        read_lexsample(DATA / "test.xml", missing)
    wrong = write(tmp_path, (DATA / "test.key").read_text() + "x.n x.n.1 1\n", "long.key")
    with pytest.raises(ValueError, match="not instances of"):
        read_lexsample(DATA / "test.xml", wrong)
    moved = (DATA / "test.key").read_text().replace("different.a different", "other.a different")
    with pytest.raises(ValueError, match="listed under 'other.a'"):
        read_lexsample(DATA / "test.xml", write(tmp_path, moved, "moved.key"))


@pytest.mark.parametrize("text, line, message", [
    ("activate.v only-two\n", 1, "expected 'lexelt instance_id sense"),
    ("a.v a.v.1 1\n\na.v a.v.1 2\n", 3, "already on line 1"),
])
def test_bad_key_lines_name_file_and_line(tmp_path, text, line, message):
    path = write(tmp_path, text, "bad.key")
    with pytest.raises(ValueError, match=f"bad.key:{line}: .*{message}"):
        read_key(path)


INSTANCE = '<instance id="{id}">\n<context>\nsome <head>word</head> here\n</context>\n</instance>\n'


@pytest.mark.parametrize("text, line, message", [
    ('<lexelt item="w.n">\n<instance id="w.1">\n<context>\nno head\n</context>\n</instance>'
     '\n</lexelt>', 6, "has no <head>"),
    ('<lexelt item="w.n">\n' + INSTANCE.format(id="w.1") + INSTANCE.format(id="w.1")
     + '</lexelt>', 7, "already used on line 2"),
    ('<lexelt item="w.n">\n<instance id="w.1">\n<answer instance="w.2" senseid="1"/>\n'
     '<context><head>w</head></context></instance></lexelt>', 3, "inside instance 'w.1'"),
    ('<lexelt item="w.n">\n<instance id="w.1">\n<context>\n<head>w</head>\n</instance>\n',
     5, "malformed"),
    ('<lexelt>\n' + INSTANCE.format(id="w.1") + "</lexelt>", 1, "no item"),
    (INSTANCE.format(id="w.1"), 1, "outside a <lexelt>"),
    ('<lexelt item="w.n">\n<instance id="w.1">\n<context> <head> </head> x </context>\n'
     '</instance></lexelt>', 4, "<head> is empty"),
])
def test_malformed_files_name_file_and_line(tmp_path, text, line, message):
    path = write(tmp_path, text, "bad.xml")
    with pytest.raises(ValueError, match=f"bad.xml:{line}(:\\d+)?: .*{message}"):
        read_lexsample(path)


def test_dictionary_is_a_lesk_inventory():
    entries = read_dictionary(DATA / "dictionary.xml")
    assert [sense for sense, _, _ in entries["activate.v"]] == ["38201", "38202", "38203"]
    inventory = LexicalSampleInventory(entries)
    senses = inventory.senses("activate", "VERB")
    assert senses[1].gloss == "make more adsorptive, as charcoal treated with steam."
    assert senses[0].examples == ("activate actuate energize start",)
    assert inventory.senses("activate", "NOUN") == []
    assert [s.id for s in inventory.senses("different")] == ["d1"]


def test_dictionary_sense_without_gloss_names_its_line(tmp_path):
    path = write(tmp_path, '<lexelt item="w.n">\n<sense id="1" gloss="a"/>\n<sense id="2"/>\n'
                           "</lexelt>", "dict.xml")
    with pytest.raises(ValueError, match="dict.xml:3: sense '2' has no gloss"):
        read_dictionary(path)


# Words the tokenizer keeps whole (Treebank splits a few, *wanna*: wan na, *cannot*: can not).
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8).filter(
    lambda word: token_spans(word) == [(0, len(word))])


@settings(max_examples=60, deadline=None)
@given(left=st.lists(WORD, max_size=6), head=WORD, right=st.lists(WORD, max_size=6),
       senses=st.lists(st.sampled_from(["1", "2", "U"]), max_size=3, unique=True))
def test_any_written_instance_reads_back(tmp_path_factory, left, head, right, senses):
    answers = "".join(f'<answer instance="w.1" senseid="{s}"/>\n' for s in senses)
    text = (f'<lexelt item="w.v">\n<instance id="w.1" docsrc="x">\n{answers}<context>\n'
            f'{" ".join(left)} <head>{head}</head> {" ".join(right)} &frac12 ;\n'
            "</context>\n</instance>\n</lexelt>\n")
    path = write(tmp_path_factory.mktemp("prop"), text)
    (inst,) = read_lexsample(path)
    assert inst.tokens == (*left, head, *right, "½")
    assert inst.span == (len(left), len(left) + 1)
    assert inst.senses == tuple(senses)


def test_written_files_read_back_the_same_instances(tmp_path):
    instances = read_lexsample(DATA / "train.xml")
    write_lexsample(tmp_path / "copy.xml", instances)
    again = read_lexsample(tmp_path / "copy.xml")
    assert [(i.id, i.tokens, i.span, i.lemma, i.target_pos, i.senses) for i in again] == [
        (i.id, i.tokens, i.span, i.lemma, i.target_pos, i.senses) for i in instances]
    write_lexsample(tmp_path / "bare.xml", instances, answers=False)
    assert all(not inst.senses for inst in read_lexsample(tmp_path / "bare.xml"))
