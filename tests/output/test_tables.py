"""The summary tables of long runs: what their figures cover."""

from __future__ import annotations

from rhasp.output.tables import seconds_row


def test_the_seconds_say_what_they_cover():
    assert seconds_row(2.5, 2.9, "solving") == ("seconds", "2.5 solving")
    name, text = seconds_row(4.9, 18.9, "enumerating")
    assert name == "seconds"
    assert text.startswith("4.9 enumerating, 18.9 in all (")
    assert "compiling" in text
