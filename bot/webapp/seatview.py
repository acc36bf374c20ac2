"""What one viewer's page shows of a table: a JSON frame made on the server from the seat's view.

``build(...)`` turns a table (its record and ``bot.live.Live``) into the frame the page draws: the table picture
turned to the viewer's seat, the viewer's hand picture with the rectangle of every card or tile and the actions
each one plays, the other legal actions as buttons, why a card that cannot be played now cannot, whose turn it
is, the latest sentences and the newest score sheet. The actions carry the very payloads the chat's buttons carry
(``a.<table>.<version>.<code>``), so the page only shows and sends; every rule stays in ``core``.

Beside the moves, ``buttons`` are the chat's other buttons of this seat, with their labels and payloads: 💡 a hint
(hints on, your turn), **Take my seat back** (while the computer plays the seat: then no moves, no "your turn"),
**Agree** / **Keep playing** while a vote to stop runs, and **🔁 Play again** on a finished game.

A spectator (``seat=None``) gets the public view: no hand, no actions. Pictures are drawn by ``renderers`` off
the event loop, each once per table version, seat and language, under signed addresses any worker can serve
(``bot.webapp.pictures``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from bot import keyboards, messages, payloads, prompts, texts
from bot.live import Live
from bot.messages import SeatInfo
from bot.storage import FINISHED, PLAYING, StopVotes, TableRec
from bot.webapp.pictures import Pictures, Spec
from core.base import Action, GameError
from core.i18n import N_, t
from renderers import render_hand, render_score_sheet, render_table
from renderers.hand import hand_boxes

# why a card or tile cannot be played now (``core``'s refusal codes), in the viewer's language
REFUSALS = {
    "must_follow_suit": N_("You must follow suit."),
    "must_trump": N_("You have none of the suit led: you must play a trump."),
    "must_overtrump": N_("Trump was led: you must beat the highest trump on the table."),
    "no_match": N_("This tile fits neither end of the line."),
    "must_lead": N_("The first tile of the game must be {tile}."),
    "not_your_turn": N_("It is not your turn."),
}


def _key(action: Action) -> str | None:
    """The hand item an action plays or gives: a card code, or a tile as ``low-high``."""
    if action.card:
        return action.card
    if action.tile:
        a, _, b = action.tile.partition("-")
        if a.isdigit() and b.isdigit():
            return f"{min(int(a), int(b))}-{max(int(a), int(b))}"
    return None


def _label(game: str, action: Action, lang: str, names: list[str], several: bool) -> str:
    """A button's words; for one of several actions of the same card or tile, what tells them apart."""
    if several and action.type == "give":
        return "→ " + names[action.to or 0]
    if several and action.end in ("left", "right"):
        return "◀ " + t(lang, "left end") if action.end == "left" else t(lang, "right end") + " ▶"
    return keyboards.action_label(game, action, lang, names)


def offered(view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The actions the page offers: one per outcome. A Kozel tile whose two ends lead to the same game (the first
    tile of a round, or both ends showing one number) is one choice, as on the chat's keyboard
    (``keyboards.tile_steps``); the core's legal actions stay as they are."""
    if not any(a.tile for a in legal):
        return legal
    kept = {a.code() for plays in keyboards.tile_steps(view).values() for a in plays}
    return [a for a in legal if a.tile is None or a.code() in kept]


def _why(state: Any, seat: int, key: str, game: str, legal: list[Action], lang: str) -> str:
    """Why the hand item ``key`` cannot be played now, in words."""
    if not legal:
        return t(lang, "It is not your turn.")
    if not any(_key(a) for a in legal):
        return (
            t(lang, "Not a card now: choose with the buttons.")
            if game != "kozel"
            else t(lang, "That move is not allowed now.")
        )
    tries = [Action(seat, "play", card=key)] if game != "kozel" else [Action(seat, "play", tile=key, end="left")]
    for action in tries:
        try:
            state.copy().apply(action)
        except GameError as e:
            text = REFUSALS.get(e.code)
            if text is not None:
                return t(lang, text, **{k: str(v) for k, v in e.params.items()})
    return t(lang, "That move is not allowed now.")


async def build(
    *,
    rec: TableRec,
    live: Live,
    seat: int | None,
    names: list[str],
    infos: list[SeatInfo],
    lang: str,
    pictures: Pictures,
    style: str = "classic",
    result: str | None = None,
    hints: bool = False,
    votes: StopVotes | None = None,
) -> dict[str, Any]:
    """The frame of table ``rec`` for the viewer at ``seat`` (None: a spectator); ``hints``: the table's hints
    option; ``votes``: the votes to stop standing now."""
    state = live.state
    view = state.view(seat)
    game = rec.game
    version = rec.version
    playing = rec.status == PLAYING and not rec.broken
    seat_rec = next((s for s in rec.seats if s.seat == seat), None)
    taken_over = seat_rec is not None and seat_rec.taken_over
    mine = playing and seat is not None and not taken_over  # the computer plays a taken-over seat
    legal = [Action.from_json(a) for a in view.get("legal") or []] if mine else []
    legal = offered(view, legal)

    table_pic = pictures.address(
        Spec("table", rec.id, version, seat, lang, style),
        lambda: render_table(view, names=names, lang=lang, style=style).data,
    )
    by_key: dict[str, list[int]] = defaultdict(list)
    for i, a in enumerate(legal):
        k = _key(a)
        if k is not None:
            by_key[k].append(i)
    actions = []
    for a in legal:
        k = _key(a)
        several = k is not None and len(by_key[k]) > 1
        code = payloads.make("a", table=rec.id, version=version, code=a.code())
        style_ = "danger" if a.type in ("concede", "redeal") else "primary" if a.type in ("bid", "contract") else ""
        actions.append(
            {
                "label": _label(game, a, lang, names, several),
                "payload": code,
                "key": k,
                "type": a.type,
                "value": a.value,
                "style": style_,
            }
        )
    away = t(lang, "The computer plays for you. Press “Take my seat back” to return.")
    hand = None
    if seat is not None and view.get("hand") is not None:
        boxes = hand_boxes(view)
        items = []
        for key, box in boxes:
            item: dict[str, Any] = {"key": key, "box": list(box), "actions": by_key.get(key, [])}
            if not item["actions"]:
                item["why"] = away if taken_over else _why(state, seat, key, game, legal, lang)
            items.append(item)
        hand_pic = pictures.address(
            Spec("hand", rec.id, version, seat, lang, style), lambda: render_hand(view, style=style).data
        )
        hand = {"picture": hand_pic, "items": items}
    sheet = None
    rows = view.get("score_sheet") or []
    if rows:
        spec = pictures.sheet(
            rec.id, len(rows), bool(view.get("finished")), Spec("sheet", rec.id, version, None, lang, style)
        )
        draw = None
        if not pictures.has(spec):  # the public view only when the sheet is new (once per round and language)
            public = state.view(None)
            draw = lambda: render_score_sheet(public, names=names, lang=lang).data  # noqa: E731
        sheet = {"round": len(rows), "picture": pictures.address(spec, draw)}
    to_act = view.get("to_act")
    your_turn = playing and seat is not None and to_act == seat and bool(legal)
    if rec.status not in (PLAYING, "finished"):
        status = t(lang, "The game was stopped.")
    else:
        status = messages.turn_line(view, names, lang, infos)
    prompt = ""
    if your_turn:
        prompt = t(lang, "Your turn: {what}", what=prompts.what(game, view, lang, names))
        why = prompts.why(game, view, lang)  # why only some cards or tiles may go, where the view shows it
        if why:
            prompt += "\n" + why
    elif legal:
        prompt = t(lang, "You may act now.")
    elif taken_over and playing:
        prompt = away
    buttons = _buttons(rec, seat, taken_over=taken_over, your_turn=your_turn, hints=hints, votes=votes, lang=lang)
    if votes is not None and votes.voters and playing:
        line = t(
            lang,
            "A vote to stop the game: {votes} of {players} players agree (more than half needed).",
            votes=len(votes.voters),
            players=votes.players,
        )
        prompt = f"{prompt}\n{line}" if prompt else line
    # the latest sentences (``Live.recent``): the page shows the newest that fit under the table
    lines = messages.sentences(game, live.recent, lang, names)
    return {
        "type": "table",
        "table": rec.id,
        "version": version,
        "game": game,
        "title": f"{texts.game_name(game, lang)} #{rec.id}",
        "seat": seat,
        "playing": playing,
        "finished": bool(view.get("finished")),
        "status": status,
        "prompt": prompt,
        "your_turn": your_turn,
        "lines": lines,
        "picture": table_pic,
        "hand": hand,
        "actions": actions,
        "sheet": sheet,
        "result": result,
        "buttons": buttons,
    }


def _button(kind: str, label: str, payload: str, style: str = "") -> dict[str, str]:
    return {"kind": kind, "label": label, "payload": payload, "style": style}


def _buttons(
    rec: TableRec,
    seat: int | None,
    *,
    taken_over: bool,
    your_turn: bool,
    hints: bool,
    votes: StopVotes | None,
    lang: str,
) -> list[dict[str, str]]:
    """The chat's other buttons this viewer has now, as the page shows them (``kind``: the payload's kind)."""
    if seat is None or rec.broken:
        return []
    out = []
    if rec.status == PLAYING:
        if taken_over:
            out.append(
                _button("take_seat_back", t(lang, "Take my seat back"), payloads.make("take_seat_back", table=rec.id))
            )
        if hints and your_turn:
            out.append(_button("hint", t(lang, "💡 Hint"), payloads.make("hint", table=rec.id, version=rec.version)))
        if votes is not None and votes.voters and votes.newest is not None and not taken_over:
            agree, keep = messages.stop_vote_buttons(
                rec.id, int(votes.newest.timestamp()), len(votes.voters), votes.players, lang
            )
            voted = any(s.seat == seat and s.user_id in votes.voters for s in rec.seats)
            if not voted:
                out.append(_button("stop_agree", agree.label, agree.payload or "", "danger"))
            out.append(_button("stop_keep", keep.label, keep.payload or "", "primary"))
    elif rec.status == FINISHED:
        again = "🔁 " + t(lang, "Play again")
        out.append(_button("play_again", again, payloads.make("play_again", table=rec.id), "primary"))
    return out
