"""Finding external resources (NLTK data, the all-words framework) and saying how to get them."""

from __future__ import annotations

import os
from pathlib import Path

DOWNLOAD_ALL = (
    "python -m nltk.downloader wordnet senseval stopwords "
    "averaged_perceptron_tagger_eng universal_tagset"
)

TAGGER_RESOURCE = "averaged_perceptron_tagger_eng"  # NLTK's English averaged perceptron tagger

# NLTK resource name -> the path nltk.data.find looks for.
NLTK_RESOURCES = {
    "wordnet": "corpora/wordnet",
    "senseval": "corpora/senseval",
    "stopwords": "corpora/stopwords",
    "averaged_perceptron_tagger_eng": "taggers/averaged_perceptron_tagger_eng",
    "universal_tagset": "taggers/universal_tagset",
}

FRAMEWORK_ENV = "WSD_FRAMEWORK_DIR"
# Where the all-words data is published (Raganato, Camacho-Collados & Navigli 2017, EACL).
FRAMEWORK_SOURCE = ("The framework (SemCor and the Senseval/SemEval evaluation sets) is "
                    "published by the Sapienza NLP group as \"WSD Evaluation Framework\" "
                    "(Raganato, Camacho-Collados & Navigli 2017): download and unzip it.")
_REPO_ROOT = Path(__file__).resolve().parents[1]


class MissingResourceError(RuntimeError):
    """A corpus, model or data folder the requested work needs is not installed."""


class ResourceFault(Exception):
    """Mixin of the errors that blame the installation or its caches (an encoder file, a cache
    file), not the input, whatever their other class (a ValueError, for the command line's
    one-line errors): ``wsd annotate`` fails the run on them, never a document."""


def _nltk_find(resource: str) -> bool:
    import nltk  # here, not at the top: importing NLTK costs over a second

    path = NLTK_RESOURCES[resource]
    for candidate in (path, path + ".zip"):
        try:
            nltk.data.find(candidate)
            return True
        except LookupError:
            continue
    return False


def has_nltk_resource(resource: str) -> bool:
    """True when the NLTK resource (a key of NLTK_RESOURCES) can be loaded."""
    return _nltk_find(resource)


def require_nltk_resource(resource: str) -> None:
    """Raise MissingResourceError with the downloader command when ``resource`` is absent."""
    if not _nltk_find(resource):
        raise MissingResourceError(
            f"NLTK resource {resource!r} is not installed. Get it with:\n"
            f"    python -m nltk.downloader {resource}\n"
            f"(or point NLTK_DATA at a folder that has it; all the toolkit uses: {DOWNLOAD_ALL})"
        )


def shared_dir(*parts: str) -> Path | None:
    """``../shared/<parts>`` next to the working directory or the repository, if present."""
    for base in (Path.cwd(), _REPO_ROOT):
        candidate = base.parent / "shared" / Path(*parts)
        if candidate.exists():
            return candidate
    return None


def framework_dir(path: str | os.PathLike | None = None) -> Path:
    """The all-words framework folder: ``path``, else $WSD_FRAMEWORK_DIR, else ../shared/...

    Raises MissingResourceError naming the option and variable when none exists.
    """
    if path is None:
        path = os.environ.get(FRAMEWORK_ENV) or shared_dir("data", "wsd_framework")
    if path is None or not Path(path).is_dir():
        raise MissingResourceError(
            "the WSD evaluation framework folder (Raganato et al. 2017: Training_Corpora/, "
            "Evaluation_Datasets/) was not found"
            + (f" at {path}" if path else "")
            + f"; pass its path with --framework DIR (root= in Python) or set {FRAMEWORK_ENV}. "
            + FRAMEWORK_SOURCE
        )
    return Path(path)


def has_framework(path: str | os.PathLike | None = None) -> bool:
    """True when the all-words framework folder can be found (see framework_dir)."""
    try:
        framework_dir(path)
    except MissingResourceError:
        return False
    return True
