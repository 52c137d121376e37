"""A board drawn as framed text, coloured on a terminal: a colour a vehicle that tells it from
every vehicle it touches, and a letter that reads on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.color import Color
from rich.text import Text

from rhasp.model import EMPTY, WALL, Board, State

WALL_STYLE = "white on grey23"
EMPTY_STYLE = "grey50"
#: Backgrounds from the 256-colour palette (the 16 basic colours differ from one terminal
#: theme to the next): reds for targets, other hues for the rest, far enough apart that
#: neighbours never look alike; each letter is black or white, whichever reads better on it.
TARGET_COLOURS = ("red3", "dark_red", "deep_pink4", "indian_red1")
VEHICLE_COLOURS = (
    "green4",
    "dark_orange3",
    "deep_sky_blue3",
    "gold3",
    "medium_purple3",
    "blue3",
    "orchid",
    "chartreuse3",
    "dark_cyan",
    "light_salmon3",
    "purple4",
    "tan",
    "dark_green",
    "cornflower_blue",
    "orange4",
    "dark_magenta",
)


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a colour rich knows by name."""
    channels = [value / 255 for value in Color.parse(colour).get_truecolor()]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def letter_style(background: str) -> str:
    """A bold letter on ``background``: black or white, whichever contrasts more with it
    (the 256-colour greys, which are black and white on every terminal)."""
    light = relative_luminance(background)
    on_white = 1.05 / (light + 0.05)
    on_black = (light + 0.05) / 0.05
    return f"bold {'grey100' if on_white > on_black else 'grey0'} on {background}"


def vehicle_styles(board: Board, states: Sequence[State]) -> dict[str, str]:
    """A style per vehicle, such that two vehicles touching side by side in any of ``states``
    (the boards shown together) never share a colour: each takes, in board order, the least
    used colour of its palette that no neighbour has taken yet (a palette runs out only when
    a vehicle touches more others than it has colours)."""
    neighbours = touching(board, states)
    colour: dict[str, str] = {}
    for vehicle in board.vehicles:
        label = vehicle.label
        palette = TARGET_COLOURS if label in board.targets else VEHICLE_COLOURS
        taken = {colour.get(other) for other in neighbours.get(label, ())}
        free = [c for c in palette if c not in taken] or list(palette)
        uses = list(colour.values())
        colour[label] = min(free, key=uses.count)  # the least used: as many hues as can be
    return {label: letter_style(background) for label, background in colour.items()}


def touching(board: Board, states: Sequence[State]) -> dict[str, set[str]]:
    """For each vehicle, the vehicles it touches side by side in some state of ``states``."""
    pairs: dict[str, set[str]] = {}
    for state in states:
        grid = board.grid(state)
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                for other in (
                    row[c + 1] if c + 1 < len(row) else EMPTY,
                    grid[r + 1][c] if r + 1 < len(grid) else EMPTY,
                ):
                    if cell != other and {cell, other}.isdisjoint({EMPTY, WALL}):
                        pairs.setdefault(cell, set()).add(other)
                        pairs.setdefault(other, set()).add(cell)
    return pairs


def board_text(board: Board, state: State, styles: Mapping[str, str] | None = None) -> Text:
    """The board in a frame (:meth:`~rhasp.model.Board.framed`); the exits show as
    ``> < v ^`` in the frame. ``styles`` colour the vehicles (:func:`vehicle_styles` of every
    board shown with this one), by default those of this board alone."""
    styles = styles or vehicle_styles(board, [state])
    top, *rows, bottom = board.framed(state)
    text = Text(top + "\n")
    for row in rows:
        text.append(row[0])
        for cell in row[1:-1]:
            style = EMPTY_STYLE if cell == EMPTY else WALL_STYLE if cell == WALL else styles[cell]
            text.append(cell, style)
        text.append(row[-1] + "\n")
    text.append(bottom)
    return text
