"""Which type sizes a picture uses: a recorder the layout reports every drawn word and number to.

The readability rule (docs/pictures.md): every word and number must be at least ``MIN_AT_480`` pixels tall
(type size, the font's em) when the picture is scaled to 480 px wide, the width a phone shows a photo at.
Drawing code calls ``note(size)`` for every text it puts on a picture; sprites that are built once and
cached (bubbles, card faces, score-sheet rows) use ``cached_sprite``, which remembers the sizes a sprite
holds and reports them again each time the cached sprite is used. ``recording()`` collects the sizes of
one picture; tests compare the smallest with ``min_type(width)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from typing import Any, TypeVar

MIN_AT_480 = 13
PHONE_WIDTH = 480

_active: ContextVar[tuple[list[int], ...]] = ContextVar("renderers_text_sizes", default=())

F = TypeVar("F", bound=Callable[..., Any])


def min_type(width: int) -> int:
    """The smallest type size (px) a picture ``width`` pixels wide may use."""
    return math.ceil(MIN_AT_480 * width / PHONE_WIDTH)


def at_phone(size: float, width: int) -> float:
    """A type size in a picture ``width`` wide, as shown 480 px wide."""
    return size * PHONE_WIDTH / width


def note(size: int) -> None:
    """Report a type size drawn on the picture being recorded (if any)."""
    for sizes in _active.get():
        sizes.append(int(size))


@contextmanager
def recording() -> Iterator[list[int]]:
    """Collect every type size noted while drawing inside the ``with`` block (recorders nest)."""
    sizes: list[int] = []
    token = _active.set(_active.get() + (sizes,))
    try:
        yield sizes
    finally:
        _active.reset(token)


def cached_sprite(maxsize: int) -> Callable[[F], F]:
    """``lru_cache`` for sprites that hold text: a cache hit reports the sprite's type sizes again."""

    def decorate(fn: F) -> F:
        @lru_cache(maxsize=maxsize)
        def build(*args: Any, **kwargs: Any) -> tuple[Any, tuple[int, ...]]:
            with recording() as sizes:
                out = fn(*args, **kwargs)
            return out, tuple(sorted(set(sizes)))

        @wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            out, sizes = build(*args, **kwargs)
            if _active.get():
                for s in sizes:
                    note(s)
            return out

        wrapper.cache_clear = build.cache_clear  # type: ignore[attr-defined]
        wrapper.cache_info = build.cache_info  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
