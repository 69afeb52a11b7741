"""One headless Chromium for many pages: the DevTools protocol over a pipe, for the site's browser tests.

Starting Chromium costs about as much as loading a page, so the tests start it once and open each
page in a new tab: set the window size, load the page, take the DOM after its scripts ran and a
screenshot. The protocol is JSON messages ended by a NUL byte; Chromium reads them on file
descriptor 3 and answers on 4 (``--remote-debugging-pipe``). Nothing listens on a network port.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)

# Chromium wants the pipe on descriptors 3 and 4 exactly: a small Python start moves them there
# (a shell cannot name descriptors past 9, and Popen has no way to renumber them).
_ONTO_3_AND_4 = """import fcntl, os, sys
r, w = (fcntl.fcntl(int(fd), fcntl.F_DUPFD, 10) for fd in sys.argv[1:3])
os.dup2(r, 3)
os.dup2(w, 4)
os.execv(sys.argv[3], sys.argv[3:])
"""


class BrowserError(AssertionError):
    """Chromium did not do what a test asked (it failed, hung, or exited)."""


class Browser:
    """A headless Chromium session; :meth:`page` loads one page and returns its DOM."""

    def __init__(self, profile: Path, timeout: float = 60.0) -> None:
        if CHROMIUM is None:
            raise BrowserError("headless Chromium not found")
        self.timeout = timeout
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"]
        # Its own session, so that a hung browser and its helper processes can be ended together.
        self.proc = subprocess.Popen([sys.executable, "-c", _ONTO_3_AND_4, str(to_chrome_r), str(from_chrome_w), *args],
                                     pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._last_id = 0
        self._events: list[dict[str, Any]] = []

    def page(self, url: str, shot: Path, width: int, height: int) -> str:
        """Load ``url`` in a window of ``width`` × ``height``: save a screenshot to ``shot``, return the DOM."""
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self._call("Page.enable", session=session)
        self._call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
        self._call("Page.navigate", {"url": url}, session)
        self._event("Page.loadEventFired", session)
        dom = self._call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                              "returnByValue": True}, session)["result"]["value"]
        shot.write_bytes(base64.b64decode(self._call("Page.captureScreenshot", {"format": "png"}, session)["data"]))
        self._call("Target.closeTarget", {"targetId": target})
        return str(dom)

    def evaluate(self, url: str, expression: str, width: int = 1280, height: int = 900) -> Any:
        """Load ``url``, then evaluate ``expression`` in it (a promise is awaited) and return its value."""
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        try:
            self._call("Page.enable", session=session)
            self._call("Emulation.setDeviceMetricsOverride",
                       {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
            self._call("Page.navigate", {"url": url}, session)
            self._event("Page.loadEventFired", session)
            answer = self._call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                     "returnByValue": True}, session)
        finally:
            self._call("Target.closeTarget", {"targetId": target})
        if "exceptionDetails" in answer:
            raise BrowserError(f"the page's script failed: {answer['exceptionDetails'].get('text')} "
                               f"{answer['result'].get('description', '')}")
        return answer["result"].get("value")

    def close(self) -> None:
        try:
            self._call("Browser.close", timeout=5)
            self.proc.wait(timeout=5)
        except (BrowserError, OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            os.close(self._to_chrome)
            os.close(self._from_chrome)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the protocol
    def _call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
              timeout: float | None = None) -> dict[str, Any]:
        self._last_id += 1
        ask = {"id": self._last_id, "method": method, "params": params or {}}
        if session is not None:
            ask["sessionId"] = session
        try:
            os.write(self._to_chrome, json.dumps(ask).encode() + b"\0")
        except OSError as exc:
            raise BrowserError(f"chromium no longer reads its commands ({exc})") from None
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            msg = self._read(deadline, method)
            if msg.get("id") == self._last_id:
                if "error" in msg:
                    raise BrowserError(f"chromium refused {method}: {msg['error']}")
                return dict(msg.get("result") or {})
            self._events.append(msg)

    def _event(self, name: str, session: str) -> None:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, msg in enumerate(self._events):
                if msg.get("method") == name and msg.get("sessionId") == session:
                    del self._events[i]
                    return
            self._events.append(self._read(deadline, name))

    def _read(self, deadline: float, waiting_for: str) -> dict[str, Any]:
        if b"\0" not in self._buffer:
            # A screenshot is megabytes in pipe-sized chunks: look for the end in each new chunk only.
            parts = [self._buffer]
            while True:
                ready, _, _ = select.select([self._from_chrome], [], [], max(0.0, deadline - time.monotonic()))
                if not ready:
                    raise BrowserError(f"chromium gave no answer to {waiting_for} in {self.timeout:g} s")
                chunk = os.read(self._from_chrome, 1 << 20)
                if not chunk:
                    raise BrowserError(f"chromium exited while the test waited for {waiting_for}")
                parts.append(chunk)
                if b"\0" in chunk:
                    break
            self._buffer = b"".join(parts)
        line, self._buffer = self._buffer.split(b"\0", 1)
        return dict(json.loads(line))
