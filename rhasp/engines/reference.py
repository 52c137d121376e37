"""The reference searches: breadth-first search for fewest moves, Dijkstra for fewest slides.

Written directly on the readable model (:meth:`rhasp.model.Board.successors`), they are the
yardstick for the fast core in :mod:`rhasp.search`: tests check that both find the
same lengths. Both explore states in a fixed order, so the same puzzle always gives the same
plan; a search that runs out of states proves the puzzle has no solution.
"""

from __future__ import annotations

import heapq
from itertools import count

from rhasp.model import Board, Move, Plan, State

Parents = dict[State, tuple[State, Move] | None]


def fewest_moves(board: Board, start: State) -> tuple[Plan | None, int]:
    """A plan with the fewest moves (None if there is none) and the number of states reached."""
    parents: Parents = {start: None}
    if board.is_solved(start):
        return (), 1
    frontier = [start]
    while frontier:
        next_frontier = []
        for state in frontier:
            for move, after in board.successors(state):
                if after in parents:
                    continue
                parents[after] = (state, move)
                if board.is_solved(after):
                    return _path(parents, after), len(parents)
                next_frontier.append(after)
        frontier = next_frontier
    return None, len(parents)


def fewest_slides(board: Board, start: State) -> tuple[Plan | None, int]:
    """A plan with the fewest slides, fewest moves among those; Dijkstra over moves.

    A move of d cells costs d slides, so plans keep their moves whole: nothing is split into
    unit slides or merged afterwards.
    """
    best: dict[State, tuple[int, int]] = {start: (0, 0)}
    parents: Parents = {start: None}
    order = count()
    queue = [(0, 0, next(order), start)]
    while queue:
        slides, moves, _, state = heapq.heappop(queue)
        if best[state] < (slides, moves):
            continue
        if board.is_solved(state):
            return _path(parents, state), len(best)
        for move, after in board.successors(state):
            cost = (slides + move.slides, moves + 1)
            if after not in best or cost < best[after]:
                best[after] = cost
                parents[after] = (state, move)
                heapq.heappush(queue, (*cost, next(order), after))
    return None, len(best)


def _path(parents: Parents, state: State) -> Plan:
    moves = []
    link = parents[state]
    while link is not None:
        state, move = link
        moves.append(move)
        link = parents[state]
    return tuple(reversed(moves))
