"""Translating one message: ``t`` (gettext), ``tn`` (ngettext) and ``N_`` (mark only), placeholders by name.

Babel extracts them with the keywords ``t:2``, ``tn:2,3`` and ``N_`` (see ``babel.cfg`` and ``make messages``).
"""

from __future__ import annotations

from core.i18n.catalogs import translations


def t(lang: str | None, msgid: str, **params: object) -> str:
    """``msgid`` in ``lang`` (English when the language or the entry is missing), then ``str.format(**params)``.

    Without params the translation is returned as it is (braces in it stay literal).
    """
    text = translations(lang).gettext(msgid)
    return text.format(**params) if params else text


def tn(lang: str | None, singular: str, plural: str, n: int, **params: object) -> str:
    """The form of a counted message that ``n`` needs in ``lang``; ``{n}`` is filled in with the others."""
    text = translations(lang).ngettext(singular, plural, n)
    return text.format(n=n, **params)


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` for extraction only: tables of labels keep English ids and go through ``t`` when shown."""
    return msgid
