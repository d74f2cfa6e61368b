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


def test_expressions_join_only_where_semcor_tagged_them_as_one():
    """WordNet lists *fend for* and *immune system*, but SemCor tagged their words apart
    (count 0), so they stay apart; *took place*, *of course*, *at least* are joined."""
    from wsd.text.lexicon import tagged_count

    assert tagged_count("fend_for", "v") == 0 and tagged_count("take_place", "v") > 0
    words = {w.text: (w.lemma, w.pos) for w in _words(
        "They had to fend for themselves. It took place in an immune system lab. "
        "Of course we met at least twice.")}  # fmt: skip
    assert words["fend"] == ("fend", "VERB") and "fend for" not in words
    assert words["immune"][0] == "immune" and words["system"] == ("system", "NOUN")
    assert words["took place"] == ("take_place", "VERB")
    assert words["Of course"] == ("of_course", "ADV")
    assert words["at least"] == ("at_least", "ADV")


def test_cardinals_determiners_and_names_as_semcor_tags_them():
    words = {w.text: (w.lemma, w.pos) for w in _words(
        "Then two dogs ate all the food of each bowl. "
        "They flew to England on Monday with Smith, a Catholic priest, and the needed funds. "
        "We needed funds.")}  # fmt: skip
    assert words["two"] == ("two", "ADJ") and words["all"] == ("all", "ADJ")
    assert words["the"] == ("the", None) and words["each"] == ("each", None)  # SemCor: never
    assert words["England"] == ("england", "NOUN") and words["Monday"] == ("monday", "NOUN")
    assert words["Smith"] == ("smith", None)  # a name WordNet has, but SemCor never tagged
    assert words["Catholic"] == ("catholic", "ADJ")  # a proper adjective before a noun
    assert words["needed"] == ("need", "VERB")  # the last one: a verb, not before a noun
    assert ("needed", "ADJ") in [(w.lemma, w.pos) for w in _words("the needed funds")]


@pytest.mark.parametrize("text, participle", [
    ("The bank raised rates.", "raised"),  # the tagger: VBN, after the subject
    ("The firm has increased prices.", "increased"),  # perfect tense
    ("They have needed funds for years.", "needed"),
])  # fmt: skip
def test_a_participle_after_its_subject_or_have_is_the_verb(text, participle):
    """A VBN before a noun is read as an adjective only where it can modify that noun; after
    a noun, a pronoun or *have* it is the sentence's verb with its object."""
    words = {w.text: (w.tag, w.pos) for w in _words(text)}
    assert words[participle] == ("VBN", "VERB")  # the rule, not the tagger, decides
    assert ("built", "ADJ") in [(w.lemma, w.pos) for w in _words("Newly built houses sold.")]


def test_a_present_participle_between_a_determiner_and_a_noun_is_an_adjective():
    """SemCor tags *the continuing activities*, *a dying man* as adjectives 113 times against
    55 verbs and 18 nouns: after a determiner or possessive and before a noun, a VBG is the
    adjective SemCor tagged; elsewhere (*accepting donations*, *a rapidly growing economy*) the
    verb."""
    def read(text):
        return {w.text: (w.lemma, w.pos) for w in _words(text)}

    assert read("He laughed at a dying man.")["dying"] == ("dying", "ADJ")
    assert read("Its continuing activities grew.")["continuing"] == ("continuing", "ADJ")
    assert read("They were accepting donations.")["accepting"] == ("accept", "VERB")
    assert read("It is a rapidly growing economy.")["growing"] == ("grow", "VERB")


def test_a_tag_wordnet_does_not_know_gives_way_to_the_taggers_next_choice():
    """The tagger reads *lack* and *wish* as adjectives, which WordNet does not list; the next
    part of speech by the tagger's scores is taken (it had been the first of noun, verb,
    adjective, adverb that WordNet knows: *lack* was the noun)."""
    words = {w.text: (w.tag, w.lemma, w.pos) for w in _words(
        "Homeless people not only lack safety. They have no wish to see it.")}  # fmt: skip
    assert words["lack"] == ("JJ", "lack", "VERB")
    assert words["wish"] == ("JJ", "wish", "NOUN")


@given(st.lists(st.sampled_from("the bank raised rates people lack safety no wish to see "
                                "change runs fast , . I".split()), min_size=1, max_size=12))
@settings(max_examples=100, deadline=None)
def test_the_taggers_ranking_starts_with_the_tag_it_chose(tokens):
    from wsd.text.tagger import _tagger, penn_tags, tag_ranking

    tags = penn_tags(tokens)
    for i, token in enumerate(tokens):
        ranking = tag_ranking(tokens, tags, i)
        assert sorted(ranking) == sorted(_tagger().classes)
        if token not in _tagger().tagdict:  # a word the tagger looks up is not scored
            assert ranking[0] == tags[i]


def test_a_list_items_number_or_bullet_is_no_word_and_leaves_its_verb_a_verb():
    """At a line's start, *1.*, *2 )*, *( 3 )* and bullets are list markers (Penn's LS): the
    tagger read *Preheat* after *1.* as a proper noun (no sense), and *2* had been the
    adjective *two*. Mid-line, *( 3 )* is a number, and *3 eggs* keeps its cardinal."""
    text = ("1. Preheat the oven.\n2) Beat the 3 eggs.\n  (3) Stir it.\n\u2022 Whisk it.\n"
            "We add ( 3 ) more.")
    words = [(w.text, w.tag, w.pos) for w in _words(text)]
    assert [word for word, tag, _ in words if tag == "LS"] == [
        "1.", "2", ")", "(", "3", ")", "\u2022"]
    verbs = {word for word, _, pos in words if pos == "VERB"}
    assert {"Preheat", "Beat", "Stir", "Whisk", "add"} <= verbs
    assert [pos for word, tag, pos in words if word == "3" and tag != "LS"] == ["ADJ", "ADJ"]


def test_chat_writing_without_apostrophes_reads_as_the_contractions():
    """*dont worry* had tagged *worry* a noun, *im tired* *tired* a past tense; *cant* was
    jargon and *wont* a habit. They split as the tagger knows them (do + n't, I + 'm), with
    offsets in the text; *cant* and *wont* only between a subject and a verb."""
    text = "dont worry, im tired. i cant go and it wont even start. the cant of it, as is his wont"
    words = [w for s in _analyze(text) for w in s.words]
    assert all(text[w.start : w.end] == w.text for w in words)
    read = [(w.text, w.lemma, w.pos) for w in words]
    # *do* before its verb is an auxiliary, not a content word
    assert read[:4] == [("do", "do", None), ("nt", "n't", None), ("worry", "worry", "VERB"),
                        (",", ",", None)]  # fmt: skip
    assert ("m", "be", "VERB") in read and ("tired", "tired", "ADJ") in read
    assert [r for r in read if r[0] in ("ca", "wo", "cant", "wont")] == [
        ("ca", "can", None), ("wo", "will", None), ("cant", "cant", "NOUN"),
        ("wont", "wont", "NOUN")]  # fmt: skip


def test_a_lowercase_word_is_not_a_capitalised_entry_semcor_never_tagged():
    """Chat's *rn* (right now), *ur* (your), *bc* (because) had been radon, the city Ur and
    before Christ; written with its capital, the symbol is still read as radon."""
    lowercase = {w.text: w.pos for w in _words("ur right, i need it rn bc the tv is off")}
    assert lowercase["rn"] is None and lowercase["ur"] is None and lowercase["bc"] is None
    assert lowercase["tv"] == "NOUN" and lowercase["right"] is not None
    from wsd.text.pipeline import _lemma

    assert _lemma("rn", "NN", False, False) == ("rn", None)
    assert _lemma("Rn", "NN", False, False) == ("rn", "NOUN")  # as written, the symbol


def test_lemmas_follow_semcor_frequency():
    """Of morphy's base forms of an inflected word, the one SemCor tagged most often: *data*
    stays (76 against *datum*'s 5), *found* -> find, *lots* -> lot; comparatives and
    superlatives WordNet lists stay themselves (*best*, *smaller*)."""
    words = {w.text: (w.lemma, w.pos) for w in _words(
        "The data were found in lots of the best and smaller studies.")}  # fmt: skip
    assert words["data"] == ("data", "NOUN")
    assert words["found"] == ("find", "VERB") and words["lots"] == ("lot", "NOUN")
    assert words["best"] == ("best", "ADJ") and words["smaller"] == ("smaller", "ADJ")


def test_a_form_semcor_never_tagged_yields_to_one_it_did():
    """*legs* mistagged NN had stayed *legs* (a WordNet noun SemCor never tagged) rather than
    leg; *sat* mistagged NN had been nothing, WordNet's noun being only Saturday's Sat."""
    words = {w.text: (w.lemma, w.pos) for w in _words(
        "He adjusted his long legs. The man spread his legs and sat.")}  # fmt: skip
    assert words["legs"] == ("leg", "NOUN")
    assert words["sat"] == ("sit", "VERB")
    from wsd.text.lexicon import base_form
    from wsd.text.pipeline import _lemma

    assert base_form("legs", "n") == "leg" and base_form("data", "n") == "data"
    assert _lemma("sat", "NN", False, False) == ("sit", "VERB")
    assert _lemma("rn", "NN", False, False) == ("rn", None)  # no other reading: still nothing


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


def test_a_possessive_target_names_its_word():
    """``--target "bank's"`` had found nothing: the tokenizer splits the possessive off."""
    from wsd.text import analyze, target_lemmas
    from wsd.text.pipeline import is_target

    assert target_lemmas("bank's") == target_lemmas("bank\u2019s") == target_lemmas("bank")
    assert "bank" in target_lemmas("banks'") and "'" not in "".join(target_lemmas("banks'"))
    words = [w for s in analyze("We sat by the bank's door and the banks' walls.")
             for w in s.words]  # fmt: skip
    assert [w.text for w in words if is_target(w, target_lemmas("bank's"))] == ["bank", "banks"]


def test_an_inflected_expression_target_and_a_word_inside_an_expression():
    from wsd.text import analyze, target_lemmas
    from wsd.text.pipeline import is_target

    assert "look_up" in target_lemmas("looked up")  # an expression inflects its first word
    assert "ice_cream" in target_lemmas("ice creams")  # or its last
    assert "new_york" in target_lemmas("New York")
    [sentence] = analyze("The bank raised interest rates and sold ice cream.")
    for target, expected in (("rates", ["interest rates"]), ("RATE", ["interest rates"]),
                             ("interest rates", ["interest rates"]), ("cream", ["ice cream"]),
                             ("ice creams", ["ice cream"]), ("banks", ["bank"]),
                             ("and", []), ("sold cream", []), ("ban", []),
                             ("ice cream sold", [])):  # fmt: skip
        assert [w.text for w in sentence.words
                if w.is_content and is_target(w, target_lemmas(target))] == expected, target
    [city] = [w for w in analyze("They flew to New York City.")[0].words if w.is_content
              and is_target(w, target_lemmas("New York"))]  # fmt: skip
    assert city.text == "New York City"


def test_a_multi_word_target_whose_words_stand_apart_is_recognised():
    from wsd.text import analyze
    from wsd.text.conventions import CorpusConventions
    from wsd.text.pipeline import spelled_apart

    apart = CorpusConventions({"look_up#v": (0, 10)})  # a corpus that never joined look up
    assert spelled_apart(analyze("She looks up words.", apart), "looked up")
    assert not spelled_apart(analyze("She looks up words."), "looked up")  # joined: found
    assert not spelled_apart(analyze("She looks at words.", apart), "looked up")
    assert not spelled_apart(analyze("She looks up words.", apart), "looked")
    # a particle after an object pronoun that the corpus did not join so (*looked it up*)
    assert spelled_apart(analyze("She looked it up.", apart), "look up")
    assert not spelled_apart(analyze("She looked the word up.", apart), "look up")


def test_a_headline_is_read_as_running_text():
    """The tagger reads capitalised words as proper nouns (no senses): a headline in capitals
    or in title case lost most of its words."""
    from wsd.text import analyze
    from wsd.text.pipeline import as_written

    assert as_written(["THE", "BANK", "RAISED", "RATES", "."]) == ["The", "bank", "raised",
                                                                    "rates", "."]  # fmt: skip
    assert as_written("How To Open A Bank Account In Paris".split()) == [
        "How", "to", "open", "a", "bank", "account", "in", "Paris"]
    assert as_written("John Smith Visits Paris".split()) == ["John", "Smith", "visits", "Paris"]
    for unchanged in (["NASA", "said", "so"], ["BANK"], ["I", "saw", "3", "."], [], ["."],
                      "He met John Smith in Paris".split(), "The Bank Of England".split()):
        assert as_written(unchanged) == list(unchanged)  # too few long capitalised words
    shouted = analyze("THE BANK RAISED INTEREST RATES AGAIN.")[0].words
    titled = analyze("The Bank Raised Interest Rates Again.")[0].words
    written = analyze("The bank raised interest rates again.")[0].words
    for headline in (shouted, titled):
        assert [(w.lemma, w.pos, w.tag) for w in headline] == [(w.lemma, w.pos, w.tag)
                                                               for w in written]  # fmt: skip
    assert [w.text for w in shouted][:3] == ["THE", "BANK", "RAISED"]  # the input's text
    assert [w.form for w in shouted][:3] == ["The", "bank", "raised"]  # what features read
    assert [w.form for w in written] == [w.text for w in written]


def test_a_name_that_starts_a_sentence_is_not_a_common_word():
    """A capitalised first word counts when WordNet has it in lowercase only (*Fishing*), not
    when it is a name there (*John*: its common noun is a toilet)."""
    from wsd.text import analyze

    for text, content in (("John is tall.", ["be", "tall"]), ("Smith spoke.", ["speak"]),
                          ("Fishing banks are muddy.", ["fish", "bank", "be", "muddy"]),
                          ("Paris is nice.", ["paris", "be", "nice"]),
                          ("US troops won.", ["us", "troop", "win"]),  # not u (uracil)
                          ("They left the US.", ["leave", "us"])):  # fmt: skip
        assert [w.lemma for w in analyze(text)[0].words if w.is_content] == content, text


def test_a_contraction_is_the_verb_it_stands_for():
    from wsd.text import analyze

    words = [w for s in analyze("We're sure she's right and I'm wrong; they've gone. "
                                "The cat's toy. He’s here.") for w in s.words]  # fmt: skip
    verbs = [(w.text, w.lemma) for w in words if w.pos == "VERB"]
    assert verbs == [("'re", "be"), ("'s", "be"), ("'m", "be"), ("gone", "go"),
                     ("’s", "be")]  # fmt: skip
    have = next(w for w in words if w.text == "'ve")  # *'ve gone*: the auxiliary
    assert (have.lemma, have.pos) == ("have", None)
    assert not next(w for w in words if w.tag == "POS").is_content  # the cat's: possessive


def test_a_negated_modals_lemma_is_the_modal():
    """The tokenizer cuts *can't* into *ca* + *n't*, and *ca* had been its lemma; a modal is
    no content word, but the lemma column names it (*can*, *will*, *shall*)."""
    from wsd.text import analyze

    words = [w for s in analyze("I can't swim and won't try. You shan't. Cant stop.")
             for w in s.words]  # fmt: skip
    modals = [(w.text, w.lemma, w.pos) for w in words if w.text.lower() in ("ca", "wo", "sha")]
    assert modals == [("ca", "can", None), ("wo", "will", None), ("sha", "shall", None),
                      ("Ca", "can", None)]  # fmt: skip
    assert [w.lemma for s in analyze("The ca n't be") for w in s.words][1] == "ca"  # apart


def test_s_before_been_or_got_is_has():
    """*'s* before *been*, *got*, *gotten* or *had* (adverbs aside) can only be *has*; before
    other participles it stays *be* (*it's done* is passive as often as not)."""
    from wsd.text import analyze

    text = ("She's been here. He's never got a car. She’s had enough. It's done. "
            "He's gone.")
    clitics = [(w.text, w.lemma) for s in analyze(text) for w in s.words
               if w.text in ("'s", "’s")]  # fmt: skip
    assert clitics == [("'s", "have"), ("'s", "have"), ("’s", "have"), ("'s", "be"),
                       ("'s", "be")]  # fmt: skip


def test_tags_are_nltks():
    import nltk

    from wsd.text.tagger import penn_tags

    tokens = "The old man the boats , and she saw 3 saws .".split()
    assert penn_tags(tokens) == [tag for _, tag in nltk.pos_tag(tokens)]


def test_quotes_reach_the_tagger_as_treebank_quotes():
    """A straight double quote is tagged as NLTK's tagger was trained (`` and ''), as
    ``nltk.pos_tag(word_tokenize(...))`` does: passed as '"' it came out NN and turned the
    next word's tag (*left* as a noun)."""
    words = _words('He said "I do not know" and left.')
    assert [(w.text, w.tag) for w in words if w.text == '"'] == [('"', "``"), ('"', "''")]
    assert [(w.lemma, w.pos) for w in words if w.text == "left"] == [("leave", "VERB")]


def test_typographic_quotes_and_apostrophes_split_as_ascii_ones():
    from wsd.text import analyze

    text = ("The \u201ccauses\u201d aren\u2019t known. He\u2019s right.\n"
            "\u201cGo home.\u201d He left.")
    sentences = analyze(text)
    assert [s.text for s in sentences] == ["The \u201ccauses\u201d aren\u2019t known.",
                                           "He\u2019s right.", "\u201cGo home.\u201d", "He left."]
    words = [w for s in sentences for w in s.words]
    assert [w.text for w in words][:6] == ["The", "\u201c", "causes", "\u201d", "are", "n\u2019t"]
    assert {(w.text, w.lemma, w.pos) for w in words} >= {
        ("causes", "cause", "NOUN"), ("are", "be", "VERB"), ("home", "home", "NOUN")}
    assert all(text[w.start : w.end] == w.text for w in words)


def test_dashes_and_the_ellipsis_character_stand_apart():
    """NLTK's rules left *deposits\u2014up*, *2020\u20132021* and *cream\u2026* one token, with
    no sense; they split, and the tagger reads the dash and the ellipsis as the Penn Treebank
    writes them (-- and ...)."""
    text = "Deposits\u2014up from 2020\u20132021\u2014grew. I love ice cream\u2026 really."
    words = [w for s in _analyze(text) for w in s.words]
    assert [w.text for w in words][:7] == ["Deposits", "\u2014", "up", "from", "2020", "\u2013",
                                           "2021"]  # fmt: skip
    assert [(w.tag, w.lemma) for w in words if w.text in "\u2013\u2014\u2026"] == [
        (":", "--"), (":", "--"), (":", "--"), (":", "...")]
    assert {(w.text, w.lemma, w.pos) for w in words} >= {
        ("Deposits", "deposit", "NOUN"), ("ice cream", "ice_cream", "NOUN")}
    assert all(text[w.start : w.end] == w.text for w in words)


def test_unicode_hyphens_guillemets_and_accent_apostrophes_read_as_ascii():
    """A non-breaking hyphen (*state\u2011of\u2011the\u2011art*) had hidden the WordNet entry,
    guillemets stuck to their words, and *don\u00b4t* (an acute accent typed for the
    apostrophe) was the word *don t*, which made the tagger read *like* as a preposition."""
    text = "A state\u2011of\u2011the\u2011art \u00abbank\u00bb. I don\u00b4t like it."
    words = [w for s in _analyze(text) for w in s.words]
    assert [w.text for w in words][:6] == ["A", "state\u2011of\u2011the\u2011art", "\u00ab",
                                           "bank", "\u00bb", "."]  # fmt: skip
    assert {(w.text, w.lemma, w.pos) for w in words} >= {
        ("state\u2011of\u2011the\u2011art", "state-of-the-art", "ADJ"), ("bank", "bank", "NOUN"),
        ("do", "do", None), ("like", "like", "VERB")}  # *do* the auxiliary of *like*
    assert [w.tag for w in words if w.text in "\u00ab\u00bb"] == ["``", "''"]
    assert all(text[w.start : w.end] == w.text for w in words)


def test_a_dash_at_a_line_start_is_a_list_bullet():
    words = [w for s in _analyze("\u2013 open the account\n\u2014 close it") for w in s.words]
    assert [(w.text, w.tag) for w in words if w.tag in ("LS", "VB")] == [
        ("\u2013", "LS"), ("open", "VB"), ("\u2014", "LS"), ("close", "VB")]


def test_a_word_broken_across_a_line_by_a_hyphen_is_one_word():
    """Text copied from a PDF: *finan-* / *cial* had been two tokens with no sense, and
    *inter-* / *est rates* lost the expression *interest rate*."""
    text = ("A large finan-\ncial bank, well-\nknown for low inter-\n  est rates, and co-\n"
            "workers. Not self-\nDriving or bank-\nriver or on-\n\nline.")
    words = [w for s in _analyze(text) for w in s.words]
    found = {w.lemma: (w.text, w.pos) for w in words}
    assert found["financial"] == ("finan-\ncial", "ADJ")
    assert found["well-known"] == ("well-\nknown", "ADJ")
    assert found["interest_rate"] == ("inter-\n  est rates", "NOUN")
    assert found["co-worker"] == ("co-\nworkers", "NOUN")  # *coworkers*: not in WordNet
    # a capital, words WordNet knows in neither spelling, a blank line: left as they are
    assert {"self-", "bank-", "on-"} <= {w.text for w in words}
    assert all(text[w.start : w.end] == w.text for w in words)


def test_invisible_characters_from_the_web_stay_out_of_the_words():
    """A zero-width space separates words; a soft hyphen, zero-width joiner or byte-order mark
    is dropped from the form the tagger and lemmatizer see, while offsets keep pointing at
    the text as given."""
    from wsd.text import analyze

    text = "\ufeffHis bank\u00adruptcy ended.\u200bThe river\u200bbank flooded."
    words = [w for s in analyze(text) for w in s.words]
    assert [w.text for w in words] == ["His", "bank\u00adruptcy", "ended", ".", "The", "river",
                                       "bank", "flooded", "."]  # fmt: skip
    assert ("bankruptcy", "NOUN") in {(w.lemma, w.pos) for w in words}
    assert all(text[w.start : w.end] == w.text for w in words)
    # direction marks and embeddings (text copied from a right-to-left page or a word
    # processor) had stuck to their words: *bank\u200e* had no sense
    text = "the bank\u200e raised \u202arates\u202c and \u2067fees\u2069 \u200f"
    words = [w for s in analyze(text) for w in s.words]
    assert [(w.lemma, w.pos) for w in words if w.pos] == [
        ("bank", "NOUN"), ("raise", "VERB"), ("rate", "NOUN"), ("fee", "NOUN")]
    assert all(text[w.start : w.end] == w.text for w in words)


def test_control_characters_separate_words():
    """A NUL or other control character (from a binary-ish file) had stuck to its word:
    *bank\x00* had no sense."""
    text = "The bank\x00raised\x07 rates.\x7f"
    words = [w for s in _analyze(text) for w in s.words]
    assert [(w.text, w.pos) for w in words if w.pos] == [
        ("bank", "NOUN"), ("raised", "VERB"), ("rates", "NOUN")]


def _analyze(text):
    from wsd.text import analyze

    return analyze(text)


_WORDS = st.sampled_from(["bank", "rates", "John", "Paris", "open", "a", "to", "ice", "cream",
                          "US", "'s", "n't", ",", ".", "well-known", "new", "york", "dont",
                          "cant", "im", "rn"])
_CASED = st.tuples(_WORDS, st.sampled_from([str.upper, str.title, str.lower])).map(
    lambda pair: pair[1](pair[0]))


@given(st.lists(_CASED, max_size=14), st.sampled_from([" ", "  ", "\t"]))
@settings(deadline=None)
def test_headlines_keep_offsets_and_read_each_word_as_its_text_in_some_case(words, space):
    """Whatever the casing (capitals, title case, mixed), words point at the input and what
    the features read is the input's text up to case."""
    from wsd.text import analyze

    text = space.join(words)
    for sentence in analyze(text):
        for word in sentence.words:
            assert text[word.start : word.end] == word.text
            assert word.form.lower().split() == word.text.lower().split()


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab .!?\n'\"-,Zy1\u201c\u201d\u2019"
                                             "\u00ad\u200b\ufeff\x00\x1b\u200e\u202a"
                                             "\u2013\u2014\u2026\u2011\u00ab\u00bb\u00b4")),
               max_size=60))
def test_offsets_always_point_at_the_words(text):
    from wsd.text import analyze

    for sentence in analyze(text):
        assert text[sentence.start : sentence.end] == sentence.text
        assert sentence.text.strip() == sentence.text != ""
        for word in sentence.words:
            assert text[word.start : word.end] == word.text
            assert sentence.start <= word.start < word.end <= sentence.end


def test_text_copied_from_the_web_reads_as_a_person_sees_it():
    """Markup gave the words *p* (phosphorus) and *b* (bacillus), *&amp;* the ampere and an
    e-mail address the noun *help*: now markup is blank, a reference is its character and
    an address is one word with no sense; offsets still point at the input."""
    text = ("<p>The <b>bank</b> didn&rsquo;t open.</p><p>Mail help@bank.com or visit "
            "https://www.bank.com/rates.</p> Then a <<bass>> swam.\n**The** bank of the _river_")
    from wsd.text import analyze

    sentences = analyze(text)
    words = [w for s in sentences for w in s.words]
    assert all(text[w.start : w.end] == w.text for w in words)
    assert [s.text for s in sentences] == [  # split where the paragraphs end
        "The <b>bank</b> didn&rsquo;t open.",
        "Mail help@bank.com or visit https://www.bank.com/rates.", "Then a <<bass>> swam.",
        "**The** bank of the _river_"]  # Markdown's marks shown, not read
    content = {w.text: (w.lemma, w.pos) for w in words if w.is_content}
    assert set(content) == {"bank", "open", "Mail", "visit", "Then", "bass", "swam",
                            "river"}  # fmt: skip
    did = next(w for w in words if w.text == "did")  # *didn&rsquo;t* read as did + n't
    assert (did.lemma, did.tag) == ("do", "VBD") and not did.is_content  # the auxiliary
    address = next(w for w in words if w.text.startswith("https"))
    assert address.text == "https://www.bank.com/rates" and not address.is_content
    assert "help@bank.com" in {w.text for w in words}


_WEB_PIECES = st.sampled_from(["<p>", "</p>", "<b>", "&amp;", "&rsquo;", "t", "www.x.com",
                               "me@x.org", "bank", "rates", " ", ". ", "The", "\n", "<", "&",
                               "\u00ad", "**", "_", "@j"])  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(_WEB_PIECES, max_size=20))
def test_offsets_point_at_the_words_in_web_text(pieces):
    from wsd.text import analyze

    text = "".join(pieces)
    for sentence in analyze(text):
        assert text[sentence.start : sentence.end] == sentence.text
        for word in sentence.words:
            assert text[word.start : word.end] == word.text
            assert word.text.strip() and "<p>" not in word.text.split()


def test_accented_words_are_looked_up_as_wordnet_spells_them():
    """WordNet's lemmas are ASCII: *café*, *résumé*, *naïve* had no sense at all."""
    from wsd.text import analyze, target_lemmas
    from wsd.text.pipeline import is_target

    text = "We met at a café and read her résumé; the naïve façade."
    words = {w.text: w for s in analyze(text) for w in s.words}
    assert {name: (words[name].lemma, words[name].pos) for name in
            ("café", "résumé", "naïve", "façade")} == {  # fmt: skip
        "café": ("cafe", "NOUN"), "résumé": ("resume", "NOUN"), "naïve": ("naive", "ADJ"),
        "façade": ("facade", "NOUN")}
    assert all(text[w.start : w.end] == w.text for w in words.values())
    assert is_target(words["café"], target_lemmas("cafe"))
    assert is_target(words["café"], target_lemmas("Café"))


def test_a_hyphenated_word_is_looked_up_as_wordnet_spells_it():
    """WordNet lists *high school*, *loan shark*, *bank holiday* as expressions and
    *riverbank* closed; written with a hyphen they had no sense. Words WordNet lists with
    their hyphen stay as they are."""
    from wsd.text import analyze

    text = "The river-bank loan-sharks met a well-known high-school teacher on a bank-holiday."
    words = {w.text: (w.lemma, w.pos) for s in analyze(text) for w in s.words}
    assert words["river-bank"] == ("riverbank", "NOUN")
    assert words["loan-sharks"] == ("loan_shark", "NOUN")
    assert words["high-school"] == ("high_school", "NOUN")
    assert words["bank-holiday"] == ("bank_holiday", "NOUN")
    assert words["well-known"] == ("well-known", "ADJ")


def test_lowercase_writing_reads_as_running_text():
    """Chat-style text: a word before a period inside a sentence kept the period (*centre.*,
    no sense), the pronoun *i* was iodine, *u* and *r* a noun and an adjective, and *gonna*
    split into *gon* (no sense) and *na* (sodium). Abbreviations keep their period."""
    from wsd.text import analyze

    text = ("i think u r gonna love the centre. we wanna go, lemme see. XYZ Corp. said the "
            "U.S. rose, e.g. in oil etc. and gas. AND I WENT HOME. It ain't so.")
    words = [w for s in analyze(text) for w in s.words]
    assert all(text[w.start : w.end] == w.text for w in words)
    by_text = {w.text: (w.lemma, w.pos) for w in words}
    assert by_text["centre"] == ("centre", "NOUN") and "centre." not in by_text
    assert {by_text[t][1] for t in ("i", "I", "u", "r", "na")} == {None}
    assert [by_text[t] for t in ("gon", "wan", "lem", "ai")] == [
        ("go", "VERB"), ("want", "VERB"), ("let", "VERB"), ("be", "VERB")]
    assert {"Corp.", "U.S.", "e.g.", "etc."} <= set(by_text)


def test_american_spelling_of_a_british_lemma_semcor_hardly_counted():
    """WordNet orders a lemma's senses by SemCor counts, which British spellings hardly have
    (*colour*'s first sense is colouring material): ``american`` gives the spelling to read
    it as when both share a synset and SemCor tagged that one more often; *theatre* (11 to
    10) and words that only look alike (*hour*, *flour*) stay."""
    from wsd.text.lexicon import american

    assert [american(w, "n") for w in ("colour", "centre", "programme", "behaviour")] == [
        "color", "center", "program", "behavior"]
    assert american("organise", "v") == "organize" and american("analyse", "v") == "analyze"
    assert [american(w, "n") for w in ("theatre", "hour", "flour", "tour", "color")] == [
        "theatre", "hour", "flour", "tour", "color"]


def test_an_instruction_starts_with_its_verb():
    """The tagger read *Mix*, *Stir* (NNP) and *Whisk* (IN) at the start of an instruction as
    a name or preposition, with no sense; a sentence starting with a capitalised word WordNet
    knows as a verb before a determiner or pronoun starts with that verb. Not before a
    number (*Chapter 3*) nor for a name (*John the Baptist*)."""
    from wsd.text import analyze

    first = {t: analyze(t)[0].words[0] for t in (
        "Mix the flour with sugar.", "Stir the soup.", "Whisk it well.",
        "Chapter 3 describes the bank.", "John the Baptist came.", "In the morning we left.")}
    assert [(w.lemma, w.pos) for w in list(first.values())[:3]] == [
        ("mix", "VERB"), ("stir", "VERB"), ("whisk", "VERB")]
    assert [w.pos for w in list(first.values())[3:]] == ["NOUN", None, None]


def test_an_instruction_may_be_negated_and_a_preposition_is_no_instruction():
    """*Do not open* had *Do* as a proper noun read as the noun *do* (a party); a preposition
    that WordNet also lists as a verb (*Like the others*, *Near the bank*) had become that
    verb."""
    from wsd.text import analyze

    first = [analyze(t)[0].words[0] for t in (
        "Do not open the door.", "Like the others, he left.", "Near the bank, we sat.")]
    assert [(w.lemma, w.pos) for w in first] == [("do", None), ("like", None), ("near", None)]
    assert first[0].tag == "VB"  # the auxiliary of *open*, not a noun


def test_a_recipes_verb_before_a_bare_noun_is_the_verb():
    """*Add salt and pepper*, *Chop onions finely*, *Stir sugar into the milk*: the tagger
    read the verb as a name, and *Add* had become the noun (attention deficit disorder). In
    a sentence with no verb, a first word read as a name before a lowercase noun is the
    verb where SemCor tagged it as one more than twice as often as the noun; noun phrases
    stay (*Water bottles for sale*: water is the noun 181 to 7)."""
    from wsd.text import analyze

    def first(text):
        word = analyze(text)[0].words[0]
        return word.tag, word.lemma, word.pos

    assert first("Add salt and pepper to taste.") == ("VB", "add", "VERB")
    assert first("Chop onions finely.") == ("VB", "chop", "VERB")
    assert first("Stir sugar into the milk.") == ("VB", "stir", "VERB")
    assert first("Water bottles for sale.")[2] == "NOUN"
    assert first("Bank holidays in May.")[2] == "NOUN"
    assert first("Sign language classes.")[2] == "NOUN"  # 40 to 36: not twice
    assert first("Park rangers warn hikers.")[2] != "VERB"  # a verb follows


def test_an_instruction_whose_verb_is_also_a_name_and_a_modal_question():
    """*Mark the date* and *Sue them* had *Mark* and *Sue* as names with no sense (WordNet
    has Saint Mark and Eugene Sue), and *May I help?* the month May. A name stays one before
    a capitalised word (*Jack the Ripper*) or a subject (*Mark is here*)."""
    from wsd.text import analyze

    first = [analyze(t)[0].words[0] for t in (
        "Mark the date.", "Sue them now.", "Mark my words.", "May I help?",
        "Jack the Ripper killed.", "Mark is here.", "May is warm.")]
    assert [(w.tag, w.pos) for w in first] == [
        ("VB", "VERB"), ("VB", "VERB"), ("VB", "VERB"), ("MD", None),
        ("NNP", None), ("NNP", None), ("NNP", "NOUN")]


def test_a_word_in_capitals_for_emphasis_is_read_in_lowercase():
    """*flooded AGAIN* had *AGAIN* as a proper noun with no sense; acronyms WordNet has as
    names stay as written, and so does a sentence in capitals (read as a headline)."""
    words = {w.text: (w.tag, w.pos) for w in _words(
        "The river bank flooded AGAIN. Do NOT open it. NASA and the FBI met in PARIS.")}
    assert words["AGAIN"] == ("RB", "ADV") and words["NOT"][0] == "RB"
    assert words["NASA"] == ("NNP", None) and words["FBI"] == ("NNP", None)
    assert words["PARIS"] == ("NNP", "NOUN")  # read as Paris, a name SemCor tagged


def test_auxiliary_have_and_do_are_not_content_words():
    """*has* in *has been working* had been glossed as possessing and *Did* in *Did you see*
    as performing: SemCor leaves auxiliaries untagged. The main verbs stay, and *be* too."""
    words = [(w.text, w.pos) for w in _words(
        "She has been working. Did you see it? He didn't know why. What have you done? "
        "I had it fixed. They have a car. Do it now.")]  # fmt: skip
    assert ("has", None) in words and ("Did", None) in words and ("did", None) in words
    assert ("have", None) in words  # What have you done
    assert ("been", "VERB") in words and ("done", "VERB") in words
    assert ("had", "VERB") in words  # had it fixed: not a question
    assert ("have", "VERB") in words and ("Do", "VERB") in words
    lemmas = {w.text: w.lemma for w in _words("She has been working.")}
    assert lemmas["has"] == "have"  # the lemma stays for the features


def test_a_question_opened_by_be_have_or_do_reads_it_as_the_verb():
    """*Has anyone seen*, *Does anyone know*, *Was the bank open?* had the tagger's proper
    nouns read as *ha* (hour angle), *doe* (a deer) and *wa*; an auxiliary before its
    question's subject is no content word (*Has the bank closed?*)."""
    from wsd.text import analyze

    first = {s: analyze(s)[0].words[0] for s in (
        "Has anyone seen my keys?", "Does anyone know the way?", "Was the bank open?",
        "Has the bank closed?", "Does John know?", "Have you any wool?",
        "Does and fawns graze here.")}  # fmt: skip
    read = {s: (w.tag, w.lemma, w.pos) for s, w in first.items()}
    assert read["Has anyone seen my keys?"] == ("VBZ", "have", None)
    assert read["Does anyone know the way?"] == ("VBZ", "do", None)
    assert read["Was the bank open?"] == ("VBD", "be", "VERB")
    assert read["Has the bank closed?"] == ("VBZ", "have", None)
    assert read["Does John know?"] == ("VBZ", "do", None)
    assert read["Have you any wool?"][1:] == ("have", "VERB")  # no verb follows: it is one
    assert read["Does and fawns graze here."][1:] == ("doe", "NOUN")  # no subject follows


def test_a_plural_noun_after_he_or_she_is_the_verb_in_s():
    """The tagger read *She banks with them* and *He books flights* as plural nouns: no noun
    follows *he* or *she*, so a word WordNet has as a verb is that verb there, adverbs
    aside. Not after *it*, which may be an object (*fed it*), nor for a word with no verb."""
    from wsd.text import analyze

    def read(text):
        return {w.text: (w.tag, w.lemma, w.pos) for w in analyze(text)[0].words}

    assert read("She banks with them.")["banks"] == ("VBZ", "bank", "VERB")
    assert read("He books flights for a living.")["books"] == ("VBZ", "book", "VERB")
    assert read("He said she often banks online.")["banks"][1:] == ("bank", "VERB")
    assert read("He books flights.")["flights"][2] == "NOUN"
    from wsd.text.pipeline import _third_person_verbs

    assert _third_person_verbs(["She", "often", "banks"], ["PRP", "RB", "NNS"]) == [2]
    assert _third_person_verbs(["She", "trousers"], ["PRP", "NNS"]) == []  # no verb
    assert _third_person_verbs(["fed", "it", "treats"], ["VBD", "PRP", "NNS"]) == []


def test_a_noun_after_see_let_or_make_and_an_object_pronoun_is_a_bare_infinitive():
    """The tagger read *see anything change* (SemEval-2007) and *made him sweat* with a noun
    where the object's bare infinitive stands: a WordNet base-form verb after a verb of
    seeing, letting or making and an object pronoun is that verb. Not a past form (*had
    nothing left*), a word WordNet has as an adverb too (*made it home*), nor a plural."""
    from wsd.text import analyze
    from wsd.text.pipeline import _bare_infinitives

    def read(text):
        return {w.text: (w.tag, w.lemma, w.pos) for w in analyze(text)[0].words}

    assert read("They have no wish to see anything change.")["change"] == ("VB", "change", "VERB")
    assert read("The heat made him sweat.")["sweat"] == ("VB", "sweat", "VERB")
    assert read("He had nothing left.")["left"][2] != "VERB"
    assert _bare_infinitives(["made", "it", "home"], ["VBD", "PRP", "NN"]) == []
    assert _bare_infinitives(["made", "them", "sandwiches"], ["VBD", "PRP", "NNS"]) == []
    assert _bare_infinitives(["saw", "anything", "change"], ["VBD", "NN", "NN"]) == [2]
    assert _bare_infinitives(["bought", "anything", "change"], ["VBD", "NN", "NN"]) == []


def test_a_noun_after_a_modal_or_before_an_object_after_to_is_an_infinitive():
    """The tagger read *to order a pizza* and *shan't pass* with a noun where the infinitive
    stands: a WordNet base-form verb that SemCor tagged as a verb is one after a modal
    (adverbs aside, *shan't* too) or after *to* before an object. Not before anything else
    after *to* (*to order , please*), a word SemCor never tagged as a verb, nor a plural."""
    from wsd.text import analyze
    from wsd.text.pipeline import _infinitives

    def read(text):
        return {w.text: (w.tag, w.lemma, w.pos) for w in analyze(text)[0].words}

    assert read("I want to order a pizza.")["order"] == ("VB", "order", "VERB")
    assert read("You shan't pass!")["pass"] == ("VB", "pass", "VERB")
    assert read("The bill would order the referendum.")["order"][2] == "VERB"
    tags = ["PRP", "MD", "RB", "NN", "DT", "NN"]
    assert _infinitives(["we", "must", "really", "number", "the", "pages"], tags) == [3]
    assert _infinitives(["they", "sha", "n't", "pass"], ["PRP", "VBP", "RB", "NN"]) == [3]
    assert _infinitives(["to", "phone", "us"], ["TO", "NN", "PRP"]) == [1]
    assert _infinitives(["to", "order", ","], ["TO", "NN", ","]) == []
    assert _infinitives(["to", "church", "the"], ["TO", "NN", "DT"]) == []  # never a verb
    assert _infinitives(["would", "orders"], ["MD", "NNS"]) == []
    assert _infinitives(["would", "Order"], ["MD", "NN"]) == []
    assert read("The Commission does not share such sentiments.")["share"][2] == "VERB"
    assert _infinitives(["did", "n't", "matter"], ["VBD", "RB", "NN"]) == [2]
    assert _infinitives(["do", "research"], ["VBP", "NN"]) == []  # do, the main verb


def test_a_noun_after_i_we_or_they_is_the_verb_in_the_present():
    """The tagger read *I guess so* and *We group these outcomes* with a noun after the
    subject pronoun: no noun follows *I*, *we* or *they*, so a WordNet base-form verb that
    SemCor tagged as a verb is the verb there, adverbs aside. Not after *you*, an object too
    (*take you home*), nor a word SemCor never tagged as a verb."""
    from wsd.text import analyze
    from wsd.text.pipeline import _plain_present_verbs

    assert [(w.tag, w.lemma, w.pos) for w in analyze("I guess so.")[0].words][1] == (
        "VBP", "guess", "VERB")
    assert _plain_present_verbs(["we", "often", "group"], ["PRP", "RB", "NN"]) == [2]
    assert _plain_present_verbs(["take", "you", "home"], ["VB", "PRP", "NN"]) == []
    assert _plain_present_verbs(["they", "church"], ["PRP", "NN"]) == []
    assert _plain_present_verbs(["they", "outcomes"], ["PRP", "NNS"]) == []


def test_a_do_or_modal_question_asks_about_the_verb_after_its_subject():
    """The tagger read the verb of *Did the bank open?* as an adjective, *Do people like it?*
    as a preposition and *Do they water the plants?* as a noun (and *Do* was then the verb
    to do); after a question's *do* or modal and its subject, a base-form verb is the verb.
    The subject ends at its nouns, or at a pronoun; a possessive goes on (*the cat's
    owner*). A lone adverb, or a compound's last noun, with nothing after it is the verb."""
    from wsd.text import analyze

    def read(text):
        return {w.text: (w.tag, w.lemma, w.pos) for w in analyze(text)[0].words}

    assert read("Did the bank open?")["open"] == ("VB", "open", "VERB")
    assert read("Do people like it?")["like"] == ("VB", "like", "VERB")
    water = read("Do they water the plants?")
    assert water["water"] == ("VB", "water", "VERB") and water["Do"][2] is None
    assert read("Does the cat's owner know?")["owner"][2] == "NOUN"
    assert read("Can you book a table for two?")["book"] == ("VB", "book", "VERB")
    assert read("What does this word mean?")["mean"][2] == "VERB"
    assert read("Might the bank close?")["close"][2] == "VERB"
    must = read("Must the children leave?")
    assert must["Must"] == ("MD", "must", None) and must["leave"][2] == "VERB"
    assert read("May the force be with you.")["May"][0] == "NNP"  # a month or a wish
    # not a question's verb: an adjective after *be*, a noun object, an adverb
    assert read("Did you really?")["really"][2] == "ADV"
    compare = read("When did you last compare your present premium costs with others?")
    assert compare["compare"][2] == "VERB" and compare["last"][2] != "VERB"  # a verb follows
    assert read("Was the bank open?")["open"][2] == "ADJ"
    assert read("Do the right thing.")["right"][2] == "ADJ"
    assert read("Did you see the bank?")["bank"][2] == "NOUN"
