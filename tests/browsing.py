"""The site's pages looked at in a browser, in the background from the run's start (as its build is, sitebuild.py).

A browser test spends its time waiting: for Chromium to load a page, run its scripts, lay it out and draw
it, or for the search's worker to build its index. Some fifteen seconds of a test worker's run went so,
its core idle while the other worker's tests queued. So the pages the browser tests look at are declared
(:class:`Visit`, by each test module when it is imported) and one process of the run looks at them all:
the first test process to collect a test that uses them starts it (:func:`start`); it waits for the
site's build, serves the site on a loopback port, opens each page in one headless Chromium and writes
what it saw to the run's scratch folder as it goes: the DOM after the page's scripts ran and a
screenshot, or what a script evaluated in the page returned. A test reads what it needs
(:func:`seen`), waiting only for what has not been looked at yet.

The checks stay in the tests; this module only gathers. Chromium's failures are told to the test that
asked for the page (:class:`~browser.BrowserError`, with Chromium's words).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import sitebuild
from browser import CHROMIUM, Browser, BrowserError

TIMEOUT = 300.0  # seconds for every page, after the site is built


@dataclass(frozen=True)
class Visit:
    """One page to look at: ``path`` under the site's root, in a window of ``width`` × ``height``. With a
    ``script``, what it evaluates to in the page (a promise is awaited); else the page's DOM, and a
    screenshot written to ``shot``."""

    name: str
    path: str
    width: int = 1280
    height: int = 900
    shot: str | None = None
    script: str | None = None


_WANTED: dict[str, Visit] = {}


def want(*visits: Visit) -> None:
    """Declare pages a test module will look at (called when the module is imported, so at collection)."""
    for v in visits:
        if _WANTED.setdefault(v.name, v) != v:
            raise ValueError(f"two different visits are named {v.name!r}")


def wanted() -> bool:
    return bool(_WANTED)


def _scratch() -> Path:
    return sitebuild.folder().parent / "browsing"


def _run_folder() -> Path:
    return Path(os.environ["THOUSAND_TESTS_CACHE_DIR"])


def start() -> None:
    """Look at every declared page in a process of its own, unless a process of this run started it already.

    The process belongs to the run, not to the test process that starts it (which may end before another
    has read what it needs): it ends when it has looked at every page, or when the run's scratch folder is
    removed (the run ended). The test process that starts it reaps it, and says so if it ended early."""
    folder = _scratch()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(folder / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    plan = folder / "plan.json"
    plan.write_text(json.dumps([asdict(v) for v in _WANTED.values()]), encoding="utf-8")
    with open(folder / "log", "wb") as log:
        proc = subprocess.Popen([sys.executable, __file__, str(plan)], cwd=Path(__file__).parent,
                                env={**os.environ, "THOUSAND_TESTS_RUN": sitebuild.run_id()},
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def reap() -> None:
        code = proc.wait()
        done = folder / "done"
        if not done.exists() and folder.exists():
            done.write_text(f"the browsing process ended (code {code}) before it had looked at every page",
                            encoding="utf-8")
    threading.Thread(target=reap, daemon=True).start()


def seen(name: str) -> Any:
    """What the visit ``name`` saw (its DOM, or its script's value), once it has been looked at."""
    if name not in _WANTED:
        raise KeyError(f"no visit {name!r} was declared (browsing.want)")
    start()
    folder = _scratch()
    result, done = folder / f"{name}.json", folder / "done"
    deadline = time.monotonic() + sitebuild.TIMEOUT + TIMEOUT
    while not result.exists():
        if done.exists() and not result.exists():
            log = (folder / "log").read_text(encoding="utf-8", errors="replace")[-3000:]
            raise BrowserError(f"the page {name!r} was not looked at: {done.read_text(encoding='utf-8')}\n{log}")
        if time.monotonic() > deadline:
            raise BrowserError(f"the page {name!r} was not looked at within {sitebuild.TIMEOUT + TIMEOUT:g} s")
        time.sleep(0.05)
    answer = json.loads(result.read_text(encoding="utf-8"))
    if "error" in answer:
        raise BrowserError(answer["error"])
    return answer["value"]


# --------------------------------------------------------------------------- the process that looks

class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _write(path: Path, value: dict[str, Any]) -> None:
    part = path.with_suffix(".part")
    part.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    os.replace(part, path)  # a test never reads half of it


def _look(plan: Path) -> str:
    """Look at every page of the plan; what went wrong as a whole (the build, Chromium's start, the run's
    end), or ''."""
    folder = plan.parent
    visits = [Visit(**v) for v in json.loads(plan.read_text(encoding="utf-8"))]
    run = _run_folder()
    deadline = time.monotonic() + sitebuild.TIMEOUT + 30
    while (built := sitebuild.ended()) is None:
        if not run.exists() or time.monotonic() > deadline:
            return "the site's build gave no outcome"
        time.sleep(0.05)
    if built[0] != 0:
        return "the site's build failed"
    if CHROMIUM is None:
        return "headless Chromium not found"
    handler = functools.partial(_Quiet, directory=str(sitebuild.folder()))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with Browser(folder / "chromium-profile", timeout=60.0) as browser:
            for v in visits:
                if not run.exists():
                    return "the run ended"
                try:
                    if v.script is not None:
                        value = browser.evaluate(root + v.path, v.script, v.width, v.height)
                    else:
                        if v.shot is None:
                            raise BrowserError(f"visit {v.name!r}: a page's DOM comes with a screenshot")
                        Path(v.shot).parent.mkdir(parents=True, exist_ok=True)
                        Path(v.shot).unlink(missing_ok=True)  # a screenshot found is this run's
                        value = browser.page(root + v.path, Path(v.shot), v.width, v.height)
                    _write(folder / f"{v.name}.json", {"value": value})
                except BrowserError as exc:
                    _write(folder / f"{v.name}.json", {"error": f"{v.path}: {exc}"})
    except BrowserError as exc:
        return str(exc)
    finally:
        server.shutdown()
        server.server_close()
    return ""


if __name__ == "__main__":
    plan = Path(sys.argv[1])
    problem = "the browsing process failed"
    try:
        problem = _look(plan)
    finally:
        if plan.parent.exists():
            (plan.parent / "done").write_text(problem or "every page was looked at", encoding="utf-8")
