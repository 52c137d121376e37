"""A picture as plain shapes, drawn the same way by Pillow (PNG, GIF) and as SVG text.

Boards and strips of boards are laid out once, as a :class:`Scene` of boxes, polygons and
text in pixel coordinates; the two small painters below only translate shapes into library
calls, so a PNG and an SVG of one board are the same picture. The SVG is written here
directly (a handful of elements), so notebooks and the web page draw boards with no extra.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rhasp.pictures import BOARD_FORMATS, need, picture_format

BACKGROUND = "#ffffff"
FONT = "DejaVu Sans, Verdana, sans-serif"


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float
    fill: str
    radius: float = 0


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str


@dataclass(frozen=True)
class Caption:
    """Text centred on (x, y)."""

    x: float
    y: float
    text: str
    size: float
    fill: str


Shape = Box | Polygon | Caption


@dataclass(frozen=True)
class Scene:
    width: int
    height: int
    shapes: tuple[Shape, ...]

    def moved(self, dx: float, dy: float) -> tuple[Shape, ...]:
        """The shapes shifted by (dx, dy), to place this scene inside a larger one."""
        return tuple(_moved(shape, dx, dy) for shape in self.shapes)


def _moved(shape: Shape, dx: float, dy: float) -> Shape:
    if isinstance(shape, Polygon):
        return Polygon(tuple((x + dx, y + dy) for x, y in shape.points), shape.fill)
    return replace(shape, x=shape.x + dx, y=shape.y + dy)


def tiled(scenes: list[Scene], columns: int) -> Scene:
    """Scenes of one size in rows of ``columns``, left to right, top to bottom."""
    width, height = scenes[0].width, scenes[0].height
    shapes: list[Shape] = []
    for n, scene in enumerate(scenes):
        row, col = divmod(n, columns)
        shapes.extend(scene.moved(col * width, row * height))
    rows = -(-len(scenes) // columns)
    return Scene(width * min(columns, len(scenes)), height * rows, tuple(shapes))


def image(scene: Scene) -> Any:
    """The scene as a Pillow image (RGB)."""
    pil_image = need("PIL.Image", "drawing a PNG or GIF")
    pil_draw = need("PIL.ImageDraw", "drawing a PNG or GIF")
    pil_font = need("PIL.ImageFont", "drawing a PNG or GIF")
    picture = pil_image.new("RGB", (scene.width, scene.height), BACKGROUND)
    draw = pil_draw.Draw(picture)
    fonts: dict[float, Any] = {}
    for shape in scene.shapes:
        if isinstance(shape, Box):
            corners = (shape.x, shape.y, shape.x + shape.width - 1, shape.y + shape.height - 1)
            draw.rounded_rectangle(corners, radius=shape.radius, fill=shape.fill)
        elif isinstance(shape, Polygon):
            draw.polygon(shape.points, fill=shape.fill)
        else:
            if shape.size not in fonts:
                fonts[shape.size] = pil_font.load_default(size=shape.size)
            draw.text(
                (shape.x, shape.y), shape.text, fill=shape.fill, font=fonts[shape.size], anchor="mm"
            )
    return picture


def svg(scene: Scene, background: str | None = BACKGROUND) -> str:
    """The scene as SVG text: a white background (none with ``background=None``, for a page
    of its own colour), then rectangles, polygons and text."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}">',
    ]
    if background:
        parts.append(f'<rect width="{scene.width}" height="{scene.height}" fill="{background}"/>')
    parts.extend(_svg_element(shape) for shape in scene.shapes)
    parts.append("</svg>")
    return "\n".join(parts)


def _svg_element(shape: Shape) -> str:
    if isinstance(shape, Box):
        return (
            f'<rect x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.width)}" '
            f'height="{_n(shape.height)}" rx="{_n(shape.radius)}" fill="{shape.fill}"/>'
        )
    if isinstance(shape, Polygon):
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
        return f'<polygon points="{points}" fill="{shape.fill}"/>'
    # Imported here: it imports urllib.request, a twentieth of every command's start.
    from xml.sax.saxutils import escape

    return (
        f'<text x="{_n(shape.x)}" y="{_n(shape.y)}" fill="{shape.fill}" '
        f'font-size="{_n(shape.size)}" font-family="{FONT}" text-anchor="middle" '
        f'dominant-baseline="central">{escape(shape.text)}</text>'
    )


def _n(number: float) -> str:
    """A coordinate without a needless ``.0``."""
    return f"{number:g}" if float(number).is_integer() else f"{number:.2f}".rstrip("0")


def save(scene: Scene, path: Path) -> None:
    """Write one scene as a PNG or SVG, by the file's suffix (a GIF is a one-frame PNG's
    sibling: see :func:`save_animation`)."""
    if picture_format(path, BOARD_FORMATS) == "svg":
        path.write_text(svg(scene), encoding="utf-8")
    else:
        image(scene).save(path)


def save_animation(scenes: list[Scene], path: Path, *, frame_ms: int = 800) -> None:
    """An animated GIF, one scene a frame, holding the first and last frames longer."""
    frames = [image(scene) for scene in scenes]
    durations = [frame_ms] * len(frames)
    durations[0] = durations[-1] = 3 * frame_ms
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=durations, loop=0)
