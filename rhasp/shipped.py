"""Files rhasp ships: inside the installed package (pyproject's force-include puts them
there), or at the top of a source checkout, beside the package."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def shipped(relative: str) -> Path:
    """``relative`` (``encodings``, ``puzzles/original40.txt``) where this copy of rhasp has it."""
    installed = PACKAGE / relative
    return installed if installed.exists() else PACKAGE.parent / relative
