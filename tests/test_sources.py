"""The source texts: named in sources.yaml, and cited the same way by the command line and the rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import sources_dir

from oracle.cli import main
from oracle.ruleset import load_library
from oracle.sources import cite_lines, load_sources, merge_ranges, short_name

ROOT = Path(__file__).resolve().parent.parent
SHARED = sources_dir()  # the texts, beside the checkout (never copied in)
F0, F3 = "000_6ca120471e87fad0.txt", "003_6bdcd0fbd49a2f68.txt"


def test_ranges_merge_when_they_touch_or_overlap() -> None:
    assert merge_ranges([(62, 62), (10, 10), (11, 12), (201, 203), (202, 205)]) == [(10, 12), (62, 62), (201, 205)]
    assert merge_ranges([(5, 5), (5, 5)]) == [(5, 5)]
    assert merge_ranges([]) == []


def test_citations_are_one_entry_per_file_with_lines_merged() -> None:
    cites = [{"seed": F0, "lines": [201, 201]}, {"seed": F3, "lines": [34, 34]}, {"seed": F0, "lines": [10, 10]},
             {"seed": F0, "lines": [62, 62]}, {"seed": F0, "lines": [10, 10]}, {"seed": F3, "lines": [35, 36]}]
    assert cite_lines(cites) == "F0 10, 62, 201; F3 34-36"
    assert cite_lines(cites, dash="–") == "F0 10, 62, 201; F3 34–36"
    assert cite_lines([]) == ""


def test_unknown_files_get_a_short_name_from_their_number() -> None:
    assert short_name(F0) == "F0"
    assert short_name("007_0123456789abcdef.txt") == "F7"
    assert short_name("notes.txt") == "notes.txt"


def test_every_cited_file_is_described() -> None:
    known = load_sources()
    lib = load_library()
    cited = {str(s["seed"]) for doc in (*lib.rules.values(), *lib.overlays.values()) for s in doc.get("sources") or []}
    assert cited and cited <= set(known), f"cited but not in sources.yaml: {sorted(cited - set(known))}"
    for s in known.values():
        assert s.about["en"].strip() and s.about["ru"].strip() and s.title.strip()
        too_far = [str(c["lines"]) for doc in (*lib.rules.values(), *lib.overlays.values())
                   for c in doc.get("sources") or [] if str(c["seed"]) == s.seed and int(c["lines"][-1]) > s.lines]
        assert not too_far, f"{s.short} has {s.lines} lines, but rule files cite {too_far}"


@pytest.mark.skipif(SHARED is None, reason="the source texts are not beside this checkout")
def test_titles_are_the_texts_own_first_lines() -> None:
    def bare(text: str) -> str:
        return re.sub(r"[\"«»„“…\s]+", " ", text).strip()

    for s in load_sources().values():
        lines = (SHARED / s.seed).read_text(encoding="utf-8").splitlines()
        assert bare(lines[0]).startswith(bare(s.title)), f"{s.short}: {lines[0][:80]!r} vs {s.title!r}"
        # Counted as a citation counts them (wc -l misses a last line without a newline).
        assert s.lines == len(lines), f"{s.short} has {len(lines)} lines, sources.yaml says {s.lines}"


def test_validate_prints_merged_citations(capsys: pytest.CaptureFixture[str]) -> None:
    record = ROOT / "tests" / "golden" / "classic" / "invalid" / "bid.marriage-cap--over-marriage-cap.json"
    assert main(["validate", str(record)]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("sources:"))
    assert re.fullmatch(r"\s*sources: (F\d [\d, –-]+)(; F\d [\d, –-]+)*", line), line
    shorts = re.findall(r"F\d", line)
    assert len(shorts) == len(set(shorts)), "a source file is named more than once"
    assert " lines " not in out and ".txt" not in out
