"""Worked examples for rule pages, taken from the golden game records the test suite checks.

A golden invalid record carries the verdict it must get (``expect``: the deal, the
action, the rule and the reason). Each rule page shows one of them, the one that best
shows the rule: the record is replayed through the oracle up to the refused action,
and the page draws the position as the player saw it (his hand, the trump, the trick
so far), the move refused, the rule's reason, and the moves the engine would have
accepted instead (its ``legal_actions`` at that point). For a wrong result, the page
shows the deal's score as the rules compute it next to the value the record wrote.
Every example on the site is thus one a test has confirmed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import Any

from ..cards import notation
from ..engine import Action, Game, Rejection
from ..errors import OracleError
from ..lang import types as T
from ..records import Violation, judge, parse_record
from ..ruleset import Ruleset, rules_root, tree_digest
from .labels import action_label
from .md import LANG_SUFFIX, code, link, plain, show, table
from .svg import Face, Mark, Row, rows_picture

GOLDEN_DIR = Path("tests") / "golden"  # under the checkout; absent from an installed package, then no examples
EXAMPLE_FIGURES = "figures/examples"
PREFERRED_RULESET = "classic"  # the reading the site recommends; its examples first
WRONG_RESULT = "wrong-result"

# The score sheet's columns a wrong result is explained by, named as players call them.
RESULT_COLUMNS: dict[str, dict[str, str]] = {
    "taken_points": {"en": "taken", "ru": "набрано"},
    "marriage_points": {"en": "of it marriages", "ru": "из них марьяжи"},
    "delta": {"en": "written down", "ru": "записано"},
    "score": {"en": "score after", "ru": "счёт после"},
    "bolts": {"en": "bolts", "ru": "болты"},
}

WORDS: dict[str, dict[str, str]] = {
    "heading": {"en": "Worked example", "ru": "Разбор примера"},
    "intro": {
        "en": "A position from the golden games, replayed by the oracle; the test suite checks this verdict. "
              "Ruleset {ruleset}, deal {deal}{action}.",
        "ru": "Позиция из эталонных игр, воспроизведённая оракулом; этот вердикт проверяют тесты. "
              "Набор правил {ruleset}, партия {deal}{action}.",
    },
    "action_no": {"en": ", action {n}", "ru": ", действие {n}"},
    "trick": {"en": "trick", "ru": "взятка"},
    "hand": {"en": "hand", "ru": "рука"},
    "trump": {"en": "Trump", "ru": "Козырь"},
    "no_trump": {"en": "none yet", "ru": "пока нет"},
    "led": {"en": "suit led", "ru": "масть хода"},
    "trick_so_far": {"en": "Trick so far", "ru": "Во взятке"},
    "empty_trick": {"en": "nothing yet: {seat} is on lead", "ru": "пока пусто: ход за игроком {seat}"},
    "contract": {"en": "Auction", "ru": "Торговля"},
    "contract_text": {"en": "highest bid {bid} by {seat}", "ru": "высшая ставка {bid}, игрок {seat}"},
    "refused": {"en": "Refused", "ru": "Отвергнуто"},
    "reason": {"en": "reason", "ru": "причина"},
    "legal": {"en": "Legal instead", "ru": "Можно было"},
    "in_record": {"en": "in the record", "ru": "в записи"},
    "in_hand": {"en": "{seat} holds", "ru": "У игрока {seat}"},
    "of_led": {"en": "of the suit led {suit}: ", "ru": "в масти хода {suit}: "},
    "trumps": {"en": "trumps {suit}: ", "ru": "козырей {suit}: "},
    "none": {"en": "none", "ru": "нет"},
    "nothing_legal": {"en": "nothing", "ru": "ничего"},
    "alt": {
        "en": "{seat}'s hand; the refused card is crossed out, the cards he may play are outlined in green",
        "ru": "Рука игрока {seat}; отвергнутая карта зачёркнута, карты, которыми можно ходить, обведены зелёным",
    },
    "alt_hand": {"en": "{seat}'s hand at the refused move", "ru": "Рука игрока {seat} в момент отвергнутого хода"},
    "declarer": {"en": "Declarer", "ru": "Разыгрывающий"},
    "declarer_is": {"en": "{seat}, contract {contract}", "ru": "{seat}, заказ {contract}"},
    "dealt": {"en": "The deal as the record writes it", "ru": "Сдача, как она записана"},
    "cards_n": {"en": "{n} cards", "ru": "карт: {n}"},
    "result_intro": {
        "en": "The record writes a wrong result for this deal. The rules give:",
        "ru": "В записи неверный результат этой партии. По правилам должно быть так:",
    },
    "recorded": {"en": "Recorded", "ru": "Записано"},
    "recorded_text": {
        "en": "the record writes {recorded} under {key}{who}; the rules give {truth}",
        "ru": "в записи{who} в графе {key} стоит {recorded}, а по правилам {truth}",
    },
    "for_seat": {"en": " for {seat}", "ru": " у игрока {seat}"},
    "player": {"en": "player", "ru": "игрок"},
    "score_before": {"en": "score before", "ru": "счёт до"},
    "other_examples": {
        "en": "{n} more golden records are rejected under this rule; the test suite checks them all.",
        "ru": "Ещё эталонных записей, отвергнутых по этому правилу: {n}; все их проверяют тесты.",
    },
    "yes": {"en": "yes", "ru": "да"},
    "no": {"en": "no", "ru": "нет"},
}


def word(name: str, lang: str, **kw: Any) -> str:
    return WORDS[name][lang].format(**kw)


@dataclass
class Example:
    path: str  # relative to the checkout
    record: dict[str, Any]
    expect: dict[str, Any]
    text: str = ""  # the file as read, so a replay can point into it

    @property
    def ruleset(self) -> str:
        return str(self.record.get("ruleset", ""))

    @property
    def reason(self) -> str:
        return str(self.expect.get("reason", ""))

    def deal(self) -> dict[str, Any] | None:
        n = self.expect.get("deal")
        deals = self.record.get("deals") or []
        return deals[n - 1] if isinstance(n, int) and 0 < n <= len(deals) else None

    def size(self) -> int:
        """How much of the record the reader has to take in: the actions up to the verdict."""
        deals = self.record.get("deals") or []
        deal = self.expect.get("deal")
        n = deal if isinstance(deal, int) else len(deals)
        before = sum(len(d.get("actions") or []) for d in deals[:max(0, n - 1)])
        act = self.expect.get("action")
        return before + (act if isinstance(act, int) else len((self.deal() or {}).get("actions") or []))

    @cached_property
    def position(self) -> Position | None:
        """The replayed position at the verdict, or None where it cannot be shown."""
        # One run of the docs builds the pages several times (the tests do); replay each record once per
        # content of the record and of the rule files it is played by.
        key = (self.path, self.text, tree_digest(rules_root()))
        if key not in _POSITIONS:
            try:
                _POSITIONS[key] = _replay(self)
            except (OracleError, KeyError, IndexError, TypeError, ValueError):
                _POSITIONS[key] = None  # the golden tests report a record that does not replay
        return _POSITIONS[key]


_POSITIONS: dict[tuple[str, str, str], Position | None] = {}


@dataclass
class Position:
    rs: Ruleset
    players: list[str]
    violation: Violation
    seat: int | None = None
    hand: list[int] = field(default_factory=list)
    trump: int | None = None
    led: int | None = None
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card)
    phase: str = ""
    bid: int | None = None
    bidder: int | None = None
    declarer: int | None = None
    contract: int | None = None
    on_lead: int | None = None
    action: Action | None = None
    rejection: Rejection | None = None
    legal: list[Action] = field(default_factory=list)
    row: dict[str, Any] | None = None  # the score sheet's row, for a wrong result
    dealt: dict[str, Any] = field(default_factory=dict)  # a refused deal: its fields as the record writes them
    before: list[int] | None = None  # the scores before the deal, for a wrong result


def load_examples(root: Path) -> dict[str, list[Example]]:
    """Golden invalid records by the rule they must be rejected under."""
    folder = root / GOLDEN_DIR
    found: dict[str, list[Example]] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.rglob("*.json")):
        try:
            text = path.read_text(encoding="utf-8")
            record = json.loads(text)
        except (OSError, ValueError):
            continue  # not a record; the golden tests report broken files, the docs need not
        expect = record.get("expect") if isinstance(record, dict) else None
        if isinstance(expect, dict) and expect.get("valid") is False and expect.get("rule"):
            found.setdefault(str(expect["rule"]), []).append(
                Example(path.relative_to(root).as_posix(), record, expect, text))
    return found


def choose(examples: list[Example], reasons: list[str]) -> Example | None:
    """The example that shows a rule best.

    A refusal by one of the rule's own guards comes first, in the order the rule file
    lists them, then a wrong result the rule decides, then anything else; within that,
    the recommended ruleset, then the record with the least to read before the verdict.
    """
    def rank(ex: Example) -> tuple[Any, ...]:
        order = reasons.index(ex.reason) if ex.reason in reasons else len(reasons) + (ex.reason != WRONG_RESULT)
        return (order, ex.ruleset != PREFERRED_RULESET, ex.size(), ex.path)

    ranked = sorted(examples, key=rank)
    # Replaying is the costly part: only as far as the first record whose position can be shown.
    return next((ex for ex in ranked if ex.position is not None), ranked[0] if ranked else None)


def guard_reasons(doc: Any) -> list[str]:
    """The reasons of a rule's own refusals, in the order its file lists them."""
    return [str(cl["reason"]) for cl in plain(doc.get("logic") or []) if cl.get("forbid") and cl.get("reason")]


def rule_example(doc: Any, examples: list[Example], page: str, lang: str) -> list[str]:
    """The worked example of a rule page: the golden record that shows the rule best."""
    ex = choose(examples, guard_reasons(doc))
    return [] if ex is None else example_section(ex, len(examples) - 1, page, lang)


def example_files(rules: list[tuple[Any, list[Example]]], langs: Any) -> dict[str, str]:
    """The pictures of the rule pages' worked examples, by their path under the generated folder."""
    files: dict[str, str] = {}
    for doc, examples in rules:
        ex = choose(examples, guard_reasons(doc))
        for lang in langs:
            svg = example_figure(ex, lang) if ex is not None else None
            if svg is not None:
                files[figure_key(doc.id, lang)] = svg
    return files


# --------------------------------------------------------------------------- replaying to the verdict

def _replay(ex: Example) -> Position | None:
    rec = parse_record(ex.text or json.dumps(ex.record), ex.path)
    judgement = judge(rec)
    verdict, r = judgement.verdict, judgement.replay
    if verdict.error is not None or not verdict.violations or r is None:
        return None
    v = verdict.violations[0]
    if v.rule != ex.expect.get("rule") or v.reason != ex.reason or v.deal is None:
        return None
    di = v.deal - 1
    deal = ex.record["deals"][di]
    # The replay stopped at the violation: the deal's actions it applied lead to the position shown.
    game = r.game_at(di)
    pos = Position(r.rs, list(r.players), v)
    stop = v.action - 1 if v.action is not None else None
    actions = deal.get("actions") or []
    _describe(game, pos)
    if stop is not None:
        action = r.read_action(actions[stop], di, stop)
        if action is None:
            return None
        pos.action = action
        pos.seat = action.seat
        pos.hand = list(game.v["hand"][action.seat]) if "hand" in game.v else []
        pos.rejection = game.check(action)
        legal = game.legal_actions(action.seat)
        # The same kind of move if there is one; otherwise what the player could do instead.
        pos.legal = [a for a in legal if a.kind == action.kind] or legal
        if pos.rejection is None or pos.rejection.reason != ex.reason:
            return None
    elif ex.reason != WRONG_RESULT:
        # The deal itself was refused (the chance action at the deal's level): show it as written.
        kind = v.what.split(" ", 1)[0]
        decl = r.rs.actions.get(kind)
        if decl is None:
            return None
        pos.dealt = {f: deal[f] for f, _ in decl.fields if f in deal}
    else:
        pos.row = game.sheet[di] if len(game.sheet) > di else None
        if pos.row is None:
            return None
        total = game.rs.sheet.total
        if di > 0 and isinstance(game.sheet[di - 1].get(total), list):
            pos.before = list(game.sheet[di - 1][total])
    return pos


def _describe(game: Game, pos: Position) -> None:
    """The public facts of the position: what every player at the table can see."""
    v = game.v
    pos.phase = str(v["phase"])
    pos.trump = v.get("trump")
    pos.led = v.get("led")
    pos.trick = list(zip(v.get("trick_by") or [], v.get("trick") or [], strict=False))
    pos.bid, pos.bidder = v.get("bid"), v.get("bidder")
    pos.declarer, pos.contract = v.get("declarer"), v.get("contract")
    pos.on_lead = v.get("turn")


# --------------------------------------------------------------------------- showing it

@dataclass
class _Cards:
    rs: Ruleset
    lang: str

    @cached_property
    def ranks(self) -> tuple[str, ...]:
        name = "notation_ranks_alt" if self.lang == "ru" else "notation_ranks"
        return tuple(self.rs.params[name].value) if name in self.rs.params else self.rs.deck.ranks

    def face(self, c: int) -> Face:
        n = len(self.rs.deck.ranks)
        return Face(str(self.ranks[c % n]), self.rs.deck.suits[c // n])

    def sign(self, s: int) -> str:
        p = self.rs.params.get("notation_suits_alt")
        return str(p.value[s]) if p is not None else self.rs.deck.suits[s]

    def text(self, c: int) -> str:
        return f"{self.face(c).rank}{self.sign(c // len(self.rs.deck.ranks))}"

    def sorted(self, cards: list[int]) -> list[int]:
        n = len(self.rs.deck.ranks)
        order = self.rs.params["rank_order"].value if "rank_order" in self.rs.params else tuple(range(n))
        at = {r: i for i, r in enumerate(order)}
        return sorted(cards, key=lambda c: (c // n, at.get(c % n, 0)))


def _value_text(pos: Position, cards: _Cards, t: str, value: Any, lang: str) -> str:
    b = T.base(T.normalize(t))
    if value is None:
        return "—"
    if b == "card":
        return cards.text(value)
    if b == "seat":
        name: str = pos.players[value]
        return name
    if b == "suit":
        return cards.sign(value)
    if b == "bool":
        return word("yes" if value else "no", lang)
    item = T.list_elem(b)
    if item is not None:
        return " ".join(_value_text(pos, cards, item, x, lang) for x in value)
    return str(value)


def _ints(values: list[int]) -> str:
    """Whole numbers, with evenly spaced runs shortened: 105, 110 … 300."""
    values = sorted(set(values))
    if len(values) > 3 and len({b - a for a, b in pairwise(values)}) == 1:
        return f"{values[0]}, {values[1]} … {values[-1]}"
    return ", ".join(str(x) for x in values)


def record_text(pos: Position, action: Action, lang: str, cards: _Cards) -> str:
    """An action as the record writes it: the seat, the action's name, its payload."""
    decl = pos.rs.actions[action.kind]
    fields = " ".join(f"{f} {_value_text(pos, cards, t, action.payload[f], lang)}" for f, t in decl.fields
                      if not (T.base(t) == "bool" and action.payload[f] is False))
    return f"{pos.players[action.seat]}: {action.kind}" + (f" {fields}" if fields else "")


def move_text(pos: Position, action: Action, lang: str, cards: _Cards) -> str:
    """An action as a player would say it («P2: ход Д♥»), with the record's notation beside it."""
    decl = pos.rs.actions[action.kind]
    fields = {f: _value_text(pos, cards, t, action.payload[f], lang) for f, t in decl.fields if T.base(t) != "bool"}
    flags = [f for f, t in decl.fields if T.base(t) == "bool" and action.payload[f] is True]
    said = action_label(action.kind, fields, flags, lang)
    written = code(record_text(pos, action, lang, cards))
    if said is None:
        return written
    return f"{pos.players[action.seat]}: {said} ({word('in_record', lang)} {written})"


def legal_text(pos: Position, lang: str, cards: _Cards) -> str:
    """The legal alternatives, field by field: every card that may be played, the range of bids."""
    if not pos.legal:
        return word("nothing_legal", lang)
    kinds = list(dict.fromkeys(a.kind for a in pos.legal))
    return "; ".join(_kind_text(pos, [a for a in pos.legal if a.kind == k], lang, cards) for k in kinds)


def _kind_text(pos: Position, legal: list[Action], lang: str, cards: _Cards) -> str:
    decl = pos.rs.actions[legal[0].kind]
    fields: dict[str, str] = {}
    for f, t in decl.fields:
        values = [a.payload[f] for a in legal]
        if T.base(t) == "int":
            fields[f] = _ints(values)
        elif T.base(t) == "card":
            fields[f] = ", ".join(cards.text(c) for c in cards.sorted(sorted(set(values))))
        elif T.base(t) != "bool":
            fields[f] = ", ".join(dict.fromkeys(_value_text(pos, cards, t, x, lang) for x in values))
    said = action_label(decl.name, fields, [], lang)
    if said is not None:
        return said
    parts = []
    for f, t in decl.fields:
        values = [a.payload[f] for a in legal]
        if T.base(t) == "bool":
            continue  # a flag (a marriage declared, a blind bid) says how, not what; the other fields say what
        if T.base(t) == "int":
            parts.append(f"{code(f)} {_ints(values)}")
        elif T.base(t) == "card":
            parts.append(f"{code(f)} " + ", ".join(cards.text(c) for c in cards.sorted(sorted(set(values)))))
        else:
            shown = list(dict.fromkeys(_value_text(pos, cards, t, x, lang) for x in values))
            parts.append(f"{code(f)} " + ", ".join(shown))
    return code(decl.name) + (" (" + "; ".join(parts) + ")" if parts else "")


def example_figure(ex: Example, lang: str) -> str | None:
    """The SVG of the example's position: the trick so far and the actor's hand."""
    pos = ex.position
    if pos is None or pos.action is None or not pos.hand:
        return None
    cards = _Cards(pos.rs, lang)
    rows = []
    if pos.trick:
        rows.append(Row(word("trick", lang), [cards.face(c) for _, c in pos.trick],
                        captions=[pos.players[s] for s, _ in pos.trick]))
    card = pos.action.payload.get("card") if "card" in pos.action.payload else None
    legal_cards = {a.payload.get("card") for a in pos.legal}
    hand = cards.sorted(pos.hand)
    marks = []
    for c in hand:
        if card is None or (c != card and not legal_cards - {None}):
            marks.append(Mark.PLAIN)  # no card to choose instead: the hand is shown as it is
        elif c == card:
            marks.append(Mark.REFUSED)
        else:
            marks.append(Mark.LEGAL if c in legal_cards else Mark.DIM)
    name = pos.players[pos.seat] if pos.seat is not None else ""
    rows.append(Row(f"{word('hand', lang)}: {name}", [cards.face(c) for c in hand], marks,
                    captions=["✗" if m is Mark.REFUSED else "" for m in marks]))
    return rows_picture(rows, word("alt", lang, seat=name), scale=0.85).svg()


def figure_key(rule_id: str, lang: str) -> str:
    # Dots become folders, as for the rule pages: a dotted name could pass for a language suffix.
    return f"{EXAMPLE_FIGURES}/{rule_id.replace('.', '/')}{LANG_SUFFIX[lang]}.svg"


def _message(rule_doc: Any, reason: str, lang: str, fallback: str) -> str:
    """Why the move is refused, in the reader's language.

    The message of the rule file's clause with that reason where the file has it in this language,
    else the rule's title (every rule file has one in each language).
    """
    for cl in plain(rule_doc.get("logic") or []) if rule_doc is not None else []:
        if cl.get("reason") == reason and cl.get("message"):
            m = cl["message"]
            if isinstance(m, dict) and m.get(lang):
                return str(m[lang])
            if isinstance(m, str) and lang == "en":
                return m
    title = plain(rule_doc.get("title")) if rule_doc is not None else None
    if isinstance(title, dict) and title.get(lang):
        return str(title[lang])
    return fallback if lang == "en" else ""


def example_section(ex: Example, others: int, page: str, lang: str) -> list[str]:
    """The worked example's Markdown, for the rule page ``page``."""
    pos = ex.position
    out: list[str] = []
    act = word("action_no", lang, n=ex.expect["action"]) if isinstance(ex.expect.get("action"), int) else ""
    out += [word("intro", lang, ruleset=code(ex.ruleset), deal=ex.expect.get("deal"),
                 action=act), ""]
    if pos is None:
        out += [f"**{word('refused', lang)}**, {word('reason', lang)} {code(ex.reason)}.", ""]
    else:
        cards = _Cards(pos.rs, lang)
        out += _position_lines(ex, pos, page, lang, cards)
    if others:
        out += [word("other_examples", lang, n=others), ""]
    return out


def _position_lines(ex: Example, pos: Position, page: str, lang: str, cards: _Cards) -> list[str]:
    def seat(s: int | None) -> str:
        return pos.players[s] if s is not None else "—"

    facts = []
    row = pos.row or {}
    declarer = row.get("declarer", pos.declarer) if pos.row is not None else pos.declarer
    contract = row.get("contract", pos.contract) if pos.row is not None else pos.contract
    if pos.action is not None and (pos.trump is not None or pos.phase == "play"):
        facts.append(f"**{word('trump', lang)}:** " + (cards.sign(pos.trump) if pos.trump is not None
                                                        else word("no_trump", lang)))
    if declarer is not None:
        facts.append(f"**{word('declarer', lang)}:** "
                     + word("declarer_is", lang, seat=seat(declarer), contract=contract))
    elif pos.action is not None and pos.bid is not None and pos.phase == "bidding":
        facts.append(f"**{word('contract', lang)}:** "
                     + word("contract_text", lang, bid=pos.bid, seat=seat(pos.bidder)))
    if pos.action is not None and pos.phase == "play":
        if pos.trick:
            led = f" ({word('led', lang)} {cards.sign(pos.led)})" if pos.led is not None else ""
            facts.append(f"**{word('trick_so_far', lang)}:** "
                         + ", ".join(f"{seat(s)} {cards.text(c)}" for s, c in pos.trick) + led)
        else:
            facts.append(f"**{word('trick_so_far', lang)}:** " + word("empty_trick", lang, seat=seat(pos.seat)))
        # What the follow-suit and trump rules look at: the player's cards of the suit led and his trumps.
        n = len(pos.rs.deck.ranks)
        held = []
        for suit, what in ((pos.led, "of_led"), (pos.trump, "trumps")):
            if suit is not None and pos.trick and not (what == "trumps" and suit == pos.led):
                mine = [c for c in cards.sorted(pos.hand) if c // n == suit]
                held.append(word(what, lang, suit=cards.sign(suit))
                            + (", ".join(cards.text(c) for c in mine) if mine else word("none", lang)))
        if held:
            facts.append(f"**{word('in_hand', lang, seat=seat(pos.seat))}:** " + "; ".join(held))
    out: list[str] = []
    v = pos.violation
    if pos.action is not None:
        # The situation first, then the hand as the player saw it, then what was refused and what was not.
        out += [*(f"- {f}" for f in facts), ""] if facts else []
        fig = example_figure(ex, lang)
        if fig is not None:
            alt = "alt" if "card" in pos.action.payload else "alt_hand"
            out += [f"![{word(alt, lang, seat=seat(pos.seat))}]({link(page, figure_key(ex.expect['rule'], 'en'))})",
                    ""]
        rej = pos.rejection
        assert rej is not None
        msg = _message(pos.rs.rules.get(rej.rule_id), rej.reason, lang, rej.message)
        return [*out, f"- **{word('refused', lang)}:** {move_text(pos, pos.action, lang, cards)} — "
                f"{word('reason', lang)} {code(rej.reason)}" + (f": *{msg}*" if msg else ""),
                f"- **{word('legal', lang)}:** {legal_text(pos, lang, cards)}", ""]
    if pos.dealt:
        out += [f"**{word('dealt', lang)}:**", ""]
        for f, value in pos.dealt.items():
            out.append(f"- {code(f)}: " + _dealt_text(pos, cards, value, lang))
        msg = _message(pos.rs.rules.get(v.rule), v.reason, lang, v.message)
        out += ["", f"**{word('refused', lang)}:** {word('reason', lang)} {code(v.reason)}"
                + (f": *{msg}*" if msg else ""), ""]
        return out
    if facts:
        out += [*(f"- {f}" for f in facts), ""]
    out += [word("result_intro", lang), ""]
    key, _, recorded = v.what.partition(" ")
    keys = [k for k in RESULT_COLUMNS if k in row]
    if key not in keys and isinstance(row.get(key), list):
        keys.append(key)
    before = pos.before or [0] * len(pos.players)
    rows = [[seat(s), str(before[s]), *(show(row[k][s]) for k in keys)] for s in range(len(pos.players))]
    heads = [word("player", lang), word("score_before", lang),
             *(RESULT_COLUMNS[k][lang] if k in RESULT_COLUMNS else code(k) for k in keys)]
    out += [table(heads, rows), ""]
    truth = row.get(key)
    if isinstance(truth, list) and v.seat is not None:
        truth = truth[v.seat]
    who = word("for_seat", lang, seat=seat(v.seat)) if v.seat is not None else ""
    name = (f"«{RESULT_COLUMNS[key][lang]}»" if lang == "ru" else f"“{RESULT_COLUMNS[key][lang]}”") \
        if key in RESULT_COLUMNS else code(key)
    said = word("recorded_text", lang, key=name, recorded=recorded, who=who, truth=show(truth))
    out += [f"**{word('recorded', lang)}:** {said} — {word('reason', lang)} {code(v.reason)}.", ""]
    return out


def _dealt_text(pos: Position, cards: _Cards, value: Any, lang: str) -> str:
    """A field of a refused deal: hands and talons as cards (with their count), other values as written."""
    nt = notation(pos.rs)

    def one(x: Any) -> str:
        c = nt.parse(x) if isinstance(x, str) else None
        return cards.text(c) if c is not None else str(x)

    def many(xs: Any) -> str:
        items = xs.split() if isinstance(xs, str) else list(xs)
        return " ".join(one(x) for x in items) + f" ({word('cards_n', lang, n=len(items))})"

    if isinstance(value, dict):
        return "; ".join(f"{k}: {many(x)}" for k, x in value.items())
    if isinstance(value, list) and value and all(isinstance(x, (list, str)) and not _is_card(nt, x) for x in value):
        return "; ".join(f"{pos.players[i] if i < len(pos.players) else i + 1}: {many(x)}"
                         for i, x in enumerate(value))
    if isinstance(value, (list, str)):
        return many(value)
    return code(show(value))


def _is_card(nt: Any, x: Any) -> bool:
    return isinstance(x, str) and nt.parse(x) is not None
