"""ASP facts: one schema, the same facts whichever format the board came in."""

from __future__ import annotations

from rhasp.cli import app
from rhasp.formats import FORMATS, SUFFIX, write
from rhasp.formats.facts import write_facts
from tests.boards import card, example
from tests.command import runner


def test_facts_are_identical_for_every_format_of_a_board(tmp_path):
    puzzle = card(26)
    outputs = set()
    for fmt in FORMATS:
        folder = tmp_path / fmt
        folder.mkdir()
        path = folder / f"card26{SUFFIX[fmt]}"
        path.write_text(write(puzzle, fmt))
        result = runner.invoke(app, ["facts", str(path)])
        assert result.exit_code == 0, result.stderr
        outputs.add(result.stdout)
    assert len(outputs) == 1
    (facts,) = outputs
    # Card 26, checked against the card: X in row 3 from column 2; truck O in row 1.
    assert 'vehicle("X",2,h,3). init("X",2).' in facts
    assert 'vehicle("O",3,h,1). init("O",4).' in facts
    assert 'target("X",right).' in facts


def test_facts_carry_walls_other_exits_and_several_targets():
    assert "wall(5,4)." in write_facts(example("walls"))
    assert 'target("X",bottom).' in write_facts(example("vertical-target"))
    two = write_facts(example("two-targets"))
    assert 'target("X",right).' in two and 'target("Y",right).' in two


def test_facts_of_a_bad_file_is_one_line_error(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("XX?\n...\n...\n")
    result = runner.invoke(app, ["facts", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"rhasp: {bad}:1:3: unknown character")
