"""``python -m rhasp`` and the ``rhasp`` command (``[project.scripts]`` names :func:`main`).

Small on purpose: the command line imports clingo, typer, rich and the rest of rhasp (most of
a command's start), and Ctrl-C or SIGTERM during those imports must end as they do later
(:mod:`rhasp.stopping`): one line and exit code 130 or 143, not a traceback, nor a death by
the signal that says nothing. So nothing is imported before :func:`main` runs, which sets
SIGTERM's handler first, and every import happens inside its ``try``. (``import rhasp``
itself is cheap: its names load on first use.)

For ``rhasp solve``, the child process that builds the ASP search's pattern databases starts
first thing in that ``try`` (:mod:`rhasp.early`), so that it loads numba while the command line
loads.

The same ``try`` is where the memory running out ends when the command line has not caught
it: while loading (a MemoryError, a library that cannot be mapped, a folder an import cannot
list) or when a thread cannot start. In a command's body it is a search limit
(``rhasp.cli.running.guarded``: "out of memory before the search ended"); these are the
rest, under a tight ``ulimit -v``, as one
line and exit code 4, a limit, like every other.
"""

import os  # loaded with Python itself (site imports it): importing it here takes no time
import sys

#: Ctrl-C while the two modules below load (a fresh install compiles them, some milliseconds):
#: their words, which are not loaded yet (tests/test_process.py checks that they agree).
EARLY_INTERRUPTED, EARLY_EXIT_INTERRUPTED = "rhasp: interrupted\n", 130

# Modules that load nothing: this one says their words before the command line loads, and
# before anything that could fail to.
try:
    from rhasp.exit_codes import EXIT_INTERRUPTED, EXIT_LIMIT, EXIT_TERMINATED
    from rhasp.stopping import INTERRUPTED, TERMINATED, Terminated, stop_on_sigterm
except KeyboardInterrupt:
    sys.stderr.write(EARLY_INTERRUPTED)
    sys.exit(EARLY_EXIT_INTERRUPTED)

#: ``errno.ENOMEM`` on Linux, macOS and Windows alike: written here, since nothing may be
#: loaded before the command line (tests/test_process.py), nor when the memory has run out.
ENOMEM = 12
#: How Linux's loader says a library could not be mapped: under an address-space limit, the
#: memory ran out (an import of clingo or numpy at ``ulimit -v 50000``).
UNMAPPED = "failed to map segment from shared object"
#: What the memory running out says, written before it does: a line built then might not be.
RAN_OUT = "rhasp: out of memory (free memory, or raise the limit: ulimit -v)\n"
NO_THREAD = "rhasp: out of memory: a thread could not start (free memory, or raise ulimit -v)\n"


def main() -> None:
    """Run the command line; Ctrl-C or SIGTERM before it has loaded is one line and exit code
    130 or 143, the memory running out where the command line does not catch it one line and
    exit code 4."""
    try:
        stop_on_sigterm()  # inside the try: it loads signal, and signal enum, time for a Ctrl-C
        _address_space_limited()  # asked now, while there is memory to load resource
        from rhasp.early import start_for  # the standard library's process modules only

        start_for(sys.argv[1:])  # the ASP search's pattern child, while the command line loads
        from rhasp.cli import main as command_line

        command_line()
    except KeyboardInterrupt:  # the command line catches its own; this is before, or after
        sys.stderr.write(INTERRUPTED + "\n")
        sys.exit(EXIT_INTERRUPTED)
    except (MemoryError, RuntimeError, ImportError, SyntaxError, SystemError, OSError) as error:
        # Ctrl-C or SIGTERM inside a class's making: Python 3.11 wraps what a field's
        # __set_name__ raised in a RuntimeError ("Error calling __set_name__").
        if isinstance(error.__cause__, KeyboardInterrupt):
            sys.stderr.write(INTERRUPTED + "\n")
            sys.exit(EXIT_INTERRUPTED)
        if isinstance(error.__cause__, Terminated):
            sys.stderr.write(TERMINATED + "\n")
            sys.exit(EXIT_TERMINATED)
        said = out_of_memory(error)
        if said is None:
            raise
        sys.stderr.write(said)
        sys.exit(EXIT_LIMIT)
    except Terminated:  # the command line catches its own; this is before, or after
        sys.stderr.write(TERMINATED + "\n")
        sys.exit(EXIT_TERMINATED)


def out_of_memory(error: BaseException) -> str | None:
    """The line to say when ``error`` is the memory running out, else None. A thread that
    cannot start is CPython's RuntimeError ``can't start new thread``: pthread_create found no
    room for the thread's stack (it says the same at a limit on processes, which rhasp, with
    a thread or two, does not meet first)."""
    if isinstance(error, MemoryError):
        return RAN_OUT
    if isinstance(error, OSError) and error.errno == ENOMEM:
        # An import met later, inside the command line (typer loads pydantic as it reads the
        # first option), whose search of a folder could not list it: "[Errno 12] Cannot
        # allocate memory" (a fresh clone's run at ulimit -v 40000, 2026-12-02).
        return RAN_OUT
    if isinstance(error, RuntimeError) and str(error) == "can't start new thread":
        return NO_THREAD
    if isinstance(error, ImportError) and UNMAPPED in str(error):
        library = error.name or "a library"
        return f"rhasp: out of memory: cannot load {library} (free memory, or raise ulimit -v)\n"
    if isinstance(error, SyntaxError) and _own(error.filename) and _address_space_limited():
        # CPython's parser, short of memory compiling a module that has no bytecode cached
        # yet (a fresh checkout), reports a SyntaxError ("expected ':'") in a file that
        # compiles: rhasp's own files do (the tests import every one), so under a limit on
        # the address space the memory ran out.
        return RAN_OUT
    if isinstance(error, SystemError) and _address_space_limited():
        # CPython short of memory where a failed allocation sets no exception: "error return
        # without exception set", met compiling the standard library's regular expressions
        # while rhasp loaded under ulimit -v 24000 (a CI run of 2026-11-29, once).
        return RAN_OUT
    return None


def _own(filename: str | None) -> bool:
    """Whether ``filename`` is one of rhasp's own modules."""
    package = os.path.dirname(os.path.abspath(__file__))
    return bool(filename) and os.path.abspath(filename).startswith(package + os.sep)


#: Whether ``ulimit -v`` is in force, once asked (:func:`_address_space_limited`).
_limited: bool | None = None


def _address_space_limited() -> bool:
    """Whether ``ulimit -v`` is in force: asked once, as :func:`main` starts, not first when
    the memory has run out, where loading ``resource`` can fail too (a MemoryError, or
    CPython's SystemError, at ulimit -v 40000); taken to be so if even asking fails."""
    global _limited
    if _limited is None:
        try:
            import resource

            soft, _ = resource.getrlimit(resource.RLIMIT_AS)
            _limited = soft != resource.RLIM_INFINITY
        except (ImportError, MemoryError, SystemError):
            _limited = True
    return _limited


if __name__ == "__main__":
    main()
