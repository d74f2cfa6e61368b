"""What every WSD system answers, whichever family it is (as NLTK's ``classify/api.py`` is for
classifiers): callers ask these, never ``isinstance``, to choose what to do with a system.

Instances are ``wsd.instance.Instance``; this module sits below it and names it only in
annotations.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

ALL_WORDS = "all-words"
"""``scope`` of a system that reads raw text and answers every content word of it."""
ONE_WORD = "one-word"
"""``scope`` of a system trained for the words of its training instances only."""


@runtime_checkable
class WSDSystem(Protocol):
    """A fitted WSD system: a sense (or None) for each instance, its accuracy on labelled
    ones, and its model file. Scores and reasons come with the answers of each family's own
    method (``SupervisedWSD.explain``, ``AllWordsWSD.decide``)."""

    scope: str  # ALL_WORDS or ONE_WORD

    def predict(self, instances: Sequence[Any]) -> list[str | None]:
        """One sense (or None: no answer) per instance, in order."""
        ...

    def score(self, instances: Sequence[Any]) -> float:
        """Accuracy (all-words: F1) on instances with gold senses."""
        ...

    def save(self, path: str | Path) -> Path:
        """Write the model file; returns its path."""
        ...

    @classmethod
    def load(cls, path: str | Path) -> WSDSystem:
        """The system a model file holds (ValueError naming the file when it holds none)."""
        ...


def scope_of(system: Any) -> str | None:
    """``system.scope`` for a WSD system, None for anything else (a learner, a name)."""
    return system.scope if isinstance(system, WSDSystem) else None
