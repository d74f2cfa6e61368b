"""Where an all-words instance sits: its document and sentence, the sentences around it, and
WordNet's example sentences as extra training instances."""

from __future__ import annotations

from collections.abc import Sequence

from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory
from wsd.knowledge.sensekeys import sense_key

SentenceId = tuple[str, str]


def sentence_of(inst: Instance) -> SentenceId:
    """``(document, sentence id)`` from ``Instance.meta`` (the instance id when it has none)."""
    meta = dict(inst.meta)
    return meta.get("document", ""), meta.get("sentence", inst.id)


def document_sentences(
    instances: Sequence[Instance],
) -> tuple[dict[str, list[SentenceId]], dict[SentenceId, tuple[str, ...]]]:
    """Each document's sentences in the order the instances come, and each sentence's tokens
    (sentences known only through the instances they hold)."""
    order: dict[str, list[SentenceId]] = {}
    tokens: dict[SentenceId, tuple[str, ...]] = {}
    for inst in instances:
        sentence = sentence_of(inst)
        if sentence not in tokens:
            tokens[sentence] = inst.tokens
            order.setdefault(sentence[0], []).append(sentence)
    return order, tokens


def neighbour_tokens(
    instances: Sequence[Instance], sentences: int
) -> dict[SentenceId, tuple[str, ...]]:
    """For each sentence (``(document, sentence id)`` from ``Instance.meta``), the tokens of the
    ``sentences`` sentences before and after it in the same document, in text order.

    Sentences are known only through the instances they hold (the loader keeps no others), in
    the order the instances come; a sentence without any instance is therefore skipped.
    """
    order, tokens = document_sentences(instances)
    context: dict[SentenceId, tuple[str, ...]] = {}
    for in_document in order.values():
        for i, sentence in enumerate(in_document):
            around = in_document[max(0, i - sentences) : i] + in_document[i + 1 : i + 1 + sentences]
            context[sentence] = tuple(t for other in around for t in tokens[other])
    return context


def wordnet_examples(lemma: str, pos: str, inventory: WordNetInventory) -> list[Instance]:
    """Training instances from WordNet's example sentences of each sense of ``lemma``/``pos``.

    An example counts when one of its tokens is the (one-word) lemma, or inflects to it by
    WordNet's morphy; its gold sense is that sense's key. Ids are ``wn:<sense key>:<n>``.
    """
    from nltk.corpus import wordnet  # NLTK: over a second to import
    from nltk.tokenize import TreebankWordTokenizer  # NLTK: over a second to import

    if "_" in lemma or " " in lemma:
        return []
    tokenizer = TreebankWordTokenizer()
    letter = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}.get(pos)
    found = []
    for sense in inventory.lemmas(lemma, pos):
        for n, text in enumerate(sense.synset().examples()):
            tokens = tuple(tokenizer.tokenize(text))
            for i, token in enumerate(tokens):
                word = token.lower()
                if word == lemma or wordnet.morphy(word, letter) == lemma:
                    found.append(Instance(id=f"wn:{sense_key(sense)}:{n}", tokens=tokens,
                                          span=(i, i + 1), lemma=lemma, target_pos=pos,
                                          senses=(sense_key(sense),)))  # fmt: skip
                    break
    return found


def wordnet_glosses(lemma: str, pos: str, inventory: WordNetInventory) -> list[Instance]:
    """One training instance per sense of ``lemma``/``pos``: its synset's lemma names and gloss
    as the gloss vectors encode them (``gloss_head``), the target the lemma's words among the
    names; gold sense that sense's key. Ids are ``gloss:<sense key>``."""
    from wsd.features.gloss_vectors import gloss_head, text_words

    words = [w.lower() for w in text_words(lemma.replace("_", " "))]
    found = []
    for sense in inventory.lemmas(lemma, pos):
        tokens = tuple(text_words(gloss_head(sense.synset())))
        lowered = [t.lower() for t in tokens]
        starts = [i for i in range(len(tokens)) if lowered[i : i + len(words)] == words]
        if starts:
            found.append(Instance(id=f"gloss:{sense_key(sense)}", tokens=tokens,
                                  span=(starts[0], starts[0] + len(words)), lemma=lemma,
                                  target_pos=pos, senses=(sense_key(sense),)))  # fmt: skip
    return found
