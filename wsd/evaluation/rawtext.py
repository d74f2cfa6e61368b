"""How much the raw-text path loses against the framework's XML: rebuild each document's plain
text from its sentences' tokens, disambiguate it as raw text (our own sentence splitting,
tokenizing, tagging, lemmatizing and multi-word expressions), map the words back onto the
gold instances by character offset and score both ways with the framework's scorer.

A raw-text word answers the gold instance whose first token starts where the word starts; an
instance no content word starts at (its word was joined into an expression begun earlier, or
was not taken for a content word) is unanswered, a miss in recall, as the scorer counts it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wsd.allwords.context import sentence_of
from wsd.evaluation.scorer import score_framework
from wsd.instance import Instance


def plain_documents(instances: Sequence[Instance]) -> list[tuple[str, dict[str, int]]]:
    """Per document: its plain text (one sentence per line, tokens joined by spaces, '_' in a
    multi-word token read as a space) and the character offset of each instance's target."""
    documents: dict[str, dict[str, Instance]] = {}
    for inst in instances:
        document, sentence = sentence_of(inst)
        documents.setdefault(document, {}).setdefault(sentence, inst)
    found = []
    for document, sentences in documents.items():
        lines, starts, offset = [], {}, 0
        for sentence, first in sentences.items():
            words = [token.replace("_", " ") for token in first.tokens]
            token_starts = []
            for word in words:
                token_starts.append(offset)
                offset += len(word) + 1  # the space after it (the line break after the last)
            starts[sentence] = token_starts
            lines.append(" ".join(words))
        targets = {inst.id: starts[sentence_of(inst)[1]][inst.span[0]]
                   for inst in instances if sentence_of(inst)[0] == document}  # fmt: skip
        found.append(("\n".join(lines), targets))
    return found


def raw_text_answers(model: Any, instances: Sequence[Instance], conventions: Any = None
                     ) -> dict[str, str | None]:  # fmt: skip
    """The sense the raw-text path gives each instance's target (None when it found no
    content word starting there); ``conventions`` as ``tag_text``'s."""
    from wsd.allwords.text import tag_text

    answers: dict[str, str | None] = {}
    for text, targets in plain_documents(instances):
        _, words = tag_text(model, text, conventions=conventions)
        by_start = {word.start: word.sense_key for word in words}
        answers.update({inst_id: by_start.get(start) for inst_id, start in targets.items()})
    return answers


def raw_vs_xml(model: Any, instances: Sequence[Instance]) -> dict[str, float]:
    """F1 (fractions) of ``model`` on the XML instances and on their plain text, with the
    raw text's P, R and share of instances answered."""
    gold = {inst.id: inst.senses for inst in instances}
    xml = dict(zip(gold, model.predict(instances), strict=True))
    raw = score_framework(gold, raw_text_answers(model, instances))
    return {"xml_F1": score_framework(gold, xml)["F1"], "raw_F1": raw["F1"], "raw_P": raw["P"],
            "raw_R": raw["R"], "raw_answered": raw["answered"] / raw["total"]}  # fmt: skip
