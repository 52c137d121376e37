"""What ``--resume`` reads first (:mod:`rhasp.resume`): a companion's header compared with this
run's, each refusal naming the file, what differs and both values, in one wording for
``rhasp deck`` and ``rhasp enumerate`` (their own refusals are tested with each command)."""

from __future__ import annotations

from pathlib import Path

from rhasp.resume import header_difference, header_of, kept_until_resumed

COMPANION = Path("out.txt.run")
OURS = {"rhasp": "deck", "version": 3, "options": {"size": 6, "walls": 0}, "deck": "abc"}


def flags(options):
    return {name: f"--{name} {options.get(name, '?')}" for name in ("size", "walls")}


def difference(found, rest=None):
    return header_difference(found, OURS, COMPANION, flags, "start anew", rest)


def test_the_same_header_differs_in_nothing():
    assert difference(dict(OURS)) is None


def test_a_missing_header_is_damage_naming_the_file():
    what, advice = difference(None)
    assert "out.txt.run" in what and "damaged" in what and advice == "start anew"


def test_another_version_is_named_before_anything_else():
    what, _ = difference({**OURS, "version": 2, "rhasp": "enumerate", "options": {}})
    assert "out.txt.run" in what and "version 2," in what and "reads version 3 only" in what
    assert "--size" not in what and "enumerate" not in what


def test_another_command_is_named():
    what, _ = difference({**OURS, "rhasp": "enumerate"})
    assert "rhasp enumerate, not rhasp deck" in what


def test_every_option_that_differs_is_named_with_both_values():
    what, advice = difference({**OURS, "options": {"size": 5, "walls": 1}})
    assert "begun with --size 5 and --walls 1, where this run has --size 6 and --walls 0" in what
    assert "out.txt.run" in what and advice.endswith("start anew")


def test_the_commands_own_fields_are_looked_at_with_the_same_options_only():
    said = ("another deck", "resume with it")
    assert difference({**OURS, "deck": "xyz"}, lambda found: said) == said
    what, _ = difference({**OURS, "options": {"size": 5, "walls": 0}}, lambda found: said)
    assert "--size 5" in what


def test_a_header_unlike_this_runs_in_any_other_way_is_refused():
    what, _ = difference({**OURS, "deck": "xyz"})
    assert "out.txt.run" in what and "unlike this run's" in what


def test_a_header_is_a_json_object_with_options():
    assert header_of(b'{"options": {}, "rhasp": "deck"}\n') == {"options": {}, "rhasp": "deck"}
    assert header_of(b'{"options": 1}\n') is None and header_of(b"[1]\n") is None


def test_what_a_stopped_run_keeps_names_the_file_and_how_to_go_on():
    said = kept_until_resumed("3 of 9 shards", Path("db.txt"))
    assert said.startswith("3 of 9 shards kept in db.txt;") and "command with --resume" in said
    assert "resume=True" in kept_until_resumed("3 of 9 puzzles", Path("r.jsonl"), call=True)
