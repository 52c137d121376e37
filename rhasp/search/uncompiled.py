"""The search core as it runs uncompiled: :mod:`rhasp.search.core` and
:mod:`rhasp.search.clusters` with their one-line helpers written in place.

The core reads keys and cells through small functions (:func:`rhasp.search.core.field`,
:func:`~rhasp.search.core.meet` ...), so that numba can compile the same source for keys of
one word and of several (:mod:`rhasp.search.jit`). In plain Python each is a call, and the
calls cost about a quarter of an uncompiled search's time (bench/README.md, "Figures behind
the code"). So the uncompiled core is this: the same modules, their source read once, at
the first use (``CORE``, ``CLUSTERS``, :func:`twin`), each call of a helper whose body is one
``return`` replaced by that expression with the arguments put in (they are plain names and
subscripts, evaluated once or not at all there), compiled again. One source still; tests
compare the two (``tests/search/test_uncompiled.py``).
"""

from __future__ import annotations

import ast
import builtins
import copy
import functools
import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any

from rhasp.search import clusters, core


def _one_line_helpers(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The functions of the module ``tree`` whose body is a docstring and one ``return``."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            body = [s for s in node.body if not _is_docstring(s)]
            if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
                found[node.name] = node
    return found


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


#: The helpers written in place: the one-line functions of the core that ``jit`` twins for
#: keys and cells of several words.
WRITTEN_IN_PLACE = (
    *("field", "moved", "above", "less", "words", "spread", "holds_key", "key_at"),
    *("no_cells", "cells_at", "joined", "without", "meet", "within"),
)
#: The one helper written differently uncompiled. Here keys are Python ints of any width, and
#: the core's hash (one multiplication, see :func:`rhasp.search.core.spread`) keeps only the
#: key's low bits in the bits it takes a slot from: keys that differ only above bit 64 (a wide
#: board whose low vehicles stand still) would all go to one slot and be probed one by one,
#: a cluster explored at a thousand states a second. Python's own hash of an int (the int
#: modulo 2**61 - 1) folds every bit in first; on a key of one word it is the key, mostly.
_SPREAD = "def spread(key):\n    return (hash(key) * SPREAD) >> 32"


def _expression(helper: ast.FunctionDef) -> ast.expr:
    """The helper's returned expression, each argument in it once at most (so that putting
    the arguments in evaluates none twice)."""
    expression = next(s for s in helper.body if not _is_docstring(s)).value  # type: ignore[attr-defined]
    used = [n.id for n in ast.walk(expression) if isinstance(n, ast.Name)]
    if any(used.count(argument.arg) > 1 for argument in helper.args.args):
        raise AssertionError(f"{helper.name} uses an argument twice: not written in place")
    return expression


class _Inliner(ast.NodeTransformer):
    """Replaces ``helper(a, b)`` (or ``core.helper(a, b)``) by the helper's expression, the
    helpers ``helpers``; in a module other than the core, the core's names in it as
    ``core.NAME``."""

    def __init__(self, helpers: dict[str, ast.FunctionDef], in_core: bool) -> None:
        self.helpers, self.in_core = helpers, in_core

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        name = _helper_name(node.func, self.helpers)
        if name is None or node.keywords:
            return node
        helper = self.helpers[name]
        names = [argument.arg for argument in helper.args.args]
        bound = dict(zip(names, node.args, strict=True))
        written = _Substitute(bound, self.in_core).visit(copy.deepcopy(_expression(helper)))
        for part in ast.walk(written):  # where the call was, for tracebacks
            ast.copy_location(part, node)
        return written


def _helper_name(function: ast.expr, helpers: dict[str, ast.FunctionDef]) -> str | None:
    if isinstance(function, ast.Name) and function.id in helpers:
        return function.id
    is_core = isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name)
    if is_core and function.value.id == "core" and function.attr in helpers:  # type: ignore[attr-defined]
        return function.attr  # type: ignore[attr-defined]
    return None


class _Substitute(ast.NodeTransformer):
    def __init__(self, bound: dict[str, ast.expr], in_core: bool) -> None:
        self.bound, self.in_core = bound, in_core

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.bound:
            return copy.deepcopy(self.bound[node.id])
        if self.in_core or node.id in vars(builtins):
            return node
        return ast.Attribute(ast.Name("core", ast.Load()), node.id, ast.Load())


def _inlined(
    module: ModuleType,
    source: ast.Module,
    helpers: dict[str, ast.FunctionDef],
    names: dict[str, Any],
) -> ModuleType:
    """A copy of ``module`` with the ``helpers`` written in place (in its parsed ``source``,
    changed: the helpers' own bodies call no helper), its globals ``names`` set."""
    inliner = _Inliner(helpers, in_core=module is core)
    tree = inliner.visit(source)
    plain = ModuleType(module.__name__, module.__doc__)
    plain.__file__ = module.__file__
    exec(compile(tree, module.__file__ or module.__name__, "exec"), plain.__dict__)
    vars(plain).update(names)
    return plain


@functools.cache
def _written() -> dict[str, Any]:
    """The helpers (``HELPERS``) and the core and the cluster functions with them written in
    place (``CORE``, ``CLUSTERS``): made at their first use, not at import, which every
    command pays for and most never use (a solve by ASP of a card: 20 ms of 0.3 s)."""
    core_source = ast.parse(inspect.getsource(core))
    helpers = {
        name: node
        for name, node in _one_line_helpers(core_source).items()
        if name in WRITTEN_IN_PLACE
    }
    helpers["spread"] = _one_line_helpers(ast.parse(_SPREAD))["spread"]
    plain_core = _inlined(core, core_source, helpers, {})
    clusters_source = ast.parse(inspect.getsource(clusters))
    plain_clusters = _inlined(clusters, clusters_source, helpers, {"core": plain_core})
    return {"HELPERS": helpers, "CORE": plain_core, "CLUSTERS": plain_clusters}


_WRITTEN = ("HELPERS", "CORE", "CLUSTERS")
_BY_MODULE = {core.__name__: "CORE", clusters.__name__: "CLUSTERS"}


def __getattr__(name: str) -> Any:
    """``HELPERS``, ``CORE`` and ``CLUSTERS`` (:func:`_written`); any other name missing, as
    usual, without writing anything (introspection asks for names a module lacks)."""
    if name in _WRITTEN:
        return _written()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def twin(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` of the core or the cluster functions as it runs uncompiled (any other
    function as it is)."""
    module = _BY_MODULE.get(function.__module__)
    return function if module is None else getattr(_written()[module], function.__name__)
