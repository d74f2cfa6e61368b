"""The NLTK senseval lexical-sample corpus (hard, interest, line, serve) as ``Instance`` lists.

Tokens and Penn Treebank tags come from the corpus itself. A few tokens reach NLTK untagged
(plain strings instead of ``(word, tag)`` pairs, e.g. ``FRASL``, NLTK's stand-in for a fraction
slash as in "3-1 FRASL 2-inch"); they keep their text and get the empty tag ``""``, so every
instance has one tag per token. Tokens are kept exactly as NLTK gives them, so ``span`` matches
NLTK's ``position``.
"""

from __future__ import annotations

from functools import cache

from wsd.instance import Instance
from wsd.resources import require_nltk_resource

UNTAGGED = ""
# Word -> coarse POS of the target, as the corpus file names say (hard.pos holds hard-a, ...).
_TARGET_POS = {"hard": "ADJ", "interest": "NOUN", "line": "NOUN", "serve": "VERB"}


def senseval_words() -> list[str]:
    """The lexical-sample words in NLTK's senseval corpus."""
    return sorted(_TARGET_POS)


def _word_name(word: str) -> str:
    name = word.strip().lower().removesuffix(".pos")
    if name not in _TARGET_POS:
        raise ValueError(
            f"unknown senseval word {word!r}; choose one of {', '.join(senseval_words())}"
        )
    return name


def load_senseval(word: str) -> list[Instance]:
    """All instances of ``word`` ('hard', 'interest', 'line', 'serve'; 'line.pos' also works).

    Ids are ``<word>.<n>`` with ``n`` counting from 0001 in corpus order. Raises ValueError for an
    unknown word and MissingResourceError (naming the downloader command) when the corpus is
    not installed. Results are cached per word; the returned list is a fresh copy.
    """
    return list(_load(_word_name(word)))


@cache
def _load(name: str) -> tuple[Instance, ...]:
    require_nltk_resource("senseval")
    from nltk.corpus import senseval  # NLTK: over a second to import

    target_pos = _TARGET_POS[name]
    result = []
    for n, raw in enumerate(senseval.instances(f"{name}.pos"), start=1):
        tokens = []
        tags = []
        for item in raw.context:
            if isinstance(item, tuple):
                tokens.append(item[0])
                tags.append(item[1])
            else:
                tokens.append(item)
                tags.append(UNTAGGED)
        result.append(
            Instance(
                id=f"{name}.{n:04d}",
                tokens=tuple(tokens),
                span=(raw.position, raw.position + 1),
                lemma=name,
                pos=tuple(tags),
                senses=tuple(raw.senses),
                target_pos=target_pos,
            )
        )
    return tuple(result)
