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
    "dealer_chip": ("D", "С", "Р"),
    "round_to": ("Round {n} · game to {target}", "Раунд {n} · игра до {target}", "Раунд {n} · гра до {target}"),
    "plays_100": ("plays 100", "играет 100", "грає 100"),
    "talon_closed": ("talon closed", "прикуп закрыт", "прикуп закритий"),
    "leads": ("leads", "ходит", "ходить"),
    "points_short": ("{n} pts", "{n} оч.", "{n} оч."),
    "rating": ("Rating", "Рейтинг", "Рейтинг"),
    "deals": ("deals", "сдаёт", "роздає"),
    "stock_at": ("Stock: {name}", "Колода: {name}", "Колода: {name}"),
    "bolt": ("bolt", "болт", "болт"),
    "barrel": ("on the barrel", "на бочке", "на бочці"),
    "fall": ("fall", "падение", "падіння"),
    "dump_truck": ("dump truck", "самосвал", "самоскид"),
    "round_points": ("round", "раунд", "раунд"),
    "runs_points": ("runs", "комб.", "комб."),
    "tiles": ("tiles", "камни", "камені"),
    "remembered": ("remembered", "в уме", "в умі"),
}


def word(key: str, lang: str = "en", **params: object) -> str:
    """A label in ``lang`` (unknown languages fall back to English)."""
    entry = _WORDS[key]
    text = entry[LANGS.index(lang)] if lang in LANGS else entry[0]
    return text.format(**params) if params else text


def seat_names(names: list[str] | None, players: int, lang: str = "en") -> list[str]:
    """Drawable names for every seat: short and distinct (``renderers.names``), "Seat N" where unusable."""
    from renderers.names import short_names

    fallbacks = [word("seat", lang, n=i + 1) for i in range(players)]
    raw = [names[i] if names is not None and i < len(names) else None for i in range(players)]
    return short_names(raw, fallbacks)


def signed(value: int) -> str:
    """``+120``, ``−100`` (a real minus sign), ``0``."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def number(value: int) -> str:
    """A total: ``120``, ``−100``."""
    return f"\u2212{-value}" if value < 0 else str(value)
