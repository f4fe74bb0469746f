"""A data file a widget shows: JSON a browser can read, small enough to ship in its page, with
finite numbers only (Python's json module writes NaN and Infinity, which JSON has no words for,
and a number too large for a double reads back as infinity)."""

from __future__ import annotations

import json
import math

MAX_DATA_BYTES = 256 * 1024


class DataError(ValueError):
    """Why a data file cannot be shown."""


def _refuse_constant(name: str):
    raise DataError(f"holds {name}, which is not JSON (write finite numbers only)")


def _finite(value, where: str = "$") -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise DataError(f"holds {value} at {where}, which is not a finite number")
    if isinstance(value, dict):
        for key, item in value.items():
            _finite(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _finite(item, f"{where}[{i}]")


def canonical(data: bytes, limit: int = MAX_DATA_BYTES) -> str:
    """The data file as compact JSON, with no ``<`` (safe in any HTML); DataError if it is not
    valid, finite, UTF-8 JSON of at most ``limit`` bytes."""
    if len(data) > limit:
        raise DataError(f"is {len(data):,} bytes; a data file ships in its page, so at most {limit:,}")
    try:
        value = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as exc:
        raise DataError(f"is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    _finite(value)
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    # "<" only ever stands inside a JSON string, where \u003c reads back as the same character.
    return text.replace("<", "\\u003c")
