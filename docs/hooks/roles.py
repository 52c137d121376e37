"""The API page as the source reads: a griffe extension (mkdocs.yml loads it for
mkdocstrings) that renders the docstrings' Sphinx roles as links and a field's comment as its
description, and an MkDocs hook that fails the build on a role left raw.

rhasp's docstrings cross-reference in Sphinx's roles (``:class:`~rhasp.errors.PlanError```),
which read well in ``help()`` and in the source; mkdocstrings renders Markdown and would
print them as they are. Each role becomes an autorefs reference to the object it names,
shown as code: a link where the docs render that object, the name alone where they do not
(``optional``: an internal name is not worth a page). A name without dots is looked up
beside the object whose docstring holds it, as Sphinx does.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

with contextlib.suppress(ImportError):  # the tests read the functions without the docs' tools
    import griffe

ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):`(~?)([\w.]+)`")


def linked(docstring: str, module: str) -> str:
    """``docstring`` with every role as an optional autorefs link, named as Sphinx shows it
    (``~`` keeps the last part of the name only)."""

    def reference(match: re.Match[str]) -> str:
        short, name = match.groups()
        target = name if "." in name else f"{module}.{name}"
        shown = name.rsplit(".", 1)[-1] if short else name
        return f'<autoref identifier="{target}" optional><code>{shown}</code></autoref>'

    return ROLE.sub(reference, docstring)


def field_comment(lines: list[str], first: int, last: int) -> str | None:
    """The comment that describes a field defined on lines ``first`` to ``last`` (1-based): the
    ``#:`` lines above it, else the comment at the end of its definition."""
    above = []
    number = first - 1
    while number >= 1 and lines[number - 1].strip().startswith("#:"):
        above.insert(0, lines[number - 1].strip()[2:].strip())
        number -= 1
    if above:
        return " ".join(above)
    for line in lines[first - 1 : last]:
        if "  # " in line:
            return line.split("  # ", 1)[1].strip()
    return None


class SphinxRoles(griffe.Extension if "griffe" in globals() else object):  # type: ignore[misc]
    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is None and obj.is_attribute and obj.parent.is_class:
            lines = obj.lines_collection[obj.filepath]
            comment = field_comment(lines, obj.lineno, obj.endlineno or obj.lineno)
            if comment:
                obj.docstring = griffe.Docstring(comment, parent=obj)
        if obj.docstring is not None:
            obj.docstring.value = linked(obj.docstring.value, obj.module.path)


RAW = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):(?:`|<code>)")


def on_post_page(output: str, page: Any, config: Any) -> str:
    """A role left raw on any page fails the build."""
    found = RAW.search(output)
    if found:
        raise ValueError(
            f"{page.file.src_path}: a raw Sphinx role: {output[found.start() :][:80]!r}"
        )
    return output
