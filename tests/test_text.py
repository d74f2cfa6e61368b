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


def _apart(text: str) -> list:
    """``text``'s one sentence with every token a word of its own (no expression joined), as
    a reader that never joined *look up* reads it."""
    from wsd.knowledge.lexicon import base_form
    from wsd.text.pipeline import Sentence, Word

    words, at = [], 0
    for token in text.split():
        at = text.index(token, at)
        lemma = base_form(token, "v") or token.lower()  # *looks*: look
        words.append(Word(token, at, at + len(token), "VB", lemma, "VERB", token))
        at += len(token)
    return [Sentence(text, 0, len(text), tuple(words))]


def test_a_multi_word_target_whose_words_stand_apart_is_recognised():
    from wsd.text import analyze
    from wsd.text.pipeline import spelled_apart

    assert spelled_apart(_apart("She looks up words"), "looked up")
    assert not spelled_apart(analyze("She looks up words."), "looked up")  # joined: found
    assert not spelled_apart(_apart("She looks at words"), "looked up")
    assert not spelled_apart(_apart("She looks up words"), "looked")
    # a particle after an object pronoun (*looked it up*)
    assert spelled_apart(_apart("She looked it up"), "look up")
    assert not spelled_apart(_apart("She looked the word up"), "look up")


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


def test_a_symbol_written_against_a_word_stands_apart_and_is_no_word():
    """*bass\U0001f41f* had been one token, no content word: the bass went unanswered, with
    no notice; *\u2122* had been read as the noun *tm* (thulium), WordNet's spelling of its
    compatibility form."""
    text = "He caught a huge bass\U0001f41f. The bank\u2122 and \U0001f44d\U0001f3fdriver bank."
    words = [w for s in _analyze(text) for w in s.words]
    assert [w.text for w in words] == ["He", "caught", "a", "huge", "bass", "\U0001f41f", ".",
                                       "The", "bank", "\u2122", "and", "\U0001f44d",
                                       "\U0001f3fd", "river", "bank", "."]  # fmt: skip
    assert all(text[w.start : w.end] == w.text for w in words)
    assert {(w.text, w.pos) for w in words if w.pos} == {
        ("caught", "VERB"), ("huge", "ADJ"), ("bass", "NOUN"), ("bank", "NOUN"),
        ("river", "NOUN")}


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
        ("like", "like", "VERB")}  # *do* + *n't*: *like* the verb
    assert [w.tag for w in words if w.text in "\u00ab\u00bb"] == ["``", "''"]
    assert all(text[w.start : w.end] == w.text for w in words)


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
    assert set(content) >= {"bank", "open", "visit", "bass", "river"}  # fmt: skip
    assert not {"p", "b", "amp", "rsquo", "help"} & {w.lemma for w in words if w.is_content}
    did = next(w for w in words if w.text == "did")  # *didn&rsquo;t* read as did + n't
    assert did.tag == "VBD"
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
    assert {"Corp.", "U.S.", "e.g.", "etc."} <= set(by_text)


def test_american_spelling_of_a_british_lemma_semcor_hardly_counted():
    """WordNet orders a lemma's senses by SemCor counts, which British spellings hardly have
    (*colour*'s first sense is colouring material): ``american`` gives the spelling to read
    it as when both share a synset and SemCor tagged that one more often; *theatre* (11 to
    10) and words that only look alike (*hour*, *flour*) stay."""
    from wsd.knowledge.lexicon import american

    assert [american(w, "n") for w in ("colour", "centre", "programme", "behaviour")] == [
        "color", "center", "program", "behavior"]
    assert american("organise", "v") == "organize" and american("analyse", "v") == "analyze"
    assert [american(w, "n") for w in ("theatre", "hour", "flour", "tour", "color")] == [
        "theatre", "hour", "flour", "tour", "color"]

