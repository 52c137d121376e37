"""Files rhasp ships: inside the installed package (pyproject's force-include puts them
there), or at the top of a source checkout, beside the package."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent

#: How a card of the original deck may be named anywhere a puzzle is asked for: ``card26``,
#: ``card26.txt``, ``Card 6`` or ``26`` (none of which is a board, so no board is shadowed).
CARD_NAME = re.compile(r"(?:card\s*)?0*(\d{1,2})(?:\.txt)?", re.IGNORECASE)
CARDS = 40


def shipped(relative: str) -> Path:
    """``relative`` (``encodings``, ``puzzles/original40.txt``) where this copy of rhasp has it."""
    installed = PACKAGE / relative
    return installed if installed.exists() else PACKAGE.parent / relative


def shipped_card(name: str) -> Path | None:
    """The file of the original deck's card that ``name`` names, or None: so that ``rhasp
    solve card26`` works in any folder, as the cards ship with the package."""
    match = CARD_NAME.fullmatch(name.strip())
    if match is None or not 1 <= int(match.group(1)) <= CARDS:
        return None
    path = shipped(f"puzzles/original/card{int(match.group(1)):02d}.txt")
    return path if path.is_file() else None
