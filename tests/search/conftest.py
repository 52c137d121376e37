"""Fixtures of the compiled core's cache: a fresh cache folder holding real compiled code, for
tests that damage it or take its rights away."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rhasp.search import cache
from tests.conftest import processes_naming

#: The compiled functions a deck's warm-up loads (``rhasp.search.prefer_compiled``), by the
#: start of numba's file names: module, then function.
WARMED = {
    "breadth_first": "core.breadth_first",
    "best_first": "core.best_first",
    "cheapest": "core.cheapest",
    "cluster": "clusters.cluster",
    "reach": "clusters.reach",
}
#: The shape of a board whose key and cells take one word each (6×6 and smaller).
ONE_WORD = "1x1"

#: Has the warm-up's code compiled or loaded in the suite's own cache, where the tests of the
#: compiled core compile the same functions for the same shape (RHASP_JIT=always: only what
#: is missing is compiled, under the cache's lock), and says where numba keeps it for this
#: source folder (a folder of the cache's own, keyed on the source's path).
WARM = (
    "from rhasp import search; from rhasp.search.runner import RUNNER; "
    "search.prefer_compiled(); print(RUNNER.compiled().breadth_first._cache.cache_path)"
)


@pytest.fixture(scope="session")
def suite_compiled_code() -> Path:
    """numba's folder in the suite's cache for this source, holding its files for the
    functions of :data:`WARMED` on boards of one word."""
    env = {**os.environ, "RHASP_JIT": "always"}
    done = subprocess.run(
        [sys.executable, "-c", WARM], env=env, capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0 or not done.stdout.strip():
        pytest.skip(f"no compiled code in the suite's cache: {done.stderr[-300:]}")
    return Path(done.stdout.strip().splitlines()[-1])


@pytest.fixture
def compiled_cache(suite_compiled_code: Path, tmp_path: Path, monkeypatch) -> Path:
    """A fresh cache folder (``RHASP_CACHE_DIR``, set for the commands the test starts) whose
    version folder holds real compiled code for the functions of :data:`WARMED` on boards of
    one word, copied from the suite's cache, and their markers: what a run finds after an
    earlier run compiled them. Returns the version folder. Afterwards, the background
    compiles its commands started are stopped."""
    base = tmp_path / "compiled"
    version = base / cache.key()
    numba_folder = version / suite_compiled_code.name
    numba_folder.mkdir(parents=True)
    for name, prefix in WARMED.items():
        files = sorted(suite_compiled_code.glob(f"{prefix}-*.nb[ci]"))
        if not files:
            pytest.skip(f"numba's files of {name} are not in {suite_compiled_code}")
        for source in files:
            shutil.copy2(source, numba_folder / source.name)
        (version / "ready").mkdir(parents=True, exist_ok=True)
        (version / "ready" / f"{name}.{ONE_WORD}").touch()
    monkeypatch.setenv("RHASP_CACHE_DIR", str(base))
    yield version
    for pid in processes_naming(str(base)):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def numba_files(version: Path, name: str) -> list[Path]:
    """numba's files (index and code) of the function ``name`` in the cache folder
    ``version``, outside ``damaged/``."""
    found = version.glob(f"*/{WARMED[name]}-*.nb[ci]")
    return sorted(path for path in found if path.parent.name != "damaged")


def read_only(command: list[str]) -> list[str]:
    """``command`` run where permission bits hold: as it is for a user, under ``setpriv``
    without the rights that let root write anywhere (root ignores a folder's mode)."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, and no setpriv to give up root's rights to write")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", *command]
