"""Why a puzzle is hard: its cluster, its game graph and how far its states are from a goal.

Every figure is defined in the README ("rhasp analyze") and computed from the cluster graph
(:class:`rhasp.search.ClusterGraph`, explored once with its moves kept, as arrays over state
indices, with every state's distance to the nearest goal).
Single-target puzzles only: "one move from winning" is defined for one target.

The all-moves graph is enumerated line by line (a *line* is a row or column with its vehicles)
on the search core (:func:`rhasp.search.all_moves_graph`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rhasp.canonical import cluster_graph, vehicles_by_line
from rhasp.errors import about
from rhasp.limits import Budget
from rhasp.model import Board, Puzzle, ShownAsText, State
from rhasp.notation import READ
from rhasp.search import ClusterGraph, all_moves_graph, fewest_slides


@dataclass(frozen=True)
class Analysis(ShownAsText):
    """The figures of ``rhasp analyze`` for one puzzle's start (its ``board``'s)."""

    name: str  # the puzzle's name
    cluster_states: int  # the states reachable from the start (its cluster)
    cluster_edges: int  # the moves between them, each counted once
    goal_states: int  # the cluster's states with the target at its exit edge
    minimal_moves: int | None  # the fewest moves to a goal state; None: no goal state
    minimal_slides: int | None  # the fewest slides to a goal state, by BFS
    #: The game graph's states: those reachable from the start without passing through a
    #: winning state (one move from taking the target out), winning states excluded.
    game_states: int
    game_levels: int  # the largest distance from the start within the game graph, plus one
    winning_edges: int  # the moves from a game-graph state into a winning state
    all_moves_tried: int  # the product over lines of each line's placements
    #: The all-moves graph's states: every placement with each vehicle on its own line, in
    #: its line's order, nothing overlapping.
    all_moves_states: int
    all_moves_edges: int  # pairs of those placements one move apart
    profile: dict[int, int]  # distance to the nearest goal -> number of cluster states
    hardest_distance: int | None  # the largest distance to a goal in the cluster
    hardest: list[State] = field(repr=False)  # the states at that distance, database order
    graph: ClusterGraph | None = field(default=None, repr=False, compare=False)  # for drawing
    board: Board = field(kw_only=True, repr=False, compare=False)  # the states' board

    def lines(self, reading: str = "") -> list[str]:
        """The text of ``rhasp analyze``, a line each: the name (what the reader inferred,
        ``reading``, under it), the figures, the distance profile (a bar per distance), and
        the line that introduces the first hardest state; the CLI draws that state after
        them, as :meth:`__str__` does (:meth:`~rhasp.model.Board.framed`)."""

        def length(value: int | None) -> str:
            return "no solution" if value is None else f"{value:,}"

        lines = [
            f"{self.name}",
            *([f"  {READ}{reading}"] if reading else []),
            f"  cluster: {self.cluster_states:,} states, {self.cluster_edges:,} edges, "
            f"{self.goal_states:,} goal states",
            f"  minimal moves: {length(self.minimal_moves)} · minimal slides: "
            f"{length(self.minimal_slides)} (proven by bfs)",
            f"  game graph: {self.game_states:,} states, {self.game_levels:,} levels, "
            f"{self.winning_edges:,} winning edges",
            f"  all-moves graph: {self.all_moves_states:,} states, "
            f"{self.all_moves_edges:,} edges ({self.all_moves_tried:,} placements tried)",
            "  distance profile (moves to the nearest goal: states):",
        ]
        widest = max(self.profile.values(), default=1)
        for distance, count in sorted(self.profile.items()):
            bar = "#" * max(1, round(40 * count / widest))
            lines.append(f"  {distance:4d} {count:8,} {bar}")
        if self.hardest:
            lines.append(
                f"  hardest: {len(self.hardest):,} states at {self.hardest_distance} moves; "
                "the first:"
            )
        return lines

    def __str__(self) -> str:
        """:meth:`lines`, then the first hardest state in a frame: what ``print(analysis)``
        shows, ``rhasp analyze``'s text without its colours."""
        drawn = self.board.framed(self.hardest[0]) if self.hardest else []
        return "\n".join([*self.lines(), *drawn])

    def record(self) -> dict[str, Any]:
        """The JSON form: plain numbers, states as lists of 0-based positions."""
        return {
            "name": self.name,
            "cluster": {"states": self.cluster_states, "edges": self.cluster_edges},
            "goal_states": self.goal_states,
            "minimal_moves": self.minimal_moves,
            "minimal_slides": self.minimal_slides,
            "game_graph": {
                "states": self.game_states,
                "levels": self.game_levels,
                "winning_edges": self.winning_edges,
            },
            "all_moves_graph": {
                "placements_tried": self.all_moves_tried,
                "states": self.all_moves_states,
                "edges": self.all_moves_edges,
            },
            "distance_profile": {str(d): n for d, n in sorted(self.profile.items())},
            "hardest": {
                "distance": self.hardest_distance,
                "states": [list(state) for state in self.hardest],
            },
        }


def analysis_of(puzzle: Puzzle, budget: Budget, graph: ClusterGraph | None = None) -> Analysis:
    """The figures for ``puzzle``, from its cluster graph if the caller already has it; no
    search (nor the all-moves graph) goes beyond ``budget``'s states."""
    graph = graph or cluster_graph(puzzle, budget)
    distance, start = graph.distance, graph.START
    winning = [0 <= d <= 1 for d in distance]
    game = {} if winning[start] else _layers(graph, start, lambda i: not winning[i])
    profile = Counter(distance[i] for i in graph.by_distance)
    farthest = graph.farthest
    hardest = [i for i in graph.by_distance if distance[i] == farthest]
    with about(puzzle.name):
        slides, _ = fewest_slides(puzzle.board, puzzle.start, budget)
        tried, all_states, all_edges = all_moves_graph(
            puzzle.board, line_groups(puzzle), budget.states
        )
    return Analysis(
        name=puzzle.name,
        cluster_states=graph.states,
        cluster_edges=graph.moves,
        goal_states=len(graph.goals),
        minimal_moves=distance[start] if distance[start] >= 0 else None,
        minimal_slides=None if slides is None else sum(move.slides for move in slides),
        game_states=len(game),
        game_levels=max(game.values()) + 1 if game else 0,
        winning_edges=sum(winning[after] for i in game for after in graph.neighbours(i)),
        all_moves_tried=tried,
        all_moves_states=all_states,
        all_moves_edges=all_edges,
        profile=dict(profile),
        hardest_distance=farthest,
        hardest=graph.in_database_order(hardest),
        graph=graph,
        board=puzzle.board,
    )


def line_groups(puzzle: Puzzle) -> list[list[int]]:
    """The vehicle indices of each line (a row or column with vehicles), in their order along
    it: what the all-moves graph places line by line."""
    board = puzzle.board
    lines = itertools.groupby(
        vehicles_by_line(puzzle),
        key=lambda i: (board.vehicles[i].orientation, board.vehicles[i].line),
    )
    return [list(line) for _, line in lines]


def _layers(graph: ClusterGraph, start: int, enters: Callable[[int], bool]) -> dict[int, int]:
    """Breadth-first distances from state ``start`` (an index) over the cluster's moves,
    stepping only into states for which ``enters`` holds: the game graph, which stops at the
    winning states."""
    distance = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for i in frontier:
            for after in graph.neighbours(i):
                if after not in distance and enters(after):
                    distance[after] = distance[i] + 1
                    following.append(after)
        frontier = following
    return distance
