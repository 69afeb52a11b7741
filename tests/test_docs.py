"""The rulebook site: its generated pages are fresh and complete, it builds strictly, its links hold, and it renders.

The generated Markdown under docs/generated/ is committed, so a rule file changed
without running `thousand docs` must fail here. The build, link and browser tests
share one strict mkdocs build per run; the browser test skips (with the reason)
where there is no Chromium, and saves its screenshots under artifacts/docs/.
"""

from __future__ import annotations

import functools
import html
import posixpath
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import browsing
import pytest
import sitebuild
import yaml
from browser import CHROMIUM

from oracle.cli import main
from oracle.docgen import write_pages
from oracle.docgen.labels import LANGS, value_label
from oracle.docgen.md import option_key, plain
from oracle.rulefile import RuleDoc
from oracle.ruleset import load_library

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GENERATED = DOCS / "generated"
DATA = DOCS / "_data"
ARTIFACTS = ROOT / "artifacts" / "docs"


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --------------------------------------------------------------------------- the generated Markdown

_BUILT: dict[tuple[Any, ...], dict[str, str]] = {}


@pytest.fixture
def built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages built once per test process for the same data: the tests here that write them look at what
    is written and where, and one generation (every preset compiled) is what they share."""
    import oracle.docgen as docgen

    real = docgen.build_pages

    def once(data_dir: Path, folder: str = "generated", root: Path | None = None) -> dict[str, str]:
        key = (data_dir.resolve(), folder, root)
        if key not in _BUILT:
            _BUILT[key] = real(data_dir, folder, root)
        return dict(_BUILT[key])

    monkeypatch.setattr(docgen, "build_pages", once)


def test_generated_pages_are_fresh(tmp_path: Path, built_once: None) -> None:
    out = tmp_path / GENERATED.name
    write_pages(out, DATA)
    fresh, committed = _tree(out), _tree(GENERATED)
    missing = sorted(set(fresh) - set(committed))
    extra = sorted(set(committed) - set(fresh))
    changed = sorted(k for k in set(fresh) & set(committed) if fresh[k] != committed[k])
    assert not (missing or extra or changed), (
        "docs/generated is stale; run `thousand docs` and commit the result.\n"
        f"missing: {missing[:10]}\nnot generated any more: {extra[:10]}\nchanged: {changed[:10]}")


def _pages_by_lang() -> dict[str, list[str]]:
    pages: dict[str, list[str]] = {lang: [] for lang in LANGS}
    for path in GENERATED.rglob("*.md"):
        suffix = path.suffixes[-2] if len(path.suffixes) > 1 else ""
        lang = suffix[1:] if suffix[1:] in LANGS else "en"
        # The front matter (the page's search weight) comes before the title.
        text = re.sub(r"\A---\n.*?\n---\n", "", path.read_text(encoding="utf-8"), flags=re.S)
        pages[lang].append(_words(text))
    return pages


def test_every_rule_and_preset_has_a_page_in_both_languages() -> None:
    # Checked from the rule files' side, not the generator's: a page that opens with the
    # title in that language and carries the text in that language.
    lib = load_library()
    pages = _pages_by_lang()
    docs = [*lib.rules.values(), *lib.overlays.values(), *lib.presets.values()]
    assert lib.presets, "no presets found"
    for doc in docs:
        for lang in LANGS:
            title, text = str(doc.data["title"][lang]), _words(str(doc.data["text"][lang]))
            hits = [p for p in pages[lang] if p.startswith(f"# {title} ") and text[:60] in p and f"`{doc.id}`" in p]
            assert hits, f"{doc.path}: no {lang} page with its title and text"


def test_hand_written_pages_exist_in_both_languages() -> None:
    written = [p for p in DOCS.rglob("*.md") if GENERATED not in p.parents]
    stems = {(p.parent, p.name.removesuffix(".md").removesuffix(".ru")) for p in written}
    for folder, stem in sorted(stems):
        for lang in LANGS:
            name = f"{stem}.md" if lang == "en" else f"{stem}.{lang}.md"
            assert (folder / name).is_file(), f"{folder / name} is missing (every hand-written page needs {LANGS})"


def _markdown_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "_data" not in p.parts and "_theme" not in p.parts)


def test_every_page_that_names_a_source_says_which_text_it_is() -> None:
    # A short name (F0 …) in the text must be defined as an abbreviation on the same page, so that it shows the
    # source's title on hover; and the sources page gives each text's title and what it is.
    from oracle.sources import load_sources

    sources = load_sources()
    assert sorted(s.short for s in sources.values()) == ["F0", "F1", "F2", "F3"]
    unexplained = []
    for page in _markdown_pages():
        text = page.read_text(encoding="utf-8")
        defined = set(re.findall(r"^\*\[(F\d+)\]: \S", text, re.M))
        body = re.sub(r"^\*\[F\d+\]:.*$", "", text, flags=re.M)
        used = set(re.findall(r"\bF\d+\b", re.sub(r"`[^`]*`", "", body)))
        if used - defined:
            unexplained.append(f"{page.relative_to(DOCS)}: {sorted(used - defined)}")
    assert not unexplained, "\n".join(unexplained[:20])
    for suffix in ("", ".ru"):
        page = (GENERATED / f"reference/sources{suffix}.md").read_text(encoding="utf-8")
        for s in sources.values():
            assert f"{{#{s.short.lower()}}}" in page and s.title.split("«")[0].strip() in page
            assert s.about["en" if not suffix else "ru"].split(".")[0] in _words(page)


def test_citations_are_merged_on_rule_pages() -> None:
    # "F0 10, 62, 201" once per file, not one row or "lines 10-10" per citation.
    page = (GENERATED / "rules/barrel/threshold.md").read_text(encoding="utf-8")
    sources = page[page.index("## Sources"):]
    rows = [line for line in sources.splitlines() if line.startswith("| [F")]
    assert [r.split("]")[0] for r in rows] == ["| [F0", "| [F1", "| [F2", "| [F3"]
    assert "| 35, 75, 215, 276, 278–280 |" in rows[0], rows[0]
    assert "lines" not in " ".join(rows) and "35–35" not in page


def test_preset_page_counts_its_rules_one_way() -> None:
    # The header and the rules section must give the same numbers (47 rules: 42 core and 5 from overlays).
    for page in sorted((GENERATED / "presets").glob("*.ru.md")):
        text = page.read_text(encoding="utf-8")
        if page.name == "index.ru.md":
            continue
        total, core = map(int, re.search(r"Правил: (\d+) \(из них основных без изменений: (\d+)\)", text).groups())
        mixed = re.search(r"без изменений: (\d+); правил, которые его дополнения заменяют или добавляют: (\d+)", text)
        plain_core = re.search(r"все \[основные правила\]\([^)]*\) без изменений, их (\d+)\.", text)
        said = (int(mixed.group(1)), int(mixed.group(2))) if mixed else (int(plain_core.group(1)), 0) \
            if plain_core else None
        assert said == (core, total - core), page.name


def test_russian_cli_page_has_a_russian_help_for_every_option() -> None:
    import argparse

    from oracle.arguments import build_parser
    from oracle.docgen import cli_ru

    missing = []
    parser = build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    pairs = [("", parser)] + [(name, p) for sub in subs for name, p in sub.choices.items()]
    for command, p in pairs:
        if command and command not in cli_ru.COMMANDS:
            missing.append(f"command {command}")
        for act in p._actions:
            if isinstance(act, argparse._HelpAction | argparse._SubParsersAction) or act.help == argparse.SUPPRESS:
                continue
            key = act.option_strings[0] if act.option_strings else act.dest
            if (command, key) not in cli_ru.OPTIONS:
                missing.append(f"{command or 'thousand'} {key}")
    assert not missing, "no Russian help in oracle/docgen/cli_ru.py for: " + ", ".join(missing)
    page = (GENERATED / "reference/cli.ru.md").read_text(encoding="utf-8")
    assert "{play,validate" not in page, "the usage line lists every command and runs off the page"


def test_docs_command_writes_and_refuses_foreign_folders(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                          built_once: None) -> None:
    out = tmp_path / "generated"
    assert main(["docs", "--out", str(out), "--data", str(DATA)]) == 0
    assert (out / ".thousand-docs").is_file() and (out / "nav.yml").is_file()
    assert len(list(out.rglob("*.ru.md"))) == len(list(out.rglob("*.md"))) // 2, "every page in both languages"
    assert main(["docs", "--out", str(out), "--data", str(DATA)]) == 0, "rewriting its own folder must work"
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.md").write_text("keep me\n", encoding="utf-8")
    assert main(["docs", "--out", str(foreign), "--data", str(DATA)]) == 2
    assert (foreign / "notes.md").read_text(encoding="utf-8") == "keep me\n"
    assert "refusing" in capsys.readouterr().err


# --------------------------------------------------------------------------- the built site

@pytest.fixture(scope="session")
def site() -> Path:
    missing = sitebuild.missing()
    if missing:
        pytest.skip(f"the site cannot be built: {', '.join(missing)} not installed (pip install -e '.[docs]')")
    # Built once per run, in the background from the collection on (sitebuild.py): here it is waited for.
    status, log = sitebuild.wait()
    if status != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{log[-4000:]}")
    return sitebuild.folder()


def test_mkdocs_build_strict_has_no_warnings(site: Path) -> None:
    log = (site / ".build.log").read_text(encoding="utf-8")
    warnings = [line for line in log.splitlines() if re.match(r"\s*(WARNING|ERROR)\b", line)]
    assert not warnings, "\n".join(warnings)
    for lang in LANGS:
        prefix = "" if lang == "en" else f"{lang}/"
        assert (site / prefix / "index.html").is_file(), f"no {lang} home page"
        assert (site / prefix / "generated" / "matrix" / "index.html").is_file(), f"no {lang} matrix"


def test_russian_pages_have_no_english_furniture(site: Path) -> None:
    # The theme's own words (footer, buttons, search) follow the page's language; Material's
    # generator line has no translation, so it is switched off (mkdocs.yml extra.generator).
    for page in (site / "ru" / "index.html", site / "ru" / "generated" / "rules" / "penalties" / "bolt" / "index.html"):
        html = page.read_text(encoding="utf-8")
        footer = re.sub(r"<[^>]+>", " ", html[html.index("<footer"):html.index("</footer>")])
        assert not re.search(r"\b(?:Made with|Previous|Next)\b", footer), f"{page}: English in the footer"


def _node() -> str | None:
    return shutil.which("node")


_SEARCH_FILTER = r"""
const fs = require("fs"), vm = require("vm");
const [script, index, lang] = process.argv.slice(2);
const sent = [];
class Worker { postMessage(m) { sent.push(m); } }
const context = { Worker, document: { documentElement: { lang } }, Array, Object };
vm.runInNewContext(fs.readFileSync(script, "utf8"), context);
const data = JSON.parse(fs.readFileSync(index, "utf8"));
new context.Worker().postMessage({ type: 0, data: { config: data.config, docs: data.docs } });
new context.Worker().postMessage({ type: 2, data: "query" });
const setup = sent[0].data;
console.log(JSON.stringify({ all: data.docs.length, kept: setup.docs.map(d => d.location), lang: setup.config.lang,
                             other: sent[1] }));
"""


@pytest.mark.parametrize("lang", LANGS)
def test_search_keeps_to_the_pages_language(site: Path, lang: str, tmp_path: Path) -> None:
    # The one index of both languages reaches Material's search worker through the filter, which the page
    # loads before Material's own script; run the filter on the built index as the page would.
    home = (site / ("" if lang == "en" else lang) / "index.html").read_text(encoding="utf-8")
    assert home.index("javascripts/search-language.js") < home.index("assets/javascripts/bundle."), \
        "the search filter must load before Material's bundle"
    if _node() is None:
        pytest.skip("node is not installed: the search filter cannot be run")
    probe = tmp_path / "probe.js"
    probe.write_text(_SEARCH_FILTER, encoding="utf-8")
    index = site / "search" / "search_index.json"
    script = site / "javascripts" / "search-language.js"
    proc = subprocess.run([str(_node()), str(probe), str(script), str(index), lang],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = yaml.safe_load(proc.stdout)
    ru = [loc for loc in out["kept"] if loc.startswith("ru/")]
    assert out["kept"] and out["all"] > len(out["kept"]), "the filter kept everything or nothing"
    if lang == "ru":
        assert len(ru) == len(out["kept"]) and out["lang"] == ["ru"]
    else:
        assert not ru
    assert out["other"] == {"type": 2, "data": "query"}, "messages other than the setup must pass unchanged"


@dataclass
class _Links:
    ids: set[str]
    refs: list[str]


# The site's HTML as mkdocs writes it (well formed): tags and their attributes by pattern, four times as
# fast as html.parser over the four hundred pages, and the same ids and links (checked when this was written).
# Comments and what scripts and styles hold are not markup.
_NOT_MARKUP = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<([a-zA-Z][\w-]*)(\s[^>]*)?>")
_ATTR = re.compile(r"""([^\s"'=<>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")


def _markup(m: re.Match[str]) -> str:
    return m.group(0)[:m.group(0).find(">") + 1] if m.group(1) else ""  # a script's own tag stays


@functools.cache
def _parse(path: Path) -> _Links:
    links = _Links(set(), [])
    for m in _TAG.finditer(_NOT_MARKUP.sub(_markup, path.read_text(encoding="utf-8"))):
        tag = m.group(1).lower()
        a: dict[str, str | None] = {}
        for k, v in _ATTR.findall(m.group(2) or ""):
            a.setdefault(k.lower(), html.unescape(v[1:-1] if v[:1] in "\"'" else v) if v else None)
        if a.get("id"):
            links.ids.add(str(a["id"]))
        if tag == "a" and a.get("name"):
            links.ids.add(str(a["name"]))
        for key in ("href", "src"):
            if a.get(key) and not (tag == "link" and a.get("rel") in ("canonical", "alternate")):
                links.refs.append(str(a[key]))
    return links


def test_no_broken_internal_links(site: Path) -> None:
    broken = []
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 50
    for page in pages:
        here = page.relative_to(site).as_posix()
        for ref in _parse(page).refs:
            parts = urlsplit(ref)
            if parts.scheme or parts.netloc or ref.startswith(("mailto:", "javascript:", "data:")):
                continue
            if parts.path:
                # Root-relative links (the 404 page has them) start from the site folder.
                base = "" if parts.path.startswith("/") else posixpath.dirname(here)
                target = posixpath.normpath(posixpath.join(base, unquote(parts.path).lstrip("/")))
                path = site / target
                if path.is_dir():
                    path = path / "index.html"
            else:
                path = page
            if not path.is_file():
                broken.append(f"{here}: {ref} (no such file)")
            elif parts.fragment and path.suffix == ".html" and unquote(parts.fragment) not in _parse(path).ids:
                broken.append(f"{here}: {ref} (no such anchor)")
    assert not broken, f"{len(broken)} broken links:\n" + "\n".join(broken[:40])


# --------------------------------------------------------------------------- in a browser

@pytest.fixture(scope="module")
def browsed(site: Path) -> Callable[[str], Any]:
    """What headless Chromium saw of a page declared here (browsing.py looks at them all in the background,
    once the site is built); a build that failed fails the test here first."""
    if CHROMIUM is None:
        pytest.skip("headless Chromium not found (Debian package `chromium`); the pages were not checked in a browser")
    return browsing.seen


def _sample_rule() -> RuleDoc:
    # A rule with parameters and code shows the most of a rule page.
    lib = load_library()
    rules = sorted(lib.rules.values(), key=lambda d: (not (d.get("params") and d.get("logic")), d.id))
    return rules[0]


def _rule_path(rule: RuleDoc) -> str:
    return "generated/rules/" + rule.id.replace(".", "/") + "/"


browsing.want(*(browsing.Visit(f"rule-{lang}", ("" if lang == "en" else f"{lang}/") + _rule_path(_sample_rule()),
                               1280, 1800, shot=str(ARTIFACTS / f"rule-{lang}.png")) for lang in LANGS),
              browsing.Visit("matrix-en", "generated/matrix/", 1280, 1800, shot=str(ARTIFACTS / "matrix-en.png")))


def test_site_renders_in_chromium(browsed: Callable[[str], Any]) -> None:
    rule = _sample_rule()
    params = [str(p) for p in rule.data["params"]]
    first_clause = rule.data["logic"][0]
    code_words = re.findall(r"[a-z_]{4,}", str(first_clause.get("forbid") or first_clause.get("do")))

    for lang in LANGS:
        shot = ARTIFACTS / f"rule-{lang}.png"
        dom = browsed(f"rule-{lang}")
        assert f">{rule.data['title'][lang]}<" in dom.replace("\n", ""), f"{lang} rule page lacks its title"
        for p in params:
            assert p in dom, f"{lang} rule page lacks parameter {p}"
        assert all(w in dom for w in code_words), f"{lang} rule page lacks its code"
        assert 'class="md-nav' in dom, "the Material theme did not render"
        assert shot.stat().st_size > 20_000, f"{shot} looks empty"

    lib = load_library()
    shot = ARTIFACTS / "matrix-en.png"
    dom = browsed("matrix-en")
    declared = [str(p) for d in lib.rules.values() for p in (d.get("params") or {})]
    assert declared and all(p in dom for p in declared), "the matrix lacks parameters"
    assert all(pid in dom for pid in lib.presets), "the matrix lacks a preset column"
    assert dom.count("<tr") > len(declared), "the matrix table did not render"
    assert shot.stat().st_size > 20_000, f"{shot} looks empty"


# --------------------------------------------------------------------------- more presets and overlays

def _house_tree(tmp_path: Path) -> tuple[Path, str, str, str, str]:
    """A copy of the rules with two overlays and two more presets, built from whatever the rule files hold.

    Returns the root, the overriding overlay's id, the overridden rule's id, the decided parameter and the
    option the house preset picks.
    """
    root = tmp_path / "rules"
    shutil.copytree(ROOT / "spec", root / "spec")
    shutil.copytree(ROOT / "variants", root / "variants")
    lib = load_library()
    rule = next(d for d in lib.rules.values() if d.get("decisions") and d.get("logic"))
    decision = rule.data["decisions"][0]
    param = str(decision["parameter"])
    option = next(str(o) for o in decision["options"] if str(o) != option_key(decision["default"]))
    text = {"en": "A house rule for the docs tests.", "ru": "Договорённость для тестов документации."}
    house = root / "variants" / "house"
    house.mkdir()

    def dump(path: Path, data: dict) -> None:
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")

    value = yaml.safe_load(option)
    dump(house / "setter.yaml", {"id": "house-setter", "title": {"en": "House setter", "ru": "Домашний выбор"},
                                 "text": text, "sources": [], "set": {param: value}})
    logic = plain(rule.data["logic"])
    dump(house / "replacer.yaml", {"id": "house-replacer", "title": {"en": "House logic", "ru": "Домашняя логика"},
                                   "text": text, "sources": [], "overrides": rule.id, "logic": logic})
    dump(root / "variants" / "presets" / "house.yaml",
         {"id": "house", "title": {"en": "House", "ru": "Дом"}, "text": text, "extends": sorted(lib.presets)[0],
          "overlays": ["house-setter", "house-replacer"], "set": {}})
    dump(root / "variants" / "presets" / "bare.yaml",
         {"id": "bare", "title": {"en": "Bare", "ru": "Голый"}, "text": text, "overlays": [], "set": {}})
    return root, "house-replacer", rule.id, param, option


def test_more_presets_and_overlays_get_their_pages(tmp_path: Path) -> None:
    from oracle.docgen import build_pages

    root, replacer, rule_id, param, option = _house_tree(tmp_path)
    files = build_pages(DATA, root=root)
    for lang, suffix in (("en", ""), ("ru", ".ru")):
        for page in ("presets/house", "presets/bare", "overlays/house-setter", "overlays/house-replacer"):
            assert f"{page}{suffix}.md" in files, f"no {lang} page for {page}"
        matrix = files[f"matrix{suffix}.md"]
        assert "[house](presets/house.md)" in matrix and "[bare](presets/bare.md)" in matrix
        words = value_label(param, yaml.safe_load(option), lang)
        assert f"**{words}**" in matrix, "the house value is not shown as differing from the default"
        rule_page = files["rules/" + rule_id.replace(".", "/") + f"{suffix}.md"]
        assert "house-setter" in rule_page and replacer in rule_page, "the rule page misses the overlays"
        assert "[house](../" in rule_page.replace("../../", "../"), "the rule page misses the preset using them"
        decisions = files[f"decisions{suffix}.md"]
        row = next(line for line in decisions.splitlines() if line.startswith(f"| {words} "))
        assert "presets/house.md" in row, "the decisions page does not say which option the house preset picks"
        house = files[f"presets/house{suffix}.md"]
        assert "house-setter" in house and replacer in house and param in house
    nav = files["nav.yml"]
    for page in ("presets/house.md", "presets/bare.md", "overlays/house-setter.md", "overlays/house-replacer.md"):
        assert f"generated/{page}" in nav


# --------------------------------------------------------------------------- the menu

def _nav() -> list:
    return yaml.safe_load((GENERATED / "nav.yml").read_text(encoding="utf-8"))["nav"]


def test_every_menu_section_has_its_russian_name() -> None:
    from oracle.docgen.nav import section_titles

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    ru = next(lang for lang in i18n["languages"] if lang["locale"] == "ru")["nav_translations"]
    sections = section_titles(_nav())
    assert len(sections) > 10
    assert not [s for s in sections if s not in ru], "menu sections without a Russian name in mkdocs.yml"
    areas = yaml.safe_load((DATA / "areas.yaml").read_text(encoding="utf-8"))
    wrong = [a["en"] for a in areas if a["en"] in ru and ru[a["en"]] != a["ru"]]
    assert not wrong, f"mkdocs.yml names these parts of the game otherwise than docs/_data/areas.yaml: {wrong}"


def test_menu_lists_programs_apart_and_names_pages_as_players_do() -> None:
    lib = load_library()
    rulesets = next(item["Rulesets"] for item in _nav() if isinstance(item, dict) and "Rulesets" in item)
    programs = next(item["Computer programs"] for item in rulesets if isinstance(item, dict)
                    and "Computer programs" in item)
    engines = sorted(f"generated/presets/{pid}.md" for pid, doc in lib.presets.items() if doc.get("engine"))
    assert len(engines) >= 7 and sorted(programs) == engines
    assert not [p for p in rulesets if isinstance(p, str) and p in engines], "a program's preset is listed twice"
    # Every title the menu shows for a rule or a ruleset reads as words: no configuration id, no file name.
    titles = [str(doc.data["title"][lang]) for doc in (*lib.rules.values(), *lib.presets.values()) for lang in LANGS]
    raw = [t for t in titles if re.search(r"\b[a-z]+_[a-z0-9_]+\b|\b\w+/\w+:|\.ya?ml\b", t)]
    assert not raw, f"titles that read as code: {raw}"


# --------------------------------------------------------------------------- search, as a reader uses it

_SEARCH_RESULTS = """(async () => {
  // The page opened with ?q=…: Material fills the search box and lists what its worker finds.
  for (let i = 0; i < 600; i++) {
    const meta = document.querySelector(".md-search-result__meta");
    const items = [...document.querySelectorAll(".md-search-result__item > .md-search-result__link")];
    // Nothing found: the count line says so, but it says "initialising" too while the worker builds its
    // index, which takes seconds on a loaded machine: ten seconds before believing it.
    if (items.length || (meta && meta.textContent.trim() && i > 200)) {
      return items.map(a => new URL(a.href).pathname);
    }
    await new Promise(r => setTimeout(r, 50));
  }
  return null;
})()"""


# The searches a reader makes, each a page opened with ?q=…, looked at in the background (browsing.py).
_SEARCHES = {("ru", "бочка"): "search-ru-barrel", ("ru", "прикуп"): "search-ru-talon",
             ("ru", "хвалю"): "search-ru-praise", ("en", "barrel"): "search-en-barrel"}
browsing.want(*(browsing.Visit(name, f"{'' if lang == 'en' else lang + '/'}?q={quote(query)}", script=_SEARCH_RESULTS)
                for (lang, query), name in _SEARCHES.items()))


def _search(browsed: Callable[[str], Any], lang: str, query: str) -> list[str]:
    found = browsed(_SEARCHES[(lang, query)])
    assert found is not None, f"the search for {query!r} ({lang}) gave no answer"
    # One entry per page: a page's sections follow its title.
    return list(dict.fromkeys(str(p) for p in found))


def _is_variant(path: str) -> bool:
    return "/generated/overlays/" in path or "/generated/presets/" in path


def test_search_puts_the_core_rule_first(browsed: Callable[[str], Any]) -> None:
    barrel = _search(browsed, "ru", "бочка")
    assert barrel and barrel[0].endswith("/ru/generated/rules/barrel/threshold/"), barrel[:5]

    talon = _search(browsed, "ru", "прикуп")
    assert talon and "/generated/rules/" in talon[0] and not _is_variant(talon[0]), talon[:5]
    first_variant = next(i for i, p in enumerate(talon) if _is_variant(p))
    core = [i for i, p in enumerate(talon) if p.endswith(("/rules/talon/to-winner/", "/generated/how-to-play/"))]
    assert len(core) == 2 and max(core) < first_variant, talon[:8]

    # A word the page writes in quotes is still a word: «хвалю» is found on every page that has it.
    praise = _search(browsed, "ru", "хвалю")
    having = sorted("/ru/" + p.relative_to(DOCS).as_posix().removesuffix(".ru.md").removesuffix("index") + "/"
                    for p in DOCS.rglob("*.ru.md") if "_data" not in p.parts
                    and "«хвалю»" in p.read_text(encoding="utf-8"))
    assert having and sorted(praise) == sorted(x.replace("//", "/") for x in having), (praise, having)

    english = _search(browsed, "en", "barrel")
    assert english and "/generated/rules/barrel/" in english[0], english[:5]
    assert "/generated/rules/barrel/threshold/" in english[:3], english[:5]
