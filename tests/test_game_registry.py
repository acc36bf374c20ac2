"""The games are listed in one place, ``core.games``: no other module of core, renderers or bot writes the list
out, and every registered game has all its parts (rules, pictures, sentences, computer players, catalog titles)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from core import games
from core.i18n import LANGS, t

ROOT = Path(__file__).resolve().parent.parent
NAMES = set(games.NAMES)


def game_own(path: Path) -> bool:
    """The registry itself, or a module of one game (core/thousand/, core/ai/kozel/, renderers/deberts.py, ...)."""
    rel = path.relative_to(ROOT)
    return rel.as_posix() == "core/games.py" or any(part.removesuffix(".py") in NAMES for part in rel.parts[1:])


def lists_of_games(tree: ast.AST) -> list[int]:
    """Lines of literals that write out games: a tuple, list or set holding two game names or more, or a dict
    with a key for every game."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            found = {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in NAMES}
            if len(found) >= 2:
                out.append(node.lineno)
        elif isinstance(node, ast.Dict):
            found = {k.value for k in node.keys if isinstance(k, ast.Constant) and k.value in NAMES}
            if found == NAMES:
                out.append(node.lineno)
    return out


def test_the_list_of_games_is_written_out_only_in_the_registry() -> None:
    found = []
    for top in ("core", "renderers", "bot"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if game_own(path):
                continue
            found += [f"{path.relative_to(ROOT)}:{line}" for line in lists_of_games(ast.parse(path.read_text()))]
    assert found == []


def test_the_scan_finds_a_list_of_games() -> None:
    # the scan above is not blind: a chooser written out the old way, or a table keyed by every game, is caught
    assert lists_of_games(ast.parse('rows = [b(g) for g in ("thousand", "deberts", "kozel")]')) == [1]
    assert lists_of_games(ast.parse('SEATS = {"thousand": 3, "deberts": 2, "kozel": 4}')) == [1]
    assert lists_of_games(ast.parse('if game == "kozel": pass')) == []


def test_names_and_lookups_keep_working() -> None:
    assert tuple(g.name for g in games.GAMES) == games.NAMES
    assert games.available() == list(games.NAMES)
    for name in games.NAMES:
        assert games.get(name) is games.entry(name).rules
        assert games.get(name).name == name
    with pytest.raises(games.OptionsError) as err:
        games.get("chess")
    assert err.value.code == "unknown_game"


@pytest.mark.parametrize("name", games.NAMES)
def test_every_game_has_all_its_parts(name: str) -> None:
    game = games.entry(name)
    rules = game.rules
    assert game.default_seats in game.seats
    state = rules.new_game(game.default_seats, seed=1)
    # the action types cover what the game asks its players to do
    seat = state.to_act
    assert seat is not None and {a.type for a in state.legal_actions(seat)} <= game.action_types
    assert "play" in game.action_types
    # pictures, sentences and computer players are where the registry says
    renderer = importlib.import_module(game.renderer_module)
    assert callable(renderer.table_image) and callable(renderer.sheet_image)
    sentences = importlib.import_module(game.sentences_module)
    assert callable(sentences.describe) and sentences.SENTENCES
    roles = {"memory": "read_round", "table": "from_view", "easy": "decide", "normal": "decide", "strong": "decide"}
    for role, function in roles.items():
        assert callable(getattr(importlib.import_module(f"{game.ai_package}.{role}"), function))
    # its own achievements (bot.achievements)
    assert callable(importlib.import_module("bot.achievements").PER_GAME[name])
    # the title and the summary are in every catalog, and players may type the game's name
    for lang in LANGS:
        if lang != "en":
            assert t(lang, game.title) != game.title, (lang, game.title)
            assert t(lang, game.summary) != game.summary, (lang, name)
    assert all(games.ALIASES[alias] == name for alias in game.aliases) and name in game.aliases
