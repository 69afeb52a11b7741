"""The rulebook site generator: Markdown pages from the rule files, the code and the schemas.

``build_pages`` renders every page in every language into memory; ``write_pages``
replaces a folder with them. The pages are committed, and a test regenerates them
to catch a rule file changed without its pages (see tests/test_docs.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .examples import example_files
from .howto import HowtoError, howto_files
from .labels import LANGS
from .md import page_file
from .nav import NAV_FILE, nav_file
from .reference import (
    CLI_PAGE,
    GLOSSARY_PAGE,
    LANGUAGE_PAGE,
    SCHEMA_PAGE,
    SOURCES_PAGE,
    TRANSCRIPT_PAGE,
    cli_page,
    glossary_page,
    language_page,
    schema_page,
    sources_page,
    transcript_page,
)
from .rules import (
    DECISIONS_PAGE,
    OVERLAYS_INDEX,
    RULES_INDEX,
    overlays_index,
    rule_page,
    rules_index,
    source_abbreviations,
)
from .rulesets import MATRIX_PAGE, PRESETS_INDEX, decisions_page, matrix_page, preset_page, presets_index
from .site import Site, load_site

MARKER = ".thousand-docs"
MARKER_TEXT = "Written by `thousand docs`. Everything in this folder is replaced on each run; edit the rule files.\n"


class DocsError(Exception):
    pass


def _pages(site: Site, lang: str) -> dict[str, str]:
    pages = {
        RULES_INDEX: rules_index(site, lang),
        OVERLAYS_INDEX: overlays_index(site, lang),
        PRESETS_INDEX: presets_index(site, lang),
        MATRIX_PAGE: matrix_page(site, lang),
        DECISIONS_PAGE: decisions_page(site, lang),
        LANGUAGE_PAGE: language_page(lang),
        SCHEMA_PAGE: schema_page(lang),
        CLI_PAGE: cli_page(lang),
        SOURCES_PAGE: sources_page(site, lang),
        GLOSSARY_PAGE: glossary_page(site, lang),
        TRANSCRIPT_PAGE: transcript_page(lang),
    }
    for entry in (*site.rules, *site.overlays):
        _claim(pages, entry.page, entry.id)
        pages[entry.page] = rule_page(site, entry, lang)
    for preset in site.presets:
        _claim(pages, preset.page, preset.id)
        pages[preset.page] = preset_page(site, preset, lang)
    return {key: _with_abbreviations(text, lang) for key, text in pages.items()}


def _with_abbreviations(page: str, lang: str) -> str:
    # A page that names a source by its short name (F0 …) says which text that is, on hover.
    defs = source_abbreviations(page, lang)
    return f"{page.rstrip()}\n\n{defs}\n" if defs else page


def _claim(pages: dict[str, str], key: str, owner: str) -> None:
    # An id such as "index" would silently overwrite a site page; say so instead.
    if key in pages:
        raise DocsError(f"{owner!r} would be written to {key}, which another page already uses; rename it")


def build_pages(data_dir: Path, folder: str = "generated", root: Path | None = None) -> dict[str, str]:
    """Every generated file, by its path under the output folder.

    ``folder`` is the output folder's name inside the mkdocs docs folder; the nav
    file names the pages by their path from there.
    """
    site = load_site(data_dir, root)
    files: dict[str, str] = {}
    for lang in LANGS:
        for key, text in _pages(site, lang).items():
            files[page_file(key, lang)] = text
    files.update(example_files([(r.doc, site.examples[r.id]) for r in (*site.rules, *site.overlays)
                                if r.id in site.examples], LANGS))
    files.update(_howto(site, data_dir))
    files[NAV_FILE] = nav_file(site, folder)
    files[MARKER] = MARKER_TEXT
    return files


def build_howto(data_dir: Path, root: Path | None = None) -> dict[str, str]:
    """The how-to-play page and its pictures alone, as :func:`build_pages` makes them (without the
    other pages, which compile every preset: what a change to the how-to's own data needs)."""
    return _howto(load_site(data_dir, root), data_dir)


def _howto(site: Site, data_dir: Path) -> dict[str, str]:
    try:
        return howto_files(site, data_dir, LANGS)
    except HowtoError as exc:
        raise DocsError(str(exc)) from None


def write_pages(out: Path, data_dir: Path, root: Path | None = None) -> list[Path]:
    """Replace the folder ``out`` with freshly generated pages; return the files written."""
    # A folder not ours is refused before the pages are built: nothing to wait for, nothing touched.
    if out.exists() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise DocsError(f"{out} is not empty and was not written by `thousand docs`; refusing to replace it")
    files = build_pages(data_dir, out.name, root)
    if out.exists():
        shutil.rmtree(out)
    written = []
    for rel, text in sorted(files.items()):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


__all__ = ["DocsError", "build_howto", "build_pages", "write_pages"]
