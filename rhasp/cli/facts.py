"""``rhasp facts``: a puzzle as ASP facts for the encodings."""

from __future__ import annotations

import sys

from rhasp.cli.application import app
from rhasp.cli.io import read_one
from rhasp.cli.options import OnePuzzleArg, TargetOpt
from rhasp.cli.running import guarded_command
from rhasp.exit_codes import EXIT_OK
from rhasp.formats.facts import write_facts


@app.command()
@guarded_command
def facts(puzzle: OnePuzzleArg, target: TargetOpt = None) -> int:
    """Print a puzzle as ASP facts for the encodings (clingo encodings/moves.lp FACTS)."""
    sys.stdout.write(write_facts(read_one(puzzle, target)))
    return EXIT_OK
