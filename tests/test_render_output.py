"""Encoded pictures: they decode, and stay inside Telegram's photo limits whatever they are given."""

from __future__ import annotations

import io

from PIL import Image

from renderers import output


def _decode(pic: output.Picture) -> Image.Image:
    im = Image.open(io.BytesIO(pic.data))
    im.load()
    return im


def _within_limits(pic: output.Picture) -> bool:
    w, h = pic.size
    return len(pic.data) < output.MAX_BYTES and w + h <= output.MAX_SIDES and max(w, h) / min(w, h) <= 20


def test_encode_jpeg_and_png_decode_to_the_same_size():
    im = Image.new("RGB", (640, 480), (30, 90, 60))
    for fmt in ("jpeg", "png"):
        pic = output.encode(im, fmt)
        dec = _decode(pic)
        assert dec.size == (640, 480) == pic.size
        assert dec.format == fmt.upper()
        assert pic.mime == f"image/{fmt}" and _within_limits(pic)


def test_default_format_is_jpeg_without_chroma_subsampling():
    im = Image.new("RGB", (64, 64), (200, 30, 40))
    pic = output.encode(im)
    assert pic.format == "jpeg" and pic.extension == "jpg"
    from PIL import JpegImagePlugin

    assert JpegImagePlugin.get_sampling(_decode(pic)) == 0  # 4:4:4


def test_oversized_and_thin_pictures_are_brought_within_limits():
    huge = output.encode(Image.new("RGB", (9500, 600), (0, 0, 0)))
    assert _within_limits(huge) and huge.width + huge.height <= output.MAX_SIDES
    thin = output.encode(Image.new("RGB", (3000, 60), (0, 0, 0)))
    assert _within_limits(thin) and thin.width == 3000
    assert _decode(thin).size == thin.size
