"""Training the learned reader (``wsd.text.reader.LearnedReader``) on a sense-annotated
corpus: its sentences' tokens labelled as the corpus annotated them (a unit of NOUN, VERB, ADJ
or ADV, a name of a kind, or no unit), and the lemmas it gives forms where WordNet would give
another."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from wsd.instance import Instance
from wsd.knowledge.lexicon import POS_LETTER, base_form, withheld_counts
from wsd.learners.greedy import train_greedy
from wsd.systems.allwords.context import sentence_of
from wsd.text.reader import (
    EPOCHS,
    INSIDE,
    LABELS,
    NAME_KINDS,
    OUTSIDE,
    READER_JOINS,
    LearnedReader,
)
from wsd.text.readerfeatures import Vocabulary, lowercase, wordnet_expression
from wsd.text.tagger import penn_tags

# Short sentences (3 to HEADING_WORDS words) also trained on as title-case headings: as many
# as one in HEADING_EVERY of the corpus's sentences (set once, not tuned).
HEADING_WORDS, HEADING_EVERY = 12, 10


def name_kind(inst: Instance) -> str | None:
    """The kind of name an instance of the corpus is (*Durwood_Pye* tagged person), or None:
    its lemma is one of ``NAME_KINDS`` and its text a capitalised word other than that lemma
    (not *Person*, nor *a person*)."""
    start, end = inst.span
    text = " ".join(inst.tokens[start:end])
    if inst.lemma in NAME_KINDS and text[:1].isupper() and text.lower() != inst.lemma:
        return inst.lemma
    return None


Labelled = list[tuple[list[str], list[int]]]  # sentences: tokens and gold labels


def corpus_sentences(instances: Iterable[Instance]) -> tuple[Labelled, dict[str, str], list[str]]:
    """The corpus's sentences as tokens (a multi-word token's words apart) and gold labels,
    the lemmas it gives forms where they are not WordNet's (``LearnedReader.lemmas``), and
    each sentence's document.
    Only the sentences of documents annotated in more than one part of speech are labelled:
    SemCor tagged the verbs alone in 166 of its 352 documents, whose untagged nouns would
    teach that nouns are no units (their verbs' lemmas are counted)."""
    instances = [inst for inst in instances if inst.target_pos in POS_LETTER]
    parts: dict[str, set[str]] = {}
    for inst in instances:
        parts.setdefault(sentence_of(inst)[0], set()).add(inst.target_pos)
    sentences: dict[Any, tuple[Sequence[str], dict[int, str]]] = {}
    lemma_counts: dict[str, Counter[str]] = {}
    for inst in instances:
        kind = name_kind(inst)
        if len(parts[sentence_of(inst)[0]]) > 1:
            _, units = sentences.setdefault((sentence_of(inst), inst.tokens), (inst.tokens, {}))
            units[inst.span[0]] = f"B-{kind or inst.target_pos}"
        if kind is None:
            words = inst.tokens[inst.span[0]].replace("_", " ").split()
            key = f"{'_'.join(lowercase(w) for w in words)}#{POS_LETTER[inst.target_pos]}"
            lemma_counts.setdefault(key, Counter())[inst.lemma.lower()] += 1
    found, documents = [], []
    for ((document, _), _), (tokens, units) in sentences.items():
        words, labels = [], []
        for k, token in enumerate(tokens):
            pieces = token.replace("_", " ").split() or [token]
            words += pieces
            labels += [LABELS.index(units[k]), *[INSIDE] * (len(pieces) - 1)] if k in units \
                else [OUTSIDE] * len(pieces)  # fmt: skip
        found.append((words, labels))
        documents.append(document)
    return found, _lemma_exceptions(lemma_counts), documents


def _lemma_exceptions(counts: Mapping[str, Counter[str]]) -> dict[str, str]:
    """The corpus's most frequent lemma per ``form#letter`` where WordNet would give another;
    a one-word form's lemmas of several words (*revolves*: revolve_around, where the corpus
    tagged a verb apart from its particle) are left out: the particle may not be there."""
    found = {}
    for key, lemmas in counts.items():
        form, letter = key.rsplit("#", 1)
        words = tuple(form.split("_"))
        if len(words) == 1:
            lemmas = Counter({lemma: n for lemma, n in lemmas.items() if "_" not in lemma})
            if not lemmas:
                continue
        lemma = max(lemmas.items(), key=lambda item: (item[1], item[0]))[0]
        default = base_form(form, letter) if len(words) == 1 else (
            wordnet_expression(words) or (None,))[0]  # fmt: skip
        if lemma != default:
            found[key] = lemma
    return found


def as_heading(words: Sequence[str], labels: Sequence[int]) -> tuple[list[str], list[int]]:
    """A sentence written as a title-case heading: its first word and every word of four
    letters or more capitalised, its final punctuation dropped; the labels as they were (a
    capital that only the heading gives makes no name)."""
    end = len(words) - 1 if len(words) > 1 and not any(c.isalnum() for c in words[-1]) \
        else len(words)  # fmt: skip
    return ([w[:1].upper() + w[1:] if (k == 0 or len(w) >= 4) and w[:1].isalpha() else w
             for k, w in enumerate(words[:end])], list(labels[:end]))  # fmt: skip


def heading_choice(sentences: Sequence[tuple[list[str], list[int]]], seed: int) -> list[int]:
    """A ``seed``-ed choice of the short sentences (3 to ``HEADING_WORDS`` words), as many as
    one in ``HEADING_EVERY`` of all, in the corpus's order: the ones ``headings`` rewrites."""
    short = [k for k, (words, _) in enumerate(sentences) if 3 <= len(words) <= HEADING_WORDS]
    chosen = np.random.default_rng(seed).permutation(short)[: len(sentences) // HEADING_EVERY]
    return sorted(int(k) for k in chosen)


def headings(sentences: Sequence[tuple[list[str], list[int]]],
             seed: int) -> list[tuple[list[str], list[int]]]:  # fmt: skip
    """``as_heading`` of the sentences ``heading_choice`` picks."""
    return [as_heading(*sentences[k]) for k in heading_choice(sentences, seed)]


def lemma_taggings(instances: Iterable[Instance],
                   one_word: bool = False) -> Counter[tuple[str, str]]:  # fmt: skip
    """How often ``instances`` tag each lemma (only one-word ones with ``one_word``) in each
    part of speech, as ``(lowercase lemma, letter)``: what they add to WordNet's counts,
    which are SemCor's (``lexicon.withheld_counts`` takes it out again)."""
    return Counter((inst.lemma.lower(), POS_LETTER[inst.target_pos]) for inst in instances
                   if inst.senses and inst.target_pos in POS_LETTER
                   and not (one_word and "_" in inst.lemma))  # fmt: skip


def document_taggings(instances: Iterable[Instance], expressions: bool = False,
                      ) -> dict[str, Counter[tuple[str, str]]]:  # fmt: skip
    """``lemma_taggings`` of the one-word lemmas (with ``expressions``, of every lemma), per
    document."""
    by_document: dict[str, list[Instance]] = {}
    for inst in instances:
        by_document.setdefault(sentence_of(inst)[0], []).append(inst)
    found = {document: lemma_taggings(group, one_word=not expressions)
             for document, group in by_document.items()}  # fmt: skip
    return {document: counts for document, counts in found.items() if counts}


def rows_without_own_counts(vocabulary: Vocabulary,
                            tagged: Sequence[tuple[Sequence[str], Sequence[str]]],
                            documents: Sequence[str],
                            taggings: Mapping[str, Mapping[tuple[str, str], int]],
                            ) -> np.ndarray:  # fmt: skip
    """``vocabulary.rows`` of the training sentences, each run of one document's sentences
    read with that document's own ``taggings`` (``document_taggings``) held back from
    WordNet's counts (``lexicon.withheld_counts``). New text's words are in no count; read
    as they are, the counts of a rare word tagged only in its own sentence tell the labeller
    its part of speech, and a count of 0 had come to mean a name (*Oncogenes* read as a
    person)."""
    blocks = []
    for document, run in itertools.groupby(range(len(tagged)), key=documents.__getitem__):
        at = list(run)
        with withheld_counts(taggings.get(document, {})):
            vocabulary.forget_words()
            blocks.append(vocabulary.rows(tagged[at[0] : at[-1] + 1]))
    vocabulary.forget_words()
    return np.concatenate(blocks) if blocks else vocabulary.rows([])


def train_reader(instances: Iterable[Instance], epochs: int = EPOCHS, seed: int = 0,
                 joins: str = "corpus") -> LearnedReader:  # fmt: skip
    """A ``LearnedReader`` trained on the corpus's sentences (tagged by the raw-text path's
    tagger) for ``epochs`` passes in a ``seed``-ed order; besides them, some of them written
    as title-case headings (``headings``): the corpus has too few headings to teach that
    their capitals make no names. Each sentence's word features read WordNet's counts
    without its own document's taggings (``rows_without_own_counts``). ``joins`` (see
    ``READER_JOINS``): "corpus", its expression features read the counts as they are, so
    it joins the WordNet expressions the corpus tagged; "wordnet", without the document's
    own taggings of expressions too, so it joins WordNet's expressions where their words
    and context say so, the corpus's taggings of them or not (*global warming*)."""
    if joins not in READER_JOINS:
        raise ValueError(f"reader joins must be one of {', '.join(READER_JOINS)}, got {joins!r}")
    instances = list(instances)
    sentences, lemmas, documents = corpus_sentences(instances)
    chosen = heading_choice(sentences, seed)
    sentences += [as_heading(*sentences[k]) for k in chosen]
    documents += [documents[k] for k in chosen]
    tagged = [(words, penn_tags(words)) for words, _ in sentences]
    types = Counter(word for words, _ in tagged for word in words)
    vocabulary = Vocabulary.learn(types, tagged)
    reader = LearnedReader(vocabulary, np.zeros((0, len(LABELS))), lemmas, epochs)
    X = rows_without_own_counts(vocabulary, tagged, documents,
                                document_taggings(instances, expressions=joins == "wordnet"))
    tags = reader._tag_ids([tag for _, tags in tagged for tag in tags])
    starts = np.cumsum([0] + [len(words) for words, _ in tagged])
    gold = np.array([label for _, labels in sentences for label in labels], dtype=np.int64)
    reader.W = train_greedy(X, tags, starts, gold, vocabulary.size, len(LABELS),
                            len(vocabulary.ids["t"]), epochs, seed)  # fmt: skip
    return reader
