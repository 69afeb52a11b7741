"""--all-errors reports independent errors: one illegal action ends its deal's replay (the rest is not
re-reported), and the next deal is judged from the position the record states, so nothing cascades.

The cases are generated: games played by the bot in several rulesets, with mistakes put into a few
deals each (an action by the wrong player, a bid off the step, a card the player no longer holds).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from oracle.engine import Action, Game, play_random
from oracle.records import Recorder, load_record, validate_record
from oracle.ruleset import load_ruleset


def played(ruleset: str, seed: int, deals: int) -> dict[str, Any]:
    rs = load_ruleset(ruleset)
    rng = random.Random(seed)
    game = Game(rs, players=rs.players, dealer=rng.randrange(rs.players), seed=rng.randrange(2**32))
    rec = Recorder(game, [f"P{i + 1}" for i in range(rs.players)], seed, [], {})
    play_random(game, rng, on_action=rec, hinted=True, max_deals=deals)
    return rec.finish()


def _wrong_seat(rec: dict[str, Any], deal: dict[str, Any], rng: random.Random) -> int | None:
    plays = [i for i, a in enumerate(deal["actions"]) if a["action"] == "play" and i > 0]
    if not plays:
        return None
    i = rng.choice(plays)
    players = rec["players"]
    deal["actions"][i]["seat"] = players[(players.index(deal["actions"][i]["seat"]) + 1) % len(players)]
    return i


def _off_step(rec: dict[str, Any], deal: dict[str, Any], rng: random.Random) -> int | None:
    bids = [i for i, a in enumerate(deal["actions"]) if a["action"] == "bid"]
    if not bids:
        return None
    i = rng.choice(bids)
    deal["actions"][i]["value"] -= 1
    return i


def _card_gone(rec: dict[str, Any], deal: dict[str, Any], rng: random.Random) -> int | None:
    plays = [i for i, a in enumerate(deal["actions"]) if a["action"] == "play"]
    if len(plays) < 4:
        return None
    k = rng.randrange(3, len(plays))
    earlier = deal["actions"][plays[rng.randrange(k)]]["card"]  # already played: no longer in any hand
    deal["actions"][plays[k]]["card"] = earlier
    return plays[k]


MISTAKES = (_wrong_seat, _off_step, _card_gone)


@pytest.mark.parametrize("ruleset", ["classic", "four-dummy", "two-bank", "mekedron-polish"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_mistake_is_reported_once_at_its_action_and_nothing_follows_from_it(ruleset: str, seed: int) -> None:
    rec = played(ruleset, seed, deals=10)
    assert validate_record(load_record(copy.deepcopy(rec), "game.json")).valid
    rng = random.Random(seed)
    # Mistakes in up to four deals, the last deal among the candidates (its end is then not judged).
    put: dict[int, int] = {}  # deal (1-based) -> action (1-based)
    for di in rng.sample(range(len(rec["deals"])), len(rec["deals"])):
        for mistake in rng.sample(MISTAKES, len(MISTAKES)):
            ai = mistake(rec, rec["deals"][di], rng)
            if ai is not None:
                put[di + 1] = ai + 1
                break
        if len(put) == 4:
            break
    assert len(put) >= 2, "the generated games should leave room for mistakes"
    verdict = validate_record(load_record(rec, "game.json"), all_errors=True)
    assert verdict.error is None, verdict.error
    found = {v.deal: v.action for v in verdict.violations}
    assert found == put, [v.format() for v in verdict.violations]
    assert len(verdict.violations) == len(put)  # one each: no echo in the deal, no cascade into the next
    for v in verdict.violations:
        assert v.deal is not None and v.action is not None
        assert v.skipped == len(rec["deals"][v.deal - 1]["actions"]) - v.action
        assert (f"the rest of this deal ({v.skipped} action" in v.format()) == (v.skipped > 0)
        assert "the next deal is judged from the position the record states" in v.format()
    # Without --all-errors the first is the one reported, with nothing said about skipping.
    first = validate_record(load_record(rec, "game.json")).violations
    assert [(v.deal, v.action) for v in first] == [min(put.items())] and first[0].skipped is None


def test_a_wrong_seat_in_the_auction_is_charged_to_the_auctions_order_in_every_ruleset() -> None:
    """Whoever set the turn last (the hundred on the table, a bid), a pass out of turn breaks the order of
    speaking: the rule that declares the auction's actions."""
    from oracle.ruleset import load_library

    for name in sorted(load_library().presets):
        rs = load_ruleset(name)
        if "pass" not in rs.actions:
            continue
        order = rs.actions["pass"].rule_id
        charged: set[str] = set()

        def probe(g: Game, a: Action, charged: set[str] = charged) -> None:
            if a.kind in ("bid", "pass"):
                rej = g.check(Action("pass", (a.seat + 1) % g.v["n_seats"], {}))
                if rej is not None and rej.reason == "not-your-turn":
                    charged.add(rej.rule_id)
        game = Game(rs, dealer=0, seed=3)
        play_random(game, random.Random(3), on_action=probe, hinted=True, max_deals=4)
        assert charged <= {order}, (name, charged)


def test_a_marriage_declared_on_an_ace_is_allowed_the_plays_with_marriage_no_spelled_out() -> None:
    rec = played("classic", 5, deals=3)
    for deal in rec["deals"]:
        hit = next((i for i, a in enumerate(deal["actions"]) if a["action"] == "play" and a["card"][0] == "A"), None)
        if hit is not None:
            deal["actions"][hit]["marriage"] = True
            break
    else:
        pytest.fail("no ace was played")
    v = validate_record(load_record(rec, "game.json")).violations[0]
    allowed = v.format().splitlines()[2]
    groups = allowed.removeprefix("    allowed: ").split("; ")
    assert all(g.startswith(f"{v.seat_name} ") for g in groups), allowed  # every entry names its player
    plain = [g for g in groups if "marriage=yes" not in g]
    assert plain and all(g.endswith(" marriage=no") for g in plain), allowed
    assert "AH" in allowed or "AS" in allowed or "AD" in allowed or "AC" in allowed


def _spoil(result: dict[str, Any], key: str, rng: random.Random) -> int | None:
    """Write one value of a deal's row wrong, keeping its type: a number moved, a flag turned (of one seat's
    entry, returned, for a per-seat value). Other values (names, cards, marks) are left alone: None."""
    value = result[key]
    if type(value) is list and value and all(type(x) in (int, bool) for x in value):
        seat = rng.randrange(len(value))
        value[seat] = (not value[seat]) if type(value[seat]) is bool else value[seat] + 10
        return seat
    if type(value) in (int, bool):
        result[key] = (not value) if type(value) is bool else value + 5
    return None


@pytest.mark.parametrize("ruleset", ["classic", "four-dummy", "two-bank", "mekedron-polish", "tysiac"])
def test_every_wrong_value_of_a_row_is_charged_to_the_rule_it_is_charged_to_alone(ruleset: str) -> None:
    """With --all-errors, the wrong values of one deal's row are blamed together (one traced replay of the
    deal watching them all): each names the rule it names when it is the record's only mistake, and they are
    told in the deals' order and, within a deal, in the order the row writes them."""
    rec = played(ruleset, 11, deals=6)
    right = copy.deepcopy(rec)
    rng = random.Random(ruleset)
    alone: list[tuple[int | None, int | None, str, str, str]] = []
    for di in sorted(rng.sample(range(len(rec["deals"])), min(3, len(rec["deals"])))):
        result = rec["deals"][di].get("result")
        if not result:
            continue
        keys = [k for k in result if type(result[k]) in (int, bool)
                or (type(result[k]) is list and result[k] and all(type(x) in (int, bool) for x in result[k]))]
        for key in sorted(rng.sample(keys, min(len(keys), rng.randrange(2, 6))), key=list(result).index):
            one = copy.deepcopy(right)
            seat = _spoil(one["deals"][di]["result"], key, random.Random(len(alone)))
            _spoil(result, key, random.Random(len(alone)))
            (v,) = validate_record(load_record(one, "game.json")).violations
            assert (v.deal, v.seat, v.what.split()[0]) == (di + 1, seat, key)
            alone.append((v.deal, v.seat, v.what, v.rule, v.reason))
    assert len(alone) >= 4
    verdict = validate_record(load_record(rec, "game.json"), all_errors=True)
    assert [(v.deal, v.seat, v.what, v.rule, v.reason) for v in verdict.violations] == alone
