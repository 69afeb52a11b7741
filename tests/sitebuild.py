"""The rulebook site, built once per test run, in the background from the run's start.

A strict mkdocs build of every page (every preset, two languages) takes several seconds of one core. It
used to be made by the first test that needed the site, while the other test worker, wanting it too,
waited on a lock: a core idle for the length of a build, on a suite whose time is counted. Now the first
test process to collect a test that uses the site starts the build as a process of its own and goes on
with its tests; a test that needs the site waits only for what is left of the build, usually nothing.

The build goes to the run's scratch folder (``THOUSAND_TESTS_CACHE_DIR``, made by ``conftest.py`` and
removed with it), never into the tree. Its outcome is a file written whole when mkdocs ends: its exit
status, then what it printed, which is also left beside the pages as ``.build.log``.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 300.0  # seconds for a build, as the build before this one was given

# Run in the build's own process: mkdocs, then its outcome written under another name and renamed, so
# that a waiting test never reads half of it.
_BUILD = """import os, subprocess, sys
out, config, outcome = sys.argv[1:4]
try:
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config, "-d", out],
                       capture_output=True, text=True, timeout=float(sys.argv[4]))
    status, log = p.returncode, p.stdout + p.stderr
except Exception as exc:
    status, log = -1, f"the build did not run to its end: {exc!r}"
if os.path.isdir(out):  # the log beside the pages, which the tests read, written once, before the outcome
    with open(os.path.join(out, ".build.log"), "w", encoding="utf-8") as f:
        f.write(log)
with open(outcome + ".part", "w", encoding="utf-8") as f:
    f.write(f"{status}\\n{log}")
os.replace(outcome + ".part", outcome)
"""


def missing() -> list[str]:
    """The packages the site needs that are not installed."""
    return [m for m in ("mkdocs", "material", "mkdocs_static_i18n") if importlib.util.find_spec(m) is None]


def buildable() -> bool:
    return not missing()


def run_id() -> str:
    """This run's id: one for all of pytest-xdist's workers (and the processes a test process starts for the
    run, which are given it as THOUSAND_TESTS_RUN), else the test process's own."""
    return (os.environ.get("THOUSAND_TESTS_RUN") or os.environ.get("PYTEST_XDIST_TESTRUNUID")
            or f"pid{os.getpid()}")


def _scratch() -> Path:
    """This run's folder for the build. The scratch folder is the run's own unless the environment names one,
    and the run's id keeps a build of another run there from being taken for this one's."""
    return Path(os.environ["THOUSAND_TESTS_CACHE_DIR"]) / f"site-{run_id()}"


def folder() -> Path:
    """Where the site is built."""
    return _scratch() / "site"


def _outcome() -> Path:
    return _scratch() / "outcome"


def start() -> None:
    """Start the build, unless a process of this run started it already (the first to make the marker does)."""
    _scratch().mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(_scratch() / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.Popen([sys.executable, "-c", _BUILD, str(folder()), str(ROOT / "mkdocs.yml"), str(_outcome()),
                             str(TIMEOUT)], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def stop() -> None:  # a run cut short: the build does not outlive it (nor write into a removed folder)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    atexit.register(stop)


def ended() -> tuple[int, str] | None:
    """The build's exit status and what it printed, if it has ended."""
    try:
        status, _, log = _outcome().read_text(encoding="utf-8").partition("\n")
    except FileNotFoundError:
        return None
    return int(status), log


def wait() -> tuple[int, str]:
    """The build's exit status and what it printed, once it has ended (started here if nobody had)."""
    start()
    deadline = time.monotonic() + TIMEOUT + 30
    while (outcome := ended()) is None:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the site's build gave no outcome in {TIMEOUT + 30:g} s ({_outcome()})")
        time.sleep(0.05)
    return outcome
