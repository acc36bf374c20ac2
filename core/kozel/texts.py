"""Sentences for Kozel events in English, Russian and Ukrainian: ``describe(event, lang, names)``.

``names`` are the seat names (default "Seat 1", "Игрок 1", "Гравець 1", …). Every event type of the
Kozel core has a sentence in every language; ``EVENT_TYPES`` lists them.
"""

from __future__ import annotations

from typing import Any

from core.base import Event

LANGS = ("en", "ru", "uk")
EVENT_TYPES = (
    "round_started",
    "redeal",
    "tile_played",
    "drew",
    "knocked",
    "went_out",
    "fish",
    "fish_taken",
    "fish_tie",
    "carry_taken",
    "carry_kept",
    "round_scores",
    "game_over",
)

_SEAT = {"en": "Seat {n}", "ru": "Игрок {n}", "uk": "Гравець {n}"}
_END = {
    "en": {"left": "on the left end", "right": "on the right end"},
    "ru": {"left": "к левому концу", "right": "к правому концу"},
    "uk": {"left": "до лівого кінця", "right": "до правого кінця"},
}
_REASON = {
    "en": {"doubles": "five or more doubles", "value": "six or more tiles of one value"},
    "ru": {"doubles": "пять или больше дублей", "value": "шесть или больше костей с одним значением"},
    "uk": {"doubles": "п'ять чи більше дублів", "value": "шість чи більше кісток з одним значенням"},
}


def _plural(lang: str, n: int, forms: tuple[str, ...]) -> str:
    """English: (one, many); Russian/Ukrainian: (one, few, many)."""
    if lang == "en":
        return forms[0] if n == 1 else forms[1]
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


_TILES_WORD = {"en": ("tile", "tiles"), "ru": ("кость", "кости", "костей"), "uk": ("кістку", "кістки", "кісток")}
_POINTS_WORD = {"en": ("point", "points"), "ru": ("очко", "очка", "очков"), "uk": ("очко", "очки", "очок")}


def _name(names: list[str] | None, seat: int | None, lang: str) -> str:
    if seat is None:
        return "?"
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return _SEAT[lang].format(n=seat + 1)


def _pts(lang: str, n: int) -> str:
    return f"{n} {_plural(lang, n, _POINTS_WORD[lang])}"


def describe(event: Event, lang: str = "en", names: list[str] | None = None) -> str:
    """One sentence telling what happened."""
    if lang not in LANGS:
        lang = "en"
    d: dict[str, Any] = event.data
    who = _name(names, event.seat, lang)
    t = event.type
    if t == "round_started":
        if d.get("first_rule"):
            return {
                "en": f"Round {d['round']}: {who} holds the lowest double (or highest tile) and leads.",
                "ru": f"Раунд {d['round']}: первым ходит {who} — младшим дублем (или старшей костью).",
                "uk": f"Раунд {d['round']}: першим ходить {who} — молодшим дублем (або найстаршою кісткою).",
            }[lang]
        return {
            "en": f"Round {d['round']}: {who} leads with any tile.",
            "ru": f"Раунд {d['round']}: {who} ходит первым любой костью.",
            "uk": f"Раунд {d['round']}: {who} ходить першим будь-якою кісткою.",
        }[lang]
    if t == "redeal":
        parts = [
            f"{_name(names, s, lang)} ({_REASON[lang][r]})" for s, r in zip(d.get("seats", []), d.get("reasons", []))
        ]
        listed = ", ".join(parts)
        return {
            "en": f"Round {d['round']}: redeal — {listed}.",
            "ru": f"Раунд {d['round']}: пересдача — {listed}.",
            "uk": f"Раунд {d['round']}: перездача — {listed}.",
        }[lang]
    if t == "tile_played":
        end = _END[lang][d["end"]]
        return {
            "en": f"{who} plays {d['tile']} {end} (ends {d['left']}|{d['right']}).",
            "ru": f"{who} кладёт {d['tile']} {end} (концы {d['left']}|{d['right']}).",
            "uk": f"{who} кладе {d['tile']} {end} (кінці {d['left']}|{d['right']}).",
        }[lang]
    if t == "drew":
        n = d["count"]
        what = f"{n} {_plural(lang, n, _TILES_WORD[lang])}"
        return {
            "en": f"{who} draws {what} from the bazaar ({d['bazaar']} left).",
            "ru": f"{who} берёт на базаре {what} (осталось {d['bazaar']}).",
            "uk": f"{who} бере на базарі {what} (залишилось {d['bazaar']}).",
        }[lang]
    if t == "knocked":
        return {
            "en": f"{who} knocks: no tile fits.",
            "ru": f"{who} стучит: ходить нечем.",
            "uk": f"{who} стукає: ходити нічим.",
        }[lang]
    if t == "went_out":
        return {
            "en": f"{who} goes out!",
            "ru": f"{who} вышел — костей не осталось!",
            "uk": f"{who} вийшов — кісток не лишилося!",
        }[lang]
    if t == "fish":
        return {
            "en": f"Fish on {d['value']}! {who} is the fisherman.",
            "ru": f"Рыба на {d['value']}! Рыбак — {who}.",
            "uk": f"Риба на {d['value']}! Рибалка — {who}.",
        }[lang]
    if t == "fish_taken":
        return {
            "en": f"Fish for one: {who} had the most and takes all {_pts(lang, d['amount'])}.",
            "ru": f"Рыба на одного: больше всех набрал {who} и забирает все {_pts(lang, d['amount'])}.",
            "uk": f"Риба на одного: найбільше набрав {who} і забирає всі {_pts(lang, d['amount'])}.",
        }[lang]
    if t == "fish_tie":
        return {
            "en": f"Fish for one with a tie for the most: nobody scores, {_pts(lang, d['carry'])} carry over.",
            "ru": f"Рыба на одного, ничья по максимуму: никто не пишет, {_pts(lang, d['carry'])} переходят дальше.",
            "uk": f"Риба на одного, нічия за максимумом: ніхто не пише, {_pts(lang, d['carry'])} переходять далі.",
        }[lang]
    if t == "carry_taken":
        return {
            "en": f"{who} scored the most and also takes the carried {_pts(lang, d['amount'])}.",
            "ru": f"Больше всех набрал {who} и забирает ещё перешедшие {_pts(lang, d['amount'])}.",
            "uk": f"Найбільше набрав {who} і забирає ще перехідні {_pts(lang, d['amount'])}.",
        }[lang]
    if t == "carry_kept":
        return {
            "en": f"A tie for the most: the carried {_pts(lang, d['carry'])} wait for the next round.",
            "ru": f"Ничья по максимуму: перешедшие {_pts(lang, d['carry'])} ждут следующего раунда.",
            "uk": f"Нічия за максимумом: перехідні {_pts(lang, d['carry'])} чекають наступного раунду.",
        }[lang]
    if t == "round_scores":
        return _round_scores(d, lang, names)
    if t == "game_over":
        rating = ", ".join(f"{_name(names, s, lang)} +{r}" for s, r in enumerate(d["rating"]) if s != event.seat)
        return {
            "en": f"{who} has {d['totals'][event.seat]} and is the kozel! Rating: {rating}.",
            "ru": f"{who} набрал {d['totals'][event.seat]} и становится козлом! Рейтинг: {rating}.",
            "uk": f"{who} набрав {d['totals'][event.seat]} і стає козлом! Рейтинг: {rating}.",
        }[lang]
    return {"en": f"({t})", "ru": f"({t})", "uk": f"({t})"}[lang]


def _round_scores(d: dict[str, Any], lang: str, names: list[str] | None) -> str:
    parts = []
    for s in range(len(d["totals"])):
        if d["opened"][s]:
            now = str(d["totals"][s])
            if d["opened_now"][s]:
                now += {"en": " (opened)", "ru": " (открыл счёт)", "uk": " (відкрив рахунок)"}[lang]
        else:
            now = f"+{d['remembered'][s]}"
        parts.append(f"{_name(names, s, lang)} {d['gained'][s]} → {now}")
    listed = "; ".join(parts)
    return {
        "en": f"Round {d['round']} scores: {listed}.",
        "ru": f"Итоги раунда {d['round']}: {listed}.",
        "uk": f"Підсумки раунду {d['round']}: {listed}.",
    }[lang]
