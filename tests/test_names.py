"""One name, one meaning: a public name defined at the top of two modules of the package is
two things a reader must tell apart by where they come from. Each is allowed only where it is
the same thing at another layer, said below; ``jit.py``'s compiled twins carry the core's
names on purpose."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rhasp"
TWINS = PACKAGE / "search" / "jit.py"
#: Names that are the same thing at another layer: a command and the API function it calls;
#: an engine's search and the readable reference it is checked against, or the core search
#: it wraps.
SAME_THING = {
    "analyze": {"rhasp/api.py", "rhasp/cli/analyze.py"},
    "check": {"rhasp/api.py", "rhasp/cli/check.py"},
    "generate": {"rhasp/api.py", "rhasp/cli/generate.py"},
    "hardest": {"rhasp/api.py", "rhasp/cli/hardest.py"},
    "solve": {"rhasp/api.py", "rhasp/cli/solve.py", "rhasp/solving.py"},
    "deck": {"rhasp/api.py", "rhasp/cli/deck.py"},
    "hint": {"rhasp/api.py", "rhasp/cli/hint.py"},
    # The command's entry point, which loads the command line inside its try, and the
    # command line's own main.
    "main": {"rhasp/__main__.py", "rhasp/cli/running.py"},
    "fewest_moves": {"rhasp/search/__init__.py", "rhasp/engines/reference.py"},
    "fewest_slides": {"rhasp/search/__init__.py", "rhasp/engines/reference.py"},
    "best_first": {"rhasp/search/__init__.py", "rhasp/search/core.py"},
    "enumerate_shard": {"rhasp/search/__init__.py", "rhasp/search/shards.py"},
    # typing's own flag, written out where importing typing would cost the start-up.
    "TYPE_CHECKING": {"rhasp/__init__.py", "rhasp/stopping.py"},
    # The API's way to be told of a compile, over the core's.
    "when_compiling": {"rhasp/api.py", "rhasp/search/__init__.py"},
}


def top_level_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [name for name in names if not name.startswith("_")]


def test_each_public_name_is_defined_in_one_module_or_is_the_same_thing():
    where: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != TWINS:
            for name in top_level_names(ast.parse(path.read_text(encoding="utf-8"))):
                where[name].add(path.relative_to(PACKAGE.parent).as_posix())
    twice = {
        name: sorted(paths)
        for name, paths in where.items()
        if len(paths) > 1 and not paths <= SAME_THING.get(name, set())
    }
    assert not twice, twice


def test_the_check_sees_a_name_defined_twice():
    tree = ast.parse("class Limits: ...\nLimits2 = 1\n_hidden = 2\nx: int = 3\n")
    assert top_level_names(tree) == ["Limits", "Limits2", "x"]
