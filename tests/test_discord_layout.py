"""Discord's component limits (5 rows of 5 buttons, 25 options per select menu), custom ids and the
translation of the slash commands."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.discord import ids
from bot.discord.commands import CatalogTranslator, build
from bot.discord.layout import MAX_CONTENT, TooManyChoices, plan_rows, text_parts
from bot.port import MAX_PAYLOAD, PAYLOAD_CHARS, Button, Message


def row(n: int, prefix: str = "x") -> tuple[Button, ...]:
    return tuple(Button(f"{prefix}{i}", f"{prefix}.{i}") for i in range(n))


def test_rows_that_fit_stay_buttons_split_by_fives() -> None:
    rows = plan_rows((row(7), row(2, "y")))
    assert [(r.kind, len(r.buttons)) for r in rows] == [("buttons", 5), ("buttons", 2), ("buttons", 2)]


def test_the_largest_rows_become_select_menus_until_five_rows_remain() -> None:
    rows = plan_rows((row(11, "card"), row(41, "bid"), (Button("Pass", "pass"),)))
    # 11 + 41 + 1 buttons need 13 rows: the bids become two menus, still 6 rows, so the cards become one too
    assert [(r.kind, len(r.buttons)) for r in rows] == [("select", 11), ("select", 25), ("select", 16), ("buttons", 1)]
    shown = [b.payload for r in rows for b in r.buttons]
    assert sorted(shown) == sorted(b.payload for b in (*row(11, "card"), *row(41, "bid"), Button("Pass", "pass")))
    assert len(rows) <= 5


def test_many_small_rows_merge_into_select_menus_and_too_many_choices_is_an_error() -> None:
    rows = plan_rows(tuple((Button(f"r{i}", f"r.{i}"),) for i in range(8)))
    assert [(r.kind, len(r.buttons)) for r in rows] == [("select", 8)]
    with pytest.raises(TooManyChoices):
        plan_rows((row(126),))


def test_long_text_goes_into_an_embed() -> None:
    assert text_parts(Message("short")) == ("short", None)
    content, embed = text_parts(Message("x" * (MAX_CONTENT + 1)))
    assert content == "" and embed is not None and embed.description == "x" * (MAX_CONTENT + 1)


def test_custom_ids_carry_the_payload_within_discord_limits() -> None:
    payload = "".join(sorted(PAYLOAD_CHARS))[:MAX_PAYLOAD]
    custom = ids.button_id(payload, dup=12)
    assert len(custom) <= ids.MAX_CUSTOM_ID and len(custom) - len(payload) <= 8
    match = ids.BUTTON_TEMPLATE.fullmatch(custom)
    assert match is not None and match["payload"] == payload
    assert ids.is_ours(ids.select_id(4)) and ids.is_ours(ids.start_id("t1-abc_9"))
    assert not ids.is_ours("t:has space") and not ids.is_ours("t:" + "a" * (MAX_PAYLOAD + 1))
    with pytest.raises(ValueError):
        ids.button_id("no:colon")


async def test_commands_are_translated_into_russian_and_ukrainian() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)

    async def run(interaction: discord.Interaction, name: str, args: str) -> None:
        raise AssertionError("not called")

    for command in build(run):
        tree.add_command(command)
    await tree.set_translator(CatalogTranslator())
    payloads = {c.name: await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()}
    new = payloads["new"]
    assert new["name_localizations"] == {"ru": "новая", "uk": "нова"}
    assert new["description"] == "Open a new table in this channel"
    assert new["description_localizations"]["ru"] == "Открыть новый стол в этом канале"
    assert [c["name_localizations"].get("uk") for c in new["options"][0]["choices"]] == ["Тисяча", "Деберц", "Козел"]
    for payload in payloads.values():
        for name in payload["name_localizations"].values():
            assert name == name.lower() and " " not in name and 1 <= len(name) <= 32
        assert set(payload["description_localizations"]) == {"ru", "uk"}
