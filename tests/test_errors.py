"""Errors: the install hint of a missing extra fits how rhasp was installed."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from rhasp import errors
from rhasp.errors import install_command, installed_from

CHECKOUT = Path(__file__).resolve().parents[1]  # the tests run from an installed checkout


def test_rhasp_here_was_installed_from_this_checkout():
    tree, _ = installed_from()
    assert tree.resolve() == CHECKOUT


@pytest.mark.parametrize(
    ("source", "in_tree", "expected"),
    [
        (None, True, "pip install 'rhasp[web]'"),
        ((CHECKOUT, True), True, "pip install -e '.[web]'"),
        ((CHECKOUT, False), True, "pip install '.[web]'"),
        ((CHECKOUT, False), False, f"pip install '{CHECKOUT}[web]'"),
    ],
)
def test_the_hint_installs_the_extra_as_rhasp_was(monkeypatch, tmp_path, source, in_tree, expected):
    monkeypatch.setattr(errors, "installed_from", lambda: source)
    monkeypatch.chdir(CHECKOUT if in_tree else tmp_path)
    assert install_command("web") == expected


def test_an_input_error_names_its_arguments_as_a_surface_calls_them():
    error = errors.InputError("needs out (not out_file, nor a timeout)", "resume", ("out",))
    error.rename({"resume", "out"}, lambda name: "--" + name)
    assert (error.where, error.what) == ("--resume", "needs --out (not out_file, nor a timeout)")
    kept = errors.InputError("out of room", "walls")  # names no argument: its words stay
    kept.rename({"walls", "out"}, lambda name: "--" + name)
    assert (kept.where, kept.what) == ("--walls", "out of room")


def test_an_input_error_keeps_its_names_across_processes():
    error = pickle.loads(pickle.dumps(errors.InputError("needs out", "resume", ("out",))))
    assert (error.what, error.where, error.names) == ("needs out", "resume", ("out",))
