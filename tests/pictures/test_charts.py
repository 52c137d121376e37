"""rhasp analyze --graph / --profile: the drawing holds the hand-counted 4x4 cluster."""

from __future__ import annotations

import shutil
import sys
import xml.etree.ElementTree as ET

import pytest

from rhasp.errors import install_command
from rhasp.pictures import charts
from rhasp.pictures.charts import GOAL, HARDEST, PATH
from tests.boards import EXAMPLES
from tests.command import rhasp

Image = pytest.importorskip("PIL.Image", reason="the pictures extra is not installed")
pytest.importorskip("graphviz", reason="the pictures extra is not installed")
pytest.importorskip("matplotlib", reason="the pictures extra is not installed")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is missing")

SMALL = str(EXAMPLES / "4x4.txt")
SVG = "{http://www.w3.org/2000/svg}"


def shapes_of(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == kind]


def colour_of(group: ET.Element) -> str:
    """The stroke colour Graphviz gives a node's or edge's shape (first drawn element)."""
    for element in group.iter():
        if element.get("stroke"):
            return element.get("stroke")
    return ""


@needs_dot
def test_the_4x4_cluster_drawing_has_every_state_and_edge_coloured(tmp_path):
    # The 4x4 board, counted by hand (tests/test_analysis.py): 9 states, 14 edges, 1 goal,
    # 4 hardest states at 3 moves of which one is the start, an optimal way of 3 moves.
    out = tmp_path / "cluster.svg"
    result = rhasp("analyze", SMALL, "--graph", str(out))
    assert result.exit_code == 0, result.stderr
    root = ET.parse(out).getroot()
    nodes, edges = shapes_of(root, "node"), shapes_of(root, "edge")
    assert (len(nodes), len(edges)) == (9, 14)
    node_colours = [colour_of(node) for node in nodes]
    assert node_colours.count(GOAL) == 1
    assert node_colours.count(HARDEST) == 3  # the fourth hardest state is the start
    assert [colour_of(edge) for edge in edges].count(PATH) == 3


@needs_dot
def test_a_png_graph_opens(tmp_path):
    out = tmp_path / "cluster.png"
    assert rhasp("analyze", SMALL, "--graph", str(out)).exit_code == 0
    assert Image.open(out).format == "PNG"


def test_graphviz_missing_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot program anywhere
    result = rhasp("analyze", SMALL, "--graph", str(tmp_path / "cluster.svg"))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "rhasp: --graph: Graphviz's dot program is not installed: apt-get install graphviz "
        "(or brew install graphviz, or see graphviz.org)"
    ]
    assert "9 states" in result.stdout  # the analysis itself was printed first


def test_a_missing_picture_library_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # import graphviz now fails
    result = rhasp("analyze", SMALL, "--graph", str(tmp_path / "cluster.svg"))
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "rhasp: --graph: the graphviz Python package is not installed: "
        + install_command("pictures")
    )


def test_clusters_beyond_the_limit_are_refused_before_graphviz_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(charts, "GRAPH_LIMIT", 8)
    out = tmp_path / "cluster.svg"
    result = rhasp("analyze", SMALL, "--graph", str(out))
    assert result.exit_code == 2
    assert "the cluster has 9 states; --graph draws up to 8" in result.stderr
    assert not out.exists()


def test_the_profile_chart_opens_with_its_colours(tmp_path):
    out = tmp_path / "profile.png"
    assert rhasp("analyze", SMALL, "--profile", str(out)).exit_code == 0
    picture = Image.open(out).convert("RGB")
    assert picture.size == (800, 450)
    colours = {"#{:02x}{:02x}{:02x}".format(*rgb) for _, rgb in picture.getcolors(1 << 20)}
    assert {GOAL, HARDEST} <= colours


@pytest.mark.parametrize(
    ("distances", "start", "names"),
    [
        ([0, 1, 2, 3], 2, ["goal states", "the start's distance", "hardest (marked ▼)"]),
        ([0, 1, 2, 3], 3, ["goal states", "hardest (marked ▼)"]),  # the start is the hardest
        ([0, 1, 2, 3], 0, ["goal states", "hardest (marked ▼)"]),  # the start is a goal
        ([0, 1, 2, 3], None, ["goal states", "hardest (marked ▼)"]),  # a start off the cluster
        ([0], 0, ["goal states"]),  # only goals: nothing is red
    ],
)
def test_the_profile_legend_names_only_colours_drawn(distances, start, names):
    legend = charts.profile_legend(distances, start)
    assert [text for _, text in legend] == names


def red_over_the_bar(path) -> list[int]:
    """The rows of a picture holding pixels of the hardest bar's colour, exactly, in the
    columns of the bar (the lowest red pixels; the legend's red patch stands elsewhere)."""
    picture = Image.open(path).convert("RGB")
    red = tuple(int(HARDEST[i : i + 2], 16) for i in (1, 3, 5))
    width, height = picture.size
    pixels = picture.load()
    rows = [y for y in range(height) if any(pixels[x, y] == red for x in range(width))]
    bar = [x for x in range(width) if pixels[x, rows[-1]] == red]
    return [y for y in rows if any(pixels[x, y] == red for x in bar)]


def test_the_hardest_bar_is_marked_even_when_it_is_too_short_to_see(tmp_path):
    # Two hardest states beside ten thousand: the bar itself is at most a pixel or two tall.
    out = tmp_path / "profile.png"
    charts.draw_profile("tall", {0: 5, 1: 10_000, 2: 2}, 1, out)
    rows = red_over_the_bar(out)
    assert rows[-1] - rows[0] >= 10  # the marker stands over the bar
