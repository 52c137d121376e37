"""``rhasp check`` at the command line: where the plan is read from."""

from __future__ import annotations

import pytest

from tests.boards import ORIGINAL
from tests.command import rhasp

CARD1 = str(ORIGINAL / "card01.txt")


@pytest.mark.parametrize("name", ["myplan.txt", "plans/card01.plan", "out.json"])
def test_a_plan_file_that_is_not_there_is_said_so_in_one_line(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in (["check", CARD1, name], ["hint", CARD1, name]):
        result = rhasp(*command)
        assert result.exit_code == 2, result.stdout
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith(f"rhasp: {name}: no such file"), result.stderr


def test_a_plan_written_out_is_still_read_as_moves(tmp_path, monkeypatch):
    # Card 1's card back: CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR5 solves it (XR5 counted as XR3).
    monkeypatch.chdir(tmp_path)
    result = rhasp("check", CARD1, "1. CL3 2. OD3 3. AR1 4. PU1 5. BU1 6. RL2 7. QD2 8. XR5")
    assert result.exit_code == 0, result.stderr
    # Not a move, and no file's name: the move is what is wrong.
    wrong = rhasp("check", CARD1, "CL3 hello")
    assert wrong.exit_code == 2 and "'hello' is not a move" in wrong.stderr


def test_a_plan_file_that_is_there_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "myplan.txt").write_text("CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR5\n")
    assert rhasp("check", CARD1, "myplan.txt").exit_code == 0
