"""The exit codes of the ``rhasp`` command, in one home: the command line maps what
happened to them (:mod:`rhasp.cli.running`), and ``rhasp/__main__.py`` says some before the
command line has loaded, so this module imports nothing (docs/exit-codes.md says what each
means to people).

Exit codes: 0 done (solved, or the plan solves the puzzle); 1 no solution (or the plan does not
solve the puzzle); 2 bad input or usage; 3 the engines disagree (a bug); 4 a search limit
(--max-states, --max-atoms, --max-horizon, --timeout, or the memory) was reached first;
5 the Dask cluster (--scheduler) was lost mid-run, what was done kept; 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM), 141 standard output closed by its reader (``| head``:
quietly). Errors are one line on standard error.
"""

EXIT_OK, EXIT_UNSOLVED, EXIT_BAD_INPUT, EXIT_DISAGREE, EXIT_LIMIT = 0, 1, 2, 3, 4
#: The Dask cluster was lost mid-run: none of the above (ClusterLost), what was done is kept.
EXIT_CLUSTER_LOST = 5
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + the signal, as shells report it
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: the reader of standard output went away
#: When a deck's puzzles end differently, the exit code is the most serious of them.
SEVERITY = (EXIT_OK, EXIT_UNSOLVED, EXIT_LIMIT, EXIT_BAD_INPUT, EXIT_DISAGREE)


def most_serious(codes: list[int]) -> int:
    """The exit code of a run whose puzzles ended with ``codes``: the most serious of them
    (:data:`SEVERITY`), 0 when there are none."""
    return max(codes, key=SEVERITY.index, default=EXIT_OK)
