"""The exit codes of the ``rhasp`` command, named: what each means to people is
docs/exit-codes.md's table (tests/test_exit_codes.py checks the two agree). The command line
maps what happened to them (:mod:`rhasp.cli.running`), and ``rhasp/__main__.py`` says some
before the command line has loaded, so this module imports nothing.
"""

#: Solved (or the plan solves the puzzle); no solution (or the plan does not); bad input or
#: usage; the engines disagree (a bug); a limit reached before an answer.
EXIT_OK, EXIT_UNSOLVED, EXIT_BAD_INPUT, EXIT_DISAGREE, EXIT_LIMIT = 0, 1, 2, 3, 4
#: The Dask cluster was lost mid-run: none of the above (ClusterLost), what was done is kept.
EXIT_CLUSTER_LOST = 5
#: Ctrl-C and SIGTERM (:mod:`rhasp.stopping`): 128 + the signal, as shells report it.
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143
#: 128 + SIGPIPE: the reader of standard output went away (``| head``), quietly.
EXIT_CLOSED_PIPE = 141
#: When a deck's puzzles end differently, the exit code is the most serious of them.
SEVERITY = (EXIT_OK, EXIT_UNSOLVED, EXIT_LIMIT, EXIT_BAD_INPUT, EXIT_DISAGREE)


def most_serious(codes: list[int]) -> int:
    """The exit code of a run whose puzzles ended with ``codes``: the most serious of them
    (:data:`SEVERITY`), 0 when there are none."""
    return max(codes, key=SEVERITY.index, default=EXIT_OK)
