"""Encoding a finished picture into bytes that Telegram and Discord show as a photo.

Telegram's photo limits: at most 10 MB, width + height at most 10000, aspect ratio at most 20. Our pictures
are far inside them; ``encode`` still checks (and shrinks or pads when a caller passes something odd) so the
bytes are always sendable. The format choice (JPEG, quality 90, no chroma subsampling) and its measurement
are in docs/pictures.md.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

MAX_BYTES = 10 * 1024 * 1024
MAX_SIDES = 10_000  # width + height
MAX_RATIO = 20.0

FORMAT = "jpeg"
JPEG_QUALITY = 90
JPEG_SUBSAMPLING = 0  # 4:4:4 keeps red and blue symbols and thin text crisp
PNG_LEVEL = 1


@dataclass(frozen=True, slots=True)
class Picture:
    """An encoded picture: the bytes, their format (``jpeg`` or ``png``) and the pixel size."""

    data: bytes
    format: str
    width: int
    height: int

    @property
    def mime(self) -> str:
        return f"image/{self.format}"

    @property
    def extension(self) -> str:
        return "jpg" if self.format == "jpeg" else self.format

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def __len__(self) -> int:
        return len(self.data)


def fit_limits(im: Image.Image) -> Image.Image:
    """The image itself when within the photo limits; else shrunk (sides) and padded (aspect ratio)."""
    w, h = im.size
    if w + h > MAX_SIDES:
        k = (MAX_SIDES - 1) / (w + h)
        im = im.resize((max(1, int(w * k)), max(1, int(h * k))), Image.Resampling.LANCZOS)
        w, h = im.size
    if max(w, h) / min(w, h) > MAX_RATIO:
        nw, nh = (w, int(w / MAX_RATIO) + 1) if w > h else (int(h / MAX_RATIO) + 1, h)
        bg = im.getpixel((0, 0)) if im.mode == "RGB" else (255, 255, 255)
        canvas = Image.new("RGB", (nw, nh), bg)
        canvas.paste(im, ((nw - w) // 2, (nh - h) // 2))
        im = canvas
    return im


def encode_image(im: Image.Image, fmt: str = FORMAT) -> bytes:
    """The bare encoder call (no limit checks): what the benchmark compares pictures against."""
    buf = io.BytesIO()
    if fmt == "jpeg":
        im.save(buf, "JPEG", quality=JPEG_QUALITY, subsampling=JPEG_SUBSAMPLING)
    elif fmt == "png":
        im.save(buf, "PNG", compress_level=PNG_LEVEL)
    else:
        raise ValueError(f"unknown picture format {fmt!r}")
    return buf.getvalue()


def encode(im: Image.Image, fmt: str = FORMAT) -> Picture:
    """Encode a picture for sending as a photo, within the platform limits."""
    if im.mode != "RGB":
        im = im.convert("RGB")
    im = fit_limits(im)
    data = encode_image(im, fmt)
    quality = JPEG_QUALITY
    while fmt == "jpeg" and len(data) > MAX_BYTES and quality > 40:  # never happens at our sizes
        quality -= 15
        buf = io.BytesIO()
        im.save(buf, "JPEG", quality=quality)
        data = buf.getvalue()
    if len(data) > MAX_BYTES:
        return encode(im.resize((im.width // 2, im.height // 2), Image.Resampling.LANCZOS), "jpeg")
    return Picture(data, fmt, im.width, im.height)
