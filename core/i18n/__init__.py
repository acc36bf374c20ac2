"""Languages for the whole bot: gettext catalogs (``en``, ``ru``, ``uk``) read through Babel.

Public API: ``LANGS``, ``normalize``, ``t``, ``tn``, ``N_``, ``number``, ``when`` and ``describe`` (a game event
as a sentence). How to add a string or a language: ``docs/i18n.md``; the game terms: ``docs/glossary.md``.
"""

from __future__ import annotations

from core.i18n.catalogs import DOMAIN, LANGS, LOCALE_DIR, normalize, translations
from core.i18n.events import describe
from core.i18n.messages import N_, Said, again, t, tn
from core.i18n.numbers import number, when

__all__ = [
    "DOMAIN",
    "LANGS",
    "LOCALE_DIR",
    "N_",
    "Said",
    "again",
    "describe",
    "normalize",
    "number",
    "t",
    "tn",
    "translations",
    "when",
]
