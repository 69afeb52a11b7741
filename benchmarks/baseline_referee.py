"""A hand-written referee of the classic ruleset: the floor the oracle's speed is measured against.

This is not part of the oracle and is never used to judge a record: it exists so that
``bench_validate.py`` can say how far the rule-file interpreter is from plain Python code that
knows the one game by heart. It hard-codes classic's numbers (the 120 points of the pack, the
hundred, the marriages, the barrel at 880, three bolts, 1000 to win), which the oracle reads from
``spec/`` and ``variants/presets/classic.yaml``; where the two disagree on a record, the benchmark
stops and says so.

It reads the same records (JSON, already decoded) and gives the same kind of verdict: valid, or
the first violation by deal and action (1-based; no action for a wrong result or a deal that goes
wrong as a whole), or unreadable. Only records of the plain ``classic`` ruleset are judged (the
``must_beat`` parameter is understood as well); anything else is declined with ``None``, and cards
must be written in the Latin notation (``10H``, ``QS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

N = 3
RANKS = ("9", "10", "J", "Q", "K", "A")
SUITS = ("S", "C", "D", "H")
PACK = tuple(r + s for s in SUITS for r in RANKS)
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
POWER = {"A": 6, "10": 5, "K": 4, "Q": 3, "J": 2, "9": 1}
MARRIAGE = {"H": 100, "D": 80, "C": 60, "S": 40}
HAND, TALON = 7, 3
FORCED_BID, STEP, MAX_BID, DECK_TOTAL = 100, 5, 300, 120
ROSPIS_POINTS = 60
PENALTY = 120
BOLT_LIMIT = 3
BARREL, BARREL_ATTEMPTS, FALL_TO, FALLS_LIMIT = 880, 3, 880 - 120, 3
TARGET = 1000
EXPOSED_PENALTY = 120
VALID_KEYS = {"dealer", "actions", "result", "hands", "talon_cards", "order"}
FIELDS = {"bid": ("value",), "pass": (), "expose-card": (), "take-talon": (), "give": ("card", "to"),
          "announce": ("value",), "concede": (), "play": ("card", "marriage")}
PHASE_OF = {"bid": "bidding", "pass": "bidding", "expose-card": "bidding", "take-talon": "talon", "give": "talon",
            "announce": "talon", "concede": "talon", "play": "play"}
# Looked up once per card rather than sliced per use: plain Python's fastest way to know a card.
SUIT_OF = {c: c[-1] for c in PACK}
RANK_OF = {c: c[:-1] for c in PACK}
POWER_OF = {c: POWER[c[:-1]] for c in PACK}
SORTED_PACK = sorted(PACK)
ALLOWED_KEYS = {kind: frozenset(("seat", "action", *fields)) for kind, fields in FIELDS.items()}
RECORDED = ("declarer", "contract", "conceded", "talon_shown", "delta", "taken_points", "marriage_points",
            "declared", "tricks_won", "score", "on_barrel", "barrel_deals", "barrel_falls", "bolts")


@dataclass(frozen=True)
class Verdict:
    valid: bool
    deal: int | None = None
    action: int | None = None
    reason: str = ""
    unreadable: bool = False

    def key(self) -> tuple[Any, ...]:
        if self.unreadable:
            return ("unreadable",)
        return ("valid",) if self.valid else ("invalid", self.deal, self.action)


class Unreadable(Exception):
    pass


class Violation(Exception):
    def __init__(self, deal: int | None, action: int | None, reason: str) -> None:
        super().__init__(reason)
        self.deal, self.action, self.reason = deal, action, reason


CARD_POINTS = {c: POINTS[c[:-1]] for c in PACK}


def points(cards: list[str]) -> int:
    return sum(map(CARD_POINTS.__getitem__, cards))


def held_marriages(hand: list[str]) -> list[str]:
    return [s for s in SUITS if "K" + s in hand and "Q" + s in hand]


def bid_cap(hand: list[str]) -> int:
    return min(MAX_BID, DECK_TOTAL + sum(MARRIAGE[s] for s in held_marriages(hand)))


class Referee:
    """One record's game, replayed by the rules of classic Thousand."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.players: list[str] = list(data["players"])
        if len(self.players) != N:
            raise Unreadable("classic seats three players")
        # A seat by number or by name in one lookup; the first of two equal names wins, as list.index says.
        self._seat: dict[Any, int] = {s: s for s in range(N)}
        for i in reversed(range(N)):
            if type(self.players[i]) is str:
                self._seat[self.players[i]] = i
        params = data.get("params") or {}
        self.must_beat = bool(params.get("must_beat", False))
        self.score = [0] * N
        self.bolts = [0] * N
        self.on_barrel = [False] * N
        self.barrel_deals = [0] * N
        self.barrel_falls = [0] * N
        self.over = False
        self.winner: int | None = None
        if "start" in data:
            st = data["start"]
            self.dealer = self.seat(st["dealer"])
            for var, val in (st.get("state") or {}).items():
                if var not in ("score", "bolts", "on_barrel", "barrel_deals", "barrel_falls") or len(val) != N:
                    raise Unreadable(f"start/state/{var}")
                setattr(self, var, list(val))
        else:
            self.dealer = self.seat(data["first_dealer"])

    # ---------------------------------------------------------------- reading
    def seat(self, v: Any) -> int:
        t = type(v)
        if t is str or t is int:  # not a bool or a float, though they hash as numbers do
            s = self._seat.get(v)
            if s is not None:
                return s
        raise Unreadable(f"bad seat {v!r}")

    @staticmethod
    def card(v: Any) -> str:
        if type(v) is str:
            if v in SUIT_OF:
                return v
            c = v.upper()
            if c in SUIT_OF:
                return c
        raise Unreadable(f"bad card {v!r}")

    def cards(self, v: Any) -> list[str]:
        if type(v) is str:
            v = v.split()
        if type(v) is not list:
            raise Unreadable("bad cards")
        return [self.card(x) for x in v]

    def hands(self, v: Any) -> list[list[str]]:
        if type(v) is dict:
            out: list[list[str]] = [[] for _ in range(N)]
            for who, cs in v.items():
                out[self.seat(who)] = self.cards(cs)
            return out
        if type(v) is not list:
            raise Unreadable("bad hands")
        return [self.cards(h) for h in v]

    # ---------------------------------------------------------------- the game
    def run(self) -> None:
        deals = self.data["deals"]
        for di, deal in enumerate(deals):
            self.deal(di, deal, di == len(deals) - 1)
        res = self.data.get("result")
        if res:
            if "finished" in res and bool(res["finished"]) != self.over:
                raise Violation(None, None, "wrong-result")
            if res.get("winner") is not None and self.seat(res["winner"]) != self.winner:
                raise Violation(None, None, "wrong-winner")
            if "score" in res and res["score"] != self.score:
                raise Violation(None, None, "wrong-result")

    def deal(self, di: int, deal: Any, last: bool) -> None:
        n = di + 1
        if self.over:
            raise Violation(n, None, "game-over")
        if "dealer" in deal and self.seat(deal["dealer"]) != self.dealer:
            raise Violation(n, None, "wrong-dealer")
        if type(deal) is not dict or type(deal.get("actions")) is not list:
            raise Unreadable("a deal is a mapping with actions")
        for key in deal:
            if key not in VALID_KEYS:
                raise Unreadable(f"unknown field {key!r}")
        actions = deal["actions"]
        if "hands" not in deal or "talon_cards" not in deal:
            if not actions and last:
                return
            raise Unreadable("the deal needs hands, talon_cards")
        hands = self.hands(deal["hands"])
        talon = self.cards(deal["talon_cards"])
        if len(hands) != N:
            raise Violation(n, None, "wrong-number-of-hands")
        if any(len(h) != HAND for h in hands):
            raise Violation(n, None, "wrong-hand-size")
        if len(talon) != TALON:
            raise Violation(n, None, "wrong-talon-size")
        if sorted([*hands[0], *hands[1], *hands[2], *talon]) != SORTED_PACK:
            raise Violation(n, None, "not-the-pack")
        d = _Deal(self, hands, talon)
        done = False
        for ai, a in enumerate(actions):
            if done:
                raise Violation(n, ai + 1, "after-end-of-deal")
            reason = d.act(a)
            if reason:
                raise Violation(n, ai + 1, reason)
            done = d.phase == "done"
        if not done:
            if not last:
                raise Violation(n, None, "deal-incomplete")
            return
        if "result" in deal:
            self.check_result(n, deal["result"], d.row)

    def check_result(self, n: int, result: Any, row: dict[str, Any]) -> None:
        for key, want in result.items():
            if key == "marks":
                mine = sorted([str(m[0]), self.seat(m[1])] for m in want)
                if mine != sorted(list(m) for m in row["marks"]):
                    raise Violation(n, None, "wrong-marks")
                continue
            if key not in row:
                raise Unreadable(f"{key!r} is not on the score sheet")
            got = row[key]
            if key == "declarer":
                ok = (want is None and got is None) or (want is not None and got == self.seat(want))
            elif key == "declared":
                ok = type(want) is list and [str(x).upper() for x in want] == got
            else:
                ok = want == got
            if not ok:
                raise Violation(n, None, "wrong-result")


class _Deal:
    """One deal, from the cards dealt to the sheet's row."""

    def __init__(self, g: Referee, hands: list[list[str]], talon: list[str]) -> None:
        self.g = g
        self.hand = [list(h) for h in hands]
        # Each hand's cards per suit, kept up to date, so following suit is one lookup.
        self.suits = [dict.fromkeys(SUITS, 0) for _ in range(N)]
        for counts, h in zip(self.suits, self.hand, strict=True):
            for c in h:
                counts[SUIT_OF[c]] += 1
        self.talon = list(talon)
        self.won: list[list[str]] = [[], [], []]
        self.phase = "bidding"
        self.dealer = g.dealer
        forced = (self.dealer + 1) % N
        self.bid, self.bidder, self.speeches = FORCED_BID, forced, 0
        self.turn = (forced + 1) % N
        self.passed = [False] * N
        self.declarer: int | None = None
        self.contract = 0
        self.taken = False
        self.talon_shown = False
        self.received = [0] * N
        self.conceded = False
        self.trump: str | None = None
        self.led: str | None = None
        self.trick: list[str] = []
        self.trick_by: list[int] = []
        self.tricks_won = [0] * N
        self.marriage_points = [0] * N
        self.declared: list[str] = []
        self.delta = [0] * N
        self.marks: list[tuple[str, int]] = []
        self.row: dict[str, Any] = {}

    def act(self, a: Any) -> str:
        """Apply one recorded action; the reason it is illegal, or '' when it was applied."""
        g = self.g
        if type(a) is not dict or "seat" not in a or type(a.get("action")) is not str:
            raise Unreadable("an action is a mapping with seat and action")
        kind = a["action"]
        allowed = ALLOWED_KEYS.get(kind)
        if allowed is None:
            return "unknown-action"
        seat = g.seat(a["seat"])
        if not a.keys() <= allowed:
            raise Unreadable(f"unknown field {next(k for k in a if k not in allowed)!r}")
        if PHASE_OF[kind] != self.phase:
            return "wrong-phase"
        if kind == "play":  # the bulk of a record, asked first
            if seat != self.turn:
                return "not-your-turn"
            return self.play(seat, self.hand[seat], g.card(a["card"]), a.get("marriage", False))
        if kind == "expose-card":
            return "too-late" if self.speeches > 0 else self.expose()
        if seat != self.turn:
            return "not-your-turn"
        hand = self.hand[seat]
        if kind == "bid":
            value = a["value"]
            if type(value) is not int:
                raise Unreadable("a bid is a number")
            if value <= self.bid or (value - self.bid) % STEP:
                return "bad-step"
            if value > MAX_BID:
                return "over-max-bid"
            if value > bid_cap(hand):
                return "over-marriage-cap"
            self.bid, self.bidder = value, seat
            self.speeches += 1
            passed = self.passed
            nxt = (seat + 1) % N
            while passed[nxt]:  # the bidder himself has not passed, so this stops
                nxt = (nxt + 1) % N
            self.turn = nxt
        elif kind == "pass":
            passed = self.passed
            passed[seat] = True
            self.speeches += 1
            if passed.count(False) == 1:
                self.declarer = self.bidder
                self.contract = self.bid
                self.turn = self.declarer
                self.phase = "talon"
            else:
                nxt = (seat + 1) % N
                while passed[nxt]:
                    nxt = (nxt + 1) % N
                self.turn = nxt
        elif kind == "take-talon":
            if self.taken:
                return "talon-already-taken"
            self.taken = True
            self.talon_shown = not (self.speeches == N - 1 and self.contract == FORCED_BID)
            for c in self.talon:
                self.suits[seat][SUIT_OF[c]] += 1
            hand.extend(self.talon)
            self.talon = []
        elif kind == "give":
            if not self.taken:
                return "talon-not-taken"
            card, to = g.card(a["card"]), g.seat(a["to"])
            if self.received[to] >= 1:
                return "already-given"
            if card not in hand or to == self.declarer:
                return "not-available"
            hand.remove(card)
            self.hand[to].append(card)
            suit = SUIT_OF[card]
            self.suits[seat][suit] -= 1
            self.suits[to][suit] += 1
            self.received[to] += 1
        elif kind == "announce":
            value = a["value"]
            if type(value) is not int:
                raise Unreadable("a contract is a number")
            if not self.taken or not all(self.received[s] >= 1 for s in range(N) if s != self.declarer):
                return "cards-not-passed"
            if value < self.contract:
                return "cannot-lower"
            if (value - self.contract) % STEP:
                return "bad-step"
            if value > MAX_BID:
                return "over-max-bid"
            if value > self.contract and value > bid_cap(hand):
                return "over-marriage-cap"
            self.contract = value
            self.phase = "play"
        else:  # concede
            if not self.taken:
                return "talon-not-taken"
            if any(self.received):
                return "rospis-timing"
            self.conceded = True
            self.marks.append(("rospis", seat))
            self.score_deal()
        return ""

    def play(self, seat: int, hand: list[str], card: str, marriage: Any) -> str:
        if type(marriage) is not bool:
            raise Unreadable("marriage is yes or no")
        if card not in hand:
            return "not-in-hand"
        trick, suit = self.trick, SUIT_OF[card]
        counts = self.suits[seat]
        if trick:
            led, trump = self.led, self.trump
            if suit != led:
                if counts[led]:
                    return "must-follow-suit"
                if trump is not None and suit != trump and counts[trump]:
                    return "must-trump"
            if self.g.must_beat and not self.beats(card) and any(self.beats(c) for c in hand if SUIT_OF[c] == suit):
                return "must-beat"
        if marriage:
            rank = RANK_OF[card]
            if trick or rank not in ("K", "Q") or not ("K" + suit in hand and "Q" + suit in hand):
                return "not-a-marriage"
            if self.tricks_won[seat] == 0:
                return "marriage-too-early"
        if not trick:
            self.led = suit
        hand.remove(card)
        counts[suit] -= 1
        trick.append(card)
        self.trick_by.append(seat)
        if marriage:
            self.declared.append(suit)
            self.trump = suit
            self.marriage_points[seat] += MARRIAGE[suit]
            self.marks.append(("marriage", seat))
        if len(trick) == N:
            # The strongest card: a trump over the led suit over the rest, then by power.
            trump, led = self.trump, self.led
            best, best_key = 0, (-1, 0)
            for i, c in enumerate(trick):
                s = SUIT_OF[c]
                key = (2 if s == trump else 1 if s == led else 0, POWER_OF[c])
                if key > best_key:
                    best, best_key = i, key
            w = self.trick_by[best]
            self.won[w].extend(trick)
            self.tricks_won[w] += 1
            self.trick, self.trick_by, self.led = [], [], None
            self.turn = w
            if not self.hand[w]:
                self.score_deal()
        else:
            self.turn = (seat + 1) % N
        return ""

    def strength(self, c: str) -> tuple[int, int]:
        s = SUIT_OF[c]
        return (2 if s == self.trump else 1 if s == self.led else 0), POWER_OF[c]

    def beats(self, c: str) -> bool:
        mine = self.strength(c)
        return all(mine > self.strength(x) for x in self.trick)

    def expose(self) -> str:
        g, d = self.g, self.dealer
        self.delta[d] = -EXPOSED_PENALTY
        g.score[d] += self.delta[d]
        if g.on_barrel[d] and g.score[d] < BARREL:
            g.on_barrel[d] = False
            g.barrel_deals[d] = 0
        self.marks.append(("exposed-card", d))
        self.write_row()
        g.dealer = (d + 1) % N
        return ""

    def score_deal(self) -> None:
        g = self.g
        decl = self.declarer
        assert decl is not None
        delta = self.delta
        opponents = [s for s in range(N) if s != decl]
        taken = [points(self.won[s]) + self.marriage_points[s] for s in range(N)]
        self.taken_points = taken
        made = taken[decl] >= self.contract
        if self.conceded:
            delta[decl] -= self.contract
            for s in opponents:
                delta[s] += ROSPIS_POINTS
        else:
            delta[decl] += self.contract if made else -self.contract
            for s in opponents:
                delta[s] += taken[s]
            for s in range(N):
                if taken[s] == 0:
                    g.bolts[s] += 1
                    self.marks.append(("bolt", s))
                    if g.bolts[s] >= BOLT_LIMIT:
                        delta[s] -= PENALTY
                        g.bolts[s] = 0
                        self.marks.append(("bolt-penalty", s))

        def wins_as_declarer(s: int) -> bool:
            return s == decl and not self.conceded and made and g.score[s] + delta[s] >= TARGET

        mounting, falling, knocked = [], [], []
        for s in range(N):
            if g.on_barrel[s]:
                g.barrel_deals[s] += 1
                if wins_as_declarer(s):
                    g.on_barrel[s] = False
                    self.marks.append(("barrel-exit", s))
                else:
                    delta[s] = 0
                    if g.barrel_deals[s] >= BARREL_ATTEMPTS:
                        falling.append(s)
                    else:
                        self.marks.append(("barrel-attempt", s))
            elif g.score[s] + delta[s] >= BARREL and not wins_as_declarer(s):
                delta[s] = BARREL - g.score[s]
                mounting.append(s)
        if mounting:  # a player climbing on knocks the others off; two climbing at once both fall
            if len(mounting) > 1:
                knocked.extend(mounting)
            knocked.extend(s for s in range(N) if g.on_barrel[s] and s not in falling)
        for s in mounting:
            if s not in knocked:
                g.on_barrel[s] = True
                g.barrel_deals[s] = 0
                self.marks.append(("barrel-mount", s))
        for s in falling:
            g.on_barrel[s] = False
            g.barrel_falls[s] += 1
            delta[s] = FALL_TO - g.score[s]
            self.marks.append(("barrel-fall", s))
        for s in knocked:
            g.on_barrel[s] = False
            g.barrel_falls[s] += 1
            delta[s] = FALL_TO - g.score[s]
            self.marks.append(("barrel-knocked-off", s))
        for s in range(N):
            if g.barrel_falls[s] >= FALLS_LIMIT:
                delta[s] = -g.score[s]
                g.barrel_falls[s] = 0
                self.marks.append(("barrel-reset", s))
        for s in range(N):
            g.score[s] += delta[s]
        winners = [s for s in range(N) if g.score[s] >= TARGET]
        if winners:
            g.winner = max(winners, key=lambda s: (g.score[s], s == decl))
            g.over = True
            self.marks.append(("win", g.winner))
        self.write_row()
        if not g.over and not self.conceded:
            g.dealer = (g.dealer + 1) % N

    def write_row(self) -> None:
        g = self.g
        self.row = {
            "declarer": self.declarer, "contract": self.contract, "conceded": self.conceded,
            "talon_shown": self.talon_shown, "delta": list(self.delta),
            "taken_points": list(getattr(self, "taken_points", [0] * N)),
            "marriage_points": list(self.marriage_points), "declared": list(self.declared),
            "tricks_won": list(self.tricks_won), "score": list(g.score), "on_barrel": list(g.on_barrel),
            "barrel_deals": list(g.barrel_deals), "barrel_falls": list(g.barrel_falls), "bolts": list(g.bolts),
            "marks": [[w, s] for w, s in self.marks],
        }
        self.phase = "done"


def referee(data: dict[str, Any]) -> Verdict | None:
    """The verdict on one decoded record, or None if it is not a plain classic record."""
    if (data.get("ruleset") != "classic" or data.get("overlays")
            or set(data.get("params") or {}) - {"must_beat"}):
        return None
    try:
        Referee(data).run()
    except Violation as v:
        return Verdict(False, v.deal, v.action, v.reason)
    except (Unreadable, KeyError, TypeError, ValueError) as exc:
        return Verdict(False, reason=str(exc), unreadable=True)
    return Verdict(True)
