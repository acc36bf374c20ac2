"""Translating one message: ``t`` (gettext), ``tn`` (ngettext) and ``N_`` (mark only), placeholders by name.

Babel extracts them with the keywords ``t:2``, ``tn:2,3`` and ``N_`` (see ``babel.cfg`` and ``make messages``).
"""

from __future__ import annotations

from core.i18n.catalogs import translations


class Said(str):
    """A translated message that remembers what it says (``msgid`` and its params), so that the same message can
    be said again in another language: ``again(text, lang)``. Behaves as the plain ``str`` it is everywhere else."""

    msgid: str
    params: dict[str, object]


def t(lang: str | None, msgid: str, **params: object) -> str:
    """``msgid`` in ``lang`` (English when the language or the entry is missing), then ``str.format(**params)``.

    Without params the translation is returned as it is (braces in it stay literal). The result is a ``Said``.
    """
    text = translations(lang).gettext(msgid)
    said = Said(text.format(**params) if params else text)
    said.msgid, said.params = msgid, params
    return said


def again(text: str, lang: str | None) -> str:
    """``text`` said in ``lang`` when it came from ``t`` (its params said again too); any other text unchanged."""
    if not isinstance(text, Said):
        return text
    params = {k: again(v, lang) if isinstance(v, str) else v for k, v in text.params.items()}
    return t(lang, text.msgid, **params)


def tn(lang: str | None, singular: str, plural: str, n: int, **params: object) -> str:
    """The form of a counted message that ``n`` needs in ``lang``; ``{n}`` is filled in with the others."""
    text = translations(lang).ngettext(singular, plural, n)
    return text.format(n=n, **params)


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` for extraction only: tables of labels keep English ids and go through ``t`` when shown."""
    return msgid
