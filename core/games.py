"""The registry of game kinds: the one place that lists the games and where each one's parts live.

``get("thousand")`` returns that game's ``GameRules``; ``entry("thousand")`` (a ``Game``) tells its title (a
catalog message id), the seats it takes and the default, the names players type for it, a short summary, and the
modules of its rules, computer players, event sentences and pictures, by name (the renderers layer imports its
module itself: core never imports renderers or Pillow). The games are imported lazily, when first asked for.

Adding a game: a ``core/<game>`` package with ``RULES``, its entry below, then the modules the entry names.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from core.base import GameRules, OptionsError


def N_(msgid: str) -> str:  # noqa: N802 - the gettext mark (``core.i18n.N_``); kept here so core.i18n may ask us
    """Mark ``msgid`` for extraction only (Babel's keyword ``N_``); shown through ``t(lang, msgid)``."""
    return msgid


@dataclass(frozen=True, slots=True)
class Game:
    """One registered game; the modules are dotted names imported on demand."""

    name: str
    title: str  # catalog message id (``t(lang, game.title)``)
    default_seats: int
    aliases: tuple[str, ...]  # what players type after `new`, in every language we speak (lower case)
    summary: str  # catalog message id: the game in three sentences (`rules`)
    rules_module: str  # exposes ``RULES`` (a GameRules)
    ai_package: str  # computer players: memory, table, easy, normal, strong (core.ai.player)
    sentences_module: str  # ``describe(event, lang, names)`` and ``SENTENCES`` (core.i18n.events)
    renderer_module: str  # ``table_image`` and ``sheet_image`` (renderers), imported by the renderers layer

    @property
    def rules(self) -> GameRules:
        return importlib.import_module(self.rules_module).RULES

    @property
    def seats(self) -> range:
        """The seat counts the game is played with."""
        rules = self.rules
        return range(rules.min_players, rules.max_players + 1)

    @property
    def action_types(self) -> frozenset[str]:
        """Every action type of the game (docs/records.md)."""
        return self.rules.action_types


GAMES: tuple[Game, ...] = (
    Game(
        name="thousand",
        title=N_("Thousand"),
        default_seats=3,
        aliases=("thousand", "1000", "тысяча", "тисяча"),
        summary=N_(
            "Thousand: 24 cards (9 to ace). Bid for the talon, give away cards, name your contract and make it "
            "with tricks and marriages (K+Q: ♠40 ♣60 ♦80 ♥100, declared on the lead, it names trump). "
            "First to 1000 wins; from 880 you are on the barrel and must make a contract to get off it."
        ),
        rules_module="core.thousand",
        ai_package="core.ai.thousand",
        sentences_module="core.i18n.events.thousand",
        renderer_module="renderers.thousand",
    ),
    Game(
        name="deberts",
        title=N_("Deberts"),
        default_seats=2,
        aliases=("deberts", "debertz", "деберц"),
        summary=N_(
            "Deberts: 32 cards. Take or name trump from the open card, declare runs and the bella, take tricks "
            "(last trick +10). The declarer must score more than the others or he is bait. First to the target wins."
        ),
        rules_module="core.deberts",
        ai_package="core.ai.deberts",
        sentences_module="core.i18n.events.deberts",
        renderer_module="renderers.deberts",
    ),
    Game(
        name="kozel",
        title=N_("Kozel"),
        default_seats=4,
        aliases=("kozel", "козел", "козёл", "dominoes", "domino", "домино", "доміно"),
        summary=N_(
            "Kozel (dominoes): 28 tiles, 7 each; match an end of the chain. Going out scores the others' hands to "
            "them; a blocked chain is a fish. Scores of 12 or less are remembered. Whoever reaches 101 is the kozel."
        ),
        rules_module="core.kozel",
        ai_package="core.ai.kozel",
        sentences_module="core.i18n.events.kozel",
        renderer_module="renderers.kozel",
    ),
)

_BY_NAME = {game.name: game for game in GAMES}

NAMES = tuple(_BY_NAME)

# what players type -> game name
ALIASES = {alias: game.name for game in GAMES for alias in game.aliases}


def entry(name: str) -> Game:
    """The registry entry of a game by name; raises ``OptionsError`` for an unknown game."""
    game = _BY_NAME.get(name) if isinstance(name, str) else None
    if game is None:
        raise OptionsError(f"unknown game '{name}'", "unknown_game", game=name)
    return game


def get(name: str) -> GameRules:
    """The rules of a game by name; raises ``OptionsError`` for an unknown game."""
    return entry(name).rules


def available() -> list[str]:
    """Names of the games whose package is present."""
    out = []
    for game in GAMES:
        try:
            importlib.import_module(game.rules_module)
        except ModuleNotFoundError:
            continue
        out.append(game.name)
    return out
