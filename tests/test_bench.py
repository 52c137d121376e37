"""The benchmarks still load: each reads rhasp's insides, which move (a renamed function left
``bench/cold_start.py`` failing at its first line). Loading runs their imports, not their
measurements (each runs those under ``if __name__ == "__main__"``); the ASP benchmarks, which
read the solution's record, also run for a moment on card 1."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize("script", sorted(BENCH.glob("*.py")), ids=lambda path: path.stem)
def test_a_benchmark_loads(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location(f"bench_{script.stem}", script)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # as Python runs a script: dataclasses look
    spec.loader.exec_module(module)
    assert module.__doc__, f"{script.name} says what it measures in its docstring"


@pytest.mark.parametrize(
    "arguments",
    [
        ["asp.py", "--cards", "1", "--memo", "stride"],
        ["asp.py", "--cards", "1", "--objective", "slides", "--memo", "bound"],
        ["asp_profile.py", "--cards", "1"],
    ],
    ids=["asp-stride", "asp-slides-bound", "asp_profile"],
)
def test_the_asp_benchmarks_run_on_a_card(arguments: list[str]) -> None:
    # Run for a moment, not only loaded: they read the solution's record, which changes (the
    # per-horizon seconds became the horizons solved, and the scripts read them).
    script, *options = arguments
    result = subprocess.run(
        [sys.executable, str(BENCH / script), *options],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BENCH.parent,
        env={**os.environ, "PYTHONPATH": str(BENCH.parent)},
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])  # each ends with its JSON line
    assert summary["bench"] in ("asp", "asp_profile")
    assert summary["rows"] and summary["rows"][0]["card"] == 1
