"""Words and choices a new player met on the web table and in the chat flows (issue 32 point 5), each in English
and Russian: the contract named (not "plays 120"), why Pass is the only choice, Deberts' second round asking for a
suit, `rules` typed privately, the rules' footnote, hints and time-up lines, `/export N` of no game, `help`, the
legends' sample marks, Kozel's two ratings told apart, and a button's answer in the presser's own language."""

from __future__ import annotations

import re

import pytest

from bot import prompts, texts
from core import games
from core.base import Action, Event
from core.i18n import describe, t
from tests.app_support import db_path, make_world, open_table, press_kind

NAMES = ["Ann", "Bob", "Cid", "Dan"]
CYRILLIC = re.compile("[а-яёіїєґ]", re.IGNORECASE)


@pytest.mark.parametrize(("lang", "want"), [("en", "Ann names the contract: 120."), ("ru", "Ann заказывает 120.")])
def test_naming_the_contract_does_not_read_like_playing_a_card(lang, want):
    assert describe("thousand", Event("contract", 0, {"value": 120}), lang, NAMES) == want
    assert describe("thousand", Event("card_played", 0, {"card": "AS"}), lang, NAMES) != want


def _capped_bidding_view() -> dict:
    """A real Thousand deal: the first hand bids as high as his hand allows, and the next seat, with no marriage,
    may only pass (the first such deal of the seeds)."""
    rules = games.get("thousand")
    for seed in range(400):
        state = rules.new_game(3, seed=seed)
        first = state.to_act
        top = max(a.value for a in state.legal_actions(first) if a.type == "bid")
        state.apply_in_place(Action(first, "bid", value=top))
        view = state.view(state.to_act)
        if {a["type"] for a in view["legal"]} == {"pass"} and view["bid"] >= 120:
            return view
    raise AssertionError("no such deal among the seeds")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_forced_pass_says_why(lang):
    view = _capped_bidding_view()
    assert prompts.what("thousand", view, lang, NAMES) == t(lang, "pass")
    why = prompts.why("thousand", view, lang)
    msgid = "No marriage in your hand: you may bid up to {cap} only, and the bid is {bid}."
    assert why == t(lang, msgid, cap=120, bid=view["bid"])
    assert ("No marriage" if lang == "en" else "нет марьяжа") in why


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_deberts_second_round_asks_for_a_suit(lang):
    state = games.get("deberts").new_game(2, seed=3)
    first_round = state.view(state.to_act)
    assert prompts.what("deberts", first_round, lang, NAMES) == t(lang, "take the trump or pass")
    while {a.type for a in state.legal_actions(state.to_act)} == {"play_trump", "pass"}:
        state.apply_in_place(Action(state.to_act, "pass"))
    view = state.view(state.to_act)
    assert "name_suit" in {a["type"] for a in view["legal"]}
    asked = prompts.what("deberts", view, lang, NAMES)
    assert asked in (t(lang, "name a trump suit or pass"), t(lang, "name a trump suit"))
    assert ("suit" if lang == "en" else "масть") in asked


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_rules_star_only_what_differs_and_tell_hints_and_the_end_of_time(lang):
    plain = texts.rules_text("thousand", 3, {}, 120, lang)
    footnote = t(lang, "* differs from the usual rule")
    assert " *" not in plain and footnote not in plain  # nothing starred: no footnote
    assert texts.hints_line(False, lang) in plain
    assert (
        t(lang, "When the time is up: the computer moves for you; after three times in a row it takes your seat")
        in plain
    )
    row = texts.option_rows("thousand", 3)[0]
    other = next(c for c in row["choices"] if c != row["default"])
    changed = texts.rules_text("thousand", 3, {row["name"]: other}, 12 * 3600, lang, hints=True)
    assert " *" in changed and changed.endswith(footnote)
    assert texts.hints_line(True, lang) in changed and texts.timeout_moves_line(False, lang) in changed
    assert t(lang, "When the time is up") not in texts.rules_text("thousand", 3, {}, 0, lang)  # no timer, no line


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_kozel_tells_its_rating_points_and_the_skill_rating_apart(lang):
    line = texts.rating_line("kozel", "Ann", 23.4, 1.2, 3, lang)
    if lang == "en":
        assert line == "Ann: +3 Kozel rating points; skill rating 23.4 (+1.2 this game)"
    else:
        assert line == "Ann: +3 очков рейтинга козла; рейтинг силы 23.4 (+1.2 за эту игру)"
    assert texts.rating_line("thousand", "Ann", 23.4, 1.2, None, lang) == t(
        lang, "{name}: rating {rating} ({delta} this game)", name="Ann", rating="23.4", delta="+1.2"
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_help_lists_table_and_export_of_a_numbered_game(lang):
    text = texts.help_text(lang)
    assert "/table:" in text and "/export N" in text
    assert t(lang, "/table: show the table again, and your hand to you") in text


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_rules_typed_privately_are_those_of_my_tables_game(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        ann, cid = world.user("Ann", lang), world.user("Cid", lang)
        await ann.open_private()
        await cid.open_private()
        await open_table(world, "deberts", ["Ann"], ["easy"], 2)
        await world.app.idle()
        await ann.say(None, "rules")
        text = world.port.private(ann.user.id)[-1].text
        assert text.startswith(texts.game_name("deberts", lang)) and texts.game_name("thousand", lang) not in text
        await cid.say(None, "rules")  # seated nowhere: Thousand, and how to ask for the others
        text = world.port.private(cid.user.id)[-1].text
        assert text.startswith(texts.game_name("thousand", lang))
        assert text.endswith(t(lang, "The other games: /rules deberts, /rules kozel."))
    finally:
        await world.app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_export_of_a_number_no_game_has_says_so(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        ann = world.user("Ann", lang)
        await ann.open_private()
        await open_table(world, "kozel", ["Ann"], ["easy"], 2)
        await world.app.idle()
        for arg in ("999", "#999"):
            await ann.say(world.chat, "export", arg)
            assert world.port.private(ann.user.id)[-1].text == t(lang, "No such game in this chat.")
    finally:
        await world.app.close()


@pytest.mark.parametrize(("chat_lang", "own"), [("ru", "en"), ("en", "ru")])
async def test_a_buttons_answer_is_in_the_pressers_language(tmp_path, chat_lang, own):
    """The lobby speaks the room's language; the toast a press gets is for the presser alone: his language."""
    world = await make_world(db_path(tmp_path), lang=chat_lang)
    try:
        host, guest = world.user("Ann", own), world.user("Bob", own)
        await host.say(world.chat, "new", "thousand 3")
        text, _ = await press_kind(world, guest, "j")  # "You are in."
        assert text is not None and bool(CYRILLIC.search(text)) == (own == "ru"), text
        await press_kind(world, host, "m", ".set")
        shown = world.lobby()
        option = next(b for b in shown.buttons() if b.payload.startswith("o."))
        assert bool(CYRILLIC.search(option.label)) == (chat_lang == "ru")  # the lobby: the room's language
        text, _ = await host.press(shown, option, world.chat)
        row = texts.option_rows("thousand", 3)[0]
        assert text is not None and text.startswith(t(own, texts.OPTION_LABELS[row["name"]]))
    finally:
        await world.app.close()


def test_legend_marks_carry_a_letter_not_a_number_that_reads_like_a_score(monkeypatch):
    from core.randomplay import play_game
    from renderers import sheet, sheet_image

    inked: dict[int, str] = {}
    samples: list[str] = []
    ink, item = sheet.ink, sheet.legend_item

    def record_ink(text, *args, **kwargs):
        image = ink(text, *args, **kwargs)
        inked[id(image)] = text
        return image

    def record_item(icon, text):
        if icon is not None and id(icon) in inked:
            samples.append(inked[id(icon)])
        return item(icon, text)

    monkeypatch.setattr(sheet, "ink", record_ink)
    monkeypatch.setattr(sheet, "legend_item", record_item)
    for game, players in (("thousand", 3), ("deberts", 3), ("kozel", 4)):
        for seed in range(2):
            state = play_game(games.get(game), players, seed)
            sheet_image(state.view(None), NAMES[:players], "classic", "en")
    assert samples and {"+N", "N"} <= set(samples)
    assert [s for s in samples if re.search(r"\d", s)] == []


@pytest.mark.parametrize(
    ("lang", "first", "later"),
    [
        ("en", "Ann plays 1-1 (ends 1|1).", "Ann plays 4-6 on the right end (ends 1|6)."),
        ("ru", "Ann кладёт 1-1 (концы 1|1).", "Ann кладёт 4-6 к правому концу (концы 1|6)."),
    ],
)
def test_the_first_tile_is_told_without_an_end_that_means_nothing(lang, first, later):
    opening = Event("tile_played", 0, {"tile": "1-1", "end": "right", "left": 1, "right": 1})
    assert describe("kozel", opening, lang, NAMES) == first
    on_right = Event("tile_played", 0, {"tile": "4-6", "end": "right", "left": 1, "right": 6})
    assert describe("kozel", on_right, lang, NAMES) == later


def test_me_top_and_seasons_count_games_wins_and_points_with_their_plurals():
    # /me, /top and the season lines said "1 games, 1 wins" and "kozel 1 times" in English
    from bot import texts

    assert texts.record_words("en", 1, 1) == "1 game, 1 win (100%)"
    assert texts.record_words("en", 5, 2) == "5 games, 2 wins (40%)"
    assert texts.record_words("ru", 1, 1) == "1 партия, 1 победа (100%)"
    assert texts.record_words("ru", 5, 0) == "5 партий, 0 побед (0%)"
    assert texts.rating_points("en", 1) == "1 rating point"
    assert texts.rating_points("ru", 7) == "7 очков рейтинга"
