"""Test set-up: use the shared NLTK data beside the repository when it is there."""

import os
from pathlib import Path

import nltk

_SHARED = Path(__file__).resolve().parents[2] / "shared"
if (_SHARED / "nltk_data").is_dir():
    os.environ.setdefault("NLTK_DATA", str(_SHARED / "nltk_data"))
    if os.environ["NLTK_DATA"] not in nltk.data.path:
        nltk.data.path.insert(0, os.environ["NLTK_DATA"])
