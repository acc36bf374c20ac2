"""Where the message catalogs live and how they are loaded: ``.po`` sources compiled in memory at first use.

One gettext domain, ``tablebot``, for everything (game events, words in pictures, the bot's own messages).
The ``.po`` files under ``locale/<lang>/LC_MESSAGES/`` are the only source: on first use of a language its
``.po`` is read with Babel, written as a ``.mo`` into memory and opened as :class:`gettext.GNUTranslations`,
so a fresh checkout or a non-editable ``pip install .`` needs no compile step.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "tablebot"
LOCALE_DIR = Path(__file__).with_name("locale")
SOURCE_LANG = "en"


def _languages() -> tuple[str, ...]:
    """English (the language of the msgids) first, then every language with a catalog, sorted."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE_LANG, *(lang for lang in found if lang != SOURCE_LANG))


LANGS: tuple[str, ...] = _languages()


def normalize(lang: str | None) -> str:
    """A language we have a catalog for: ``"ru-RU"`` -> ``"ru"``, ``"uk_UA"`` -> ``"uk"``; anything else -> ``"en"``."""
    if not lang:
        return SOURCE_LANG
    code = lang.strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGS else SOURCE_LANG


def po_path(lang: str) -> Path:
    """The ``.po`` source of one language."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str) -> Catalog:
    """The Babel catalog of one language, as its ``.po`` file says."""
    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def _compiled(catalog: Catalog) -> gettext.GNUTranslations:
    """The catalog as gettext reads it; an entry with any form left empty falls back to English whole."""
    for message in list(catalog)[1:]:
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(forms):
            catalog.delete(message.id, context=message.context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def translations(lang: str | None) -> gettext.NullTranslations:
    """The translations of ``lang``, normalized first (``"ru-RU"`` and ``"ru"`` share one), compiled once."""
    return _translations(normalize(lang))


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    if not po_path(lang).exists():
        return gettext.NullTranslations()
    return _compiled(read_catalog(lang))
