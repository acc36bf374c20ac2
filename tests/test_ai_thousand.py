"""Thousand computer players: always legal, reproducible, blind to hidden cards, and able to finish games."""

from __future__ import annotations

import json
import random

import pytest

from core.ai import player
from core.ai.match import play_one
from core.ai.search import TINY
from core.ai.thousand.determinize import sample_world
from core.ai.thousand.memory import read_round
from core.base import Action
from core.thousand import RULES
from core.thousand.cards import DECK
from core.thousand.play import playable
from tests.helpers_ai import positions
from tests.helpers_thousand import act, make_deal, new_state

LEVELS = ("random", "easy", "normal", "strong")


def test_every_level_plays_only_legal_actions_over_1200_positions():
    bots = {lv: player("thousand", lv, seed=5, budget=TINY) for lv in LEVELS}
    seen = 0
    phases = set()
    for players, count in ((2, 300), (3, 500), (4, 400)):
        for state, seat, history in positions("thousand", players, count, seed=11):
            view = state.view(seat)
            legal = state.legal_actions(seat)
            for lv, bot in bots.items():
                action = bot.decide(view, history)
                assert action in legal, (lv, state.phase, action)
            if state.phase == "play":
                cards = playable(state.hands[seat], state.trick, state.trump)
                assert sorted(cards) == sorted(a.card for a in legal if a.type == "play")
            phases.add(state.phase)
            seen += 1
    assert seen == 1200
    assert phases == {"bidding", "talon", "give", "contract", "play"}


def test_decisions_are_reproducible_for_a_seed():
    for state, seat, history in positions("thousand", 3, 60, seed=4):
        view = state.view(seat)
        for lv in LEVELS:
            a = player("thousand", lv, seed=9, budget=TINY).decide(view, history)
            b = player("thousand", lv, seed=9, budget=TINY).decide(view, history)
            assert a == b


def _swap_hidden(state, seat: int, rng: random.Random):  # noqa: ANN001, ANN202
    """A copy where two other seats exchange some unplayed cards: the same view for ``seat``, other cards."""
    other = state.copy()
    seats = [s for s in other.active if s != seat and other.hands[s]]
    a, b = seats[0], seats[1]
    ha, hb = other.hands[a], other.hands[b]
    k = min(len(ha), len(hb))
    swap = rng.randrange(1, k + 1)
    other.hands[a] = hb[:swap] + ha[swap:]
    other.hands[b] = ha[:swap] + hb[swap:]
    return other


def test_no_peeking_same_view_other_hidden_cards_same_decision():
    rng = random.Random(3)
    checked = 0
    for state, seat, history in positions("thousand", 3, 400, seed=21):
        if state.phase != "play" or len(state.legal_actions(seat)) < 2 or rng.random() < 0.6:
            continue
        other = _swap_hidden(state, seat, rng)
        assert other.hands != state.hands
        view = state.view(seat)
        assert other.view(seat) == view
        for lv in ("easy", "normal", "strong"):
            bot = player("thousand", lv, seed=1, budget=TINY)
            assert bot.decide(view, history) == bot.decide(other.view(seat), history)
        checked += 1
    assert checked >= 30


def test_sampled_worlds_agree_with_the_view_and_the_shown_voids():
    checked = 0
    for state, seat, history in positions("thousand", 3, 500, seed=8):
        if state.phase not in ("play", "bidding", "give"):
            continue
        view = state.view(seat)
        memory = read_round(history, 3)
        world = sample_world(view, memory, random.Random(checked))
        assert world is not None
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert world.legal_actions(seat) == state.legal_actions(seat)
        for s in range(3):
            if s != seat:
                assert not any(c[1] in memory.voids[s] for c in world.hands[s])
        cards = [c for h in world.hands for c in h] + [c for t in world.talons for c in t if world.talon_taken is None]
        assert sorted(cards + sorted(memory.played)) == sorted(DECK)
        checked += 1
    assert checked > 100


def _crafted_round():  # noqa: ANN202
    """Seat 1 declares 110 with the heart marriage in the shown talon, gives 9D to seat 2 and JD to seat 0."""
    deal = make_deal(
        3,
        0,
        {
            1: ["AS", "KS", "9S", "AC", "AD", "9D", "JD"],
            2: ["QS", "JS", "9C", "JC", "QC", "KC", "9H"],
            0: ["TS", "TC", "TD", "KD", "QD", "AH", "TH"],
        },
        talon=["JH", "QH", "KH"],
    )
    return _seat_1_declares(deal, 110, {"9D": 2, "JD": 0})


def _seat_1_declares(deal, value: int, gives: dict[str, int]):  # noqa: ANN001, ANN202
    """A 3-player round of ``deal`` in which seat 1 bids ``value``, the others pass, seat 1 gives ``gives``
    (card -> receiver) and names ``value`` as the contract: the state and the events."""
    state = RULES.new_game(3, {}, seed=0, first_dealer=0, start=False)
    history = state.next_round_in_place(deal)
    history += act(state, 1, "bid", value=value)
    history += act(state, 2, "pass")
    history += act(state, 0, "pass")
    for card, to in gives.items():
        history += act(state, 1, "give", card=card, to=to)
    history += act(state, 1, "contract", value=value)
    return state, history


def test_memory_reads_voids_shown_cards_and_undeclared_leads():
    state, history = _crafted_round()
    for seat, card in ((1, "AS"), (2, "JS"), (0, "TS"), (1, "KS"), (2, "QS"), (0, "TC")):
        history += act(state, seat, "play", card=card)
    memory = read_round(history, 3)
    assert memory.talon == ["JH", "QH", "KH"]
    assert {"JH", "QH", "KH"} <= memory.holds[1]
    assert "QS" in memory.lacks[1]  # KS led on trick 2 without declaring
    assert memory.voids == [{"S"}, set(), set()]
    assert memory.gave_to == [2, 0]
    assert memory.played == {"AS", "JS", "TS", "KS", "QS", "TC"}
    history += act(state, 1, "play", card="QH")  # declares hearts: KH is shown to be in seat 1's hand
    memory = read_round(history, 3)
    assert "KH" in memory.holds[1] and "QH" not in memory.holds[1]
    assert not memory.lacks[1] - {"QS"}
    # a seat that neither follows nor trumps is void in both suits
    memory.note_play(2, "JC", "D", "H")
    assert memory.voids[2] == {"D", "H"}


def test_a_sampled_world_keeps_the_crafted_facts():
    state, history = _crafted_round()
    for seat, card in ((1, "AS"), (2, "JS"), (0, "TS"), (1, "KS"), (2, "QS"), (0, "TC")):
        history += act(state, seat, "play", card=card)
    memory = read_round(history, 3)
    view = state.view(2)
    for i in range(30):
        world = sample_world(view, memory, random.Random(i))
        assert world is not None
        assert not any(c[1] == "S" for c in world.hands[0])
        assert "QS" not in world.hands[1]
        assert {"JH", "QH", "KH"} <= set(world.hands[1]) | set(world.hands[0])
        assert world.legal_actions(2) == state.legal_actions(2)


def test_normal_declarer_cashes_its_aces_then_declares_its_marriage():
    state, history = _crafted_round()
    bots = [player("thousand", "normal", seed=s) for s in range(3)]
    while state.phase == "play":
        seat = state.to_act
        history += state.apply_in_place(bots[seat].decide(state.view(seat), history))
    marriages = [e for e in history if e.type == "marriage"]
    assert marriages and marriages[0].seat == 1 and marriages[0].data["suit"] == "H"
    leads = [e.data["card"] for e in history if e.type == "card_played" and e.seat == 1]
    assert leads[:3] == ["AS", "AC", "AD"] or leads[:3] == ["AS", "AD", "AC"]


def test_normal_declarer_with_two_marriages_declares_from_trick_2_on():
    """With two marriages there is no time to cash aces first: the first lead after trick 1 declares."""
    deal = make_deal(3, 0, {1: ["AS", "KH", "QH", "KD", "QD", "AC", "9D"]}, talon=["JS", "9C", "JC"])
    state, history = _seat_1_declares(deal, 100, {"9D": 2, "JS": 0})
    bots = [player("thousand", "normal", seed=s) for s in range(3)]
    while state.phase == "play":
        seat = state.to_act
        history += state.apply_in_place(bots[seat].decide(state.view(seat), history))
    plays = [e.data["card"] for e in history if e.type == "card_played"]
    assert plays[0] == "AS" and plays[3] in ("KH", "QH")  # trick 1 is won with the ace; trick 2 declares
    marriages = [(e.seat, e.data["suit"]) for e in history if e.type == "marriage"]
    assert marriages[0] == (1, "H")  # the bigger marriage first


def test_complete_games_between_computer_players_finish():
    state = play_one("thousand", ["strong", "normal", "easy"], 0, 3, budget=TINY)
    assert state.finished and state.winner is not None
    state = play_one("thousand", ["normal", "random"], 1, 3)
    assert state.finished
    state = play_one("thousand", ["easy", "normal", "easy", "normal"], 2, 3)
    assert state.finished


def test_self_play_shortcut_decides_exactly_as_the_view():
    """``decide_in_game`` (self-play, no view built) and ``decide(view, history)`` agree at every decision."""
    for players, levels in ((2, ["normal", "easy"]), (3, ["normal", "easy", "normal"]), (4, ["easy", "normal"] * 2)):
        state = RULES.new_game(players, {"redeal": True}, seed=players, start=False)
        seats = [player("thousand", lv, seed=f"s{s}") for s, lv in enumerate(levels)]
        history: list = []
        decisions = 0
        while not state.finished and len(state.history) < 12:
            if state.phase == "round_over":
                history = list(state.next_round_in_place())
                continue
            seat = state.to_act
            action = seats[seat].decide_in_game(state, history)
            assert action == seats[seat].decide(state.view(seat), history)
            decisions += 1
            history.extend(state.apply_in_place(action))
        assert decisions > 200


def _bid_after_opening(hand: list[str], opening: int = 100, **standing: list) -> str:
    """What a normal seat 2 holding ``hand`` answers after seat 1 opened (3 players, seat 0 deals)."""
    state = new_state(3, make_deal(3, 0, {2: hand}), 0, None, **standing)
    act(state, 1, "bid", value=opening)
    return player("thousand", "normal", seed=1).decide(state.view(2), []).type


def test_normal_bids_on_the_hand_and_the_score_situation():
    assert _bid_after_opening(["AH", "TH", "KH", "QH", "AS", "9D", "JC"]) == "bid"  # the hearts marriage
    assert _bid_after_opening(["AS", "TS", "9H", "JH", "9D", "JC", "QC"]) == "pass"
    middling = ["9H", "9S", "AS", "JS", "KC", "KD", "QC"]
    assert _bid_after_opening(middling) == "pass"
    assert _bid_after_opening(middling, totals=[0, 0, 790]) == "bid"  # making it climbs on the barrel
    good = ["9D", "JD", "KC", "KH", "QH", "TD", "TH"]
    assert _bid_after_opening(good, opening=120) == "pass"  # 125 is too much for it...
    on_barrel = {"totals": [0, 880, 0], "barrel": [False, True, False]}
    assert _bid_after_opening(good, opening=121, **on_barrel) == "bid"  # ...but not to stop a game-winning 121


def test_normal_first_hand_opens_105_on_a_fair_hand():
    """A first hand that makes 105 at least 40% of the time says so; a weaker one opens the forced 100."""
    fair, weak = ["AS", "TS", "KS", "QS", "9D", "JC", "9H"], ["AH", "9D", "JC", "QC", "9S", "JS", "9H"]
    for hand, value in ((fair, 105), (weak, 100)):
        state = new_state(3, make_deal(3, 0, {1: hand}), 0)
        action = player("thousand", "normal", seed=1).decide(state.view(1), [])
        assert (action.type, action.value) == ("bid", value)


def _contract_position(
    hand: list[str], talon: list[str], gives: list[str], options: dict | None = None, bid: int = 100, **standing: list
):
    """Seat 1 (first hand) plays ``bid`` with ``hand`` + ``talon``, gives ``gives`` away: its contract view."""
    state = new_state(3, make_deal(3, 0, {1: hand}, talon=talon), 0, options, **standing)
    act(state, 1, "bid", value=bid)
    act(state, 2, "pass")
    act(state, 0, "pass")
    act(state, 1, "give", card=gives[0], to=2)
    act(state, 1, "give", card=gives[1], to=0)
    assert state.phase == "contract"
    return state.view(1)


def test_normal_declarer_raises_a_strong_contract_and_concedes_a_hopeless_one():
    strong = _contract_position(["AH", "TH", "KH", "QH", "AD", "KD", "QD"], ["TD", "9S", "9C"], ["9S", "9C"])
    action = player("thousand", "normal", seed=1).decide(strong, [])
    assert action.type == "contract" and action.value >= 150  # two marriages, the aces and tens of both
    hopeless = _contract_position(["9S", "9C", "9D", "9H", "JS", "JC", "JD"], ["JH", "QS", "KC"], ["QS", "KC"])
    assert player("thousand", "normal", seed=1).decide(hopeless, []).type == "concede"
    no_concede = _contract_position(
        ["9S", "9C", "9D", "9H", "JS", "JC", "JD"], ["JH", "QS", "KC"], ["QS", "KC"], {"may_concede": False}
    )
    assert player("thousand", "normal", seed=1).decide(no_concede, []) == Action(1, "contract", value=100)


def test_normal_declarer_names_what_a_marriage_with_its_ace_makes():
    """A marriage with an ace to win the first trick is declared almost surely: the contract counts on it."""
    hearts = _contract_position(["AH", "TH", "KH", "QH", "9S", "JC", "9D"], ["AD", "9C", "JS"], ["9C", "JS"])
    action = player("thousand", "normal", seed=1).decide(hearts, [])
    assert action.type == "contract" and action.value >= 120  # 100 for the marriage + AH TH AD; it named 105
    # without an ace to win the first trick the marriage may never be declared: no such raise
    no_ace = _contract_position(["KH", "QH", "JH", "9S", "JC", "9D", "TS"], ["TD", "9C", "JS"], ["9C", "JS"])
    other = player("thousand", "normal", seed=1).decide(no_ace, [])
    assert other.type == "concede" or other.value < action.value


def test_normal_declarer_on_the_barrel_plays_121_however_strong():
    on_barrel = {"totals": [0, 880, 0], "barrel": [False, True, False]}
    strong = _contract_position(
        ["AH", "TH", "KH", "QH", "AD", "KD", "QD"], ["TD", "9S", "9C"], ["9S", "9C"], bid=121, **on_barrel
    )
    assert player("thousand", "normal", seed=1).decide(strong, []) == Action(1, "contract", value=121)


def test_easy_declarer_concedes_and_raises_by_a_rough_count_sometimes_wrongly():
    poor = _contract_position(["AS", "TS", "AC", "9D", "9H", "JC", "JD"], ["QH", "JS", "JH"], ["JS", "JH"])
    choices = [player("thousand", "easy", seed=s).decide(poor, []).type for s in range(40)]
    assert 20 < choices.count("concede") < 40  # mostly, not always: 39 card points and no marriage
    strong = _contract_position(["AH", "TH", "KH", "QH", "AD", "KD", "QD"], ["TD", "9S", "9C"], ["9S", "9C"])
    assert {player("thousand", "easy", seed=s).decide(strong, []).value for s in range(20)} == {130}


def _defence_round(hands: dict[int, list[str]]):  # noqa: ANN202
    """Seat 1 declares 120 with two marriages in the talon, gives QD to seat 2 and TC to seat 0; leads first."""
    state = RULES.new_game(3, {}, seed=0, first_dealer=0, start=False)
    history = state.next_round_in_place(make_deal(3, 0, hands, talon=["QD", "KH", "QH"]))
    history += act(state, 1, "bid", value=120)
    history += act(state, 2, "pass")
    history += act(state, 0, "pass")
    history += act(state, 1, "give", card="QD", to=2)
    history += act(state, 1, "give", card="TC", to=0)
    history += act(state, 1, "contract", value=120)
    return state, history


def _normal_card(state, history, seat: int) -> str:  # noqa: ANN001
    return player("thousand", "normal", seed=0).decide(state.view(seat), history).card


def test_normal_defender_feeds_a_ten_to_the_partners_sure_trick_and_keeps_its_ace():
    state, history = _defence_round(
        {
            1: ["9S", "JS", "AC", "TC", "KC", "QC", "AD"],
            2: ["AS", "TS", "KS", "QS", "9D", "JD", "9C"],
            0: ["TD", "KD", "9H", "JH", "AH", "TH", "JC"],
        }
    )
    history += act(state, 1, "play", card="JS")
    history += act(state, 2, "play", card="AS")  # the partner's ace: nobody plays after seat 0
    assert _normal_card(state, history, 0) in ("TD", "TC")  # void in spades: a ten, not the ace of hearts


def test_fit_thousand_prints_a_contract_model_for_each_kind_of_final_hand(capsys):
    """``python -m bench.fit_thousand`` fits the kinds' models that ``CONTRACT_MODELS`` holds, in the same shape."""
    from bench.fit_thousand import main as fit_main
    from core.ai.thousand.estimate import CONTRACT_MODELS

    fit_main(["--rounds", "150", "--seed", "3"])
    models = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for players, pairs, ace in ((3, 0, True), (3, 1, True), (2, 1, True)):
        fitted = models[f"contract,{players},{pairs},{int(ace)}"]
        assert len(fitted["coef"]) == len(CONTRACT_MODELS[(players, pairs, ace)][0])
        assert fitted["spread"] > 0


def test_thousand_length_reads_the_rounds_that_selfplay_plays(capsys):
    """``python -m bench.thousand_length`` plays the games ``core.selfplay`` plays and splits their rounds: before
    the first climb on the barrel and after it, every game won from the barrel."""
    from bench.thousand_length import main as length_main
    from core.selfplay import main as selfplay_main

    common = ["--seats", "normal,normal,normal", "--games", "4", "--seed", "3", "--ai-seed", "3"]
    selfplay_main(["--game", "thousand", "--players", "3", *common])
    played = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    length_main(common)
    out = capsys.readouterr().out.strip().splitlines()
    split = json.loads(out[-1])
    assert split["rounds"] == played["rounds"] > 4 * 10
    assert split["won_on_100_share"] == round(played["no_bid"] / played["deals"], 3)
    assert split["rounds_before_first_climb"] + split["rounds_after_first_climb"] == pytest.approx(
        split["rounds_per_game"], abs=0.011
    )
    assert split["barrel_wins"] == 4 <= split["barrel_attempts"]
    assert split["played_at_100_share"] <= split["won_on_100_share"]
    assert any(line.startswith("rounds per game") for line in out)
