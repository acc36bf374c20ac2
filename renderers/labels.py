"""The words drawn in pictures: ``word(key, lang, **params)``, backed by the gettext catalogs of ``core.i18n``.

Every word a picture draws goes through ``word``; a new one gets a key and an English msgid in ``_WORDS``
(marked with ``N_``), then ``make messages`` and a translation in the ``ru`` and ``uk`` catalogs (docs/i18n.md).
"""

from __future__ import annotations

from functools import lru_cache

from core.i18n import LANGS, N_, t

__all__ = ["LANGS", "number", "seat_names", "signed", "word"]

# Translators: the words below are short labels drawn in pictures of the table and the score sheet; keep them short.
_WORDS: dict[str, str] = {
    "seat": N_("Seat {n}"),
    # Translators: picture label beside the trump suit badge.
    "trump": N_("Trump"),
    "no_trump": N_("No trump"),
    "talon": N_("Talon"),
    # Translators: column title of the score sheet with the running totals.
    "total": N_("Total"),
    # Translators: picture label followed by the round number.
    "round": N_("Round"),
    # Translators: a player's speech bubble when passing in the bidding.
    "pass": N_("pass"),
    "bid": N_("Bid"),
    "contract": N_("Contract"),
    "last_trick": N_("Last trick"),
    # Translators: a score sheet row or a table whose round was redealt.
    "redeal": N_("redeal"),
    # Translators: Kozel, a player who has laid down every tile.
    "out": N_("out"),
    "bazaar": N_("Bazaar"),
    "fish": N_("fish"),
    # Translators: Kozel, points carried over to the next round.
    "carry": N_("carry"),
    "bait": N_("bait"),
    # Translators: Deberts, hanging points (waiting for the next round).
    "hanging": N_("hanging"),
    "open_card": N_("Open card"),
    # Translators: Deberts, the bottom card of the stock.
    "bottom": N_("Bottom"),
    # Translators: Thousand with four players, the dealer who sits out on the talon.
    "rests": N_("on talon"),
    "golden": N_("golden"),
    # Translators: Thousand, the declarer conceded (gave up) the round.
    "conceded": N_("gave up"),
    "winner": N_("winner"),
    # Translators: Kozel, the loser of the game.
    "loser": N_("kozel"),
    # Translators: Thousand, a card given to another player after taking the talon.
    "gave": N_("gave"),
    "got": N_("got"),
    # Translators: Deberts, label of the player who plays the round.
    "declarer": N_("Declarer"),
    "runs": N_("Runs"),
    "bella": N_("bella"),
    "stock": N_("Stock"),
    # Translators: Deberts, a player's speech bubble when accepting the trump.
    "play": N_("play"),
    # Translators: the declarer made the contract.
    "made": N_("made"),
    # Translators: the game is played to this many points.
    "target": N_("to {n}"),
    # Translators: Deberts, the second circle of bidding.
    "circle": N_("Circle {n}"),
    # Translators: Kozel, the one-letter tag of the left end of the chain.
    "end_left": N_("L"),
    "terz": N_("terz"),
    "berz": N_("berz"),
    # Translators: Kozel, the one-letter tag of the right end of the chain.
    "end_right": N_("R"),
    # Translators: the one letter on the dealer's chip in pictures (D for dealer; ru "С" сдаёт, uk "Р" роздає).
    "dealer_chip": N_("D"),
    # Translators: Deberts, top-left corner of the table: the round number and the total that wins the game.
    "round_to": N_("Round {n} · game to {target}"),
    # Translators: Thousand, the declarer sits on a hundred and plays 100.
    "plays_100": N_("plays 100"),
    # Translators: Thousand, the talon was not shown to the other players.
    "talon_closed": N_("talon closed"),
    # Translators: the player who led the trick in play (a tag beside his seat).
    "leads": N_("leads"),
    # Translators: trick points taken so far in the round, short: "42 pts".
    "points_short": N_("{n} pts"),
    # Translators: Kozel, rating points at the end of a rated game (not game points).
    "rating": N_("Rating"),
    # Translators: Thousand with four players, the legend of the dealer's chip on the score sheet.
    "deals": N_("deals"),
    # Translators: Deberts, who holds the stock (the dealer), followed by a player's name.
    "stock_at": N_("Stock: {name}"),
    # Translators: Thousand, legend of the score sheet: a bolt (a round without a trick).
    "bolt": N_("bolt"),
    # Translators: Thousand, legend of the score sheet: the barrel mark (a player sitting on the barrel).
    "barrel": N_("on the barrel"),
    # Translators: Thousand, legend of the score sheet: falling off the barrel.
    "fall": N_("fall"),
    # Translators: Thousand, legend of the score sheet: the dump truck (exactly 555 goes back to 0).
    "dump_truck": N_("dump truck"),
    # Translators: Deberts, title of the block under the score sheet that shows how the last round was scored.
    "scored_how": N_("Round {n}: how it was scored"),
    # Translators: Deberts score sheet, line label: the card points in the tricks each player took.
    "trick_points": N_("Tricks"),
    # Translators: Deberts score sheet, line label: the trump K+Q (20 points).
    "bella_line": N_("Bella"),
    # Translators: Deberts score sheet, line label: the round's points (cards, last trick, runs, bella).
    "round_points": N_("Round points"),
    # Translators: Deberts score sheet, line label: the declarer scored less than a defender.
    "bait_line": N_("Bait"),
    # Translators: Deberts score sheet, line label: the declarer tied, his points hang.
    "hanging_bait": N_("Hanging bait"),
    # Translators: Deberts score sheet, line label: the declarer made it and writes everyone's points.
    "takes_all": N_("Winner takes all"),
    # Translators: Deberts score sheet, line label: hanging points paid out in this round.
    "hanging_points": N_("Hanging points"),
    # Translators: Deberts score sheet, line label: what each player writes for the round.
    "written": N_("Written"),
    # Translators: sheet legends, what a mark on a score sheet means (issue 27: a newcomer decodes every mark).
    "legend_declarer": N_("the declarer's cell"),
    "legend_round": N_("this round"),
    "legend_made": N_("contract made"),
    "legend_failed": N_("contract failed"),
    "legend_barrel_tries": N_("rounds on the barrel"),
    "legend_bait": N_("bait: a defender scored more"),
    "legend_hanging": N_("hanging: a tie, points wait"),
    "legend_paid": N_("hanging points paid out"),
    "legend_own": N_("the round's own points"),
    "legend_remembered": N_("remembered (12 or less)"),
    "legend_open": N_("the account is open"),
    "legend_hand": N_("hand points"),
}


def word(key: str, lang: str | None = "en", **params: object) -> str:
    """A label in ``lang`` (unknown languages fall back to English); an unknown key is a ``KeyError``."""
    return t(lang, _WORDS[key], **params)


def seat_names(names: list[str] | None, players: int, lang: str = "en") -> list[str]:
    """Drawable names for every seat: short and distinct (``renderers.names``), "Seat N" where unusable."""
    raw = tuple(names[i] if names is not None and i < len(names) else None for i in range(players))
    return list(_seat_names(raw, lang))


@lru_cache(maxsize=1024)
def _seat_names(raw: tuple[str | None, ...], lang: str) -> tuple[str, ...]:
    from renderers.names import short_names

    fallbacks = [word("seat", lang, n=i + 1) for i in range(len(raw))]
    return tuple(short_names(list(raw), fallbacks))


def signed(value: int) -> str:
    """``+120``, ``−100`` (a real minus sign), ``0``."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def number(value: int) -> str:
    """A total: ``120``, ``−100``."""
    return f"\u2212{-value}" if value < 0 else str(value)
