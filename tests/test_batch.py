"""Validation beyond one machine: the pure bytes-to-verdict function, and `thousand validate --dask`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from oracle.batch import validate_bytes, validate_path, validate_with_dask
from oracle.cli import main
from oracle.errors import InputError
from oracle.limits import MAX_RECORD_BYTES as MAX_BYTES
from oracle.records import read_record, validate_record

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "classic"
EXAMPLES = ROOT / "examples"


def _corpus(folder: Path) -> list[Path]:
    """Valid and invalid golden games, the hand-written YAML example, and two unreadable files."""
    picks = [GOLDEN / "valid" / "seed-0.json", GOLDEN / "valid" / "must_beat=true--seed-0.json",
             GOLDEN / "invalid" / "play.must-trump--must-trump.json",
             GOLDEN / "invalid" / "barrel.threshold--wrong-result.json",
             GOLDEN / "invalid" / "talon.raise--bad-step.json", EXAMPLES / "first-deal.yaml",
             EXAMPLES / "classic-game.json"]
    out = []
    for p in picks:
        q = folder / p.name
        shutil.copy(p, q)
        out.append(q)
    (folder / "latin1.json").write_bytes(b'{"format": "thousand-record", "players": ["\xe9"]}')
    (folder / "broken.yaml").write_text("format: [unclosed\n", encoding="utf-8")
    return out


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main(argv)
    out = json.loads(capsys.readouterr().out)
    out["summary"].pop("seconds")
    return code, out


@pytest.mark.parametrize("name", ["valid/seed-0.json", "invalid/play.must-trump--must-trump.json",
                                  "invalid/barrel.threshold--wrong-result.json"])
def test_validate_bytes_gives_the_library_verdict_as_plain_data(name):
    path = GOLDEN / name
    got = validate_bytes(path.read_bytes(), str(path))
    want = validate_record(read_record(path)).to_json()
    assert {k: v for k, v in got.items() if k != "text"} == want
    assert json.loads(json.dumps(got)) == got  # nothing but JSON types
    expect = read_record(path).data["expect"]
    assert got["valid"] is expect["valid"]
    if not expect["valid"]:
        first = got["violations"][0]
        assert (first["deal"], first["action"], first["rule"]) == (expect["deal"], expect.get("action"),
                                                                    expect["rule"])
        assert got["text"].startswith(f"{path}: INVALID under ruleset classic\n")
    else:
        assert got["text"].startswith(f"{path}: valid (79 deals")


def test_validate_bytes_judges_by_the_ruleset_asked_for():
    path = GOLDEN / "valid" / "seed-0.json"
    got = validate_bytes(path.read_bytes(), "seed-0.json", ruleset="tysiac")
    assert got["ruleset"] == "tysiac" and got["file"] == "seed-0.json"
    assert got == validate_bytes(path.read_bytes(), "seed-0.json", ruleset="tysiac")  # no hidden state


def test_validate_bytes_reports_unreadable_input_without_raising():
    bad = validate_bytes(b'{"players": ["\xe9"]}', "x.json")
    # The same message and place as `thousand validate` gives for the same bytes in a file.
    assert bad["valid"] is False and bad["error"]["message"] == "not UTF-8 text (byte 14: invalid continuation byte)"
    assert (bad["error"]["line"], bad["error"]["column"]) == (1, 15)
    assert bad["text"] == "x.json:1:15: not UTF-8 text (byte 14: invalid continuation byte)"
    yaml_bad = validate_bytes(b"format: [unclosed\n", "y.yaml")
    assert yaml_bad["error"]["file"] == "y.yaml" and yaml_bad["error"]["line"] is not None
    assert validate_bytes(b"", "empty.json")["error"]["message"] == "the file is empty"
    huge = validate_bytes(b" " * (MAX_BYTES + 1), "huge.json")
    assert huge["error"]["message"].startswith("the file is 16.8 MB; records over") and huge["valid"] is False


def test_validate_path_matches_the_command_line_for_each_file(tmp_path, capsys):
    files = _corpus(tmp_path)
    missing = str(tmp_path / "gone.json")
    assert validate_path(missing)["error"]["message"].startswith("cannot read:")
    code, out = _cli_json(["validate", str(tmp_path), "--format", "json"], capsys)
    assert code == 2
    by_file = {r["file"]: r for r in out["files"]}
    for p in [*files, tmp_path / "latin1.json", tmp_path / "broken.yaml"]:
        mine = validate_path(str(p))
        mine.pop("text")
        assert mine == by_file[str(p)]


def test_dask_without_a_scheduler_is_a_clear_error():
    pytest.importorskip("distributed", reason="the dask extra is not installed (pip install '.[dask]')")
    with pytest.raises(InputError, match=re.escape("cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'")):
        validate_with_dask("tcp://127.0.0.1:9", ["x.json"], timeout=1)


def test_dask_on_two_local_workers_gives_the_same_results_as_jobs(tmp_path, capsys):
    pytest.importorskip("dask.bag", reason="the dask extra is not installed (pip install '.[dask]')")
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed (pip install '.[dask]')")
    _corpus(tmp_path)
    folder = str(tmp_path)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, protocol="tcp") as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        with distributed.Client(address) as client:
            workers = client.scheduler_info()["workers"]
            assert len(workers) == 2 and all(w.startswith("tcp://127.0.0.1:") for w in workers)
            assert all(info["nanny"].startswith("tcp://127.0.0.1:") for info in workers.values())
        code_dask, on_dask = _cli_json(["validate", folder, "--format", "json", "--dask", address], capsys)
        assert main(["validate", folder, "--dask", address]) == 2
        text_dask = capsys.readouterr().out
        assert main(["validate", folder, "--dask", address, "--jobs", "2"]) == 64
        assert "--dask and --jobs do not go together" in capsys.readouterr().err
    code_jobs, on_jobs = _cli_json(["validate", folder, "--format", "json", "--jobs", "2"], capsys)
    assert main(["validate", folder, "--jobs", "2"]) == 2
    text_jobs = capsys.readouterr().out
    assert (code_dask, on_dask) == (code_jobs, on_jobs)
    assert on_dask["summary"] == {"files": 9, "valid": 4, "invalid": 3, "unreadable": 2,
                                  "deals_scored": on_jobs["summary"]["deals_scored"]}
    assert text_dask.split("\n\n")[0] == text_jobs.split("\n\n")[0]  # every file's lines, before the timing
