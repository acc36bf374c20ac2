"""Deberts events in words: ``describe(event, lang="en", names=None)`` gives one sentence in en, ru or uk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.base import Event
from core.cards import SUIT_SYMBOLS, pretty

LANGS = ("en", "ru", "uk")

_SEAT = {"en": "Seat {n}", "ru": "Игрок {n}", "uk": "Гравець {n}"}
_SUIT = {
    "en": {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"},
    "ru": {"S": "пики", "C": "трефы", "D": "бубны", "H": "черви"},
    "uk": {"S": "піки", "C": "трефи", "D": "бубни", "H": "черви"},
}
_KIND = {
    "en": {"terz": "terz", "berz": "berz"},
    "ru": {"terz": "терц", "berz": "берц"},
    "uk": {"terz": "терц", "berz": "берц"},
}
_REASON = {
    "en": {
        "berz_beats_terz": "a berz beats a terz",
        "higher_top": "the higher top card wins",
        "trump_run": "the trump run wins",
        "deal_order": "the earlier seat in deal order wins",
        "no_trick": "no trick taken",
    },
    "ru": {
        "berz_beats_terz": "берц старше терца",
        "higher_top": "старше та, у которой выше верхняя карта",
        "trump_run": "козырная комбинация старше",
        "deal_order": "старше у того, кто раньше по порядку сдачи",
        "no_trick": "не взято ни одной взятки",
    },
    "uk": {
        "berz_beats_terz": "берц старший за терц",
        "higher_top": "старша та, у якої вища верхня карта",
        "trump_run": "козирна комбінація старша",
        "deal_order": "старша в того, хто раніше за порядком роздачі",
        "no_trick": "не взято жодної взятки",
    },
}


def _points(n: int, lang: str) -> str:
    """``n`` with the word for points in the right plural form."""
    if lang == "en":
        return f"{n} point" if abs(n) == 1 else f"{n} points"
    forms = ("очко", "очка", "очков") if lang == "ru" else ("очко", "очки", "очок")
    m = abs(n) % 100
    if 11 <= m <= 14:
        return f"{n} {forms[2]}"
    if m % 10 == 1:
        return f"{n} {forms[0]}"
    if 2 <= m % 10 <= 4:
        return f"{n} {forms[1]}"
    return f"{n} {forms[2]}"


_TO = {"en": "to", "ru": "до", "uk": "до"}


class _Say:
    """Helpers bound to one language and the seat names."""

    def __init__(self, lang: str, names: list[str] | None) -> None:
        self.lang = lang
        self.names = names

    def seat(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return _SEAT[self.lang].format(n=seat + 1)

    def seats(self, seats: list[int]) -> str:
        joiner = {"en": " and ", "ru": " и ", "uk": " і "}[self.lang]
        return joiner.join(self.seat(s) for s in seats)

    def suit(self, suit: str) -> str:
        return f"{_SUIT[self.lang][suit]} {SUIT_SYMBOLS[suit]}"

    def pts(self, n: int) -> str:
        return _points(n, self.lang)

    def run(self, run: dict[str, Any]) -> str:
        kind = _KIND[self.lang][run["kind"]]
        if "cards" not in run:  # a beaten run is known only by its kind and top rank
            top = "10" if run["top"] == "T" else run["top"]
            return f"{kind} {_TO[self.lang]} {top}"
        return f"{kind} {' '.join(pretty(c) for c in run['cards'])}"

    def runs(self, runs: list[dict[str, Any]]) -> str:
        return ", ".join(self.run(r) for r in runs)

    def scores(self, scores: list[int]) -> str:
        return ", ".join(f"{self.seat(s)} {'+' if v > 0 else ''}{v}" for s, v in enumerate(scores))


def _deal(e: Event, s: _Say) -> str:
    card = pretty(e.data["open"])
    return {
        "en": f"{s.seat(e.seat)} deals round {e.data['round']}; the open card is {card}.",
        "ru": f"{s.seat(e.seat)} сдаёт (сдача {e.data['round']}); открытая карта — {card}.",
        "uk": f"{s.seat(e.seat)} роздає (роздача {e.data['round']}); відкрита карта — {card}.",
    }[s.lang]


def _trump_named(e: Event, s: _Say) -> str:
    suit = s.suit(e.data["suit"])
    if e.data["circle"] == 1:
        return {
            "en": f"{s.seat(e.seat)} plays the open suit: trump is {suit}.",
            "ru": f"{s.seat(e.seat)} играет по открытой карте: козырь — {suit}.",
            "uk": f"{s.seat(e.seat)} грає за відкритою картою: козир — {suit}.",
        }[s.lang]
    return {
        "en": f"{s.seat(e.seat)} names trump: {suit}.",
        "ru": f"{s.seat(e.seat)} заказывает козырь: {suit}.",
        "uk": f"{s.seat(e.seat)} замовляє козир: {suit}.",
    }[s.lang]


def _pass(e: Event, s: _Say) -> str:
    return {"en": f"{s.seat(e.seat)} passes.", "ru": f"{s.seat(e.seat)}: пас.", "uk": f"{s.seat(e.seat)} пасує."}[
        s.lang
    ]


def _all_passed(e: Event, s: _Say) -> str:
    nxt = s.seat(e.data["next_dealer"])
    return {
        "en": f"Everybody passed twice: {nxt} deals anew.",
        "ru": f"Все спасовали дважды: пересдаёт {nxt}.",
        "uk": f"Усі спасували двічі: перероздає {nxt}.",
    }[s.lang]


def _extra_dealt(e: Event, s: _Say) -> str:
    card = pretty(e.data["bottom"])
    return {
        "en": f"Three more cards each; the bottom card of the stock is {card}.",
        "ru": f"Каждому ещё по три карты; нижняя карта колоды — {card}.",
        "uk": f"Кожному ще по три карти; нижня карта колоди — {card}.",
    }[s.lang]


def _seven_swapped(e: Event, s: _Say) -> str:
    seven, opened = pretty(e.data["seven"]), pretty(e.data["open"])
    return {
        "en": f"{s.seat(e.seat)} swaps the trump {seven} for the open {opened}.",
        "ru": f"{s.seat(e.seat)} меняет козырную {seven} на открытую {opened}.",
        "uk": f"{s.seat(e.seat)} міняє козирну {seven} на відкриту {opened}.",
    }[s.lang]


def _seven_kept(e: Event, s: _Say) -> str:
    return {
        "en": f"{s.seat(e.seat)} keeps the trump 7.",
        "ru": f"{s.seat(e.seat)} не меняет козырную семёрку.",
        "uk": f"{s.seat(e.seat)} не міняє козирну сімку.",
    }[s.lang]


def _runs(e: Event, s: _Say) -> str:
    who = s.seat(e.seat)
    by_seat = e.data["runs"]
    mine = s.runs(by_seat[e.seat])
    pts = s.pts(e.data["points"])
    out = {
        "en": f"{who} holds the best runs: {mine} — {pts} once {who} takes a trick.",
        "ru": f"{who}: лучшие комбинации — {mine}, {pts}, если будет взята хотя бы одна взятка.",
        "uk": f"{who}: найкращі комбінації — {mine}, {pts}, якщо буде взято хоча б одну взятку.",
    }[s.lang]
    for beaten in e.data["beaten"]:
        other, reason = beaten["seat"], _REASON[s.lang][beaten["reason"]]
        theirs = s.runs(by_seat[other])
        out += {
            "en": f" {s.seat(other)}'s runs ({theirs}) do not count: {reason}.",
            "ru": f" {s.seat(other)}: комбинации ({theirs}) не считаются — {reason}.",
            "uk": f" {s.seat(other)}: комбінації ({theirs}) не зараховуються — {reason}.",
        }[s.lang]
    return out


def _card_played(e: Event, s: _Say) -> str:
    card = pretty(e.data["card"])
    return {
        "en": f"{s.seat(e.seat)} plays {card}.",
        "ru": f"{s.seat(e.seat)} ходит {card}.",
        "uk": f"{s.seat(e.seat)} ходить {card}.",
    }[s.lang]


def _bella(e: Event, s: _Say) -> str:
    return {
        "en": f"{s.seat(e.seat)}: bella! +{e.data['points']}.",
        "ru": f"{s.seat(e.seat)}: белла! +{e.data['points']}.",
        "uk": f"{s.seat(e.seat)}: бела! +{e.data['points']}.",
    }[s.lang]


def _trick_won(e: Event, s: _Say) -> str:
    pts, n = s.pts(e.data["points"]), e.data["trick"]
    return {
        "en": f"{s.seat(e.seat)} takes trick {n}: {pts}.",
        "ru": f"{s.seat(e.seat)} берёт взятку {n}: {pts}.",
        "uk": f"{s.seat(e.seat)} бере взятку {n}: {pts}.",
    }[s.lang]


def _runs_counted(e: Event, s: _Say) -> str:
    pts = s.pts(e.data["points"])
    return {
        "en": f"{s.seat(e.seat)} has taken a trick: the runs count, {pts}.",
        "ru": f"{s.seat(e.seat)} взял взятку: комбинации засчитаны, {pts}.",
        "uk": f"{s.seat(e.seat)} взяв взятку: комбінації зараховано, {pts}.",
    }[s.lang]


def _last_trick(e: Event, s: _Say) -> str:
    return {
        "en": f"{s.seat(e.seat)} takes the last trick: +{e.data['points']}.",
        "ru": f"{s.seat(e.seat)} берёт последнюю взятку: +{e.data['points']}.",
        "uk": f"{s.seat(e.seat)} бере останню взятку: +{e.data['points']}.",
    }[s.lang]


def _runs_lost(e: Event, s: _Say) -> str:
    pts, reason = s.pts(e.data["points"]), _REASON[s.lang][e.data["reason"]]
    return {
        "en": f"{s.seat(e.seat)}'s runs ({pts}) do not count: {reason}.",
        "ru": f"{s.seat(e.seat)}: комбинации ({pts}) не засчитаны — {reason}.",
        "uk": f"{s.seat(e.seat)}: комбінації ({pts}) не зараховано — {reason}.",
    }[s.lang]


def _round_result(e: Event, s: _Say) -> str:
    d = e.seat
    data = e.data
    pts = data["points"]
    players = len(pts)
    defenders = [(d + k) % players for k in range(1, players)]
    lang = s.lang
    parts = []
    if data["result"] == "made":
        if data["winner_takes_all"]:
            parts.append(
                {
                    "en": f"{s.seat(d)} made it with {s.pts(pts[d])} and takes all: {s.pts(sum(pts))}.",
                    "ru": f"{s.seat(d)} сыграл ({s.pts(pts[d])}) и забирает всё: {s.pts(sum(pts))}.",
                    "uk": f"{s.seat(d)} зіграв ({s.pts(pts[d])}) і забирає все: {s.pts(sum(pts))}.",
                }[lang]
            )
        else:
            parts.append(
                {
                    "en": f"{s.seat(d)} made it with {s.pts(pts[d])}.",
                    "ru": f"{s.seat(d)} сыграл: {s.pts(pts[d])}.",
                    "uk": f"{s.seat(d)} зіграв: {s.pts(pts[d])}.",
                }[lang]
            )
    elif data["result"] == "bait":
        best = max(defenders, key=lambda x: pts[x])
        parts.append(
            {
                "en": f"Bait! {s.seat(d)} has {s.pts(pts[d])}, {s.seat(best)} {s.pts(pts[best])}: "
                f"{s.seat(d)} writes 0, the defenders write the declarer's points.",
                "ru": f"Байд! {s.seat(d)}: {s.pts(pts[d])}, {s.seat(best)}: {s.pts(pts[best])}. "
                f"{s.seat(d)} пишет 0, вистующие записывают очки играющего.",
                "uk": f"Байд! {s.seat(d)}: {s.pts(pts[d])}, {s.seat(best)}: {s.pts(pts[best])}. "
                f"{s.seat(d)} пише 0, вістувальники записують очки гравця.",
            }[lang]
        )
    else:
        parts.append(
            {
                "en": f"Hanging bait! {s.seat(d)} ties at {s.pts(pts[d])}: these points hang.",
                "ru": f"Висячий байд! {s.seat(d)} сравнялся ({s.pts(pts[d])}): эти очки повисают.",
                "uk": f"Висячий байд! {s.seat(d)} зрівнявся ({s.pts(pts[d])}): ці очки зависають.",
            }[lang]
        )
    paid, to = data["hanging_paid"], data["hanging_to"]
    if paid:
        if len(to) == 1:
            parts.append(
                {
                    "en": f"{s.seat(to[0])} takes the hanging {s.pts(paid)}.",
                    "ru": f"{s.seat(to[0])} забирает висячие {s.pts(paid)}.",
                    "uk": f"{s.seat(to[0])} забирає висячі {s.pts(paid)}.",
                }[lang]
            )
        else:
            parts.append(
                {
                    "en": f"{s.seats(to)} share the hanging {s.pts(paid)}.",
                    "ru": f"{s.seats(to)} делят висячие {s.pts(paid)}.",
                    "uk": f"{s.seats(to)} ділять висячі {s.pts(paid)}.",
                }[lang]
            )
    if data["hanging"]:
        parts.append(
            {
                "en": f"Hanging now: {s.pts(data['hanging'])}.",
                "ru": f"Сейчас висит: {s.pts(data['hanging'])}.",
                "uk": f"Зараз висить: {s.pts(data['hanging'])}.",
            }[lang]
        )
    parts.append({"en": "Written: ", "ru": "Записано: ", "uk": "Записано: "}[lang] + s.scores(data["scores"]) + ".")
    return " ".join(parts)


def _game_won(e: Event, s: _Say) -> str:
    total, target = e.data["total"], e.data["target"]
    return {
        "en": f"{s.seat(e.seat)} wins the game with {total} (playing to {target})!",
        "ru": f"{s.seat(e.seat)} выигрывает партию: {total} (игра до {target})!",
        "uk": f"{s.seat(e.seat)} виграє партію: {total} (гра до {target})!",
    }[s.lang]


def _play_on(e: Event, s: _Say) -> str:
    who, total = s.seats(e.data["seats"]), e.data["total"]
    return {
        "en": f"{who} are tied at {total}: play on.",
        "ru": f"{who}: поровну, по {total} — игра продолжается.",
        "uk": f"{who}: порівну, по {total} — гра триває.",
    }[s.lang]


TEXTS: dict[str, Callable[[Event, _Say], str]] = {
    "deal": _deal,
    "trump_named": _trump_named,
    "pass": _pass,
    "all_passed": _all_passed,
    "extra_dealt": _extra_dealt,
    "seven_swapped": _seven_swapped,
    "seven_kept": _seven_kept,
    "runs": _runs,
    "card_played": _card_played,
    "bella": _bella,
    "trick_won": _trick_won,
    "runs_counted": _runs_counted,
    "last_trick": _last_trick,
    "runs_lost": _runs_lost,
    "round_result": _round_result,
    "game_won": _game_won,
    "play_on": _play_on,
}


def describe(event: Event, lang: str = "en", names: list[str] | None = None) -> str:
    """One sentence telling a chat what happened; unknown languages fall back to English."""
    if lang not in LANGS:
        lang = "en"
    handler = TEXTS.get(event.type)
    if handler is None:
        raise ValueError(f"unknown deberts event {event.type!r}")
    return handler(event, _Say(lang, names))
