"""Polish Tysiąc (variants/polish/): bids in tens, the musik, must beat and over-trump, the 800 lock, bombs."""


from positions import random_games, suit
from support import Table, ruleset

from oracle import load_ruleset

TYSIAC = ["polish.tysiac"]


# Seat 1 (the hundred) holds the hearts marriage and no clubs; seat 2 has every club and the ace of hearts;
# seat 0 has no clubs and two small hearts.
HANDS_P = {1: "KH QH 9H AS 10S KS QS", 2: "AH AC 10C KC QC JC 9C", 0: "10H JH JS 9S AD 10D KD"}


TALON_P = "QD JD 9D"


def polish(overlays=None, scores=None, state=None, name="tysiac", **params) -> Table:
    """Seat 1 plays the hundred, takes the talon, gives 9D to seat 0 and JD to seat 2 and announces 100."""
    rs = load_ruleset(name, overlays, params or None)
    t = Table(rs, hands=HANDS_P, talon=TALON_P, dealer=0, scores=scores, state=state)
    t.win_auction(1).act(1, "take-talon").act(1, "give", card="9D", to=0).act(1, "give", card="JD", to=2)
    t.act(1, "announce", value=100)
    return t


def play_first_legal(t: Table) -> Table:
    """Finish the deal, each player playing his first legal card (no declarations)."""
    while t.game.phase == "play":
        seat = t.v["turn"]
        t.game.apply(next(a for a in t.game.legal_actions(seat) if a.kind == "play" and not a.payload["marriage"]))
    return t


def polish_deal(**kw) -> Table:
    """The declarer declares hearts on his first lead, then ruffs seat 2's clubs; he takes 95 + 100."""
    t = polish(**kw)
    t.play("KH!", "AH", "10H", "AC", "JH", "QH")
    return play_first_legal(t)


# ------------------------------------------------------------------ Polish Tysiąc


def test_tysiac_bids_go_up_in_tens():
    t = Table(ruleset(overlays=TYSIAC), dealer=0)
    assert t.rejects(2, "bid", value=105).reason == "bad-step"
    t.act(2, "bid", value=110)
    assert t.v["bid"] == 110


def test_tysiac_caps_bids_only_by_the_marriages_held():
    hands = {2: "KH QH KD QD KC QC AS"}
    t = Table(ruleset(overlays=TYSIAC), hands=hands, dealer=0)
    assert t.rejects(2, "bid", value=370).reason == "over-marriage-cap"  # 120 + 100 + 80 + 60 = 360
    t.act(2, "bid", value=360)
    classic = Table(hands=hands, dealer=0)
    assert classic.rejects(2, "bid", value=360).reason == "over-max-bid"


def test_tysiac_shows_the_musik_taken_at_the_hundred():
    t = polish(TYSIAC, name="classic")
    assert t.v["talon_shown"]
    classic = Table(hands=HANDS_P, talon=TALON_P, dealer=0)
    classic.win_auction(1).act(1, "take-talon")
    assert not classic.v["talon_shown"]


def test_tysiac_followers_must_beat_and_over_trump():
    t = polish(TYSIAC, name="classic")
    t.play("KH!")  # a marriage on the very first lead: hearts are trumps
    assert t.v["trump"] == suit(t, "hearts")
    t.play("AH", "10H", "AC")
    # Seat 0 has no club and must ruff with his last heart; seat 1 must then over-ruff with QH.
    t.play("JH")
    assert t.rejects(1, "play", card="9H").reason == "must-beat"
    t.play("QH")
    assert t.v["tricks_won"] == [0, 1, 1]


def test_tysiac_follower_must_head_the_trick_in_the_suit():
    hands = {1: "QS 9C 9D 9H JH AC 10C", 2: "KS JS 9S AD 10D KD QD", 0: "AS 10S JD JC QC KC QH"}
    t = Table(ruleset(overlays=TYSIAC), hands=hands, talon="KH 10H AH", dealer=0)
    t.to_play(1, give=("AH", "10H"))
    t.play("QS")
    assert t.rejects(2, "play", card="JS").reason == "must-beat"
    t.play("KS")
    t.play("10S")  # 10S beats KS too
    classic = Table(hands=hands, talon="KH 10H AH", dealer=0)
    classic.to_play(1, give=("AH", "10H"))
    classic.play("QS", "JS")


def test_tysiac_rounds_the_defenders_to_ten():
    t = polish_deal(overlays=["polish.no-bolts"], name="classic", **{"bid_step": 10, "must_beat": True,
                                                                        "marriage_timing": "from-first-lead"})
    assert t.last["taken_points"] == [0, 195, 25]
    assert t.last["delta"] == [0, 100, 25]
    t = polish_deal(overlays=TYSIAC, name="classic")
    assert t.last["delta"] == [0, 100, 30]  # 25 rounds up to 30


def test_the_800_lock_stops_a_defender_scoring():
    t = polish_deal(scores=[0, 0, 800])
    assert t.last["delta"] == [0, 100, 0]
    assert ["locked", 2] in t.last["marks"]
    t = polish_deal(scores=[0, 0, 790])
    assert t.last["delta"] == [0, 100, 30]
    assert t.v["score"][2] == 820


def test_the_800_lock_score_is_a_parameter():
    t = polish_deal(scores=[0, 0, 800], lock_score=850)
    assert t.last["delta"] == [0, 100, 30]


def test_the_800_lock_lets_a_declarer_score_and_lose():
    t = polish_deal(scores=[0, 850, 0])
    assert t.last["delta"] == [0, 100, 30]
    t = polish(scores=[0, 850, 0])
    t.play("AS")  # no marriage: the declarer cannot make 100
    play_first_legal(t)
    assert t.last["delta"][1] == -100


def bomb(t: Table, seat: int = 1) -> Table:
    t.win_auction(seat).act(seat, "take-talon").act(seat, "concede")
    return t


def test_the_first_bomb_is_free_and_the_next_pays_60_each():
    t = bomb(Table(load_ruleset("tysiac"), hands=HANDS_P, talon=TALON_P, dealer=0))
    assert t.last["delta"] == [0, 0, 0]
    assert t.last["bombs"] == [0, 1, 0]
    # The deal passes on: dealer 1, and seat 2 holds the hundred.
    assert t.v["dealer"] == 1
    t.deal({})
    bomb(t, seat=2)
    assert t.last["delta"] == [0, 0, 0] and t.last["bombs"] == [0, 1, 1]
    t.deal({})
    bomb(t, seat=0)
    t.deal({})
    bomb(t, seat=1)
    assert t.last["delta"] == [60, 0, 60]  # seat 1's second bomb
    assert t.v["score"] == [60, 0, 60]


def test_a_bomb_pays_from_the_first_when_none_is_free():
    t = bomb(Table(load_ruleset("tysiac", params={"bomb_free": 0}), hands=HANDS_P, talon=TALON_P, dealer=0))
    assert t.last["delta"] == [60, 0, 60]


def test_a_bomb_needs_the_musik_and_comes_before_passing_cards():
    t = Table(load_ruleset("tysiac"), hands=HANDS_P, talon=TALON_P, dealer=0)
    t.win_auction(1)
    assert t.rejects(1, "concede").reason == "talon-not-taken"
    t.act(1, "take-talon").act(1, "give", card="9D", to=0)
    assert t.rejects(1, "concede").reason == "rospis-timing"


def test_the_number_of_bombs_can_be_limited():
    rs = load_ruleset("tysiac", params={"bomb_limit": 1})
    t = bomb(Table(rs, hands=HANDS_P, talon=TALON_P, dealer=0, state={"bombs": [0, 0, 1]}), seat=1)
    assert t.last["bombs"] == [0, 1, 1]
    t.deal({})
    t.win_auction(2).act(2, "take-talon")
    assert t.rejects(2, "concede").reason == "no-bombs-left"


def test_the_800_lock_holds_back_a_bomb_payment():
    t = bomb(Table(load_ruleset("tysiac"), hands=HANDS_P, talon=TALON_P, dealer=0, scores=[800, 0, 0],
                   state={"bombs": [0, 1, 0]}))
    assert t.last["delta"] == [0, 0, 60]


def test_no_barrel_in_tysiac():
    # The declarer goes from 870 to 970 with nothing to stop him at 880.
    t = polish_deal(scores=[0, 870, 0])
    assert t.v["score"][1] == 970 and not t.v["on_barrel"][1]
    barrel = polish_deal(overlays=[o for o in load_ruleset("tysiac").resolved.overlays if o != "polish.no-barrel"],
                         name="classic", scores=[0, 870, 0])
    assert barrel.v["score"][1] == 880 and barrel.v["on_barrel"][1]


def test_no_bolts_in_tysiac():
    t = polish_deal(state={"bolts": [2, 0, 0]})
    assert t.last["taken_points"][0] == 0
    assert t.last["bolts"] == [2, 0, 0]
    assert not any(m[0].startswith("bolt") for m in t.last["marks"])
    bolts = polish_deal(overlays=["polish.tysiac", "polish.lock-800", "polish.bomb", "polish.no-barrel"],
                        name="classic", state={"bolts": [2, 0, 0]})
    assert bolts.last["delta"][0] == -120


def test_a_defender_below_the_lock_may_pass_it():
    t = polish_deal(scores=[0, 0, 799])
    assert t.v["score"][2] == 829 and not t.game.over


def test_the_tysiac_preset_plays_whole_games():
    for g in random_games("tysiac", seeds=range(4)):
        for row in g.sheet:
            for s in range(3):
                if s != row["declarer"]:
                    assert row["delta"][s] % 10 == 0
