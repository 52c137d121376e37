"""The cluster as a Graphviz drawing and its distance profile as a matplotlib bar chart.

The drawing ranks states by their distance to the nearest goal (goals on the left, the
hardest states on the right), colours the goal states green, the hardest red and one
optimal way from the start blue, and leaves the rest grey; each state's board is its tooltip
in an SVG. Graphviz lays out a few thousand states in seconds with straight edges; larger
clusters are refused with the limit named (the profile chart has no limit).
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from rhasp.errors import InputError, MissingTool
from rhasp.formats.grid import board_rows
from rhasp.model import Puzzle
from rhasp.pictures import CHART_FORMATS, GRAPH_FORMATS, need, picture_format
from rhasp.search import ClusterGraph

GOAL, HARDEST, PATH, NEUTRAL = "#2b9348", "#d62828", "#1d4ed8", "#adb5bd"
EDGE = "#6c757d40"  # translucent: thousands of edges stay readable
#: The most states ``--graph`` draws: dot's layout time grows quickly beyond this.
GRAPH_LIMIT = 5000


def draw_cluster(puzzle: Puzzle, graph: ClusterGraph, path: Path) -> None:
    """Write the cluster drawing; the format is the file's suffix (svg, png, pdf, ...)."""
    suffix = picture_format(path, GRAPH_FORMATS)
    states = graph.states
    if states > GRAPH_LIMIT:
        raise InputError(
            f"the cluster has {states:,} states; --graph draws up to {GRAPH_LIMIT:,}", str(path)
        )
    if not graph.goals:
        raise InputError("no goal state is reachable: nothing to rank the states by", str(path))
    graphviz = need("graphviz", "--graph")
    drawing = cluster_dot(puzzle, graph, graphviz)
    try:
        data = drawing.pipe(format=suffix)
    except graphviz.ExecutableNotFound:
        raise MissingTool(
            "Graphviz's dot program is not installed: apt-get install graphviz "
            "(or brew install graphviz, or see graphviz.org)",
            "--graph",
        ) from None
    except graphviz.CalledProcessError as error:
        raise InputError(f"Graphviz cannot write this file: {error.stderr!r}", str(path)) from None
    path.write_bytes(data)


def cluster_dot(puzzle: Puzzle, graph: ClusterGraph, graphviz: ModuleType) -> Any:
    """The Graphviz graph of the cluster (see the module docstring)."""
    distance = graph.distance
    farthest = graph.farthest
    path = graph.way_down()
    on_path = set(path)
    title = (
        f"{puzzle.name}: {len(graph.by_distance):,} states by moves to the nearest goal · "
        f"green: goals · red: hardest ({farthest} moves) · blue: an optimal way from the start "
        f"({len(path) - 1} moves)"
    )
    drawing = graphviz.Graph(name=puzzle.name, engine="dot")
    drawing.attr(
        rankdir="LR",
        splines="false",
        outputorder="edgesfirst",
        ranksep="1.2",
        nodesep="0.02",
        label=title,
        labelloc="t",
        fontname="Helvetica",
        fontsize="14",
    )
    drawing.attr("node", shape="point", width="0.06", color=NEUTRAL, label="")
    drawing.attr("edge", color=EDGE, penwidth="0.4")
    by_distance: dict[int, list[int]] = {}
    for i in graph.by_distance:
        by_distance.setdefault(distance[i], []).append(i)
    for d, states in sorted(by_distance.items()):
        with drawing.subgraph() as rank:
            rank.attr(rank="same")
            for i in states:
                rank.node(
                    str(i),
                    tooltip=_tooltip(puzzle, graph, i, d),
                    **_look(i, d, farthest, on_path, graph.START),
                )
    path_edges = {frozenset(pair) for pair in itertools.pairwise(path)}
    for i in range(graph.states):
        for after in graph.neighbours(i):
            if i < after:
                near, far = sorted((i, after), key=distance.__getitem__)
                style = {"color": PATH, "penwidth": "2.5"} if {i, after} in path_edges else {}
                if distance[near] == distance[far]:
                    style["constraint"] = "false"
                drawing.edge(str(near), str(far), **style)
    return drawing


def _look(i: int, d: int, farthest: int, on_path: set[int], start: int) -> dict[str, str]:
    """State ``i``'s look (an index, as ``start`` and ``on_path``)."""
    if i == start:
        return {"color": PATH, "width": "0.2", "shape": "doublecircle"}  # where the path starts
    if d == 0:
        return {"color": GOAL, "width": "0.1"}
    if d == farthest:
        return {"color": HARDEST, "width": "0.12"}
    if i in on_path:
        return {"color": PATH, "width": "0.12"}
    return {}


def _tooltip(puzzle: Puzzle, graph: ClusterGraph, i: int, d: int) -> str:
    state = graph.state(i)
    rows = board_rows(Puzzle(puzzle.board, state, puzzle.name))
    return f"{d} move{'' if d == 1 else 's'} to the nearest goal\n" + "\n".join(rows)


def profile_legend(distances: list[int], start_distance: int | None) -> list[tuple[str, str]]:
    """The legend of :func:`draw_profile`: an entry for each colour a bar is drawn in, so
    none names a bar that is not there (the start's own colour is hidden when its bar is the
    goals' or the hardest's)."""
    farthest = max(distances, default=0)
    legend = [(GOAL, "goal states")] if 0 in distances else []
    if start_distance is not None and start_distance not in (0, farthest):
        legend.append((PATH, "the start's distance"))
    if farthest > 0:
        legend.append((HARDEST, "hardest (marked ▼)"))
    return legend


def draw_profile(
    name: str, profile: dict[int, int], start_distance: int | None, path: Path
) -> None:
    """A bar chart of the states at each distance from the nearest goal: the goal bar green,
    the hardest red and marked (it may be too short to see), the start's distance blue and
    pointed at. The format is the suffix."""
    picture_format(path, CHART_FORMATS)
    matplotlib = need("matplotlib", "--profile")
    matplotlib.use("Agg")  # files only, no window
    pyplot = need("matplotlib.pyplot", "--profile")
    patches = need("matplotlib.patches", "--profile")
    counts = Counter(profile)
    distances = sorted(counts)
    farthest = max(distances, default=0)
    colours = [
        GOAL if d == 0 else HARDEST if d == farthest else PATH if d == start_distance else NEUTRAL
        for d in distances
    ]
    figure, axes = pyplot.subplots(figsize=(8, 4.5), dpi=100)
    bars = axes.bar(distances, [counts[d] for d in distances], color=colours, width=0.8)
    labelled = len(distances) <= 30
    if labelled:
        axes.bar_label(bars, labels=[f"{counts[d]:,}" for d in distances], fontsize=8, padding=2)
    top = max(counts.values(), default=1)
    if farthest > 0:  # a marker over the hardest bar, which may be a state or two tall
        above = top * (0.12 if labelled else 0.05)  # over the bar's count, where there is one
        axes.plot([farthest], [counts[farthest] + above], "v", color=HARDEST, markersize=11)
    if start_distance is not None:
        axes.annotate(
            "start (hardest)" if start_distance == farthest > 0 else "start",
            xy=(start_distance, counts[start_distance] + top * 0.12),
            xytext=(start_distance, counts[start_distance] + top * 0.3),
            ha="center",
            arrowprops={"arrowstyle": "->", "color": PATH},
            color=PATH,
        )
    legend = profile_legend(distances, start_distance)
    axes.legend(handles=[patches.Patch(color=c, label=text) for c, text in legend], frameon=False)
    axes.set_xlabel("moves to the nearest goal")
    axes.set_ylabel("states")
    axes.set_title(f"{name}: {sum(counts.values()):,} cluster states by distance to the goal")
    axes.spines[["top", "right"]].set_visible(False)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def draw_database(title: str, by_moves: Counter[int], by_cluster: Counter[int], path: Path) -> None:
    """Two histograms of an enumerated database: its puzzles by moves, and by the size of
    their cluster on a log scale (sizes span five orders of magnitude). The format is the
    file's suffix."""
    picture_format(path, CHART_FORMATS)
    matplotlib = need("matplotlib", "--histogram")
    matplotlib.use("Agg")  # files only, no window
    pyplot = need("matplotlib.pyplot", "--histogram")
    figure, (moves_axes, size_axes) = pyplot.subplots(1, 2, figsize=(11, 4.5), dpi=100)
    moves = sorted(by_moves)
    moves_axes.bar(moves, [by_moves[m] for m in moves], color=PATH, width=0.8)
    moves_axes.xaxis.set_major_locator(
        need("matplotlib.ticker", "--histogram").MaxNLocator(integer=True)
    )
    moves_axes.set_xlabel("minimal moves")
    moves_axes.set_ylabel("puzzles")
    moves_axes.set_yscale("log")
    moves_axes.set_title("puzzles by minimal moves (log scale)")
    sizes = list(by_cluster.elements())
    if sizes:
        top = max(sizes)
        edges = [1.0]
        while edges[-1] <= top:
            edges.append(edges[-1] * 10**0.1)  # ten bins a decade
        size_axes.hist(sizes, bins=edges, color=NEUTRAL, edgecolor=PATH, linewidth=0.3)
    size_axes.set_xscale("log")
    size_axes.set_xlabel("states in the puzzle's cluster (log scale)")
    size_axes.set_ylabel("puzzles")
    size_axes.set_title("puzzles by cluster size")
    for axes in (moves_axes, size_axes):
        axes.spines[["top", "right"]].set_visible(False)
    figure.suptitle(f"{title}: {by_moves.total():,} puzzles")
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)
