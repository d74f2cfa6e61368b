"""`wsd senses WORD`: the senses a word can take, with glosses, from the bundled inventory or
WordNet — what a student asks first."""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Iterator

from wsd.knowledge.forms import target_lemma
from wsd.knowledge.inventory import (
    BundledInventory,
    Sense,
    WordNetInventory,
    coarse_pos,
    readable_gloss,
)
from wsd.knowledge.lexicon import folded
from wsd.requests import SensesRequest
from wsd.resources import MissingResourceError, has_nltk_resource
from wsd.text.treebank import ascii_quotes, without_possessive

SOURCES = ("auto", "bundled", "wordnet")


def _key_pos(word: str, pos: str | None) -> tuple[str, str | None]:
    """A ``lemma#pos`` key (*bank#n*, *run#VERB*), as the all-words models name their
    classifiers, split into the word and its part of speech; ValueError where ``pos`` says
    another one."""
    key = re.fullmatch(r"(.+?)\s*#\s*([A-Za-z]+)", word, re.DOTALL)
    if key is None:
        return word, pos
    try:
        coarse_pos(key[2])
    except ValueError:
        raise ValueError(f"{word!r}: {key[2]!r} is not a part of speech; write the key as "
                         f"{key[1]}#n, #v, #a or #r (or #NOUN, #VERB, #ADJ, #ADV)") from None
    if pos is not None and coarse_pos(pos) != coarse_pos(key[2]):
        raise ValueError(f"{word!r} names the part of speech {key[2]}, and --pos {pos} another: "
                         "give one")
    return key[1], key[2]


def word_senses(word: str, pos: str | None = None, source: str = "auto") -> tuple[str, list[Sense]]:
    """The senses of ``word`` (optionally of one part of speech) and the inventory they came
    from ('bundled' or 'wordnet'); ``word`` may name its part of speech as a key does
    (*bank#n*). ``source='auto'`` uses the bundled inventory for its targets
    (in their part of speech) and WordNet for everything else. From WordNet, as
    ``wordnet.synsets`` gives them: the word's own senses and those of the words it is a form
    of (*banks*: Banks, the botanist, and bank; *saw*: saw and see; *looked up*: look up),
    accents folded and a possessive's ending left out (*café's*: cafe).

    ValueError when the inventory has no such word; MissingResourceError (with the downloader
    command) when WordNet is needed but not installed.
    """
    if source not in SOURCES:
        raise ValueError(f"unknown sense inventory {source!r}; choose from {', '.join(SOURCES)}")
    word = " ".join(word.split())
    if not word:
        raise ValueError("give a word, e.g. wsd senses bass")
    word, pos = _key_pos(word, pos)
    pos = coarse_pos(pos)  # validates the tag before anything is loaded
    name = without_possessive(ascii_quotes(word)) or word
    bundled = BundledInventory()
    senses = bundled.senses(name, pos) if source != "wordnet" else []
    if senses or source == "bundled":
        if not senses:
            raise ValueError(f"the bundled inventory has no {_described(word, pos)}; bundled "
                             f"targets: {', '.join(bundled.targets())}")
        return "bundled", senses
    if not has_nltk_resource("wordnet"):
        form_of = target_lemma(name, bundled.targets())  # regular inflections: no WordNet
        hint = f" (for the bundled {form_of}: wsd senses {form_of})" if form_of else ""
        raise MissingResourceError(
            f"{word!r} is not a bundled target ({', '.join(bundled.targets())}){hint}, and its "
            "senses come from WordNet, which is not installed; get it with: "
            "python -m nltk.downloader wordnet")

    inventory = WordNetInventory(exact_lemma=False)
    senses = inventory.senses(folded(name), pos)
    if not senses and len(name.split()) > 1:  # an inflected expression: *looked up*
        from wsd.text.pipeline import target_lemmas  # the tagger: for a word WordNet lacks

        senses = next(filter(None, (inventory.senses(lemma, pos)
                                    for lemma in sorted(target_lemmas(name)))), [])
    if not senses:
        raise ValueError(f"WordNet has no {_described(word, pos)}; check the spelling"
                         + (" or leave out --pos" if pos else ""))
    return "wordnet", senses


def _lemma_counts(senses: list[Sense]) -> str:
    """*1 of banks, 18 of bank* where the senses belong to more than one word, else ''."""
    counts = Counter(sense.id.split("%")[0] for sense in senses)
    if len(counts) < 2:
        return ""
    return ": " + ", ".join(f"{count} of {lemma.replace('_', ' ')}"
                            for lemma, count in counts.items())


def _described(word: str, pos: str | None) -> str:
    return f"{pos.lower()} {word!r}" if pos else repr(word)


def format_senses(word: str, source: str, senses: list[Sense], width: int = 100) -> str:
    """Numbered senses, each with its id, gloss and first example, wrapped to ``width``."""
    lines = [f"{word}: {len(senses)} sense{'s' if len(senses) != 1 else ''} "
             f"({'bundled inventory' if source == 'bundled' else 'WordNet 3.0'})"
             f"{_lemma_counts(senses) if source == 'wordnet' else ''}"]
    for number, sense in enumerate(senses, start=1):
        label = sense.id if sense.synset is None else f"{sense.synset}  {sense.id}"
        lines.append(f"{number:>3}. {label}")
        indent = " " * 7
        gloss = sense.gloss if sense.synset is None else readable_gloss(sense.gloss)
        lines += textwrap.wrap(gloss, width, initial_indent=indent, subsequent_indent=indent)
        if sense.examples:
            lines += textwrap.wrap(f"e.g. \"{sense.examples[0]}\"", width,
                                   initial_indent=indent, subsequent_indent=indent)
    return "\n".join(lines)


def senses_command(request: SensesRequest) -> Iterator[str]:
    """`wsd senses`: the word's senses, numbered, with their glosses."""
    source, senses = word_senses(request.word, pos=request.pos, source=request.inventory)
    yield format_senses(request.word, source, senses)
