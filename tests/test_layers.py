"""The package's layers, checked rather than claimed: the model, formats and engines never
import what draws or prints (pictures, output, the CLI, the web page), not even inside a
function, and nothing outside the CLI's package imports it but the command's entry point.
Notebooks' pictures are registered from above (the API's door, :mod:`rhasp`), so the model
draws nothing itself."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rhasp"
LOWER = (
    "rhasp.model",
    "rhasp.solution",
    "rhasp.errors",
    "rhasp.notation",
    "rhasp.pddl_naming",
    "rhasp.formats",
    "rhasp.limits",
    "rhasp.search",
    "rhasp.static",
    "rhasp.engines",
    "rhasp.progress",
    "rhasp.exit_codes",
    "rhasp.stopping",
    "rhasp.deck",
    "rhasp.journal",
    "rhasp.resume",
    "rhasp.enumeration",
)
UPPER = ("rhasp.pictures", "rhasp.output", "rhasp.cli", "rhasp.web")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(tree: ast.AST) -> list[tuple[str, str]]:
    """(imported module, enclosing function or "") for every import in ``tree``."""
    found: list[tuple[str, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found.extend((f"{child.module}.{alias.name}", function) for alias in child.names)
            visit(child, function)

    visit(tree, "")
    return found


def within(name: str, layers: tuple[str, ...]) -> bool:
    return any(name == layer or name.startswith(layer + ".") for layer in layers)


def test_lower_layers_never_import_what_draws_or_prints_and_nothing_imports_the_cli():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        for imported, _ in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if within(module, LOWER) and within(imported, UPPER):
                wrong.append(f"{module} imports {imported}")
            outside = not within(module, ("rhasp.cli", "rhasp.__main__"))
            if within(imported, ("rhasp.cli",)) and outside:
                wrong.append(f"{module} imports the CLI ({imported})")
    assert not wrong, wrong


def test_the_model_builds_on_errors_alone():
    """Formats and pictures build on the model, so the model imports neither (its ``str`` is
    its own rows; its pictures in a notebook are registered by :mod:`rhasp`)."""
    source = (PACKAGE / "model.py").read_text(encoding="utf-8")
    found = {name for name, _ in imports(ast.parse(source)) if within(name, ("rhasp",))}
    assert found and all(within(name, ("rhasp.errors",)) for name in found), found


def test_reading_a_plan_loads_no_puzzle_format():
    """The notation reads a PDDL planner's plan by the names the PDDL writer uses, which
    live apart from the formats (:mod:`rhasp.pddl_naming`)."""
    source = (PACKAGE / "notation.py").read_text(encoding="utf-8")
    found = {name for name, _ in imports(ast.parse(source)) if within(name, ("rhasp",))}
    assert found and not any(within(name, ("rhasp.formats",)) for name in found), found


def test_the_exit_codes_import_nothing():
    # rhasp/__main__.py reads them before it has set its signal handlers and before the
    # command line loads: a module of constants, so that reading them costs nothing.
    tree = ast.parse((PACKAGE / "exit_codes.py").read_text(encoding="utf-8"))
    found = [
        node.lineno for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert found == [], f"rhasp/exit_codes.py imports at lines {found}"


#: What the command line and the web page reach only through the API (rhasp.api and the
#: requests it runs): the search and the work behind each command. Drawing and printing
#: (rhasp.pictures, rhasp.output) render what comes back and may import what they draw.
DOORS = ("rhasp.cli", "rhasp.web")
BEHIND_THE_API = (
    "rhasp.engines",
    "rhasp.search",
    "rhasp.static",
    "rhasp.limits",
    "rhasp.canonical",
    "rhasp.generation",
    "rhasp.deck",
    "rhasp.enumeration",
    "rhasp.analysis",
    "rhasp.hints",
)


def leaks(module: str, source: str) -> list[str]:
    """Each import of ``module`` (of the CLI or the web page, its text ``source``) that goes
    around the API: at the top or inside a function, absolute or relative."""
    tree = ast.parse(source)
    found = [name for name, _ in imports(tree)]
    package = module.split(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = ".".join([*package[: len(package) - node.level], *filter(None, [node.module])])
            found.extend(f"{base}.{alias.name}" for alias in node.names)
    return [f"{module} imports {name}" for name in found if within(name, BEHIND_THE_API)]


def test_the_cli_and_the_web_page_go_through_the_api():
    doors = [path for path in sorted(PACKAGE.rglob("*.py")) if within(module_name(path), DOORS)]
    web = [path.stem for path in doors if within(module_name(path), ("rhasp.web",))]
    assert {"server", "routes", "actions", "views", "slots"} <= set(web)  # the test sees them
    wrong = [
        leak
        for path in doors
        for leak in leaks(module_name(path), path.read_text(encoding="utf-8"))
    ]
    assert not wrong, wrong


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each circle of imports in ``graph`` (module -> the modules it imports), once."""
    found, done = [], set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            circle = path[path.index(module) :]
            if set(circle) not in [set(c) for c in found]:
                found.append(circle)
            return
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return found


def test_the_web_servers_modules_import_one_another_without_a_circle():
    web = [path for path in sorted((PACKAGE / "web").glob("*.py"))]
    names = {module_name(path) for path in web}
    graph = {
        module_name(path): {
            module
            for name, _ in imports(ast.parse(path.read_text(encoding="utf-8")))
            for module in names
            if name == module or name.startswith(module + ".")
        }
        - {module_name(path)}
        for path in web
    }
    assert len(graph) > 5 and graph["rhasp.web.server"]  # the factory builds on the others
    assert circles(graph) == []
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_leak_is_found_at_the_top_inside_a_function_and_relative():
    leaky = (
        "from rhasp import api\n"
        "from rhasp.engines.asp import AspEngine\n"
        "from ..hints import hint\n"
        "from . import server\n"
        "def later():\n"
        "    import rhasp.deck\n"
        "    from rhasp import canonical\n"
    )
    found = [line.split(" imports ")[1] for line in leaks("rhasp.web.leaky", leaky)]
    assert sorted(found) == [
        "rhasp.canonical",
        "rhasp.deck",
        "rhasp.engines.asp.AspEngine",
        "rhasp.hints.hint",
    ]


#: The output package's modules, and which of their siblings each may import: the text of an
#: answer draws its boards; the rest stand alone. Nothing in it imports the package itself
#: (its ``__init__`` only gathers their names), nor the command line, the page or pictures.
OUTPUT = {
    "rhasp.output.boards": set(),
    "rhasp.output.text": {"rhasp.output.boards"},
    "rhasp.output.records": set(),
    "rhasp.output.progress": set(),
    "rhasp.output.tables": set(),
}


def test_the_output_package_is_layered_as_declared():
    found = {}
    for path in sorted((PACKAGE / "output").glob("*.py")):
        module = module_name(path)
        imported = {name for name, _ in imports(ast.parse(path.read_text(encoding="utf-8")))}
        if module == "rhasp.output":
            continue
        found[module] = {
            ".".join(name.split(".")[:3]) for name in imported if within(name, ("rhasp.output",))
        }
        doors = [
            name for name in imported if within(name, ("rhasp.cli", "rhasp.web", "rhasp.pictures"))
        ]
        assert not doors, (module, doors)
    assert found == OUTPUT


def test_the_design_names_every_module_of_the_output_package():
    design = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    row = next(line for line in design.splitlines() if line.startswith("| `rhasp/output/` |"))
    modules = {path.name for path in (PACKAGE / "output").glob("*.py")}
    assert modules == {name.rsplit(".", 1)[1] + ".py" for name in OUTPUT} | {"__init__.py"}
    assert all(f"`{name}`" in row for name in modules), row


#: The search core's package: outside it, rhasp asks the core through its face (the names of
#: ``rhasp.search.__all__``), never through its modules or its tables and keys.
CORE = "rhasp.search"
#: What only the core reads: a board's geometry (which encodes states as keys) and its tables.
CORE_FIELDS = {"tables", "geometry"}


def around_the_face(module: str, source: str, face: set[str]) -> list[str]:
    """Each way ``module`` (its text ``source``), outside the core, reaches past the core's
    face: an import of one of its modules (or of a name its face does not offer), or a read of
    the core's own fields."""
    if within(module, (CORE,)):
        return []
    tree = ast.parse(source)
    wrong = []
    for name, _ in imports(tree):
        if name != CORE and within(name, (CORE,)) and name.removeprefix(CORE + ".") not in face:
            wrong.append(f"{module} imports {name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in CORE_FIELDS:
            wrong.append(f"{module} reads .{node.attr} (line {node.lineno})")
    return wrong


def test_outside_the_search_core_nothing_goes_around_its_face():
    import rhasp.search

    face = set(rhasp.search.__all__)
    assert {"fewest_moves", "explore_cluster", "enumerate_shard"} <= face
    wrong = [
        leak
        for path in sorted(PACKAGE.rglob("*.py"))
        for leak in around_the_face(module_name(path), path.read_text(encoding="utf-8"), face)
    ]
    assert not wrong, wrong


def test_a_way_around_the_face_is_found():
    source = (
        "from rhasp.search import fewest_moves, clusters\n"
        "from rhasp.search.runner import RUNNER\n"
        "def f(graph):\n"
        "    import rhasp.search.core\n"
        "    return graph.geometry.tables\n"
    )
    found = around_the_face("rhasp.hints", source, {"fewest_moves"})
    assert sorted(found) == [
        "rhasp.hints imports rhasp.search.clusters",
        "rhasp.hints imports rhasp.search.core",
        "rhasp.hints imports rhasp.search.runner.RUNNER",
        "rhasp.hints reads .geometry (line 5)",
        "rhasp.hints reads .tables (line 5)",
    ]
    assert around_the_face("rhasp.search.graph", source, set()) == []


# --- no import circles ----------------------------------------------------------------------


def runtime_imports(module: str, tree: ast.AST, is_package: bool) -> list[tuple[str, bool]]:
    """(name, whether inside a function) for each name ``module`` (its syntax ``tree``)
    imports when it runs, absolute or relative; not those for type checkers alone (``if
    TYPE_CHECKING``)."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            children: list[ast.AST] = list(node.orelse)
        else:
            children = list(ast.iter_child_nodes(node))
        for child in children:
            if isinstance(child, ast.Import):
                found.extend((alias.name, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = package[: len(package) - child.level + 1] if child.level else []
                base = [*base, *filter(None, [child.module])]
                found.extend((".".join([*base, a.name]), in_function) for a in child.names)
            functions = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            visit(child, in_function or isinstance(child, functions))

    visit(tree, False)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of rhasp and the modules of rhasp it imports when it runs: ``from a.b
    import c`` is an import of the module ``a.b.c`` where there is one, else of ``a.b``. A
    package's import of its own module inside a function (a registry's, made on demand) is
    left out: it runs once the package has loaded, so its modules may import from it."""
    paths = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        found: set[str] = set()
        for name, in_function in runtime_imports(module, tree, is_package):
            while name and name not in paths:
                name = name.rpartition(".")[0]
            on_demand = is_package and in_function and name.startswith(module + ".")
            if name and name != module and not on_demand:
                found.add(name)
        graph[module] = found
    return graph


def test_no_module_of_rhasp_imports_itself_through_others():
    graph = import_graph()
    assert "rhasp.search.runner" in graph["rhasp.search.pattern"]  # the graph sees imports
    assert not circles(graph), circles(graph)


def test_an_import_is_found_inside_a_function_and_relative_not_for_type_checkers():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n"
        "    from rhasp.model import Board\n"
        "def later():\n"
        "    from rhasp.search.runner import RUNNER\n"
    )
    assert runtime_imports("rhasp.search.cache", ast.parse(source), False) == [
        ("typing.TYPE_CHECKING", False),
        ("rhasp.search.sibling", False),
        ("rhasp.search.runner.RUNNER", True),
    ]


#: The deck package's modules, each built only on those before it: a record, the job that
#: makes one, the results file and the records a resume keeps, then the run over them all.
DECK = ("record", "job", "results", "kept", "run")


def deck_imports(source: str) -> list[str]:
    """The modules of the deck package (of :data:`DECK`) that ``source`` imports."""
    names = [name for name, _ in imports(ast.parse(source)) if within(name, ("rhasp.deck",))]
    return sorted({name.split(".")[2] for name in names if name.count(".") >= 2} & set(DECK))


def test_the_deck_package_builds_each_module_on_those_before_it_only():
    package = PACKAGE / "deck"
    assert sorted(path.stem for path in package.glob("*.py")) == sorted([*DECK, "__init__"])
    wrong = []
    for position, name in enumerate(DECK):
        source = (package / f"{name}.py").read_text(encoding="utf-8")
        later = DECK[position:]
        wrong += [f"{name} imports {other}" for other in deck_imports(source) if other in later]
    assert not wrong, wrong


def test_an_import_of_a_deck_module_is_found():
    source = "from rhasp.deck.run import run_deck\ndef f():\n    import rhasp.deck.kept\n"
    assert deck_imports(source + "from rhasp.errors import InputError\n") == ["kept", "run"]


def test_the_design_names_every_module_of_the_deck_package():
    design = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    row = next(line for line in design.splitlines() if line.startswith("| `rhasp/deck/` |"))
    assert all(f"`{name}.py`" in row for name in DECK), row


#: Where a search's budget is made: the API's functions take ``budget=None`` from people and
#: the requests make it (:func:`rhasp.requests.search_budget`); below them a Budget is always
#: given.
BUDGET_MADE_IN = ("rhasp.api", "rhasp.requests")


def budget_defaults(module: str, source: str) -> list[str]:
    """Each place ``module`` (its text ``source``) makes a budget of its own: a parameter
    ``Budget | None`` (or ``Optional[Budget]``), ``Budget()`` with no argument, ``x or
    Budget(...)``, a field ``default_factory=Budget``."""
    wrong = []
    for node in ast.walk(ast.parse(source)):
        where = f"{module}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.arg) and node.annotation is not None:
            shown = ast.unparse(node.annotation).replace(" ", "")
            if shown in {"Budget|None", "None|Budget", "Optional[Budget]"}:
                wrong.append(f"{where} takes {node.arg}: {shown}")
        elif _budget(node) and not node.args and not node.keywords:
            wrong.append(f"{where} makes a default Budget()")
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            if any(_budget(value) for value in node.values):
                wrong.append(f"{where} defaults to a Budget")
        elif isinstance(node, ast.keyword) and node.arg == "default_factory":
            wrong += (
                [f"{where} has a default Budget"] if ast.unparse(node.value) == "Budget" else []
            )
    return wrong


def _budget(node: ast.AST) -> bool:
    """Whether ``node`` makes a Budget: ``Budget(...)``."""
    return isinstance(node, ast.Call) and ast.unparse(node.func) == "Budget"


def test_below_the_api_a_budget_is_always_given():
    modules = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    below = [name for name in modules if not within(name, BUDGET_MADE_IN)]
    assert {"rhasp.engines", "rhasp.search.runner"} <= set(below) and "rhasp.api" not in below
    text = {name: modules[name].read_text(encoding="utf-8") for name in below}
    wrong = [found for name in below for found in budget_defaults(name, text[name])]
    assert not wrong, wrong


def test_a_budget_made_below_the_api_is_found():
    source = (
        "def f(budget: Budget | None = None, other: Optional[Budget] = None):\n"
        "    return budget or Budget(10)\n"
        "def g(states: int):\n"
        "    return Budget(), Budget(states)\n"
        "class E:\n"
        "    budget: Budget = field(default_factory=Budget)\n"
    )
    found = budget_defaults("rhasp.low", source)
    assert found == [
        "rhasp.low:1 takes budget: Budget|None",
        "rhasp.low:1 takes other: Optional[Budget]",
        "rhasp.low:2 defaults to a Budget",
        "rhasp.low:4 makes a default Budget()",
        "rhasp.low:6 has a default Budget",
    ], found
