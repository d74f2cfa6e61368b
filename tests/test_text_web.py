"""``wsd.text.web.plain_view``: text copied from the web read as a person sees it, every
offset unchanged (no NLTK data needed)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.text.web import WORD_JOINER, plain_view


def test_markup_is_blank_and_offsets_stay():
    text = '<p class="x">The <b>bank</b><br/> closed.</p><!-- a comment -->'
    view = plain_view(text)
    assert len(view.text) == len(text) and view.tokenized == view.text
    assert view.text.split() == ["The", "bank", "closed."]
    assert [line.split() for line in view.text.splitlines() if line.strip()] == [
        ["The", "bank"], ["closed."]]  # <p>, <br/>, </p> end lines; <b> does not
    start = view.text.index("bank")
    assert text[start : start + 4] == "bank"


def test_references_are_their_characters_padded_with_word_joiners():
    text = "AT&amp;T didn&rsquo;t&nbsp;pay &#8364;5 &#x27;now&#x27; &bogus; & co"
    seen = plain_view(text).text
    assert len(seen) == len(text)
    assert seen.replace(WORD_JOINER, "") == "AT&T didn\u2019t\u00a0pay \u20ac5 'now' &bogus; & co"
    assert seen.index("\u2019") == text.index("&rsquo;")


def test_addresses_are_one_token_without_their_final_punctuation():
    text = "See https://www.bank.com/rates?a=1&amp;b=2, www.river.org. Mail help@bank.co.uk!"
    view = plain_view(text)
    found = sorted(text[start:end] for start, end in view.addresses)
    assert found == ["help@bank.co.uk", "https://www.bank.com/rates?a=1&amp;b=2",
                     "www.river.org"]  # fmt: skip
    assert view.text == text  # the address itself, as a person reads it
    for start, end in view.addresses:
        assert view.tokenized[start:end] == "x" * (end - start)
    outside = [i for i in range(len(text)) if not any(s <= i < e for s, e in view.addresses)]
    assert all(view.tokenized[i] == text[i] for i in outside)


def test_markdown_marks_against_a_word_are_blank_and_a_mention_is_an_address():
    text = "# The **bank** of the _river_, `bank` and ~~gone~~ __init__ ***x*** @john: hi"
    view = plain_view(text)
    assert view.text.split() == ["#", "The", "bank", "of", "the", "river", ",", "bank", "and",
                                 "gone", "init", "x", "@john:", "hi"]  # fmt: skip
    assert [text[start:end] for start, end in view.addresses] == ["@john"]


def test_markdown_code_is_blank_and_a_one_word_span_reads_as_the_word():
    """Code in a README or a forum post had been read as prose: *git* in *`git commit -m
    "msg"`* had the sense rotter, *print* in a fenced block the noun."""
    text = ('Use `git commit -m "msg"` to save the `bank` rates.\n\n```python\n'
            "bank = Bank(rate=0.5)\nprint(bank.rate)\n```\nThe ~~~ river.")
    view = plain_view(text)
    assert view.text.split() == ["Use", "to", "save", "the", "bank", "rates.", "The", "~~~",
                                 "river."]  # fmt: skip
    assert len(view.text) == len(text) and view.text.count("\n") == text.count("\n")
    assert view.text.index("rates") == text.index("rates")


def test_what_looks_like_code_but_is_prose_stays():
    """An unclosed fence closes nothing; LaTeX quotes and a backquote typed for an apostrophe
    are no code spans."""
    for text in ("```\nthe bank\nand river", "``Go,'' he said, ``now.''", "I don`t, won`t go",
                 "~~~~ the bank ~~~"):  # fmt: skip
        assert plain_view(text).text.split() == text.split(), text


def test_a_terminals_colour_codes_are_blank():
    """Text piped from ``grep --color=always``: the escape sequences had given the words *[*
    and *31m*."""
    text = "The \x1b[01;31m\x1b[Kbank\x1b[m\x1b[K raised rates.\x1b(B"
    view = plain_view(text)
    assert view.text.split() == ["The", "bank", "raised", "rates."]
    assert view.text.index("bank") == text.index("bank") and len(view.text) == len(text)


def test_what_is_not_markup_stays():
    for text in ("if a < b and c > d", "a <<bass>> swam", "x<=y", "AT&T and R&D;", "2 * 3",
                 "user@host", "I <3 you", "<>", "ftp:// nothing", "a*b c_d", "``said''",
                 "took_place", "* item"):  # fmt: skip
        assert plain_view(text).text == text, text
        assert plain_view(text).addresses == frozenset(), text


_PIECES = st.sampled_from(["<p>", "</p>", '<a href="u.html">', "<br/>", "<!-- c -->", "&amp;",
                           "&rsquo;", "&#233;", "&zz;", "www.x.com", "http://a.b/c", "me@x.org",
                           "bank", " ", ".", ",", "<", ">", "&", "@", ";", "<<", ">>", "x",
                           "\n", "**", "_", "`", "~~", "\x1b[1;31m", "\x1b[0m", "```",
                           "~~~", "`a b`", "`a`",
                           "\x1b"])  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=20))
def test_the_view_keeps_length_and_changes_only_what_it_reads_otherwise(pieces):
    """Any mix of markup, references, addresses and text: the same length; a character
    changes only to a blank (markup), a referenced character or word joiner (a reference),
    and only inside an address does the tokenized view differ from the seen one."""
    text = "".join(pieces)
    view = plain_view(text)
    assert len(view.text) == len(text) == len(view.tokenized)
    inside = {i for start, end in view.addresses for i in range(start, end)}
    triples = zip(text, view.text, view.tokenized, strict=True)
    for i, (given_char, seen, tokenized) in enumerate(triples):
        assert tokenized == ("x" if i in inside else seen)
        if i in inside:
            assert seen == given_char
        elif seen != given_char:
            assert seen in (" ", "\n", WORD_JOINER) or given_char == "&"
            assert seen != "\n" or given_char == "<"  # a block's tag ends a line


def test_folded_spells_words_as_wordnet_does():
    from wsd.knowledge.lexicon import folded

    assert [folded(w) for w in ("café", "re\u0301sume\u0301", "naïve", "façade", "\ufb01sh",
                                "\uff42\uff41\uff4e\uff4b", "bank", "São")] == [
        "cafe", "resume", "naive", "facade", "fish", "bank", "bank", "Sao"]  # fmt: skip
    assert folded("straße") == "straße"  # no ASCII spelling: left as it is


def test_scripts_and_style_sheets_are_blank_and_an_unclosed_one_is_just_a_tag():
    page = ('<html><head><title>Bank</title><style>p { color: red }</style><script type="x">'
            "var bank = 1; if (a<b) {}</script></head><body><p>The bank.</p>"
            "<SCRIPT>run()</SCRIPT></body></html>")
    assert plain_view(page).text.split() == ["Bank", "The", "bank."]
    assert [line.strip() for line in plain_view(page).text.splitlines() if line.strip()] == [
        "Bank", "The bank."]  # the title and the paragraph are lines of their own
    assert plain_view("the <script> tag runs code").text.split() == ["the", "tag", "runs", "code"]
