"""What a command prints as JSON: a solution's record, and what the reader inferred beside
any answer's record."""

from __future__ import annotations

from typing import Any

from rhasp.model import Puzzle
from rhasp.notation import Notation, format_plan
from rhasp.solution import Solution, reading_text


def with_reading(record: dict[str, Any], puzzle: Puzzle) -> dict[str, Any]:
    """A JSON ``record`` of ``puzzle`` with ``"read"`` (:func:`reading_text`) after its first
    field, the puzzle's name, when the reader inferred anything: the JSON of solve, check
    and analyze alike."""
    if not puzzle.reading:
        return record
    (first, name), *rest = record.items()
    return {first: name, "read": reading_text(puzzle), **dict(rest)}


#: The fields of the JSON of a solve, in order: the findings every record of a solution
#: shares (:meth:`~rhasp.solution.Solution.findings`) with what a solve says besides.
SOLVE_FIELDS = (
    *("puzzle", "objective", "solved", "length", "moves", "slides", "plan", "optimal"),
    *("lower_bound", "proven_by", "engine", "explored", "seconds", "limit", "stopped"),
    "engine_chosen",
)


def solution_dict(solution: Solution, notation: Notation) -> dict[str, Any]:
    """The JSON record of a solution: its findings, what was asked (``objective``), whether
    it was ``solved`` and whether the plan is proven ``optimal`` (not a plan found past a
    ``limit``, beside its ``lower_bound``), the ``engine`` and why it was chosen, and
    the work behind it (:func:`figures_record`); ``plan`` is in card notation whatever
    ``notation`` is, which adds ``plan_arrow`` or ``plan_signed``."""
    said = solution.findings() | {
        "objective": solution.objective,
        "solved": solution.has_plan,
        "optimal": solution.optimal,
        "engine": solution.engine,
    }
    if solution.chosen:
        said["engine_chosen"] = solution.chosen
    record = {name: said[name] for name in SOLVE_FIELDS if name in said}
    if notation != "card" and solution.plan is not None:
        record["plan_" + notation] = format_plan(solution.plan, solution.puzzle.board, notation)
    return with_reading(record | figures_record(solution), solution.puzzle)


def figures_record(solution: Solution) -> dict[str, Any]:
    """The work behind a solution, as the JSON has it: each search's figures under its
    engine's name (clingo's, under ``asp``), the static proof under ``static``, and
    ``bfs_agrees`` when the confirming search agreed."""
    record: dict[str, Any] = {
        name: solution.asp.record() if name == "asp" and solution.asp else figures.record()
        for name, figures in solution.searches.items()
    }
    if solution.asp and "asp" not in record:
        record["asp"] = solution.asp.record()
    if solution.static is not None:
        record["static"] = solution.static
    if len(solution.proofs) > 1:
        record[f"{solution.proofs[-1]}_agrees"] = True
    return record
