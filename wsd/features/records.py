"""The format + version header of the features layer's JSON records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def check_record(data: Mapping[str, Any], format: str, version: int) -> None:
    """ValueError unless ``data`` is a ``format`` record of ``version``, saying what was found."""
    if data.get("format") != format or data.get("version") != version:
        raise ValueError(
            f"not a {format} version {version} record: format={data.get('format')!r}, "
            f"version={data.get('version')!r}"
        )
