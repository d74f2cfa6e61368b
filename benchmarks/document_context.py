"""The encoder given the document's neighbouring sentences (issue 39; docs/sense-vectors.md,
"Document context for the encoder").

Today the contextual block (``ContextualEmbedding``, 256-piece window) encodes each instance's
sentence alone. Here the all-words system's block encodes, for each instance, the ``k``
sentences before its sentence in the same document, the sentence, and the ``k`` after
(``document_windows``: SemCor and the framework XML keep document order; as
``neighbour_tokens``, a sentence is known only through the instances it holds), the target's
span moved into it, so that its pooled pieces are still the target's and the 256-piece window
is cut around the target as today. Everything else is the default's: the other features read
the sentence alone, the gloss fusion's context vector (``GlossWithPrior``) is unchanged.

The block's vectors are changed by patching ``ContextBlock.vectors`` (the all-words system's
only way to its encoder), then ``gloss_classifiers.py`` runs as it does for the default:
``--train`` (the full and the fold-0 model), ``--train-oof`` (the two out-of-fold models), then
the grid of every set (the default's cell: ``loglinear cosine w=20 + gloss-seen-trainprior``;
``today``: the classifiers alone). The windows are cached like the sentences' (the cache key
is the window's tokens and span, so a sentence with neighbours is a new entry).

    WSD_CACHE_DIR=... python benchmarks/document_context.py --neighbours 1 --pieces
    WSD_CACHE_DIR=... python benchmarks/document_context.py --neighbours 1 --models DIR --train
    WSD_CACHE_DIR=... python benchmarks/document_context.py --neighbours 1 --models DIR \
        --train-oof
    WSD_CACHE_DIR=... python benchmarks/document_context.py --neighbours 1 --models DIR \
        --sets heldout semeval2007 oof0 oof1 senseval2 senseval3

``--gloss-context``: the gloss fusion's target vector (``GlossWithPrior``: last layer, 128-piece
window, not cached) is computed in the window too; ``--no-block-context``: the block's is not
(with the models of today's default, ``gloss_classifiers.py --train``). Every other argument
goes to ``gloss_classifiers.py``. Needs the
framework data, the NLTK data and the [context] extra.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import gloss_classifiers

from wsd.corpora.framework import load_dataset
from wsd.features.contextual import ContextualEmbedding
from wsd.features.encoders import DEFAULT_ENCODER, load_encoder
from wsd.instance import Instance
from wsd.systems import gloss_prior
from wsd.systems.allwords.context import SentenceId, document_sentences, sentence_of
from wsd.systems.allwords.instance_features import ContextBlock

Window = tuple[tuple[str, ...], int]  # the tokens with the neighbours, the sentence's offset
WINDOWS: dict[tuple[SentenceId, tuple[str, ...]], Window] = {}
MISSES: list[int] = [0]


def document_windows(instances: Sequence[Instance], k: int
                     ) -> dict[tuple[SentenceId, tuple[str, ...]], Window]:  # fmt: skip
    """For each sentence (its id and tokens), the tokens of the ``k`` sentences before it in
    its document, its own and those of the ``k`` after, with where its own start."""
    order, tokens = document_sentences(instances)
    found = {}
    for in_document in order.values():
        for i, sentence in enumerate(in_document):
            before = tuple(t for s in in_document[max(0, i - k) : i] for t in tokens[s])
            after = tuple(t for s in in_document[i + 1 : i + 1 + k] for t in tokens[s])
            found[(sentence, tokens[sentence])] = (before + tokens[sentence] + after, len(before))
    return found


def widened(inst: Instance) -> Instance:
    """``inst`` in its document window (itself when its sentence is not known)."""
    window = WINDOWS.get((sentence_of(inst), inst.tokens))
    if window is None:
        MISSES[0] += 1
        return inst
    tokens, offset = window
    start, end = inst.span
    return Instance(id=inst.id, tokens=tokens, span=(start + offset, end + offset),
                    lemma=inst.lemma, target_pos=inst.target_pos)


class WindowEmbedding(ContextualEmbedding):
    """``ContextualEmbedding`` of each instance in its document window (registered under its
    own name, so the all-words block's "context" extractor stays ``ContextualEmbedding``)."""

    name = "document-context"

    def vectors(self, instances: Sequence[Instance], progress: bool = False):
        return super().vectors([widened(inst) for inst in instances], progress)


def install(k: int, block: bool, gloss: bool) -> None:
    """Every dataset ``gloss_classifiers`` loads registers its windows; with ``block`` the
    all-words block encodes each instance in its window, with ``gloss`` the gloss fusion's
    target vector does (its sentence vector stays the sentence's)."""
    vectors = ContextBlock.vectors

    def loading(name: str, root=None) -> list[Instance]:
        instances = load_dataset(name, root)
        WINDOWS.update(document_windows(instances, k))
        return instances

    def window_vectors(self: ContextBlock, instances: Sequence[Instance], progress: bool = False):
        found = vectors(self, [widened(inst) for inst in instances], progress)
        if MISSES[0]:
            print(f"document context: {MISSES[0]} instances without a window", flush=True)
            MISSES[0] = 0
        return found

    gloss_classifiers.load_dataset = loading
    if block:
        ContextBlock.vectors = window_vectors
    if gloss:
        gloss_prior.ContextualEmbedding = WindowEmbedding


def pieces(k: int, window: int = 256) -> None:
    """How many pieces SemCor's contexts hold with ``k`` neighbours each side, and how many
    exceed the window (those are cut around each target: one run per target, not per
    sentence)."""
    import numpy as np

    semcor = load_dataset("semcor")
    encoder = load_encoder(DEFAULT_ENCODER)
    for label, windows in (("sentence", document_windows(semcor, 0)),
                           (f"k={k}", document_windows(semcor, k))):
        lengths = np.array([len(ids) for ids, _ in encoder.pieces([t for t, _ in
                                                                   windows.values()])])
        print(f"{label}: {len(lengths)} contexts, {lengths.sum()} pieces, mean "
              f"{lengths.mean():.1f}, over {window - 2}: {(lengths > window - 2).mean():.1%}",
              flush=True)


def main() -> None:
    argv = sys.argv[1:]
    k = 1
    if "--neighbours" in argv:
        at = argv.index("--neighbours")
        k = int(argv[at + 1])
        del argv[at : at + 2]
    if "--pieces" in argv:
        pieces(k)
        return
    flags = {flag: flag in argv for flag in ("--gloss-context", "--no-block-context")}
    argv = [a for a in argv if a not in flags]
    install(k, not flags["--no-block-context"], flags["--gloss-context"])
    sys.argv = [sys.argv[0], *argv]
    gloss_classifiers.main()


if __name__ == "__main__":
    main()
