"""The benchmarks still load: each reads rhasp's insides, which move (a renamed function left
``bench/cold_start.py`` failing at its first line). Loading runs their imports, not their
measurements (each runs those under ``if __name__ == "__main__"``)."""

from __future__ import annotations

import importlib.util
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
