"""The compiled core (rhasp.search.compiled): numba loaded only where it has room and never
swapping the process's standard output."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rhasp.search import compiled


@pytest.mark.parametrize(("cap", "compiles"), [(200 * 2**20, False), (2**31, True), (None, True)])
def test_numba_is_loaded_only_with_room_in_the_address_space(monkeypatch, cap, compiles):
    # Under a tight ulimit -v, loading numba may abort the process (exit code 1, no line of
    # ours): the core runs uncompiled there, and meets the cap as a MemoryError (exit 4).
    import resource

    limit = resource.RLIM_INFINITY if cap is None else cap
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (limit, resource.RLIM_INFINITY))
    monkeypatch.setenv("RHASP_JIT", "always")
    assert (compiled.may_compile() and compiled.compiled_core() is not None) == compiles


def test_numba_never_swaps_standard_output_from_a_loading_thread():
    # numba's highlighted messages run colorama's init and deinit, which assign sys.stdout and
    # sys.stderr, from the thread that loads the compiled core, which would lose the output
    # of commands run meanwhile in the main thread. rhasp turns the highlighting off.
    code = (
        "import sys, types\n"
        "import rhasp.search\n"
        "from rhasp.search import compiled\n"
        "swaps = []\n"
        "class Watched(types.ModuleType):\n"
        "    def __setattr__(self, name, value):\n"
        "        swaps.append(name) if name in ('stdout', 'stderr') else None\n"
        "        super().__setattr__(name, value)\n"
        "sys.__class__ = Watched\n"
        "jit = compiled.compiled_core()\n"
        "import numba.core.errors as errors\n"
        "errors.termcolor().errmsg('a message numba would highlight')\n"
        "print(swaps)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
