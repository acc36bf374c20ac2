"""Thousand events as sentences a chat can show, in English, Russian and Ukrainian.

``describe(event, lang, names)`` -> str. ``names`` are the seat names (default "Seat 1", ...).
"""

from __future__ import annotations

from typing import Any

from core.base import Event
from core.cards import SUIT_SYMBOLS, pretty

LANGS = ("en", "ru", "uk")

SUIT_NAMES = {
    "en": {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "A": "aces"},
    "ru": {"S": "пики", "C": "трефы", "D": "бубны", "H": "черви", "A": "тузы"},
    "uk": {"S": "піки", "C": "трефи", "D": "бубни", "H": "чирви", "A": "тузи"},
}

SEAT = {"en": "Seat {n}", "ru": "Игрок {n}", "uk": "Гравець {n}"}

TEMPLATES: dict[str, dict[str, str]] = {
    "round_started": {
        "en": "Round {round}: {dealer} deals.{extra}",
        "ru": "Раздача {round}: сдаёт {dealer}.{extra}",
        "uk": "Роздача {round}: роздає {dealer}.{extra}",
    },
    "barrel_takes_talon": {
        "en": "{who} is on the barrel and takes the talon at 121 without bidding.",
        "ru": "{who} на бочке и берёт прикуп за 121 без торговли.",
        "uk": "{who} на бочці й бере прикуп за 121 без торгівлі.",
    },
    "auto_pass": {
        "en": "{who} is below {floor} and passes automatically.",
        "ru": "{who} ниже {floor} и пасует автоматически.",
        "uk": "{who} нижче {floor} і пасує автоматично.",
    },
    "plays_by_default": {
        "en": "Nobody else may bid: {who} plays {value}.",
        "ru": "Больше никто не торгуется: {who} играет {value}.",
        "uk": "Більше ніхто не торгується: {who} грає {value}.",
    },
    "bid": {"en": "{who} bids {value}.", "ru": "{who}: {value}.", "uk": "{who}: {value}."},
    "pass": {"en": "{who} passes.", "ru": "{who}: пас.", "uk": "{who}: пас."},
    "bidding_won": {
        "en": "{who} wins the bidding at {value}{hundred}.",
        "ru": "{who} выигрывает торговлю: {value}{hundred}.",
        "uk": "{who} виграє торгівлю: {value}{hundred}.",
    },
    "talon_shown": {
        "en": "{who} takes the talon: {cards}.",
        "ru": "{who} берёт прикуп: {cards}.",
        "uk": "{who} бере прикуп: {cards}.",
    },
    "talon_hidden": {
        "en": "{who} takes the talon without showing it.",
        "ru": "{who} берёт прикуп, не показывая его.",
        "uk": "{who} бере прикуп, не показуючи його.",
    },
    "card_given": {
        "en": "{who} gives a card to {to}.",
        "ru": "{who} отдаёт карту: {to}.",
        "uk": "{who} віддає карту: {to}.",
    },
    "contract_asked": {
        "en": "{who}, name your contract (at least {bid}).",
        "ru": "{who}, назовите заказ (не меньше {bid}).",
        "uk": "{who}, назвіть замовлення (не менше {bid}).",
    },
    "contract": {
        "en": "{who} plays {value}.",
        "ru": "{who} заказывает {value}.",
        "uk": "{who} замовляє {value}.",
    },
    "conceded": {
        "en": "{who} concedes the {contract}.",
        "ru": "{who} расписывает игру ({contract}).",
        "uk": "{who} розписує гру ({contract}).",
    },
    "card_played": {"en": "{who}: {card}", "ru": "{who}: {card}", "uk": "{who}: {card}"},
    "marriage": {
        "en": "{who} declares the {suit} marriage: +{points}. Trump: {symbol}.",
        "ru": "{who} объявляет марьяж ({suit}): +{points}. Козырь: {symbol}.",
        "uk": "{who} оголошує марʼяж ({suit}): +{points}. Козир: {symbol}.",
    },
    "trick_won": {
        "en": "{who} takes the trick ({points} points).",
        "ru": "{who} берёт взятку ({points} очк.).",
        "uk": "{who} бере взятку ({points} очк.).",
    },
    "round_scored": {
        "en": "Round {round}: {result}.",
        "ru": "Раздача {round}: {result}.",
        "uk": "Роздача {round}: {result}.",
    },
    "bolt": {
        "en": "{who} took no trick: bolt #{value}.",
        "ru": "{who} без взяток: болт №{value}.",
        "uk": "{who} без взяток: болт №{value}.",
    },
    "bolt_penalty": {
        "en": "{who}: three bolts, −120.",
        "ru": "{who}: три болта, −120.",
        "uk": "{who}: три болти, −120.",
    },
    "barrel_on": {
        "en": "{who} climbs on the barrel (880).",
        "ru": "{who} садится на бочку (880).",
        "uk": "{who} сідає на бочку (880).",
    },
    "barrel_attempt": {
        "en": "{who}: barrel attempt {attempt} of 3 missed.",
        "ru": "{who}: попытка на бочке {attempt} из 3 не удалась.",
        "uk": "{who}: спроба на бочці {attempt} з 3 не вдалася.",
    },
    "barrel_fall": {
        "en": "{who} falls off the barrel: −120{why}.",
        "ru": "{who} слетает с бочки: −120{why}.",
        "uk": "{who} злітає з бочки: −120{why}.",
    },
    "barrel_fail": {
        "en": "{who} fails {contract} on the barrel: {value} and off the barrel.",
        "ru": "{who} не взял {contract} на бочке: {value}, и слетает с бочки.",
        "uk": "{who} не взяв {contract} на бочці: {value}, і злітає з бочки.",
    },
    "barrel_win": {
        "en": "{who} makes it from the barrel!",
        "ru": "{who} сыграл с бочки!",
        "uk": "{who} зіграв з бочки!",
    },
    "missed_barrels_reset": {
        "en": "{who}: three missed barrels, the total becomes 0.",
        "ru": "{who}: три несыгранные бочки, счёт обнуляется.",
        "uk": "{who}: три незіграні бочки, рахунок обнуляється.",
    },
    "dump_truck": {
        "en": "{who} hits the dump truck: {old} becomes 0.",
        "ru": "{who} попадает на самосвал: {old} превращается в 0.",
        "uk": "{who} потрапляє на самоскид: {old} стає 0.",
    },
    "redeal": {
        "en": "{who} calls a redeal ({reason}). {dealer} deals again.",
        "ru": "{who} требует пересдачу ({reason}). {dealer} сдаёт снова.",
        "uk": "{who} вимагає перероздачу ({reason}). {dealer} роздає знову.",
    },
    "game_won": {
        "en": "{who} wins the game with {total}!",
        "ru": "{who} выигрывает партию: {total}!",
        "uk": "{who} виграє партію: {total}!",
    },
}

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "golden": " Golden round: results count double.",
        "sitting_out": " {who} sits out on the talon.",
        "hundred": " (sitting on a hundred)",
        "made": "{who} made {contract}",
        "failed": "{who} failed {contract}",
        "conceded": "{who} conceded {contract}",
        "stand_still": "the others stand still",
        "pushed": ", pushed off by another player",
        "together": ", climbed on together with another player",
        "attempts": ", three attempts missed",
        "four_nines": "four nines",
        "under_14": "under 14 points",
        "talon_nines": "a talon of nines",
    },
    "ru": {
        "golden": " Золотой кон: очки удваиваются.",
        "sitting_out": " {who} сидит на прикупе.",
        "hundred": " (сидит на ста)",
        "made": "{who} сыграл {contract}",
        "failed": "{who} не сыграл {contract}",
        "conceded": "{who} расписал {contract}",
        "stand_still": "остальные стоят",
        "pushed": ", его сбил другой игрок",
        "together": ", залезли на бочку вместе",
        "attempts": ", три попытки не удались",
        "four_nines": "четыре девятки",
        "under_14": "меньше 14 очков",
        "talon_nines": "в прикупе одни девятки",
    },
    "uk": {
        "golden": " Золотий кон: очки подвоюються.",
        "sitting_out": " {who} сидить на прикупі.",
        "hundred": " (сидить на сотні)",
        "made": "{who} зіграв {contract}",
        "failed": "{who} не зіграв {contract}",
        "conceded": "{who} розписав {contract}",
        "stand_still": "решта стоїть",
        "pushed": ", його збив інший гравець",
        "together": ", залізли на бочку разом",
        "attempts": ", три спроби не вдалися",
        "four_nines": "чотири девʼятки",
        "under_14": "менше 14 очок",
        "talon_nines": "у прикупі самі девʼятки",
    },
}


def seat_name(seat: int | None, lang: str, names: list[str] | None) -> str:
    if seat is None:
        return ""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return SEAT[lang].format(n=seat + 1)


def describe(event: Event, lang: str = "en", names: list[str] | None = None) -> str:
    """One sentence for an event in the given language (unknown languages fall back to English)."""
    if lang not in LANGS:
        lang = "en"
    words = WORDS[lang]
    d: dict[str, Any] = dict(event.data)
    who = seat_name(event.seat, lang, names)
    t = event.type
    fields: dict[str, Any] = {"who": who, **d}
    if t == "round_started":
        extra = ""
        if d.get("sitting_out") is not None:
            extra += words["sitting_out"].format(who=seat_name(d["sitting_out"], lang, names))
        if d.get("golden"):
            extra += words["golden"]
        fields.update(dealer=seat_name(d["dealer"], lang, names), extra=extra)
    elif t == "bidding_won":
        fields["hundred"] = words["hundred"] if d.get("on_hundred") else ""
    elif t == "talon_shown":
        fields["cards"] = " ".join(pretty(c) for c in d["cards"])
    elif t == "card_given":
        fields["to"] = seat_name(d["to"], lang, names)
    elif t == "card_played":
        fields["card"] = pretty(d["card"])
    elif t == "marriage":
        fields.update(suit=SUIT_NAMES[lang]["A" if d.get("ace") else d["suit"]], symbol=SUIT_SYMBOLS[d["trump"]])
    elif t == "round_scored":
        if d["conceded"]:
            result = words["conceded"].format(who=who, contract=d["contract"])
        else:
            result = words["made" if d["made"] else "failed"].format(who=who, contract=d["contract"])
        if d.get("stand_still"):
            result += ", " + words["stand_still"]
        scores = ", ".join(f"{seat_name(s, lang, names)} {'+' if v > 0 else ''}{v}" for s, v in enumerate(d["scores"]))
        fields["result"] = f"{result}; {scores}"
    elif t == "barrel_fall":
        fields["why"] = words.get(d.get("reason", ""), "")
    elif t == "barrel_fail":
        fields["contract"] = d["contract"]
    elif t == "dump_truck":
        fields["old"] = -d["value"]
    elif t == "redeal":
        fields.update(reason=words[d["reason"]], dealer=seat_name(d["dealer"], lang, names))
    template = TEMPLATES.get(t, {}).get(lang)
    if template is None:
        return f"{who}: {t}"
    return template.format(**fields)
