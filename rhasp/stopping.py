"""How a run of the ``rhasp`` command is stopped, from the entry point's first line to its
end: Ctrl-C raises KeyboardInterrupt and SIGTERM :class:`Terminated` where the command runs,
and either ends the run with what was finished written, one line (:data:`INTERRUPTED`,
:data:`TERMINATED`) and exit code 130 or 143 (docs/exit-codes.md).

The entry point (``rhasp/__main__.py``) calls :func:`stop_on_sigterm` before the command line
loads, and the command line's :func:`rhasp.cli.running.main` calls it too, for callers that
start there: one handler for the whole run. Loading this module loads nothing (``os`` is
loaded with Python itself), so that the entry point may read it before its ``try``; what the
handler needs is loaded when it is set.
"""

import os  # loaded with Python itself: importing it here takes no time

TYPE_CHECKING = False  # typing's own would load typing
if TYPE_CHECKING:
    from types import FrameType

#: What a run stopped by Ctrl-C or by SIGTERM says, on standard error, before it ends.
INTERRUPTED, TERMINATED = "rhasp: interrupted", "rhasp: terminated"


class Terminated(BaseException):
    """SIGTERM, handled like Ctrl-C: what is done is flushed, and rhasp exits 143. (Not a
    KeyboardInterrupt, which typer turns into exit code 130.)"""


def stop_on_sigterm() -> None:
    """From now on, SIGTERM raises :class:`Terminated` where the command runs."""
    import signal
    import threading  # noqa: F401 - loaded here, not in the handler, which may run mid-import

    signal.signal(signal.SIGTERM, terminate)


def terminate(signum: int, frame: "FrameType | None") -> None:
    """SIGTERM's handler: raise :class:`Terminated` where the command runs. Where the signal
    lands in a callback whose exceptions Python ignores, or in code such a callback runs
    (the import system's module locks, and any object's finalizer, ``__del__``, such as
    clingo's ``Control`` freed at the end of a solve: each prints "Exception ignored in …"
    and goes on), it is sent again a moment later instead, to land where it ends the run;
    by a daemon timer, so that a run ending meanwhile ends as it would have (it has no
    thread left to run at its exit)."""
    if _in_ignoring_callback(frame):
        import threading  # loaded already (stop_on_sigterm)

        again = threading.Timer(0.01, os.kill, (os.getpid(), signum))
        again.daemon = True
        try:  # noqa: SIM105 - contextlib may not be loaded yet, and the handler loads nothing
            again.start()
        except RuntimeError:  # the interpreter is ending: so is the run
            pass
        return
    raise Terminated


def _in_ignoring_callback(frame: "FrameType | None") -> bool:
    """Whether ``frame`` or a frame that called it is a callback whose exceptions Python
    prints and ignores: an exception raised here would stop there, not end the run."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (code.co_name == "cb" and "importlib" in code.co_filename):
            return True
        frame = frame.f_back
    return False
