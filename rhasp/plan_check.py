"""Checking a plan someone found: does it solve the puzzle, and is it as short as possible?"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from typing import Any

from rhasp import solving
from rhasp.errors import PlanError, SearchLimit, counted
from rhasp.limits import Budget
from rhasp.model import Move, Puzzle, ShownAsText, plan_slides, replay
from rhasp.notation import READ, format_move
from rhasp.solution import OBJECTIVES, Objective
from rhasp.static import blocked_exit


@lru_cache(maxsize=32)
def minimal_length(puzzle: Puzzle, objective: Objective, budget: Budget) -> int | None:
    """The oracle's proven minimum, by the solve policy; cached so that checking several plans
    solves once."""
    found = solving.solve(puzzle, objective, "bfs", budget)
    if found.limit:
        raise SearchLimit(found.limit, puzzle.name)
    return found.length


@dataclass(frozen=True)
class Clipped:
    """A move that drove the target past its exit, as given and as played (to the edge)."""

    move: int
    as_given: str
    as_played: str


@dataclass(frozen=True)
class PlanCheck(ShownAsText):
    """What ``rhasp check`` finds of a plan: whether it solves the puzzle; for a plan that
    cannot be played, the move that fails (``failed_move``, 1-based) and why (``error``); for
    one that solves it, the proven minima (by BFS) and whether it reaches them. Why a plan
    does not solve the puzzle, whichever the reason, is :attr:`why_not`."""

    puzzle: str  # the puzzle's name
    plan_moves: int  # the moves as given
    solves: bool = False  # the plan, played, solves the puzzle
    error: str | None = None  # why the move ``failed_move`` cannot be played
    failed_move: int | None = None  # the first move that cannot be played (1-based)
    moves: int | None = None  # as played
    slides: int | None = None  # as played: cells moved, all moves together
    clipped: tuple[Clipped, ...] = ()  # moves past the exit, counted up to the edge
    minimal_moves: int | None = None  # the fewest moves of any plan, proven by BFS
    minimal_slides: int | None = None  # the fewest slides of any plan, proven by BFS
    moves_minimal: bool | None = None  # the plan has the fewest moves
    slides_minimal: bool | None = None  # the plan has the fewest slides
    proven_by: tuple[str, ...] = ()  # what proves the minima
    unsolvable: str | None = None  # for a plan that does not solve: static analysis's proof
    targets_on_board: tuple[str, ...] = ()  # for a plan played whole that does not solve: why not

    @property
    def why_not(self) -> str | None:
        """Why the plan does not solve the puzzle, in one line (None when it does): the move
        that cannot be played, or the targets still on the board where it ends (whether any
        plan can solve the puzzle is :attr:`unsolvable`'s)."""
        if self.solves:
            return None
        if self.error is not None:
            return f"the plan fails at {self.error}"
        after = counted(self.moves or 0, "move")
        left = " and ".join(self.targets_on_board)
        still = "is" if len(self.targets_on_board) == 1 else "are"
        return (
            f"the plan does not solve the puzzle after {after}: {left} {still} still on the board"
        )

    def record(self) -> dict[str, Any]:
        """The JSON of ``rhasp check --format json``: the fields that apply to this plan."""
        record: dict[str, Any] = {
            "puzzle": self.puzzle,
            "solves": self.solves,
            "plan_moves": self.plan_moves,
        }
        if self.error is not None:
            return record | {"error": self.error, "failed_move": self.failed_move}
        record |= {
            "moves": self.moves,
            "slides": self.slides,
            "clipped": [asdict(clip) for clip in self.clipped],
        }
        if not self.solves:
            record["targets_on_board"] = list(self.targets_on_board)
        if self.unsolvable is not None:
            record["unsolvable"] = self.unsolvable
        if self.solves:
            record |= {
                "minimal_moves": self.minimal_moves,
                "moves_minimal": self.moves_minimal,
                "minimal_slides": self.minimal_slides,
                "slides_minimal": self.slides_minimal,
                "proven_by": list(self.proven_by),
            }
        return record

    def lines(self, reading: str = "") -> list[str]:
        """The text report, as ``rhasp check`` prints it: the verdict, then each objective's
        count against the proven minimum (or why the plan fails, or why no plan can solve);
        ``reading`` (what the reader inferred) on a line under the verdict."""
        name = self.puzzle
        read = [READ + reading] if reading else []
        if self.error is not None:
            return [f"{name} · {self.why_not}", *read]
        lines = [
            f"note: move {clip.move} {clip.as_given} drives the target past its exit; "
            f"counted up to the edge as {clip.as_played}"
            for clip in self.clipped
        ]
        if not self.solves:
            lines += [f"{name} · {self.why_not}", *read]
            if self.unsolvable:
                lines.append(f"no plan can: proven by static analysis: {self.unsolvable}")
            return lines
        lines += [f"{name} · the plan solves the puzzle", *read]
        for objective, found, best, minimal in (
            ("moves", self.moves, self.minimal_moves, self.moves_minimal),
            ("slides", self.slides, self.minimal_slides, self.slides_minimal),
        ):
            verdict = "minimal" if minimal else f"not minimal: the fewest is {best}"
            lines.append(f"{objective}: {found}, {verdict} (proven by bfs)")
        return lines


def check_plan(puzzle: Puzzle, moves: Sequence[Move], budget: Budget) -> PlanCheck:
    """Replay ``moves`` and compare them with the proven minimal moves and slides."""
    given = PlanCheck(puzzle.name, len(moves))
    try:
        played = replay(puzzle, moves)
    except PlanError as error:
        return replace(given, error=error.what, failed_move=error.index)
    board = puzzle.board
    clipped = tuple(
        Clipped(n, format_move(played.asked[n - 1], board), format_move(played.moves[n - 1], board))
        for n in played.clipped
    )
    found = replace(
        given,
        solves=played.solved,
        moves=len(played.moves),
        slides=plan_slides(played.moves),
        clipped=clipped,
    )
    if not played.solved:  # why not: the targets still on the board; and whether any plan could
        end = played.states[-1]
        left = tuple(label for label in board.targets if end[board.index(label)] is not None)
        found = replace(found, targets_on_board=left)
        blocked = blocked_exit(puzzle)
        return found if blocked is None else replace(found, unsolvable=blocked.proof())
    best = {objective: minimal_length(puzzle, objective, budget) for objective in OBJECTIVES}
    return replace(
        found,
        minimal_moves=best["moves"],
        minimal_slides=best["slides"],
        moves_minimal=best["moves"] == found.moves,
        slides_minimal=best["slides"] == found.slides,
        proven_by=("bfs",),
    )
