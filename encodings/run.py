"""Run clingo programs as the clingo executable does, with clingo from pip.

    python encodings/run.py encodings/moves.lp card26.lp [clingo options]

pip's clingo package installs no clingo executable, and its ``python -m clingo`` replaces
clingo's main function with one that grounds the base program and solves once: the
incremental mode that ``#include <incmode>.`` asks for does not run there. This file hands
clingo's application no main function of its own, so clingo's own runs, as in the executable:
the incremental mode, ``#script`` main functions (memo.lp), the same options (``-c imax=N``,
``--stats``), output and exit codes (10 satisfiable, 20 unsatisfiable).
"""

import sys

from clingo.application import clingo_main

try:  # clingo 5.6 and later run Python scripts (memo.lp) only once this is called
    from clingo.script import enable_python
except ImportError:  # clingo 5.5 runs them as it is
    pass
else:
    enable_python()


class Clingo:
    """clingo's application with nothing of it replaced. clingo_main asks an application for
    each of its functions by name and runs clingo's own where there is none; a subclass of
    clingo.application.Application must define main (an abstract method before 5.8), which
    would replace clingo's, incremental mode and all."""


if __name__ == "__main__":
    sys.exit(clingo_main(Clingo(), sys.argv[1:]))  # type: ignore[arg-type]
