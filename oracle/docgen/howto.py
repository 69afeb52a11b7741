"""The "How to play" page: the classic game from the deal to the score sheet, illustrated.

The text is written by hand, in English and Russian (docs/_data/how-to-play*.md), with
placeholders. Every number in it comes from the resolved ruleset, and every picture and
every fact about the example deal from a real game record that the oracle validates
here, so neither can drift from the rules: a rule file that changes a value the text
takes for granted (listed under ``assumes``) stops the generation and names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

from ..engine import Action, Game
from ..errors import OracleError
from ..records import judge, read_record, record_request
from ..ruleset import Ruleset, load_ruleset
from ..sheet import mark_symbol
from .md import LANG_SUFFIX, code, link, page_file, plain, table
from .rules import SEARCH_BOOST_HOWTO, search_boost
from .site import Site
from .svg import RED, Cell, Face, Mark, Picture, Row, rows_picture, table_picture

HOWTO_PAGE = "how-to-play.md"
FIGURES = "figures/how-to-play"
CONFIG = "how-to-play.yaml"
PLACEHOLDER = re.compile(r"\{\{\s*([a-z0-9_]+(?:@[a-z]+)?|rule:[a-z0-9_.-]+)\s*\}\}")
RULE_LINK = "rule:"  # {{rule:play.follow-suit}} is the link to that rule's page
CASE = "@"  # {{declarer@gen}} is the declarer's name in the genitive («у Анны»)
CASES = ("nom", "gen", "dat", "acc", "ins", "loc")
BARREL_MARKS = ("barrel-mount", "barrel-exit", "barrel-fall", "barrel-knocked-off", "barrel-reset")
BOLT_MARKS = ("bolt", "bolt-penalty")


_T = TypeVar("_T")


class HowtoError(OracleError):
    """The page cannot be written: its record, its configuration or its text is wrong."""


@dataclass
class Trick:
    plays: list[tuple[int, int, bool]]  # (seat, card, declared a marriage)
    winner: int
    trump: int | None  # in force when the trick was won
    marriage: int = 0  # points declared on this trick
    missed: list[tuple[int, int]] = field(default_factory=list)  # (seat, card): a marriage it could have declared


@dataclass
class DealStory:
    """What happened in one deal of the record, as the page tells it."""

    number: int  # 1-based
    dealer: int
    hands: list[list[int]]
    talon: list[int]
    forced: int
    forced_bid: int
    speeches: list[tuple[int, int | None]] = field(default_factory=list)  # (seat, bid or None for a pass)
    declarer: int | None = None
    bid: int = 0
    gives: list[tuple[int, int]] = field(default_factory=list)  # (card, to)
    contract: int | None = None
    tricks: list[Trick] = field(default_factory=list)
    row: dict[str, Any] = field(default_factory=dict)  # the score sheet's row


@dataclass
class GameStory:
    rs: Ruleset
    players: list[str]
    sheet: list[dict[str, Any]]
    deal: DealStory
    winner: int | None
    record: str  # the record's path as the reader finds it in the repository


def _config(data_dir: Path) -> dict[str, Any]:
    path = data_dir / CONFIG
    try:
        cfg: dict[str, Any] = plain(yaml.safe_load(path.read_text(encoding="utf-8")))
        return cfg
    except (OSError, yaml.YAMLError) as exc:
        raise HowtoError(f"{path}: cannot read the page's configuration: {exc}") from None


def _check_assumptions(rs: Ruleset, cfg: dict[str, Any], where: Path) -> None:
    for name, want in (cfg.get("assumes") or {}).items():
        if name not in rs.resolved.values:
            raise HowtoError(f"{where}: assumes {name!r}, which ruleset {rs.name!r} does not have")
        got = plain(rs.param(name))  # as the rule files write it
        if got != want and not (isinstance(got, (list, tuple)) and list(got) == want):
            raise HowtoError(f"{where}: the text is written for {name} = {want!r}, but ruleset {rs.name!r} "
                             f"now has {got!r}; rewrite the how-to-play text and update 'assumes'")


def tell(root: Path, data_dir: Path) -> GameStory:
    """Validate the configured record and replay it, keeping the story of the chosen deal."""
    cfg = _config(data_dir)
    # The record is named from the configuration file, so that the page can be made for a copy of the
    # rule files (a house tree) from the same bundled game.
    path = (data_dir / str(cfg["record"])).resolve()
    try:
        rec = read_record(path)
    except OracleError as exc:
        raise HowtoError(f"{path}: {exc}") from None
    # The record is played by the rule files the site is made from (a scratch copy in the tests), not by
    # whatever the interpreter would find by default.
    try:
        rules = load_ruleset(record_request(rec).under(root))
    except OracleError as exc:
        raise HowtoError(f"{path}: {exc}") from None
    judgement = judge(rec, rules=rules)
    verdict, replay = judgement.verdict, judgement.replay
    if verdict.error is not None or not verdict.valid or replay is None:
        why = verdict.error.message if verdict.error else verdict.violations[0].format()
        raise HowtoError(f"{path}: the how-to-play record must be valid: {why}")
    if verdict.ruleset != cfg["ruleset"]:
        raise HowtoError(f"{path}: the record is played under {verdict.ruleset!r}, the page explains "
                         f"{cfg['ruleset']!r}")
    rs = replay.rs
    _check_assumptions(rs, cfg, data_dir / CONFIG)
    wanted = int(cfg["deal"])
    if not 1 <= wanted <= replay.deals_reached:
        raise HowtoError(f"{data_dir / CONFIG}: deal {wanted}, but the record has {replay.deals_reached} deals")
    story = _tell_deal(replay.game_at(wanted - 1, 0), wanted, replay.applied_in(wanted - 1))
    final = judgement.game
    assert final is not None
    story.row = final.sheet[wanted - 1]
    shown = path.relative_to(root.resolve()).as_posix() if path.is_relative_to(root.resolve()) else path.name
    return GameStory(rs, list(replay.players), list(final.sheet), story, final.v["winner"], shown)


def _tell_deal(game: Game, number: int, actions: list[Action]) -> DealStory:
    v = game.v
    story: DealStory | None = None
    plays: list[tuple[int, int, bool]] = []
    missed: list[tuple[int, int]] = []
    marriage = 0
    for a in actions:
        if a.kind == "play" and story is not None and not a.payload["marriage"]:
            # A king or queen led without «хвалю» where the rules would have taken the declaration.
            declared = Action(a.kind, a.seat, {**a.payload, "marriage": True})
            if game.check(declared) is None:
                missed.append((a.seat, a.payload["card"]))
        before_won = list(v["tricks_won"])
        before_marriage = sum(v["marriage_points"])
        before_trump = v["trump"]
        rows = len(game.sheet)
        game.apply(a)
        # The last card of a deal scores it and sets up the next one: read the deal's counts off the sheet.
        now = game.sheet[-1] if len(game.sheet) > rows else v
        trump = before_trump if now is not v else v["trump"]
        if story is None:
            # The first action of a deal is the deal itself (the chance action): hands and talon.
            story = DealStory(number, v["dealer"], [list(h) for h in v["hand"]], list(v["talon"]),
                              v["bidder"], v["bid"])
            continue
        if a.kind == "bid":
            story.speeches.append((a.seat, int(a.payload["value"])))
        elif a.kind == "pass" and v["phase"] in ("bidding", "talon"):
            story.speeches.append((a.seat, None))
            if v["declarer"] is not None:
                story.declarer, story.bid = v["declarer"], v["contract"]
        elif a.kind == "give":
            story.gives.append((a.payload["card"], a.payload["to"]))
        elif a.kind == "announce":
            story.contract = int(a.payload["value"])
        elif a.kind == "play":
            plays.append((a.seat, a.payload["card"], bool(a.payload["marriage"])))
            marriage += sum(now["marriage_points"]) - before_marriage
            won = [i for i, (x, y) in enumerate(zip(before_won, now["tricks_won"], strict=True)) if y > x]
            if won:
                story.tricks.append(Trick(plays, won[0], trump, marriage, missed))
                plays, missed, marriage = [], [], 0
    if story is None:
        raise HowtoError(f"deal {number} of the record has no actions")
    return story


# --------------------------------------------------------------------------- words and cards

@dataclass
class Words:
    """The words of one language that the pictures and facts use."""

    lang: str
    data: dict[str, Any]
    rs: Ruleset
    players: list[str]

    def __getitem__(self, key: str) -> str:
        if key not in self.data:
            raise HowtoError(f"{CONFIG}: words.{self.lang} has no {key!r}")
        return str(self.data[key])

    def name(self, seat: int, case: str = "nom") -> str:
        """A player's name, declined where the language declines names (``names`` gives each case)."""
        p = self.players[seat]
        forms = (self.data.get("names") or {}).get(p)
        if forms is None:
            return p
        if not isinstance(forms, dict) or case not in forms:
            raise HowtoError(f"{CONFIG}: words.{self.lang}.names.{p} has no {case!r} (cases: {', '.join(CASES)})")
        return str(forms[case])

    def face(self, c: int) -> Face:
        ranks = _v(self.rs, str(self.data.get("rank_letters") or "notation_ranks"))
        n = len(ranks)
        return Face(str(ranks[c % n]), self.rs.deck.suits[c // n])

    def card(self, c: int) -> str:
        """A card in running text: rank letter and suit sign."""
        signs = _v(self.rs, "notation_suits_alt")
        f = self.face(c)
        return f"{f.rank}{signs[c // len(self.rs.deck.ranks)]}"

    def suit(self, s: int) -> str:
        return str(self.data["suits"][self.rs.deck.suits[s]])

    def sign(self, s: int) -> str:
        return str(_v(self.rs, "notation_suits_alt")[s])


def _v(rs: Ruleset, name: str) -> Any:
    """A parameter as the interpreter holds it: cards, ranks and suits by number."""
    return rs.params[name].value


def _sorted_hand(rs: Ruleset, cards: list[int]) -> list[int]:
    """A hand as a player holds it: by suit, high cards first."""
    n = len(rs.deck.ranks)
    order = {r: i for i, r in enumerate(_v(rs, "rank_order"))}
    return sorted(cards, key=lambda c: (c // n, order[c % n]))


def _points(rs: Ruleset, c: int) -> int:
    return int(_v(rs, "card_points")[c % len(rs.deck.ranks)])


# --------------------------------------------------------------------------- pictures

def _pack(w: Words) -> Picture:
    rs = w.rs
    n = len(rs.deck.ranks)
    rows = []
    for s in range(len(rs.deck.suits)):
        cards = [s * n + r for r in _v(rs, "rank_order")]
        rows.append(Row(w.suit(s), [w.face(c) for c in cards], captions=[str(_points(rs, c)) for c in cards]))
    return rows_picture(rows, w["pack"], scale=0.8)


def _deal(w: Words, d: DealStory) -> Picture:
    rows = []
    for s, hand in enumerate(d.hands):
        note = w["deals"] if s == d.dealer else (f"{w['on_hundred']} ({d.forced_bid})" if s == d.forced else "")
        rows.append(Row(w.name(s), [w.face(c) for c in _sorted_hand(w.rs, hand)], overlap=True, note=note))
    rows.append(Row(w["talon"], [None] * len(d.talon)))
    return rows_picture(rows, w["talon"], note_width=150)


def _auction(w: Words, d: DealStory, seats: list[int]) -> Picture:
    rows: list[list[Cell]] = []
    blank = [Cell("") for _ in seats]
    first = list(blank)
    first[seats.index(d.forced)] = Cell(f"{d.forced_bid} ({w['on_hundred']})", colour="#607d8b")
    rows.append(first)
    last_bid = max((i for i, (_, b) in enumerate(d.speeches) if b is not None), default=None)
    for i, (seat, bid) in enumerate(d.speeches):
        row = list(blank)
        if bid is None:
            row[seats.index(seat)] = Cell(w["pass"], colour="#607d8b")
        else:
            row[seats.index(seat)] = Cell(str(bid), bold=True, colour="#2e7d32" if i == last_bid else "#263238",
                                          fill="#e8f5e9" if i == last_bid else "")
        rows.append(row)
    return table_picture([w.name(s) for s in seats], rows, w["pass"], [160] * len(seats),
                         ["middle"] * len(seats))


def _talon(w: Words, d: DealStory) -> Picture:
    assert d.declarer is not None
    hand = _sorted_hand(w.rs, d.hands[d.declarer] + d.talon)
    marks = [Mark.LIFTED if c in d.talon else Mark.PLAIN for c in hand]
    return rows_picture([Row(w["talon"], [w.face(c) for c in d.talon]),
                         Row(w.name(d.declarer), [w.face(c) for c in hand], marks, overlap=True,
                             note=w["from_talon"] + ": " + " ".join(w.card(c) for c in d.talon))],
                        w["talon"])


def _give(w: Words, d: DealStory) -> Picture:
    assert d.declarer is not None
    hand = _sorted_hand(w.rs, d.hands[d.declarer] + d.talon)
    given = {c: to for c, to in d.gives}
    marks = [Mark.LIFTED if c in given else Mark.PLAIN for c in hand]
    captions = [f"{w['to']} {w.name(given[c])}" if c in given else "" for c in hand]
    return rows_picture([Row(w.name(d.declarer), [w.face(c) for c in hand], marks, captions)], w["talon"])


def _tricks(w: Words, d: DealStory) -> Picture:
    rows = []
    for i, t in enumerate(d.tricks, 1):
        pts = sum(_points(w.rs, c) for _, c, _ in t.plays)
        marks = [Mark.WINNER if seat == t.winner else Mark.PLAIN for seat, _, _ in t.plays]
        note = w["took"].format(name=w.name(t.winner), points=pts)
        if t.trump is not None:
            note += f" · {w['trump']} {w.sign(t.trump)}"
        colour = "#263238"
        if t.marriage:
            # Whose marriage it is, said apart from who took the trick: the two are often not the same.
            by, card = next((s, c) for s, c, m in t.plays if m)
            note += " · " + w["marriage_by"].format(name=w.name(by, "gen"), suit=w.sign(card // len(w.rs.deck.ranks)),
                                                   points=t.marriage)
            colour = RED
        rows.append(Row(str(i), [w.face(c) for _, c, _ in t.plays], marks, [w.name(s) for s, _, _ in t.plays],
                        note, note_colour=colour))
    return rows_picture(rows, w["trump"], scale=0.8, label_width=26, note_width=330)


def _sheet(g: GameStory, w: Words) -> Picture:
    rs, players = g.rs, g.players
    cols = rs.sheet
    symbol = {m: mark_symbol(x, m, w.lang) for m, x in rs.marks.items()}
    rows = []
    for row in g.sheet:
        decl = row.get(cols.declarer)
        contract = ""
        if decl is not None:
            contract = f"{w.name(decl)} {row.get(cols.contract, '')}"
            if row.get(cols.conceded):
                contract += " " + symbol[cols.conceded_mark]
        cells = [Cell(str(row["deal"] + 1)), Cell(w.name(row["dealer"])), Cell(contract)]
        for s in range(len(players)):
            marks = [m for m, who in row.get("marks", []) if who == s and m != cols.conceded_mark]
            text = f"{row[cols.points][s]:+d}  {row[cols.total][s]}" + ("  " + "".join(symbol[m] for m in marks)
                                                                        if marks else "")
            fill = ""
            colour = "#263238"
            if any(m in BOLT_MARKS for m in marks):
                colour, fill = RED, "#fff3e0"
            if any(m in BARREL_MARKS for m in marks):
                colour, fill = "#1565c0", "#e3f2fd"
            if "win" in marks:
                colour, fill = "#2e7d32", "#e8f5e9"
            cells.append(Cell(text, colour=colour, bold=bool(marks), fill=fill))
        rows.append(cells)
    used = [m for m in rs.marks if any(m == x for r in g.sheet for x, _ in r.get("marks", []))]
    legend = [f"{symbol[m]}  {rs.marks[m][w.lang]}" for m in used]
    heads = [w["deal_col"], w["dealer_col"], w["contract_col"], *(w.name(s) for s in range(len(players)))]
    return table_picture(heads, rows, w["contract_col"], [40, 80, 120, *([150] * len(players))],
                         ["end", "start", "start", *(["end"] * len(players))], row_h=21, legend=legend)


# --------------------------------------------------------------------------- facts

def _facts(g: GameStory, w: Words, images: dict[str, str]) -> dict[str, Callable[[], str]]:
    """Every placeholder the text may use, computed only when used (a missing event is an error then)."""
    rs, d = g.rs, g.deal
    def p(name: str) -> Any:
        return _v(rs, name)

    n_ranks = len(rs.deck.ranks)
    n_suits = len(rs.deck.suits)

    def need(value: _T | None, what: str) -> _T:
        if value is None or value == []:
            raise HowtoError(f"the how-to-play record has no {what}; choose a record or a deal that has one")
        return value

    def first_mark(marks: tuple[str, ...]) -> tuple[int, int]:
        for row in g.sheet:
            for m, s in row.get("marks", []):
                if m in marks:
                    return row["deal"] + 1, s
        raise HowtoError(f"the how-to-play record has no {' or '.join(marks)} on its score sheet")

    def marriage_trick() -> tuple[int, Trick]:
        return need(next(((i, t) for i, t in enumerate(d.tricks, 1) if t.marriage), None), "marriage in the deal")

    def marriage_card() -> int:
        return next(c for _, c, m in marriage_trick()[1].plays if m)

    def values_table() -> str:
        rows = []
        for r in p("rank_order"):
            rows.append([f"**{w.face(r).rank}**", str(w.data["ranks"][rs.deck.ranks[r]]), str(p("card_points")[r])])
        return table([w["card_col"], w["name_col"], w["points"]], rows)

    def marriages_table() -> str:
        rows = [[f"{w.card(s * n_ranks + p('marriage_ranks')[0])} + {w.card(s * n_ranks + p('marriage_ranks')[1])}",
                 w.suit(s), str(p("marriage_values")[s])]
                for s in sorted(range(n_suits), key=lambda s: -p("marriage_values")[s])]
        return table([w["marriage_col"], w["suit_col"], w["points"]], rows)

    def score_table() -> str:
        row = d.row
        rows = []
        for s in range(len(g.players)):
            taken = sum(_points(rs, c) for t in d.tricks if t.winner == s for _, c, _ in t.plays)
            role = f" ({w['contract_col']} {d.contract})" if s == d.declarer else ""
            rows.append([w.name(s) + role, str(taken),
                         str(row["marriage_points"][s]), str(row["taken_points"][s]), f"{row['delta'][s]:+d}"])
        heads = [w[k] for k in ("player_col", "cards_col", "marriages_col", "taken_col", "written_col")]
        return table(heads, rows)

    def declarer() -> int:
        return need(d.declarer, "declarer in the deal")

    def gives(i: int) -> tuple[int, int]:
        return need(d.gives[i] if len(d.gives) > i else None, "card given away in the deal")

    def missed() -> tuple[int, int, int]:
        """The first marriage the deal could have declared and did not: (trick, seat, card led)."""
        return need(next(((i, s, c) for i, t in enumerate(d.tricks, 1) for s, c in t.missed), None),
                    "marriage left undeclared in the deal")

    def missed_later() -> int:
        """The trick in which the other card of that marriage was played."""
        other = _partner(rs, missed()[2])
        return need(next((i for i, t in enumerate(d.tricks, 1) if any(c == other for _, c, _ in t.plays)), None),
                    "later trick with the other card of the undeclared marriage")

    def barrel_bolt() -> tuple[int, int]:
        """A third bolt on the barrel: its penalty is marked, the sitter's score does not move."""
        for row in g.sheet:
            for m, s in row.get("marks", []):
                if m == "bolt-penalty" and row[rs.sheet.total][s] == p("barrel_threshold"):
                    return row["deal"] + 1, s
        raise HowtoError("the how-to-play record has no third bolt on the barrel; choose a record that has one")

    # Facts that are a player: the text names them in the case it needs ({{declarer@gen}}).
    seats: dict[str, Callable[[], int]] = {
        "dealer": lambda: d.dealer,
        "forced": lambda: d.forced,
        "first_speaker": lambda: d.speeches[0][0],
        "declarer": declarer,
        "give1_to": lambda: gives(0)[1],
        "give2_to": lambda: gives(1)[1],
        "marriage_player": lambda: next(s for s, _, m in marriage_trick()[1].plays if m),
        "marriage_taker": lambda: marriage_trick()[1].winner,
        "missed_player": lambda: missed()[1],
        "winner": lambda: need(g.winner, "winner"),
        "bolt_player": lambda: first_mark(("bolt",))[1],
        "bolt_penalty_player": lambda: first_mark(("bolt-penalty",))[1],
        "barrel_bolt_player": lambda: barrel_bolt()[1],
        "barrel_player": lambda: first_mark(("barrel-mount",))[1],
        "barrel_fall_player": lambda: first_mark(("barrel-fall",))[1],
        "rospis_player": lambda: first_mark(("rospis",))[1],
    }

    facts: dict[str, Callable[[], str]] = {
        "target": lambda: str(p("target")),
        "players": lambda: str(p("players")),
        "pack_size": lambda: str(n_ranks * n_suits),
        "hand_size": lambda: str(p("hand_size")),
        "talon_size": lambda: str(p("talon_size")),
        "tricks": lambda: str(n_ranks * n_suits // p("players")),
        "hand_after_talon": lambda: str(p("hand_size") + p("talon_size")),
        "hand_in_play": lambda: str(n_ranks * n_suits // p("players")),
        "deck_total": lambda: str(p("deck_total")),
        "suit_total": lambda: str(p("deck_total") // n_suits),
        "rank_order": lambda: ", ".join(w.face(r).rank for r in p("rank_order")),
        "values_table": values_table,
        "marriages_table": marriages_table,
        "forced_bid": lambda: str(p("forced_bid")),
        "bid_step": lambda: str(p("bid_step")),
        "max_bid": lambda: str(p("max_bid")),
        "penalty": lambda: str(p("penalty")),
        "bolt_limit": lambda: str(p("bolt_limit")),
        "barrel_threshold": lambda: str(p("barrel_threshold")),
        "barrel_attempts": lambda: str(p("barrel_attempts")),
        "barrel_fallen": lambda: str(p("barrel_threshold") - p("penalty")),
        "falls_limit": lambda: str(p("falls_limit")),
        "rospis_points": lambda: str(p("rospis_opponent_points")),
        "exposed_card_penalty": lambda: str(p("exposed_card_penalty")),
        "record": lambda: code(g.record),
        "deal_no": lambda: str(d.number),
        "bid": lambda: str(d.bid),
        "contract": lambda: str(need(d.contract, "announced contract")),
        "talon_cards": lambda: ", ".join(w.card(c) for c in d.talon),
        "give1_card": lambda: w.card(gives(0)[0]),
        "give2_card": lambda: w.card(gives(1)[0]),
        "marriage_card": lambda: w.card(marriage_card()),
        "marriage_other": lambda: w.card(_partner(rs, marriage_card())),
        "marriage_suit": lambda: w.suit(marriage_card() // n_ranks),
        "marriage_sign": lambda: w.sign(marriage_card() // n_ranks),
        "marriage_value": lambda: str(marriage_trick()[1].marriage),
        "marriage_trick": lambda: str(marriage_trick()[0]),
        "declarer_taken": lambda: str(d.row["taken_points"][declarer()]),
        "declarer_written": lambda: f"{d.row['delta'][declarer()]:+d}",
        "score_table": score_table,
        "game_deals": lambda: str(len(g.sheet)),
        "winner_score": lambda: str(g.sheet[-1][g.rs.sheet.total][need(g.winner, "winner")]),
        "missed_trick": lambda: str(missed()[0]),
        "missed_card": lambda: w.card(missed()[2]),
        "missed_other": lambda: w.card(_partner(rs, missed()[2])),
        "missed_suit": lambda: w.suit(missed()[2] // n_ranks),
        "missed_value": lambda: str(p("marriage_values")[missed()[2] // n_ranks]),
        "missed_later": lambda: str(missed_later()),
        "barrel_bolt_deal": lambda: str(barrel_bolt()[0]),
        "bolt_deal": lambda: str(first_mark(("bolt",))[0]),
        "bolt_penalty_deal": lambda: str(first_mark(("bolt-penalty",))[0]),
        "barrel_deal": lambda: str(first_mark(("barrel-mount",))[0]),
        "barrel_fall_deal": lambda: str(first_mark(("barrel-fall",))[0]),
        "barrel_exit_deal": lambda: str(first_mark(("barrel-exit",))[0]),
        "rospis_deal": lambda: str(first_mark(("rospis",))[0]),
    }
    def named(seat: Callable[[], int], case: str) -> Callable[[], str]:
        return lambda: w.name(seat(), case)

    def figure(key: str, src: str) -> Callable[[], str]:
        return lambda: f"![{w.data['alt'][key]}]({src})"

    for key, seat in seats.items():
        facts[key] = named(seat, "nom")
        for case in CASES:
            facts[f"{key}{CASE}{case}"] = named(seat, case)
    for key, src in images.items():
        facts[f"fig_{key}"] = figure(key, src)
    return facts


def _partner(rs: Ruleset, c: int) -> int:
    """The other card of the marriage that ``c`` belongs to."""
    n = len(rs.deck.ranks)
    ranks: list[int] = list(_v(rs, "marriage_ranks"))
    other = ranks[1] if c % n == ranks[0] else ranks[0]
    return (c // n) * n + other


def howto_files(site: Site, data_dir: Path, langs: Sequence[str]) -> dict[str, str]:
    """The page and its pictures in every language, by their path under the generated folder."""
    story = tell(site.library.root, data_dir)
    cfg = _config(data_dir)
    files: dict[str, str] = {}
    for lang in langs:
        files.update(_howto_lang(site, data_dir, cfg, story, lang))
    return files


def _howto_lang(site: Site, data_dir: Path, cfg: dict[str, Any], story: GameStory, lang: str) -> dict[str, str]:
    w = Words(lang, dict(cfg["words"][lang]), story.rs, story.players)
    d = story.deal
    seats = [(d.dealer + 1 + i) % len(story.players) for i in range(len(story.players))]
    pictures = {"pack": _pack(w), "deal": _deal(w, d), "auction": _auction(w, d, seats), "talon": _talon(w, d),
                "give": _give(w, d), "tricks": _tricks(w, d), "sheet": _sheet(story, w)}
    for key, pic in pictures.items():
        pic.title = str(w.data["alt"][key])
    # The i18n plugin's suffix layout, as for pages: one link to x.svg shows x.ru.svg on a Russian page.
    files = {f"{FIGURES}/{key}{LANG_SUFFIX[lang]}.svg": pic.svg() for key, pic in pictures.items()}
    images = {key: f"{FIGURES}/{key}.svg" for key in pictures}
    facts = _facts(story, w, images)
    template = data_dir / f"how-to-play{LANG_SUFFIX[lang]}.md"
    try:
        text = template.read_text(encoding="utf-8")
    except OSError as exc:
        raise HowtoError(f"{template}: {exc.strerror}") from None

    def fill(m: re.Match[str]) -> str:
        key = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        if key.startswith(RULE_LINK):
            rule = site.rule(key[len(RULE_LINK):])
            if rule is None:
                raise HowtoError(f"{template}:{line}: no rule {key[len(RULE_LINK):]!r} to link to")
            return link(HOWTO_PAGE, rule.page)
        fact = facts.get(key)
        if fact is None:
            raise HowtoError(f"{template}:{line}: unknown placeholder {{{{{m.group(1)}}}}}; known: "
                             + ", ".join(sorted(facts)))
        return fact()

    files[page_file(HOWTO_PAGE, lang)] = "\n".join(search_boost(SEARCH_BOOST_HOWTO)) + PLACEHOLDER.sub(fill, text)
    return files
