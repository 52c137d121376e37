"""Why a puzzle is hard: its cluster, its game graph and how far its states are from a goal.

Every figure is defined in the README ("rhasp analyze") and computed on the fast search core:
the cluster is explored once (targets stay on the board, as puzzle databases count), and the
distances to the nearest goal come from one breadth-first search backwards from all goals.
Single-target puzzles only: "one move from winning" is defined for one target.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rhasp.engines.bitboard import at_exit_test, explore, fewest_slides, layers
from rhasp.errors import InputError
from rhasp.model import Puzzle, State


@dataclass(frozen=True)
class Analysis:
    """The figures of ``rhasp analyze`` for one puzzle's start."""

    name: str
    cluster_states: int
    cluster_edges: int
    goal_states: int
    minimal_moves: int | None  # None: no goal state in the cluster
    minimal_slides: int | None
    game_states: int
    game_levels: int
    winning_edges: int
    profile: dict[int, int]  # distance to the nearest goal -> number of cluster states
    hardest_distance: int | None
    hardest: list[State] = field(repr=False)

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
            "distance_profile": {str(d): n for d, n in sorted(self.profile.items())},
            "hardest": {
                "distance": self.hardest_distance,
                "states": [list(state) for state in self.hardest],
            },
        }


def analyze(puzzle: Puzzle) -> Analysis:
    board = puzzle.board
    if len(board.targets) != 1:
        raise InputError("analysis needs exactly one target", puzzle.name)
    geometry, parents = explore(board, puzzle.placement)
    cluster = list(parents)
    neighbours = {key: geometry.neighbours(key) for key in cluster}  # each state expanded once
    goals = list(filter(at_exit_test(board, geometry), cluster))
    distance = layers(neighbours.__getitem__, goals)
    start = geometry.key(puzzle.placement)
    winning = {key for key, d in distance.items() if d <= 1}
    playing = lambda key: key not in winning  # noqa: E731
    game = {} if start in winning else layers(neighbours.__getitem__, [start], playing)
    profile = Counter(distance.values())
    farthest = max(profile, default=None)
    slides, _ = fewest_slides(board, puzzle.start)
    return Analysis(
        name=puzzle.name,
        cluster_states=len(cluster),
        cluster_edges=sum(map(len, neighbours.values())) // 2,  # every move undoes
        goal_states=len(goals),
        minimal_moves=distance.get(start),
        minimal_slides=None if slides is None else sum(move.slides for move in slides),
        game_states=len(game),
        game_levels=max(game.values()) + 1 if game else 0,
        winning_edges=sum(after in winning for key in game for after in neighbours[key]),
        profile=dict(profile),
        hardest_distance=farthest,
        hardest=[geometry.state(key) for key, d in distance.items() if d == farthest],
    )


def hardest_puzzle(puzzle: Puzzle) -> tuple[Puzzle, int]:
    """The first hardest state of the cluster (farthest from any goal) as a puzzle of its own."""
    analysis = analyze(puzzle)
    if analysis.hardest_distance is None:
        raise InputError("no goal state is reachable, so no state is hardest", puzzle.name)
    moves = analysis.hardest_distance
    found = Puzzle(puzzle.board, analysis.hardest[0], f"{puzzle.name}-hardest", {"moves": moves})
    return found, moves
