"""The digit fonts synth draws with: whichever of a fixed list are installed."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))

# Printed-puzzle-like faces, DejaVu first because it is always there. Listing file names
# (rather than asking fontconfig) keeps the choice for a seed the same from run to run.
FONT_FILES = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSansCondensed.ttf",
    "LiberationSans-Regular.ttf",
    "LiberationSans-Bold.ttf",
    "LiberationSerif-Regular.ttf",
    "LiberationSerif-Bold.ttf",
    "LiberationMono-Regular.ttf",
    "LiberationSansNarrow-Regular.ttf",
    "FreeSans.ttf",
    "FreeSansBold.ttf",
    "FreeSerif.ttf",
    "FreeSerifBold.ttf",
    "FreeMono.ttf",
    "NimbusSans-Regular.otf",
    "NimbusSans-Bold.otf",
    "NimbusRoman-Regular.otf",
    "NimbusRoman-Bold.otf",
    "NimbusMonoPS-Regular.otf",
    "NimbusSansNarrow-Regular.otf",
    "C059-Roman.otf",
    "P052-Roman.otf",
    "URWGothic-Book.otf",
    "URWBookman-Light.otf",
)
DEFAULT_FONT = "DejaVuSans.ttf"
# Faces that synth.book never draws with, so no threshold was measured on them: a test of a
# print style in one of these is a test on type nobody tuned for. Light, slanted and narrow
# strokes are those a recogniser and an ink threshold find hardest.
HELD_OUT_FONT_FILES = (
    "DejaVuSans-ExtraLight.ttf",
    "DejaVuSans-Oblique.ttf",
    "DejaVuSerif-Italic.ttf",
    "DejaVuSerifCondensed.ttf",
    "DejaVuSansMono-Bold.ttf",
)


@cache
def available_fonts() -> tuple[Path, ...]:
    """The installed fonts among FONT_FILES, in FONT_FILES order."""
    found = _installed()
    fonts = tuple(found[name] for name in FONT_FILES if name in found)
    if not fonts:
        raise FileNotFoundError(f"none of the fonts synth draws with is installed: {FONT_FILES}")
    return fonts


@cache
def held_out_fonts() -> tuple[Path, ...]:
    """The installed fonts among HELD_OUT_FONT_FILES, in that order."""
    found = _installed()
    return tuple(found[name] for name in HELD_OUT_FONT_FILES if name in found)


def font_path(name: str | None = None) -> Path:
    """An installed font by file name, of FONT_FILES or HELD_OUT_FONT_FILES (default:
    DEFAULT_FONT, else the first available)."""
    fonts = available_fonts() + held_out_fonts()
    wanted = name or DEFAULT_FONT
    for path in fonts:
        if path.name == wanted:
            return path
    if name is None:
        return fonts[0]
    raise FileNotFoundError(f"font {name} is not installed")


@cache
def _installed() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for root in FONT_DIRS:
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                found.setdefault(path.name, path)
    return found


@cache
def load_font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)
