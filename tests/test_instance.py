import pytest

from wsd import Instance, instances_from_text
from wsd.instance import token_spans


def test_marker_finds_target_and_strips_marker():
    inst = Instance.from_text("He caught a huge <<bass>> today.")
    assert inst.tokens == ("He", "caught", "a", "huge", "bass", "today", ".")
    assert inst.span == (4, 5)
    assert inst.index == 4
    assert inst.lemma == "bass"


def test_multiword_marker_covers_a_token_span():
    inst = Instance.from_text("I want <<ice cream>> now", lemma="ice_cream")
    assert inst.span == (2, 4)
    assert inst.target == "ice cream"
    assert inst.lemma == "ice_cream"


def test_target_word_first_or_every_occurrence():
    text = "The bass player ate bass for dinner"
    assert Instance.from_text(text, target="bass").span == (1, 2)
    assert Instance.from_text(text, target="bass", occurrence=1).span == (4, 5)
    both = instances_from_text(text, target="bass")
    assert [i.span for i in both] == [(1, 2), (4, 5)]
    assert [i.id for i in both] == ["text.0", "text.1"]


def test_character_offset():
    text = "Fish like bass swim"
    assert Instance.from_text(text, offset=text.index("bass")).target == "bass"


def test_an_offset_picks_the_token_there_not_all_up_to_the_next_space():
    for text in ("The crane, flew over the lake.", "The crane's nest", 'He saw "crane" birds'):
        inst = Instance.from_text(text, offset=text.index("crane"))
        assert (inst.target, inst.lemma) == ("crane", "crane")
    with pytest.raises(TypeError, match="offset must be an int, not float"):
        Instance.from_text("The crane flew", offset=4.0)
    with pytest.raises(TypeError, match="not bool"):
        Instance.from_text("The crane flew", offset=True)


def test_missing_target_is_a_clear_error():
    with pytest.raises(ValueError, match="does not occur"):
        Instance.from_text("He plays guitar", target="bass")
    with pytest.raises(ValueError, match="no target"):
        Instance.from_text("He plays guitar")
    with pytest.raises(ValueError, match="occurrence 3"):
        Instance.from_text("bass bass", target="bass", occurrence=3)


@pytest.mark.parametrize(
    ("text", "arguments", "error", "message"),
    [
        (b"the bank", {"target": "bank"}, TypeError, r"text must be a str, not bytes .*decode"),
        (None, {"target": "bank"}, TypeError, "text must be a str, not NoneType"),
        ("the bank", {"target": 3}, TypeError, "target must be a str, not int"),
        ("the bank", {"target": "bank", "occurrence": "1"}, TypeError,
         "occurrence must be an int, not str"),
        ("bank bank", {"target": "bank", "occurrence": -1}, ValueError, "counts from 0"),
        ("the <<bank>>", {"lemma": 3}, TypeError, "lemma must be a str, not int"),
        ("the <<bank>>", {"id": 3}, TypeError, "id must be a str, not int"),
        ("the <<bank>>", {"senses": "bank%1:17:01::"}, TypeError, "sequence of sense ids"),
        ("the <<bank>>", {"senses": [3]}, TypeError, "sequence of sense ids"),
    ],
)
def test_an_argument_of_another_kind_is_one_error_naming_it(text, arguments, error, message):
    """Each had failed deep inside, or silently: a str of senses read as its characters, a
    negative occurrence as counted from the end."""
    with pytest.raises(error, match=message):
        Instance.from_text(text, **arguments)


def test_senses_may_be_any_iterable_of_sense_ids():
    inst = Instance.from_text("the <<bank>>", senses=iter(["bank%1:17:01::"]))
    assert inst.senses == ("bank%1:17:01::",)


def test_instance_validates_span_and_pos_length():
    with pytest.raises(ValueError, match="outside"):
        Instance("x", ("a", "b"), (2, 3), "a")
    with pytest.raises(ValueError, match="POS tags"):
        Instance("x", ("a", "b"), (0, 1), "a", pos=("DT",))


def test_instance_is_immutable_and_hashable():
    inst = Instance("x", ["a", "b"], (0, 1), "a", senses=["s1"])
    assert inst.tokens == ("a", "b") and inst.senses == ("s1",)
    with pytest.raises(AttributeError):
        inst.lemma = "b"  # type: ignore[misc]
    assert hash(inst) == hash(Instance("x", ("a", "b"), (0, 1), "a", senses=("s1",)))
    assert inst.key == "a"
    assert Instance("x", ("a",), (0, 1), "a", target_pos="NOUN").key == "a#NOUN"


def test_each_sentence_of_a_line_is_tokenized_so_periods_split_off():
    inst = Instance.from_text('"The <<bank>>. It is a loan." Mr. Smith said so.')
    assert inst.tokens[:5] == ('"', "The", "bank", ".", "It")
    assert inst.target == "bank"
    assert "Mr." in inst.tokens and "said" in inst.tokens and inst.tokens[-1] == "."


def test_sentences_end_after_periods_but_not_after_abbreviations_or_initials():
    from wsd.text.sentences import sentence_spans

    text = ("Up to and including E. Robert Wallach, a friend of Gen. Lee. He left. "
            "(J. Smith wrote it.) Mr. Brown came at 5 p.m. and sat. It was over.")
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "Up to and including E. Robert Wallach, a friend of Gen. Lee.", "He left.",
        "(J. Smith wrote it.)", "Mr. Brown came at 5 p.m. and sat.", "It was over."]


def test_a_list_items_number_and_a_date_or_figure_do_not_end_a_sentence():
    """*1. Preheat the oven* had been two sentences, *1.* and the instruction; so had *Oct. 30*
    and *Fig. 3*. A number that ends a sentence still does, and so does *Oct.* before a
    capital."""
    from wsd.text.sentences import sentence_spans

    text = ("1. Preheat the oven. 12. Serve. It opened Oct. 30 and closed in Oct. The plan is "
            "in Fig. 3 and Ref. 12. He scored 1. Then he left. See account no. 12345 on p. 7. "
            "I play piano. 5 of us sing. It cost approx. 5 dollars in Africa. 5 banks (est. "
            "1990, ca. 2 staff) lost to the best. 3 others.")
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "1. Preheat the oven.", "12. Serve.", "It opened Oct. 30 and closed in Oct.",
        "The plan is in Fig. 3 and Ref. 12.", "He scored 1.", "Then he left.",
        "See account no. 12345 on p. 7.", "I play piano.", "5 of us sing.",
        "It cost approx. 5 dollars in Africa.", "5 banks (est. 1990, ca. 2 staff) lost to the "
        "best.", "3 others."]


def test_invisible_characters_stay_out_of_tokens_but_not_out_of_offsets():
    text = "He caught a huge bas\u00ads off the\u200bpier."
    inst = Instance.from_text(text, target="bas\u00ads", lemma="bass")
    assert inst.tokens == ("He", "caught", "a", "huge", "bass", "off", "the", "pier", ".")
    assert inst.target == "bass"
    spans = token_spans(text)
    assert [text[s:e] for s, e in spans][4] == "bas\u00ads" and len(spans) == len(inst.tokens)
