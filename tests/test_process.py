"""The ``rhasp`` command as a process: Ctrl-C and SIGTERM while it is still loading, and a
capped address space (``ulimit -v``), each end in one line and a documented exit code, never
a traceback."""

from __future__ import annotations

import errno
import random
import re
import signal
import subprocess
import sys
import time
import tomllib

import pytest

from tests.boards import ROOT
from tests.processes import started

CARD = "puzzles/original/card01.txt"


def launcher() -> list[str]:
    """The ``rhasp`` console script as pip writes it, from ``[project.scripts]``: it imports
    the entry point's module, then calls it."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts["rhasp"].split(":")
    code = f"import sys; from {module} import {function}; sys.exit({function}())"
    return [sys.executable, "-c", code]


WAYS = {"python -m rhasp": [sys.executable, "-m", "rhasp"], "rhasp": launcher()}


def signalled(command: list[str], sent: signal.Signals, delay: float) -> tuple[int, str]:
    """Start ``command``, send it ``sent`` after ``delay`` seconds; its exit code and standard
    error."""
    with started(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    ) as process:
        time.sleep(delay)
        process.send_signal(sent)
        _, stderr = process.communicate(timeout=60)
        return process.returncode, stderr


def before_rhasp_ran(stderr: str) -> bool:
    """A traceback from before rhasp's entry point was called: of the interpreter's own start,
    which no line of rhasp has reached (Python handles Ctrl-C from before it imports ``site``:
    ``Fatal Python error: init_import_site``; runpy looks for the package's ``__main__``), or
    of the package's own ``__init__.py``, which Python runs first on both ways in (runpy
    imports the package before its ``__main__``, the ``rhasp`` script imports it to find
    ``main``; a fresh clone compiles it then, a few milliseconds). Those milliseconds (about
    15 on the development machine; ``python -c pass`` has them too) come before any entry
    point, and none can catch what comes before it is called."""
    if "Traceback" not in stderr:
        return False
    files = re.findall(r'File "([^"]*[/\\]rhasp[/\\][^"]*)"', stderr)
    return all(re.search(r"[/\\]rhasp[/\\]__init__\.py$", name) for name in files)


def test_ctrl_c_while_rhasp_loads_is_one_line_and_exit_code_130():
    # The command line imports clingo, typer, rich and the rest of rhasp before it runs, time
    # enough for Ctrl-C to land in an import, where it must not be a traceback. An exit by
    # the signal itself (-2) is what Python does after some interrupted imports; a shell
    # reports it as 130 too.
    rng = random.Random(40)
    interrupted = 0
    for attempt in range(12):
        way = list(WAYS)[attempt % 2]
        delay = rng.uniform(0, 0.4)
        code, stderr = signalled([*WAYS[way], "solve", CARD], signal.SIGINT, delay)
        if before_rhasp_ran(stderr):
            continue
        said = f"{way}, Ctrl-C after {delay:.3f} s: exit code {code}, {stderr!r}"
        assert code in (0, 130, -signal.SIGINT), said
        assert "Traceback" not in stderr and stderr.count("\n") <= 1, said
        assert stderr in ("", "rhasp: interrupted\n"), said
        interrupted += stderr == "rhasp: interrupted\n"
    assert interrupted >= 4  # most tries stopped rhasp while it loaded or ran


def test_ctrl_c_before_the_entry_point_s_own_words_load_says_the_same():
    # A fresh clone's Ctrl-C at 13 ms landed in `python -m rhasp` importing rhasp.stopping,
    # before main(): a traceback. There it says the words of that module, not loaded yet.
    from rhasp import __main__ as entry
    from rhasp.exit_codes import EXIT_INTERRUPTED
    from rhasp.stopping import INTERRUPTED

    assert entry.EARLY_INTERRUPTED == INTERRUPTED + "\n"
    assert entry.EARLY_EXIT_INTERRUPTED == EXIT_INTERRUPTED


def test_sigterm_while_rhasp_loads_ends_it_with_exit_code_143():
    # From the entry point's first line, a handler prints one line and exits 143 (the entry
    # point's while the command line loads, then the command line's). Before it, in
    # Python's own start, SIGTERM's default action ends the process at once (-15), as a
    # shell reports with 143 too.
    rng = random.Random(143)
    for attempt in range(6):
        way = list(WAYS)[attempt % 2]
        delay = rng.uniform(0, 0.4)
        code, stderr = signalled([*WAYS[way], "solve", CARD], signal.SIGTERM, delay)
        said = f"{way}, SIGTERM after {delay:.3f} s: exit code {code}, {stderr!r}"
        ends = ((0, ""), (-signal.SIGTERM, ""), (143, "rhasp: terminated\n"))
        assert (code, stderr) in ends, said


def test_importing_rhasp_loads_nothing_behind_its_names_until_one_is_used():
    # `python -m rhasp` imports the package before its entry point runs: the API's imports
    # must wait for the entry point's try, and `rhasp.deck` stays the function even after
    # the module of that name has loaded.
    code = (
        "import sys, rhasp\n"
        "assert not {'rhasp.api', 'typer', 'clingo'} & set(sys.modules), sorted(sys.modules)\n"
        "import rhasp.deck\n"
        "assert callable(rhasp.deck) and rhasp.deck.__module__ == 'rhasp.api', rhasp.deck\n"
        "assert rhasp.enumerate.__name__ == 'enumerate_puzzles'\n"
        "assert all(getattr(rhasp, name) is not None for name in rhasp.__all__)\n"
        "print(rhasp.solve(rhasp.read('" + CARD + "'), engine='bfs').moves)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "8\n", run.stderr


# --- a capped address space (ulimit -v) -----------------------------------------------------

MB = 1_000_000


def capped(address_space: int, *args: str, stack: int | None = None) -> tuple[int, str, str]:
    """``rhasp ARGS`` under ``ulimit -v`` (RLIMIT_AS, in bytes) and, when given, a thread
    stack of ``stack`` bytes (RLIMIT_STACK, which glibc takes for each new thread): its exit
    code, standard output and standard error."""

    def limit() -> None:
        import resource

        if stack is not None:
            resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    run = subprocess.run(
        [*WAYS["rhasp"], *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=limit,  # the child's own limits, set before it runs Python
        timeout=120,
    )
    return run.returncode, run.stdout, run.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ulimit -v as Linux counts it")
@pytest.mark.parametrize(
    "megabytes",
    [24, 40, 52],  # on the development machine: a MemoryError, numpy's or clingo's library
)
def test_the_memory_running_out_while_rhasp_loads_is_one_line_and_exit_code_4(megabytes):
    # Under `ulimit -v` an import meets a MemoryError, or a library that cannot be mapped (an
    # ImportError): either is the memory, not a traceback.
    code, _, stderr = capped(megabytes * MB, "solve", CARD, "--engine", "bfs")
    assert code == 4, stderr
    assert stderr.startswith("rhasp: out of memory") and stderr.count("\n") == 1, stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ulimit -v as Linux counts it")
def test_a_thread_that_cannot_start_for_want_of_memory_is_one_line_and_exit_code_4():
    # The search's watcher thread finds no room for its stack ("RuntimeError: can't start new
    # thread"): the memory, not a traceback. A 1 GB stack makes it certain wherever the
    # imports fit in 400 MB.
    code, _, stderr = capped(400 * MB, "solve", CARD, "--engine", "bfs", stack=1_000 * MB)
    assert code == 4, stderr
    assert stderr == (
        "rhasp: out of memory: a thread could not start (free memory, or raise ulimit -v)\n"
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ulimit -v as Linux counts it")
def test_clingo_short_of_memory_for_its_threads_is_a_limit_not_an_abort():
    # clingo's solver threads, short of memory for their thread-local data, end the process
    # from C++ ("cannot allocate memory for thread-local data: ABORT"): the ASP engine stops
    # first, at a limit.
    # The limit is said under the summary of the plan weighted A* finds after it. 120 MB:
    # rhasp loads in about 60, its one solver thread needs 88 MiB more.
    code, stdout, stderr = capped(120 * MB, "solve", CARD, "--engine", "asp", "--no-confirm")
    assert code == 4 and stderr == "", stderr
    summary, stopped = [line for line in stdout.splitlines() if "read: " not in line][:2]
    assert "not proven minimal" in summary and "optimal" not in summary, stdout
    assert "asp stopped: out of memory for clingo's solver at horizon 0: " in stopped, stdout
    assert "MiB needed (raise ulimit -v, or use --engine bfs)" in stopped
    confirmed = capped(150 * MB, "solve", CARD, "--engine", "asp")
    assert confirmed[0] == 0 and "optimal: proven by bfs (asp stopped)" in confirmed[1]


def test_what_the_entry_point_takes_for_the_memory_running_out():
    from rhasp.__main__ import ENOMEM, NO_THREAD, RAN_OUT, out_of_memory

    assert out_of_memory(MemoryError()) == RAN_OUT
    assert ENOMEM == errno.ENOMEM
    # An import inside the command line whose folder could not be listed.
    listing = OSError(errno.ENOMEM, "Cannot allocate memory", "/usr/lib/python3.11/importlib")
    assert out_of_memory(listing) == RAN_OUT
    assert out_of_memory(RuntimeError("can't start new thread")) == NO_THREAD
    unmapped = ImportError(
        "/venv/clingo/_clingo.so: failed to map segment from shared object", name="_clingo"
    )
    assert out_of_memory(unmapped) == (
        "rhasp: out of memory: cannot load _clingo (free memory, or raise ulimit -v)\n"
    )
    # Anything else is not the memory: it stays what it is (a bug shows as one).
    assert out_of_memory(RuntimeError("dictionary changed size during iteration")) is None
    assert out_of_memory(ImportError("No module named 'PIL'", name="PIL")) is None
    assert out_of_memory(OSError(errno.ENOENT, "No such file or directory", "card.txt")) is None
    # A SyntaxError is the parser short of memory only in rhasp's own files (which compile),
    # and only under a limit on the address space (none here).
    own = SyntaxError("expected ':'", (str(ROOT / "rhasp" / "api.py"), 273, 1, "", 273, 2))
    assert out_of_memory(own) is None


def test_a_syntax_error_in_rhasps_own_file_under_ulimit_is_the_memory(monkeypatch):
    # A fresh clone at 24 MB: compiling rhasp/api.py (no bytecode cached yet), CPython's
    # parser, short of memory, says "SyntaxError: expected ':'". (An empty cache made here
    # runs out elsewhere first, so the case is taken by hand.)
    import rhasp.__main__ as entry

    monkeypatch.setattr(entry, "_address_space_limited", lambda: True)
    own = SyntaxError("expected ':'", (str(ROOT / "rhasp" / "api.py"), 273, 1, "", 273, 2))
    assert entry.out_of_memory(own) == entry.RAN_OUT
    elsewhere = SyntaxError("expected ':'", ("/home/user/plugin.py", 3, 1, "", 3, 2))
    assert entry.out_of_memory(elsewhere) is None


def test_a_system_error_is_the_memory_even_where_asking_the_limit_runs_out(monkeypatch):
    # A fresh clone at 40 MB: typer's first option loads pydantic, which fails with CPython's
    # "error return without exception set"; had the limit not been asked as rhasp started,
    # even `import resource`, to ask it then, could meet a MemoryError: the memory all the
    # same, not a traceback.
    import builtins

    import rhasp.__main__ as entry

    real = builtins.__import__

    def short(name, *args, **kwargs):
        if name == "resource":
            raise MemoryError
        return real(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "resource", raising=False)
    monkeypatch.setattr(entry, "_limited", None)  # not asked yet
    monkeypatch.setattr(builtins, "__import__", short)
    assert entry.out_of_memory(SystemError("error return without exception set")) == entry.RAN_OUT


class _StopsWhileMade:
    """A class attribute whose ``__set_name__`` meets the signal ``stop`` raises, as a
    dataclass field does when Ctrl-C or SIGTERM lands while its class is made."""

    def __init__(self, stop: BaseException) -> None:
        self.stop = stop

    def __set_name__(self, owner: type, name: str) -> None:
        raise self.stop


@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [
        (KeyboardInterrupt(), 130, "rhasp: interrupted\n"),
        ("Terminated", 143, "rhasp: terminated\n"),
    ],
    ids=["ctrl-c", "sigterm"],
)
def test_a_signal_while_a_class_is_made_is_one_line_and_its_exit_code(
    monkeypatch, capsys, stop, code, said
):
    # Python 3.11 wraps what __set_name__ raised in a RuntimeError: SIGTERM landing in the
    # making of rhasp.generation's Chains (a CI run) was a traceback and exit code 1.
    import types

    import rhasp.__main__ as entry

    stop = entry.Terminated() if stop == "Terminated" else stop

    def loading() -> None:
        type("Chains", (), {"scoring": _StopsWhileMade(stop)})

    monkeypatch.setitem(sys.modules, "rhasp.cli", types.SimpleNamespace(main=loading))
    monkeypatch.setattr(entry, "stop_on_sigterm", lambda: None)
    with pytest.raises(SystemExit) as ended:
        entry.main()
    assert ended.value.code == code
    assert capsys.readouterr().err == said


@pytest.mark.parametrize("called", [False, True])
@pytest.mark.parametrize(
    ("filename", "name"),
    [("<frozen importlib._bootstrap>", "cb"), (".../clingo/control.py", "__del__")],
)
def test_a_sigterm_in_a_callback_python_ignores_is_sent_again_where_it_ends_the_run(
    filename, name, called
):
    # Raised in the import system's module-lock callback or in a finalizer (clingo's
    # Control.__del__, at a solve's end: a fresh-clone CI run on 2026-11-29), or in code
    # either calls, SIGTERM would be printed as "Exception ignored in ..." and the run would
    # go on to its end, exit 0.
    import types

    from rhasp import stopping

    code = compile("pass", filename, "exec").replace(co_name=name)
    in_callback = types.SimpleNamespace(f_code=code, f_back=None)
    if called:  # the signal lands in a helper the callback called
        helper = compile("pass", "helper.py", "exec").replace(co_name="helper")
        in_callback = types.SimpleNamespace(f_code=helper, f_back=in_callback)
    again = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: again.append(signum))
    try:
        stopping.terminate(signal.SIGTERM, in_callback)  # no raise: it would be ignored there
        deadline = time.monotonic() + 5
        while not again and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert again == [signal.SIGTERM]
    with pytest.raises(stopping.Terminated):  # anywhere else, it ends the run at once
        stopping.terminate(signal.SIGTERM, sys._getframe())


def test_the_entry_point_and_the_command_line_stop_on_one_sigterm_handler():
    # One handler from the entry point's first line to the end: the one the entry point
    # sets before the command line loads is still SIGTERM's once it has loaded.
    code = (
        "import signal, sys\n"
        "before = set(sys.modules)\n"
        "import rhasp.__main__ as entry\n"
        "print(sorted(set(sys.modules) - before))\n"
        "import rhasp.cli.running as running\n"
        "from rhasp.stopping import terminate\n"
        "running.run_app = lambda: signal.getsignal(signal.SIGTERM) is terminate\n"
        "try:\n"
        "    entry.main()\n"
        "except SystemExit as end:\n"
        "    print(end.code, signal.getsignal(signal.SIGTERM) is terminate)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    loaded, ended = run.stdout.splitlines()
    # Reading the entry point loads the exit codes and how a run stops, nothing more.
    assert loaded == str(["rhasp", "rhasp.__main__", "rhasp.exit_codes", "rhasp.stopping"])
    assert ended == "True True", run.stderr  # while the command ran, and after
