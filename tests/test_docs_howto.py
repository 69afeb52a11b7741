"""The player's side of the rulebook: "How to play", the rule pages' worked examples, and how they look.

The how-to-play page takes its numbers from the resolved ruleset and its pictures from
a game record the oracle validates; these tests change the rule files, the record and
the page's configuration in a copy and watch the page follow or refuse. The worked
examples are checked against the engine's own legal moves. The browser test saves
screenshots of the home page, "How to play", a rule page and the matrix, in both
languages, under artifacts/docs/ (skipped, with the reason, without Chromium).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import browsing
import pytest
import yaml
from test_docs import ARTIFACTS, browsed, site  # noqa: F401  (the site's build and what the browser saw of it)

from oracle.cards import notation
from oracle.docgen import DocsError, build_howto
from oracle.docgen.examples import RESULT_COLUMNS, Example, choose, guard_reasons, load_examples
from oracle.docgen.howto import FIGURES, HOWTO_PAGE
from oracle.docgen.svg import BLACK, RED, Face, Mark, card
from oracle.engine import Game
from oracle.records import Replayer, judge, read_record
from oracle.ruleset import load_library, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "_data"
GENERATED = ROOT / "docs" / "generated"
CONFIG = yaml.safe_load((DATA / "how-to-play.yaml").read_text(encoding="utf-8"))
PICTURES = ("pack", "deal", "auction", "talon", "give", "tricks", "sheet")


def _page(lang: str) -> str:
    return (GENERATED / (HOWTO_PAGE if lang == "en" else HOWTO_PAGE.replace(".md", f".{lang}.md"))).read_text(
        encoding="utf-8")


def _figure(name: str, lang: str) -> str:
    suffix = "" if lang == "en" else f".{lang}"
    return (GENERATED / FIGURES / f"{name}{suffix}.svg").read_text(encoding="utf-8")


def _copy_tree(tmp_path: Path) -> tuple[Path, Path]:
    """The rule files, the example record and the docs data in a scratch folder, to be changed there."""
    root = tmp_path / "tree"
    for part in ("spec", "variants", "examples"):
        # (not the 1k adapter's installed packages, two thousand files no page reads)
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("node_modules"))
    shutil.copytree(DATA, root / "docs" / "_data")
    return root, root / "docs" / "_data"


# --------------------------------------------------------------------------- how to play

def test_how_to_play_has_every_step_and_picture_in_both_languages() -> None:
    for lang in ("en", "ru"):
        page = _page(lang)
        assert "{{" not in page, f"{lang}: a placeholder was left unfilled"
        for name in PICTURES:
            assert f"]({FIGURES}/{name}.svg)" in page, f"{lang}: picture {name} is not on the page"
            svg = _figure(name, lang)
            assert svg.startswith("<svg") and "<title>" in svg
    ru = _page("ru")
    for term in ("сдача", "прикуп", "торговл", "«пас»", "снос", "взятк", "козыр", "марьяж", "болт", "бочк",
                 "роспись", "разыгрывающий", "вистующие", "хвалю", "партия", "игр"):
        assert term in ru.lower(), f"the Russian page never says {term!r}"
    en = _page("en")
    for heading in ("## The cards", "## The deal", "## The auction", "## The talon", "## Giving two cards away",
                    "## The play", "## Marriages", "## The score of a deal", "## Bolts", "## The barrel",
                    "## The end of the game", "## The score sheet"):
        assert heading in en


def test_how_to_play_numbers_are_the_classic_rulesets() -> None:
    rs = load_ruleset(CONFIG["ruleset"])
    en, ru = _page("en"), _page("ru")
    values = rs.params["card_points"].value
    for page in (en, ru):
        for points in values:
            assert re.search(rf"\| \*\*[^|]+\*\* \| [^|]+ \| {points} \|", page), f"card value {points} missing"
        for v in rs.params["marriage_values"].value:
            assert f"| {v} |" in page
    for name in ("forced_bid", "bid_step", "max_bid", "penalty", "barrel_threshold", "target",
                 "rospis_opponent_points", "deck_total"):
        assert str(rs.param(name)) in en and str(rs.param(name)) in ru, name
    assert f"on the hundred**: he is committed to {rs.param('forced_bid')}" in en
    assert f"in steps of {rs.param('bid_step')}" in en


def test_how_to_play_follows_a_changed_rule_file(tmp_path: Path) -> None:
    root, data = _copy_tree(tmp_path)
    path = root / "spec" / "bidding" / "max-300.yaml"
    text = path.read_text(encoding="utf-8")
    old = load_ruleset(CONFIG["ruleset"]).param("max_bid")
    # The example game never bids that high, so it stays valid. (Edited as text: YAML would re-read `on:`.)
    changed, n = re.subn(rf"(max_bid:\s*\n(?:\s+.*\n)*?\s+default:\s*){old}\b", rf"\g<1>{old + 55}", text)
    assert n == 1, "max_bid's default not found in its rule file"
    path.write_text(changed, encoding="utf-8")
    files = build_howto(data, root=root)
    assert re.search(rf"No bid exceeds\s+{old + 55}\.", files[HOWTO_PAGE])
    assert re.search(rf"Выше {old + 55}\s+не заказывает", files["how-to-play.ru.md"])


def test_how_to_play_stops_when_its_text_assumes_another_value(tmp_path: Path) -> None:
    root, data = _copy_tree(tmp_path)
    cfg = dict(CONFIG)
    cfg["assumes"] = {**CONFIG["assumes"], "failed_contract": "minus-double"}
    (data / "how-to-play.yaml").write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DocsError, match=r"failed_contract.*rewrite the how-to-play text"):
        build_howto(data, root=root)


def test_how_to_play_refuses_an_invalid_record(tmp_path: Path) -> None:
    root, data = _copy_tree(tmp_path)
    path = data / CONFIG["record"]
    rec = json.loads(path.read_text(encoding="utf-8"))
    bid = next(a for d in rec["deals"] for a in d["actions"] if a["action"] == "bid")
    bid["value"] += 2  # off the step of the auction
    path.write_text(json.dumps(rec), encoding="utf-8")
    with pytest.raises(DocsError, match="the how-to-play record must be valid"):
        build_howto(data, root=root)


def test_how_to_play_rejects_an_unknown_placeholder(tmp_path: Path) -> None:
    root, data = _copy_tree(tmp_path)
    page = data / "how-to-play.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n{{no_such_fact}}\n", encoding="utf-8")
    with pytest.raises(DocsError, match=r"how-to-play\.md:\d+: unknown placeholder \{\{no_such_fact\}\}"):
        build_howto(data, root=root)


def test_names_are_declined_where_the_sentence_needs_it(tmp_path: Path) -> None:
    ru = re.sub(r"\s+", " ", _page("ru"))
    names = CONFIG["words"]["ru"]["names"]
    # «у игрока Анна» is how a form reads, not a sentence: the text says «у Анны».
    assert not re.search(r"у игрока (?:" + "|".join(n["nom"] for n in names.values()) + ")", ru)
    rec = read_record(DATA / CONFIG["record"])
    r = Replayer(rec)
    r.run()
    penalised = next(s for row in r.game.sheet for m, s in row.get("marks", []) if m == "bolt-penalty")
    assert f"у {names[rec.data['players'][penalised]]['gen']} набирается" in ru
    # A case the names do not give stops the generation and says which.
    root, data = _copy_tree(tmp_path)
    page = data / "how-to-play.ru.md"
    cfg = yaml.safe_load((data / "how-to-play.yaml").read_text(encoding="utf-8"))
    del cfg["words"]["ru"]["names"]["Anna"]["gen"], cfg["words"]["ru"]["names"]["Boris"]["gen"]
    del cfg["words"]["ru"]["names"]["Vera"]["gen"]
    (data / "how-to-play.yaml").write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DocsError, match=r"names.* has no 'gen'"):
        build_howto(data, root=root)
    assert page.is_file()


def test_a_marriage_is_credited_to_who_declared_it_not_who_took_the_trick() -> None:
    deal, players = _story_deal()
    plays = [a for a in deal["actions"] if a["action"] == "play"]
    n = len(players)
    trick = next(i for i in range(0, len(plays), n) if any(a.get("marriage") for a in plays[i:i + n]))
    by = next(a["seat"] for a in plays[trick:trick + n] if a.get("marriage"))
    names = CONFIG["words"]["ru"]["names"]
    tricks_ru, tricks_en = _figure("tricks", "ru"), _figure("tricks", "en")
    assert f"марьяж {names[by]['gen']} " in tricks_ru, "the trick's note does not say whose marriage it is"
    assert f"{by}'s marriage " in tricks_en.replace("&#x27;", "'").replace("&#39;", "'")
    assert "кто объявил, тому и очки" in re.sub(r"\s+", " ", _page("ru"))


def test_the_page_says_why_a_marriage_was_not_declared_and_why_a_penalty_was_not_taken() -> None:
    ru, en = (re.sub(r"\s+", " ", _page(lang)) for lang in ("ru", "en"))
    assert "«хвалю» не говорит" in ru and "без «хвалю»" in ru and "right, not a duty" in en
    rec = read_record(DATA / CONFIG["record"])
    r = Replayer(rec)
    r.run()
    threshold = r.rs.param("barrel_threshold")
    on_barrel = [(row["deal"] + 1, s) for row in r.game.sheet for m, s in row.get("marks", [])
                 if m == "bolt-penalty" and row["score"][s] == threshold]
    assert on_barrel, "the record has no third bolt on the barrel any more; the page's sentence is then wrong"
    deal_no, seat = on_barrel[0]
    assert r.game.sheet[deal_no - 1]["delta"][seat] == 0
    assert f"В партии {deal_no} у {CONFIG['words']['ru']['names'][rec.data['players'][seat]]['gen']}" in ru
    assert "штраф отмечен (‡), но не списан" in ru


def _story_deal() -> tuple[dict, list[str]]:
    rec = json.loads((DATA / CONFIG["record"]).read_text(encoding="utf-8"))
    return rec["deals"][CONFIG["deal"] - 1], rec["players"]


def test_pictures_are_drawn_from_the_record() -> None:
    deal, players = _story_deal()
    rs = load_ruleset(CONFIG["ruleset"])
    nt = notation(rs)
    words = CONFIG["words"]["ru"]
    ranks_ru = rs.param("notation_ranks_alt")
    svg = _figure("deal", "ru")
    # Every dealt card is drawn face up with its Russian rank letter; the talon is face down.
    assert svg.count('fill="#ffffff"') == sum(len(h) for h in deal["hands"])
    assert svg.count('fill="#37474f"') == len(deal["talon_cards"])
    for hand in deal["hands"]:
        for c in hand:
            letter = ranks_ru[nt.parse(c) % len(rs.deck.ranks)]
            assert f">{letter}</text>" in svg
    for p in players:
        assert f">{words['names'][p]['nom']}</text>" in svg
    auction = _figure("auction", "en")
    bids = [a["value"] for a in deal["actions"] if a["action"] == "bid"]
    assert bids and all(f">{b}</text>" in auction for b in bids)
    assert auction.count(">pass</text>") == sum(a["action"] == "pass" for a in deal["actions"])
    give = _figure("give", "en")
    for a in deal["actions"]:
        if a["action"] == "give":
            assert f"→ {a['to']}" in give
    tricks = _figure("tricks", "en")
    plays = [a for a in deal["actions"] if a["action"] == "play"]
    assert tricks.count('fill="#ffffff"') == len(plays)
    married = [a for a in plays if a.get("marriage")]
    assert married and "marriage" in tricks


def test_score_sheet_picture_is_the_oracles_sheet() -> None:
    rec = read_record(DATA / CONFIG["record"])
    keep = Replayer(rec)
    keep.run()
    sheet = _figure("sheet", "en")
    assert keep.game is not None and not keep.violations
    rows = keep.game.sheet
    assert len(rows) == len(rec.data["deals"])
    for row in rows:
        for s in range(len(rec.data["players"])):
            assert f"{row['delta'][s]:+d}  {row['score'][s]}" in sheet, f"deal {row['deal'] + 1}"
    marks = {m for row in rows for m, _ in row["marks"]}
    assert {"bolt", "barrel-mount", "win"} <= marks, "the example game shows no bolt, barrel or win"
    rs = load_ruleset(CONFIG["ruleset"])
    for m in marks:
        assert rs.marks[m]["en"] in sheet, f"the legend lacks {m}"


def test_no_picture_fetches_anything() -> None:
    svgs = list((GENERATED / "figures").rglob("*.svg"))
    assert len(svgs) > 20
    for path in svgs:
        text = path.read_text(encoding="utf-8")
        for needle in ("<image", "href", "url(", "@font-face", "@import", "<script"):
            assert needle not in text, f"{path} uses {needle}"


def test_cards_are_drawn_red_and_black_with_their_rank() -> None:
    heart, spade = card(Face("Д", "hearts"), 0, 0), card(Face("10", "spades"), 0, 0)
    assert RED in heart and BLACK not in heart and ">Д</text>" in heart
    assert BLACK in spade and RED not in spade and ">10</text>" in spade
    refused = card(Face("9", "clubs"), 0, 0, mark=Mark.REFUSED)
    assert refused.count(RED) >= 2, "a refused card has a red frame and a red cross"
    assert 'opacity="0.38"' in card(Face("9", "clubs"), 0, 0, mark=Mark.DIM)


# --------------------------------------------------------------------------- worked examples

def _rule_page(rule_id: str, lang: str = "en") -> str:
    lib = load_library()
    folder = "rules" if rule_id in lib.rules else "overlays"
    suffix = "" if lang == "en" else f".{lang}"
    return (GENERATED / folder / (rule_id.replace(".", "/") + f"{suffix}.md")).read_text(encoding="utf-8")


def test_every_rule_page_with_golden_records_has_exactly_one_worked_example() -> None:
    examples = load_examples(ROOT)
    lib = load_library()
    assert len(examples) > 20
    for rule_id in examples:
        if rule_id not in lib.rules and rule_id not in lib.overlays:
            continue
        for lang, head in (("en", "## Worked example"), ("ru", "## Разбор примера")):
            page = _rule_page(rule_id, lang)
            assert page.count(head) == 1, f"{rule_id} ({lang})"
            # The record's file is for rule authors: named once, in the folded block at the end.
            assert page.count("tests/golden/") == 1, f"{rule_id} ({lang}) names more or less than one record"
            assert page.index("tests/golden/") > page.index('??? info "'), f"{rule_id} ({lang}) names it early"


def test_worked_example_is_a_refusal_by_the_rule_itself() -> None:
    lib = load_library()
    examples = load_examples(ROOT)
    for rule_id in ("talon.rospis", "play.must-trump", "bid.step", "marriage.declaration-timing"):
        doc = lib.rules[rule_id]
        ex = choose(examples[rule_id], guard_reasons(doc))
        assert ex is not None and ex.reason in guard_reasons(doc), rule_id
        assert ex.path in _rule_page(rule_id)


def _replay_to(ex: Example) -> tuple[Game, dict]:
    """The game just before the refused action, replayed here through the validator's reader."""
    rec = read_record(ROOT / ex.path)
    replay = judge(rec).replay
    assert replay is not None
    di, stop = ex.expect["deal"] - 1, ex.expect["action"] - 1
    # The replay stops at the refused action: the deal, then the actions before it, were applied.
    assert len(replay.applied_in(di)) == 1 + stop
    return replay.game_at(di), rec.data["deals"][di]["actions"][stop]


def test_worked_example_lists_the_engines_legal_moves() -> None:
    examples = load_examples(ROOT)
    doc = load_library().rules["play.follow-suit"]
    ex = choose(examples["play.follow-suit"], guard_reasons(doc))
    assert ex is not None
    game, refused = _replay_to(ex)
    rs = game.rs
    nt = notation(rs)
    seat = ex.record["players"].index(refused["seat"])
    legal = sorted({a.payload["card"] for a in game.legal_actions(seat) if a.kind == "play"})
    assert legal and nt.parse(refused["card"]) not in legal
    signs = rs.param("notation_suits_alt")
    n = len(rs.deck.ranks)
    shown = {f"{nt.ranks[c % n]}{signs[c // n]}" for c in legal}
    page = _rule_page("play.follow-suit")
    line = next(x for x in page.splitlines() if x.startswith("- **Legal instead:**"))
    assert set(re.findall(r"(?:10|[2-9JQKA])[♠♣♦♥]", line)) == shown
    led = game.v["led"]
    of_led = {f"{nt.ranks[c % n]}{signs[c // n]}" for c in game.v["hand"][seat] if c // n == led}
    held = next(x for x in page.splitlines() if x.startswith(f"- **{refused['seat']} holds:**"))
    assert set(re.findall(r"(?:10|[2-9JQKA])[♠♣♦♥]", held)) == of_led, "the cards of the suit led in hand"
    refused_text = f"{nt.ranks[nt.parse(refused['card']) % n]}{signs[nt.parse(refused['card']) // n]}"
    assert f"play card {refused_text}`" in page
    # The hand drawn is the actor's whole hand at that moment, the refused card crossed out.
    svg = (GENERATED / "figures" / "examples" / "play" / "follow-suit.svg").read_text(encoding="utf-8")
    assert svg.count('fill="#ffffff"') == len(game.v["hand"][seat]) + len(game.v["trick"])
    assert svg.count('stroke-linecap="round"') == 1


def test_wrong_result_example_shows_the_rules_score() -> None:
    examples = load_examples(ROOT)
    doc = load_library().rules["contract.made"]
    ex = choose(examples["contract.made"], guard_reasons(doc))
    assert ex is not None and ex.reason == "wrong-result"
    rec = read_record(ROOT / ex.path)
    r = Replayer(rec)
    r.run()
    v = r.violations[0]
    key, _, recorded = v.what.partition(" ")
    truth = r.game.sheet[ex.expect["deal"] - 1][key][v.seat]
    page = _rule_page("contract.made")
    column = RESULT_COLUMNS[key]
    assert f"the record writes {recorded} under “{column['en']}” for {v.seat_name}; the rules give {truth}" in page
    ru = _rule_page("contract.made", "ru")
    assert f"в графе «{column['ru']}» стоит {recorded}, а по правилам {truth}" in ru
    for text, head in ((page, "## Worked example"), (ru, "## Разбор примера")):
        section = text.split(head, 1)[1].split("\n## ", 1)[0]
        assert f"({key})" not in section and f"`{key}`" not in section, "a column's code name is shown"


# --------------------------------------------------------------------------- in a browser

class _FirstLinks(HTMLParser):
    """The links of the page's article, in order, leaving out heading anchors."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.links: list[str] = []
        self.title = ""
        self._h1 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "article":
            self.depth += 1
        if self.depth and tag == "a" and a.get("href") and "headerlink" not in (a.get("class") or ""):
            self.links.append(str(a["href"]))
        if self.depth and tag == "h1":
            self._h1 = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.depth -= 1
        if tag == "h1":
            self._h1 = False

    def handle_data(self, data: str) -> None:
        if self._h1:
            self.title += data


def _article(dom: str) -> _FirstLinks:
    p = _FirstLinks()
    p.feed(dom)
    return p


# The player's pages as a reader opens them, looked at in the background (browsing.py): the long ones whole.
_PLAYER_PAGES = [("home", "", 1280, 1400), ("how-to-play", "generated/how-to-play/", 1280, 9000),
                 ("rule-example", "generated/rules/play/must-trump/", 1280, 4000),
                 ("matrix-page", "generated/matrix/", 1280, 1800)]
browsing.want(*(browsing.Visit(f"{name}-{lang}", ("" if lang == "en" else f"{lang}/") + path, width, height,
                               shot=str(ARTIFACTS / f"{name}-{lang}.png"))
                for lang in ("en", "ru") for name, path, width, height in _PLAYER_PAGES))


def test_player_pages_render_in_chromium(browsed: Callable[[str], Any]) -> None:  # noqa: F811
    lib = load_library()
    titles = {"en": "How to play Тысяча", "ru": "Как играть в «Тысячу»"}
    for lang in ("en", "ru"):
        for name, _, _, _ in _PLAYER_PAGES:
            shot = ARTIFACTS / f"{name}-{lang}.png"
            dom = browsed(f"{name}-{lang}")
            assert shot.stat().st_size > 20_000, f"{shot} looks empty"
            article = _article(dom)
            if name == "home":
                assert "how-to-play" in article.links[0], f"{lang}: the home page's first link is {article.links[0]}"
                assert "Тысяча" in article.title
            elif name == "how-to-play":
                assert titles[lang] in article.title
                shown = [s for s in re.findall(r'<img [^>]*src="([^"]+)"', dom) if "how-to-play" in s]
                assert len(shown) == len(PICTURES), f"{lang}: {shown}"
            elif name == "rule-example":
                assert lib.rules["play.must-trump"].data["title"][lang] in article.title
                assert "figures/examples/play/must-trump.svg" in dom
            else:
                assert all(pid in dom for pid in lib.presets)


def test_the_score_sheet_and_the_rule_pages_draw_each_mark_with_the_symbol_of_the_pages_language() -> None:
    """An English page draws the Latin symbol a mark declares (B for the barrel), a Russian page the Russian one (Б)."""
    rs = load_ruleset(CONFIG["ruleset"])
    rec = read_record(DATA / CONFIG["record"])
    marks = {m for d in judge(rec).game.sheet for m, _ in d["marks"]}
    latin = [m for m in marks if rs.marks[m].get("symbol_en", rs.marks[m]["symbol"]) != rs.marks[m]["symbol"]]
    assert latin, "the example game shows no mark whose symbol differs between the languages"
    for lang, key in (("en", "symbol_en"), ("ru", "symbol")):
        sheet = _figure("sheet", lang)
        for m in latin:
            assert f"{rs.marks[m][key]}  {rs.marks[m][lang]}" in sheet, (lang, m)
    barrel = _rule_page("barrel.threshold")
    assert f"**{rs.marks['barrel-mount']['symbol_en']}**" in barrel
    assert f"**{rs.marks['barrel-mount']['symbol']}**" in _rule_page("barrel.threshold", "ru")
    assert f"**{rs.marks['barrel-mount']['symbol']}**" not in barrel
