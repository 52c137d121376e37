"""Pictures: boards and solutions (:mod:`.boards`), the cluster and its profile (:mod:`.charts`).

The drawing libraries are an extra (``pip install '.[pictures]'`` in a checkout) that the
solver itself does not need, so each is imported only when a picture is asked for, and a
missing one is a one-line error saying how to install it.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from rhasp.errors import InputError, MissingTool, install_command

#: What to install for each library, in the words of the one-line error.
INSTALL = {
    "PIL": "Pillow",
    "matplotlib": "matplotlib",
    "graphviz": "the graphviz Python package",
}


def need(module: str, purpose: str) -> ModuleType:
    """``module`` imported, or MissingTool naming the package and the extra that has it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        package = INSTALL[module.split(".")[0]]
        raise MissingTool(
            f"{package} is not installed: " + install_command("pictures"), purpose
        ) from None


BOARD_FORMATS = ("png", "svg", "gif")
GRAPH_FORMATS = ("svg", "png", "pdf", "dot")
CHART_FORMATS = ("png", "svg", "pdf")


def suffixes(formats: tuple[str, ...]) -> str:
    """``.svg, .png or .pdf``: the file suffixes of ``formats``, as help and errors list them."""
    return ", ".join(f".{name}" for name in formats[:-1]) + f" or .{formats[-1]}"


def picture_format(path: Path, allowed: tuple[str, ...]) -> str:
    """The format named by the file's suffix, or InputError listing the ones ``allowed``."""
    suffix = path.suffix.lstrip(".").lower()
    if suffix not in allowed:
        raise InputError(f"this picture can be a {suffixes(allowed)} file", str(path))
    return suffix
