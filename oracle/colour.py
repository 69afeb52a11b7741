"""Colour on a terminal: only for a person watching one, and never when NO_COLOR asks for none.

https://no-color.org: a NO_COLOR variable that is present and not empty turns colour off; so does a
terminal that says it cannot show it (TERM=dumb). Off a terminal (a pipe, a file) there is never colour.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

_CODES = {"red": "31", "green": "32", "yellow": "33", "bold": "1", "dim": "2"}


def wants_colour(stream: TextIO, env: Mapping[str, str]) -> bool:
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Paint:
    """Wraps text in a terminal's colour codes, or gives it back as it is when colour is off."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, text: str, *styles: str) -> str:
        if not self.on or not styles or not text:
            return text
        return f"\033[{';'.join(_CODES[s] for s in styles)}m{text}\033[0m"
