"""The few words drawn in pictures, in English, Russian and Ukrainian (``lang`` = ``en``, ``ru``, ``uk``)."""

from __future__ import annotations

LANGS = ("en", "ru", "uk")

_WORDS: dict[str, tuple[str, str, str]] = {
    # key: (en, ru, uk)
    "seat": ("Seat {n}", "Игрок {n}", "Гравець {n}"),
    "trump": ("Trump", "Козырь", "Козир"),
    "no_trump": ("No trump", "Без козыря", "Без козиря"),
    "talon": ("Talon", "Прикуп", "Прикуп"),
    "total": ("Total", "Итого", "Разом"),
    "round": ("Round", "Раунд", "Раунд"),
    "pass": ("pass", "пас", "пас"),
    "bid": ("Bid", "Ставка", "Ставка"),
    "contract": ("Contract", "Заказ", "Замовлення"),
    "last_trick": ("Last trick", "Последняя взятка", "Остання взятка"),
    "redeal": ("redeal", "пересдача", "перездача"),
    "out": ("out", "вышел", "вийшов"),
    "bazaar": ("Bazaar", "Базар", "Базар"),
    "fish": ("fish", "рыба", "риба"),
    "carry": ("carry", "перенос", "перенос"),
    "bait": ("bait", "байд", "байд"),
    "hanging": ("hanging", "висит", "висить"),
    "open_card": ("Open card", "Открытая", "Відкрита"),
    "bottom": ("Bottom", "Низ", "Низ"),
    "rests": ("on talon", "на прикупе", "на прикупі"),
    "golden": ("golden", "золотой", "золотий"),
    "conceded": ("gave up", "сдался", "здався"),
    "winner": ("winner", "победитель", "переможець"),
    "loser": ("kozel", "козёл", "козел"),
    "gave": ("gave", "отдал", "віддав"),
    "got": ("got", "получил", "отримав"),
    "declarer": ("Declarer", "Играет", "Грає"),
    "runs": ("Runs", "Комбинации", "Комбінації"),
    "bella": ("bella", "бэла", "бела"),
    "stock": ("Stock", "Колода", "Колода"),
    "play": ("play", "играю", "граю"),
    "made": ("made", "сыграл", "зіграв"),
    "target": ("to {n}", "до {n}", "до {n}"),
    "circle": ("Circle {n}", "Круг {n}", "Коло {n}"),
    "end_left": ("L", "Л", "Л"),
    "terz": ("terz", "терц", "терц"),
    "berz": ("berz", "берц", "берц"),
    "end_right": ("R", "П", "П"),
}


def word(key: str, lang: str = "en", **params: object) -> str:
    """A label in ``lang`` (unknown languages fall back to English)."""
    entry = _WORDS[key]
    text = entry[LANGS.index(lang)] if lang in LANGS else entry[0]
    return text.format(**params) if params else text


def seat_names(names: list[str] | None, players: int, lang: str = "en") -> list[str]:
    """Drawable names for every seat: cleaned chat names, or "Seat N" where one is missing or unusable."""
    from renderers.text import clean_name

    out = []
    for i in range(players):
        fallback = word("seat", lang, n=i + 1)
        raw = names[i] if names is not None and i < len(names) else None
        out.append(clean_name(raw, fallback))
    return out


def signed(value: int) -> str:
    """``+120``, ``−100`` (a real minus sign), ``0``."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def number(value: int) -> str:
    """A total: ``120``, ``−100``."""
    return f"\u2212{-value}" if value < 0 else str(value)
