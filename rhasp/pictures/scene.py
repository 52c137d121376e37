"""A picture as plain shapes, drawn the same way by Pillow (PNG, GIF) and svgwrite (SVG).

Boards and strips of boards are laid out once, as a :class:`Scene` of boxes, polygons and
text in pixel coordinates; the two small painters below only translate shapes into library
calls, so a PNG and an SVG of one board are the same picture.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rhasp.pictures import BOARD_FORMATS, need, picture_format

BACKGROUND = "#ffffff"


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
            draw.text((shape.x, shape.y), shape.text, fill=shape.fill, font=fonts[shape.size],
                      anchor="mm")  # fmt: skip
    return picture


def svg(scene: Scene) -> str:
    """The scene as SVG text."""
    svgwrite = need("svgwrite", "drawing an SVG")
    drawing = svgwrite.Drawing(size=(scene.width, scene.height), profile="full")
    drawing.add(drawing.rect((0, 0), (scene.width, scene.height), fill=BACKGROUND))
    for shape in scene.shapes:
        if isinstance(shape, Box):
            corner, size = (shape.x, shape.y), (shape.width, shape.height)
            radius = shape.radius
            drawing.add(drawing.rect(corner, size, rx=radius, ry=radius, fill=shape.fill))
        elif isinstance(shape, Polygon):
            drawing.add(drawing.polygon(shape.points, fill=shape.fill))
        else:
            drawing.add(drawing.text(
                shape.text, insert=(shape.x, shape.y), fill=shape.fill, font_size=shape.size,
                font_family="DejaVu Sans, Verdana, sans-serif", text_anchor="middle",
                dominant_baseline="central",
            ))  # fmt: skip
    return drawing.tostring()


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
