"""The disk cache of rule files and compiled rulesets (oracle/diskcache.py), and the one in-process cache.

Each test has its own cache directory. An entry is used only when it is the user's own, matches
its hash and its key; a compiled ruleset taken from the cache judges records exactly as a fresh one.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from bad_input import run
from rules_tree import copy_rules, edit

from oracle import diskcache, rulecache
from oracle.engine import Action, Game
from oracle.errors import RuleFileError
from oracle.records import read_record, validate_record
from oracle.ruleset import _root, compile_resolved, load_library, load_ruleset, resolve, tree_digest
from oracle.yamlpos import PosStr

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "classic"
RECORDS = [GOLDEN / "valid" / "seed-0.json", GOLDEN / "invalid" / "play.must-trump--must-trump.json",
           GOLDEN / "invalid" / "barrel.threshold--wrong-result.json", ROOT / "examples" / "first-deal.yaml"]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("THOUSAND_CACHE_DIR", str(d))
    monkeypatch.delenv("THOUSAND_CACHE", raising=False)
    monkeypatch.delenv("THOUSAND_CACHE_KEEP", raising=False)  # the suite's own cache keeps everything
    rulecache.clear()  # what this process read before is not this test's cache
    yield d
    rulecache.clear()


def entries(d: Path, kind: str) -> list[Path]:
    return sorted(d.glob(f"{kind}-*")) if d.is_dir() else []


def verdicts(rs) -> list[dict]:
    out = []
    for p in RECORDS:
        v = validate_record(read_record(str(p)), rules=rs)
        out.append(v.to_json())
    return out


def fresh_compile(name: str = "classic"):
    """Compile without the in-process cache, so the disk cache (if any) is asked."""
    return compile_resolved(resolve(name))


def test_values_keep_their_positions_through_the_cache(cache_dir):
    doc = load_library().rules["play.must-trump"].data
    diskcache.store("probe", "x", doc)
    back = diskcache.load("probe", "x")
    assert back == doc
    for k, v in doc.items():
        if isinstance(v, PosStr):
            got = back[k]
            assert isinstance(got, PosStr)
            assert (got.file, got.line, got.column, got.block_indent) == (v.file, v.line, v.column, v.block_indent)
    assert stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) & 0o077 == 0 for p in entries(cache_dir, "probe"))


def test_a_ruleset_from_the_cache_judges_as_a_fresh_one(cache_dir, monkeypatch):
    monkeypatch.setenv("THOUSAND_CACHE", "0")
    uncached = verdicts(fresh_compile())
    assert not entries(cache_dir, "program")
    monkeypatch.delenv("THOUSAND_CACHE")
    rulecache.clear()
    fresh_compile()  # writes the entries
    assert len(entries(cache_dir, "program")) == 1 and len(entries(cache_dir, "library")) == 1
    calls = []
    real = diskcache.load_bytes
    monkeypatch.setattr(diskcache, "load_bytes", lambda *a: calls.append(a[0]) or real(*a))
    rulecache.clear()
    warm = fresh_compile()
    assert calls == ["library", "program"]
    assert verdicts(warm) == uncached
    assert any(not v["valid"] for v in uncached) and any(v["valid"] for v in uncached)


def test_the_analysis_functions_are_compiled_only_for_coverage_and_then_come_from_the_cache(cache_dir, monkeypatch):
    from oracle.coverage import Coverage, cover_record

    def covered() -> dict:
        cov = Coverage()
        for p in RECORDS:
            cover_record(read_record(str(p)), cov)
        return cov.to_json()

    rs = load_ruleset("classic")
    verdicts(rs)
    assert "analysis" not in rs.__dict__ and not entries(cache_dir, "analysis"), "validating compiled the analysis"
    cold = covered()
    assert "analysis" in rs.__dict__ and len(entries(cache_dir, "analysis")) == 1
    calls = []
    real = diskcache.load_bytes
    monkeypatch.setattr(diskcache, "load_bytes", lambda *a: calls.append(a[0]) or real(*a))
    rulecache.clear()
    assert covered() == cold and calls == ["library", "program", "analysis"]
    assert cold["rules"]["play.must-trump"]["fired"] > 0 and cold["rules"]["play.trick-resolution"]["fired"] > 0


def test_corrupt_entries_are_ignored_and_rebuilt(cache_dir):
    fresh_compile()
    for p in entries(cache_dir, "program") + entries(cache_dir, "library"):
        raw = bytearray(p.read_bytes())
        raw[-10] ^= 0xFF
        p.write_bytes(bytes(raw))
    rulecache.clear()
    digest = tree_digest(ROOT)
    assert diskcache.load("library", digest) is None
    rs = fresh_compile()
    assert [v["valid"] for v in verdicts(rs)] == [True, False, False, True]
    # Rebuilt: the entries hold good data again.
    assert diskcache.load("library", digest) is not None


def test_entries_others_could_write_or_own_are_never_read(cache_dir, monkeypatch):
    diskcache.store("probe", "x", {"a": 1})
    (p,) = entries(cache_dir, "probe")
    assert diskcache.load("probe", "x") == {"a": 1}
    p.chmod(0o666)
    assert diskcache.load("probe", "x") is None
    p.chmod(0o600)
    cache_dir.chmod(0o777)
    assert diskcache.load("probe", "x") is None
    cache_dir.chmod(0o700)
    real_uid = os.getuid()
    monkeypatch.setattr(diskcache.os, "getuid", lambda: real_uid + 1)  # as if it belonged to another user
    assert diskcache.load("probe", "x") is None
    monkeypatch.setattr(diskcache.os, "getuid", lambda: real_uid)
    link = cache_dir / f"probe-{diskcache.entry_key('probe', 'y')}"
    link.symlink_to(p)
    assert diskcache.load("probe", "y") is None


def test_an_entry_with_another_key_is_not_used(cache_dir):
    diskcache.store("probe", "x", {"a": 1})
    (p,) = entries(cache_dir, "probe")
    p.rename(cache_dir / f"probe-{diskcache.entry_key('probe', 'y')}")
    assert diskcache.load("probe", "y") is None


def test_the_cache_can_be_turned_off(cache_dir, monkeypatch):
    monkeypatch.setenv("THOUSAND_CACHE", "0")
    fresh_compile()
    assert not cache_dir.exists()


def test_a_cold_start_is_silent_and_a_warm_one_gives_the_same_output(cache_dir):
    argv = ("validate", str(RECORDS[1]), str(RECORDS[3]), "--format", "json")
    env = {"THOUSAND_CACHE_DIR": str(cache_dir)}
    code1, out1, _ = run(*argv, env=env)
    assert entries(cache_dir, "program") and entries(cache_dir, "library")
    code2, out2, _ = run(*argv, env=env)
    assert code1 == code2 == 1
    first, second = json.loads(out1), json.loads(out2)  # nothing but the verdicts was printed
    assert first["files"] == second["files"]
    assert [f["valid"] for f in first["files"]] == [False, True]


def test_changed_rule_files_make_a_new_entry(cache_dir, tmp_path):
    tree = copy_rules(tmp_path / "rules")
    a = load_ruleset("classic", root=tree)
    edit(tree, "spec/bidding/step.yaml", "default: 5", "default: 10")
    b = load_ruleset("classic", root=tree)
    assert a.param("bid_step") == 5 and b.param("bid_step") == 10
    assert len(entries(cache_dir, "program")) == 2


def test_rule_files_are_read_once_per_process_until_refreshed(tmp_path):
    tree = copy_rules(tmp_path / "rules")
    before = tree_digest(tree)
    p = tree / "spec" / "bidding" / "step.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("default: 5", "default: 10"), encoding="utf-8")
    assert tree_digest(tree) == before  # no file-system access per call
    rulecache.refresh(_root(tree))
    assert tree_digest(tree) != before
    assert load_ruleset("classic", root=tree).param("bid_step") == 10


@pytest.mark.parametrize("collector_on", [True, False])
def test_the_collector_is_paused_while_a_library_or_ruleset_is_built_and_as_it_was_after(tmp_path, monkeypatch,
                                                                                        collector_on):
    import gc

    import oracle.lang.program as program
    import oracle.ruleset as ruleset

    seen: dict[str, bool] = {}

    def spying(name, real):
        def spy(*args, **kwargs):
            seen[name] = gc.isenabled()
            return real(*args, **kwargs)
        return spy

    monkeypatch.setattr(ruleset, "_read_library", spying("library", ruleset._read_library))
    monkeypatch.setattr(program, "_compile", spying("compile", program._compile))
    monkeypatch.setenv("THOUSAND_CACHE", "0")
    tree = copy_rules(tmp_path / "rules")
    was = gc.isenabled()
    (gc.enable if collector_on else gc.disable)()
    try:
        load_ruleset("classic", params={"bid_step": 10}, root=tree)
        assert seen == {"library": False, "compile": False}
        assert gc.isenabled() is collector_on
        # A build that fails gives the collector back as well.
        edit(tree, "spec/bidding/step.yaml", "default: 5", "default: [")
        with pytest.raises(RuleFileError):
            load_ruleset("classic", root=tree)
        assert gc.isenabled() is collector_on
    finally:
        (gc.enable if was else gc.disable)()


def test_a_tree_with_one_file_edited_reads_that_file_alone(tmp_path, monkeypatch):
    # Every loaded rule file is kept by its name, kind and content: a library rebuilt after an edit
    # reads the edited file again, and shares every other file's document with the tree before.
    import oracle.ruleset as ruleset_module

    monkeypatch.setenv("THOUSAND_CACHE", "0")  # the disk cache would hand back the whole library
    tree = copy_rules(tmp_path / "rules")
    before = load_library(tree)
    read: list[str] = []
    real = ruleset_module.parse_doc
    monkeypatch.setattr(ruleset_module, "parse_doc", lambda raw, display, kind="rule": (
        read.append(display), real(raw, display, kind))[1])
    # A second tree with the same files reads none of them.
    assert load_library(copy_rules(tmp_path / "other")).rules["bid.step"] is before.rules["bid.step"]
    assert read == []
    # A content no other test gives the file: the memo is the process's.
    edit(tree, "spec/bidding/step.yaml", "default: 5", "default: 10  # read-that-file-alone")
    after = load_library(tree)
    assert read == [str(Path("spec/bidding/step.yaml"))]
    assert after is not before and after.rules["bid.step"] is not before.rules["bid.step"]
    assert all(after.rules[r] is before.rules[r] for r in before.rules if r != "bid.step")
    assert load_ruleset("classic", root=tree).param("bid_step") == 10
    # Filed under the bytes read: a file changed after its tree was read, before its library was built,
    # is never taken for the content the tree was read with.
    third = copy_rules(tmp_path / "third")
    tree_digest(third)
    p = third / "spec" / "bidding" / "step.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("default: 5", "default: 15"), encoding="utf-8")
    assert load_library(third).rules["bid.step"] is not before.rules["bid.step"]
    assert load_library(copy_rules(tmp_path / "fourth")).rules["bid.step"] is before.rules["bid.step"]
    assert load_ruleset("classic", root=tmp_path / "fourth").param("bid_step") == 5


def test_a_library_entry_encodes_only_the_files_no_entry_kept_before(cache_dir, tmp_path, monkeypatch):
    # A test suite (or a user editing a rule) keeps a library entry for each tree it reads; a tree that
    # differs from one kept by one file encodes that file alone, and its entry reads back as the files do.
    tree = copy_rules(tmp_path / "rules")
    encoded: list[str] = []
    real = diskcache.encoded
    monkeypatch.setattr(diskcache, "encoded", lambda value: (encoded.append(value[1]), real(value))[1])
    first = load_library(tree)
    n_files = len(first.rules) + len(first.overlays) + len(first.presets)
    assert len(encoded) == n_files and len(entries(cache_dir, "library")) == 1
    encoded.clear()
    edit(tree, "spec/bidding/step.yaml", "default: 5", "default: 10  # encoded-alone")
    edited = load_library(tree)
    assert encoded == [str(Path("spec/bidding/step.yaml"))]
    assert len(entries(cache_dir, "library")) == 2
    for lib in (first, edited):
        back = diskcache.load("library", lib.digest)
        parts = {"rules": lib.rules, "overlays": lib.overlays, "presets": lib.presets}
        assert sorted((part, path) for part, path, _ in back) == sorted(
            (part, doc.path) for part, docs in parts.items() for doc in docs.values())
        for part, path, data in back:
            doc = next(d for d in parts[part].values() if d.path == path)
            assert data == doc.data
    # A new process takes the edited tree's library from its entry, reading no file.
    rulecache.clear()
    monkeypatch.setattr("oracle.ruleset.parse_doc", lambda *a, **k: pytest.fail("a rule file was read"))
    again = load_library(tree)
    assert again.rules["bid.step"].data == edited.rules["bid.step"].data
    assert load_ruleset("classic", root=tree).param("bid_step") == 10


def test_a_kept_analysis_of_another_shape_is_compiled_again(cache_dir, monkeypatch):
    # A resolved ruleset changed by its caller under the same name (a guard dropped) has a key of its own; and
    # were it given the key of the ruleset as resolved, the entry kept under that key (of another shape) would
    # not be taken: its analysis indexes its own guards, not the kept entry's.
    import oracle.lang.program as program

    full = fresh_compile()
    assert full.analysis.refusers["play"] and entries(cache_dir, "analysis")
    compiled: list[str] = []
    real = program._compile_analysis
    monkeypatch.setattr(program, "_compile_analysis", lambda p, f: (compiled.append(f), real(p, f))[1])
    rulecache.clear()
    assert fresh_compile().analysis.outcomes.keys() == full.analysis.outcomes.keys() and compiled == []
    res = resolve("classic")
    res.sequence.drop(res.sequence.find("play.must-trump/must-trump", None))
    fewer = compile_resolved(res)
    assert fewer.key != full.key and len(fewer.compiled.actions["play"].guards) == len(
        full.compiled.actions["play"].guards) - 1
    analysis = program.compile_analysis(fewer.program, "<ruleset classic>", full.key)
    assert compiled == ["<ruleset classic>"]
    monkeypatch.setitem(fewer.__dict__, "analysis", analysis)
    game = Game(fewer, dealer=0, seed=3)
    while game.phase != "play":
        game.apply(game.sample() if game.chance_action() is not None else game.legal_actions()[0])
    seat = game.v["turn"]
    guards = {g.clause.rule_id for g in fewer.compiled.actions["play"].guards}
    named = 0
    for card in range(fewer.deck.size):
        payload = {"card": card, "marriage": False}
        rej, found = game.check(Action("play", seat, payload)), game.refusals_of("play", seat, payload)
        if rej is None:
            assert found == [], card
        elif rej.rule_id in guards:
            assert found[:1] == [rej.rule_id], (card, rej.rule_id, found)
            named += 1
    assert named


def test_a_resolved_ruleset_changed_under_its_name_is_compiled_as_it_is(cache_dir):
    # A definition given another expression, the ruleset's name kept (as a mutant does, without its new
    # name): the same guards and effects in number as the kept entry, but another program, so another key.
    import copy

    from oracle.rulefile import RuleDoc

    full = fresh_compile()
    res = resolve("classic")
    rid, name = next((rid, n) for rid, doc in res.rules.items() for n, d in (doc.get("define") or {}).items()
                     if isinstance(d, dict) and "expr" in d)
    doc = res.rules[rid]
    data = copy.copy(doc.data)
    define = data["define"][name]
    data["define"] = {**data["define"], name: {**define, "expr": f"({define['expr']})"}}  # the same, written anew
    res.rules[rid] = RuleDoc(rid, doc.path, data)
    changed = compile_resolved(res)
    assert changed.key != full.key and changed.name == full.name
    assert fresh_compile().key == full.key  # the ruleset as resolved keeps its key
    # The key does not depend on the process: a new one finds the entry this one kept.
    out = subprocess.run([sys.executable, "-c", "from oracle.ruleset import compile_resolved, resolve; "
                          "print(compile_resolved(resolve('classic')).key)"], capture_output=True, text=True,
                         check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == full.key, out.stderr


def test_old_entries_are_pruned(cache_dir):
    for i in range(diskcache.KEEP + 5):
        diskcache.store("probe", f"d{i}", {"i": i})
    assert len(entries(cache_dir, "probe")) == diskcache.KEEP
    assert diskcache.load("probe", f"d{diskcache.KEEP + 4}") == {"i": diskcache.KEEP + 4}


def test_the_entries_kept_are_those_used_last_and_as_many_as_asked(cache_dir, monkeypatch):
    def written(n: int, kind: str = "probe") -> list[str]:
        names = []
        for i in range(n):
            diskcache.store(kind, f"d{i}", {"i": i})
            path = cache_dir / f"{kind}-{diskcache.entry_key(kind, f'd{i}')}"
            os.utime(path, (1_000_000 + i, 1_000_000 + i))  # written in this order, long ago
            names.append(path.name)
        return names

    names = written(diskcache.KEEP)
    assert diskcache.load("probe", "d0") == {"i": 0}  # the oldest written, but used now
    diskcache.store("probe", "new", {"i": -1})
    kept = {p.name for p in entries(cache_dir, "probe")}
    assert names[0] in kept and names[1] not in kept and len(kept) == diskcache.KEEP
    for p in entries(cache_dir, "probe"):
        p.unlink()
    monkeypatch.setenv("THOUSAND_CACHE_KEEP", "40")  # compiled rulesets only: a library is ten times larger
    written(45, "program")
    written(45)
    assert len(entries(cache_dir, "program")) == 40 and len(entries(cache_dir, "probe")) == diskcache.KEEP
    monkeypatch.setenv("THOUSAND_CACHE_KEEP", "many")  # not a number: the default, more than the other kinds
    written(diskcache.KEEP_COMPILED + 5, "program")
    assert len(entries(cache_dir, "program")) == diskcache.KEEP_COMPILED > diskcache.KEEP


def _digest(package: Path) -> str:
    import hashlib

    h = hashlib.sha256()
    for name, content in diskcache.shaping_files(package):
        h.update(name.encode() + b"\0" + content)
    return h.hexdigest()


def test_the_cache_key_follows_every_module_that_shapes_a_ruleset_and_no_other(tmp_path):
    # The key is found from the package's stages, not from a list kept by hand: editing any module up to
    # the rulesets' stage (here the read-once pass and a new module of the rule language) is a miss;
    # editing the interpreter or a user of it is not.
    import shutil

    package = tmp_path / "oracle"
    shutil.copytree(ROOT / "oracle", package, ignore=shutil.ignore_patterns("__pycache__"))
    before = _digest(package)
    for edited in ("lang/reads.py", "rulefile.py", "errors.py", "schemas/rule.schema.json"):
        with (package / edited).open("a", encoding="utf-8") as f:
            f.write("\n")
        now = _digest(package)
        assert now != before, f"editing {edited} must miss the cache"
        before = now
    (package / "lang" / "newpass.py").write_text("X = 1\n", encoding="utf-8")
    assert _digest(package) != before, "a new module of the rule language must miss the cache"
    before = _digest(package)
    for edited in ("engine.py", "records/replay.py", "docgen/rules.py"):
        with (package / edited).open("a", encoding="utf-8") as f:
            f.write("\n")
        assert _digest(package) == before, f"{edited} does not shape a compiled ruleset"


def test_every_module_the_ruleset_imports_is_among_those_that_key_the_cache():
    from test_architecture import IMPORTS

    from oracle.stages import SHAPING

    seen, todo = set(), ["ruleset"]
    while todo:
        unit = todo.pop()
        if unit not in seen:
            seen.add(unit)
            todo.extend(IMPORTS.get(unit, ()))
    assert {"lang", "rulefile", "yamlpos", "diskcache"} <= seen <= SHAPING, sorted(seen - SHAPING)
