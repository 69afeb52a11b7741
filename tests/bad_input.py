"""Shared by the bad-input tests: running the oracle as a user would, and judging what it says."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THOUSAND = [sys.executable, "-m", "oracle"]
CEILING = 500 * 1024 * 1024  # bytes: no input may make the oracle use more
# file:line:col: at the start of a message line (after "thousand: error: " on standard error).
LOCATED = re.compile(r"^(?:thousand: (?:error|warning): )?(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): ", re.M)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# The child's peak memory is measured by a small Python process between us and it. Measured from here,
# the child's ru_maxrss would include this (test) process's own high-water mark: Linux carries the
# forking process's peak into the child at exec, so a test worker grown to 500 MB would make every
# child look as big as itself.
_MEASURE = """
import os, subprocess, sys
with subprocess.Popen(sys.argv[2:]) as child:
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss * 1024))
sys.exit(child.returncode if child.returncode >= 0 else 128 - child.returncode)
"""


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 120, cwd: Path | None = None
        ) -> tuple[int, str, int]:
    """Run ``thousand`` in a child process: exit code, everything it printed, its peak memory (bytes)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    with tempfile.TemporaryDirectory() as tmp:
        peak_file = Path(tmp) / "peak"
        with subprocess.Popen([sys.executable, "-c", _MEASURE, str(peak_file), *THOUSAND, *args],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=full_env, cwd=cwd,
                              start_new_session=True) as proc:
            deadline = time.monotonic() + timeout
            out = b""
            assert proc.stdout is not None
            os.set_blocking(proc.stdout.fileno(), False)
            while True:
                chunk = proc.stdout.read()
                if chunk:
                    out += chunk
                code = proc.poll()
                if code is not None:
                    out += proc.stdout.read() or b""
                    break
                if time.monotonic() > deadline:
                    os.killpg(proc.pid, signal.SIGKILL)
                    raise AssertionError(f"thousand {' '.join(args)} did not finish in {timeout}s")
                time.sleep(0.02)
        peak = int(peak_file.read_text())
    return code, out.decode("utf-8", errors="replace"), peak


def assert_user_error(code: int, out: str, file: str | None = None) -> None:
    """Exit 1 or 2, never a traceback or the catch-all, and the message names a line and column in ``file``."""
    assert code in (1, 2), (code, out)
    assert "internal error" not in out and "Traceback" not in out, out
    m = LOCATED.search(out)
    assert m is not None, f"no file:line:col in {out!r}"
    if file is not None:
        assert Path(m["file"]).name == Path(file).name, out
