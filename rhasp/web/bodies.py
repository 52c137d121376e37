"""The bodies of the server's requests, as FastAPI reads them: their fields and what each
means, and no other field. What a field may be is checked where the command's request checks
it (:mod:`rhasp.requests`, :mod:`rhasp.arguments`), the server answering its refusal as a
400 (:func:`rhasp.web.failures.answer`); the bounds here are the page's own: the sizes and
moves it offers, and what a database pick may ask."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rhasp.arguments import LARGEST
from rhasp.web.database import MOST_MOVES

#: The board sides the page's Generate offers: larger boards take the server's seconds for
#: shallow puzzles (bench/README.md, "Generated puzzles by size and minute").
GENERATE_PAGE_SIDES = range(6, 11)
#: The fewest moves the page's Generate offers to ask for: random boards seldom need more
#: (the puzzle database holds harder ones).
GENERATE_PAGE_MOVES = range(1, 41)


class Body(BaseModel):
    """A request's body: its fields, and no other. A field the API does not have (a typo, or
    ``clingo_args``: the server runs clingo with rhasp's own options) is refused, never
    ignored, so that no answer is taken for one to a question that was not asked."""

    model_config = ConfigDict(extra="forbid", strict=True)  # JSON true or "5" is no number


class Position(Body):
    board: str = Field(
        description="The board as text in any format rhasp reads: grid, one-line board, car "
        "list or JSON.",
        examples=["AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR."],
    )
    moves: str = Field(
        "", description='Moves played from that board, in any notation (e.g. "AR1 PU1").'
    )


class SolveBody(Position):
    objective: str | None = Field(
        None, description="moves (the default, as for `rhasp solve`) or slides."
    )
    engine: str | None = Field(
        None,
        description="bfs (many answers, each fast), astar (A*, confirmed by BFS within a share "
        "of its states: for boards larger than 6×6) or asp (the horizon proof, confirmed by "
        "BFS). Default, as for `rhasp deck`: bfs up to 6×6, astar on a larger board.",
    )
    stream: bool = Field(
        False,
        description="ASP: answer with server-sent events, one `horizon` event as each horizon "
        "starts (so every earlier one is proven to have no plan), then `solution` or `error`.",
    )


class CheckBody(Position):
    plan: str = Field(
        description="The plan to check, in any notation, or as the move(T,V,D) atoms clingo prints."
    )


class DatabaseBody(Body):
    moves: int = Field(
        ge=0, le=MOST_MOVES, description="The number of moves of the puzzle to pick."
    )
    seed: int | None = Field(None, ge=0, le=LARGEST, description="For the same pick again.")


class GenerateBody(Body):
    min_moves: int | None = Field(
        None,
        ge=GENERATE_PAGE_MOVES[0],
        le=GENERATE_PAGE_MOVES[-1],
        description="The fewest moves the puzzle takes (by default, as `rhasp generate`: as "
        "many as make a puzzle worth playing on that size).",
    )
    size: int = Field(
        GENERATE_PAGE_SIDES[0],
        ge=GENERATE_PAGE_SIDES[0],
        le=GENERATE_PAGE_SIDES[-1],
        description="The board's side (by default, the smallest the page offers).",
    )
    seed: int | None = Field(None, description="For the same puzzle again.")
