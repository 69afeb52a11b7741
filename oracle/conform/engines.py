"""Engines the conformance harness can drive: the oracle itself, and any program speaking the protocol.

The protocol is JSON lines over standard input and output, one request and one reply
per line (docs/reference/protocol.md). Actions are written as in game records: ``{"seat": 1,
"action": "play", "card": "KH", "marriage": false}``. A subprocess engine is started in
its own session, with a token in its environment; every request has a time limit; a
reply line is read in chunks up to 1 MiB and must be UTF-8 JSON; standard error keeps
only its last few kilobytes. When the harness is done it kills the engine's process
group and every process carrying the token (children that called setsid() too), so
nothing is left behind and memory stays bounded whatever the engine writes.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import re
import select
import shlex
import signal
import subprocess
import threading
import time
import uuid
from abc import ABC, abstractmethod
from typing import Any

from ..cards import notation
from ..engine import Action, Game, PositionError
from ..limits import MAX_INT_DIGITS
from ..records import decode_value, encode_action, encode_value, sheet_value
from ..ruleset import Ruleset, load_ruleset

PROTOCOL = "thousand-engine/1"


class EngineFailure(Exception):
    """The engine crashed, hung, printed garbage or broke the protocol."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind  # crash | timeout | garbage | oversize | protocol | start
        self.message = message


class EngineAdapter(ABC):
    """What the harness needs from an engine. Python engines can subclass this directly."""

    name = "engine"
    def hello(self) -> dict[str, Any]:
        """Capabilities (docs/reference/protocol.md): explicit_deal, legal_actions, results, set_state (flags),
        not_supported (actions it does not offer), projection (how it maps its own game onto the protocol)."""
        return {"explicit_deal": True, "legal_actions": True, "results": True}

    @abstractmethod
    def new_game(self, ruleset: str, players: list[str], dealer: int) -> None: ...

    @abstractmethod
    def deal(self, deal: dict[str, Any]) -> None:
        """Set the next deal: the record's deal-level fields (hands, talon_cards, …) as written in records."""

    @abstractmethod
    def legal(self) -> list[dict[str, Any]]:
        """Every legal action now, as record actions."""

    @abstractmethod
    def apply(self, action: dict[str, Any]) -> tuple[bool, str | None]:
        """Apply an action if legal: (accepted, reason when rejected)."""

    @abstractmethod
    def results(self) -> list[dict[str, Any]]:
        """The score sheet so far: one mapping per finished deal (delta, score, …)."""

    def configure(self, overlays: list[str], params: dict[str, Any]) -> None:  # noqa: B027 - optional
        """The run's overlays and parameters on top of the named ruleset (`conform --overlay/--set`)."""

    def game_end(self) -> dict[str, Any]:
        """The end of the game as the engine saw it at its last results(): {"over": bool, "winner": seat or
        None}, or the part of it the engine says (nothing by default). Compared with the oracle's."""
        return {}

    def set_state(self, state: dict[str, Any]) -> None:
        """Start from a game state: per-player values by variable name (for example the scores)."""
        raise EngineFailure("protocol", "this engine cannot start from a given state")

    def close(self) -> None:  # noqa: B027 - optional for in-process engines
        pass


class OracleEngine(EngineAdapter):
    """The reference interpreter as an engine (also the base of the deliberately broken mutants)."""

    def __init__(self, ruleset: str | Ruleset = "classic", overlays: list[str] | None = None,
                 params: dict[str, Any] | None = None, name: str = "oracle") -> None:
        self.base = ruleset.name if isinstance(ruleset, Ruleset) else ruleset
        self.rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset, overlays, params)
        self.nt = notation(self.rs)
        self.name = name
        self.game: Game | None = None
        self.players: list[str] = []

    def configure(self, overlays: list[str], params: dict[str, Any]) -> None:
        """Play the named ruleset with these overlays and parameters (`conform --overlay/--set`, or a
        `new_game` request that carries them)."""
        self.rs = self.ruleset_with(list(overlays), dict(params))
        self.nt = notation(self.rs)

    def ruleset_with(self, overlays: list[str], params: dict[str, Any]) -> Ruleset:
        """The ruleset this engine plays, with ``overlays`` and ``params`` on top of its base."""
        return load_ruleset(self.base, overlays, params or None)

    def hello(self) -> dict[str, Any]:
        return {"explicit_deal": True, "legal_actions": True, "results": True, "set_state": True,
                "state_keys": state_keys(self.rs)}

    def new_game(self, ruleset: str, players: list[str], dealer: int) -> None:
        self.players = list(players)
        self.game = Game(self.rs, dealer=dealer, seed=0)

    def deal(self, deal: dict[str, Any]) -> None:
        g = self._g()
        decl = g.chance_action()
        if decl is None:
            raise EngineFailure("protocol", f"no deal expected in phase {g.phase!r}")
        payload = {f: self._decode(deal[f], t) for f, t in decl.fields}
        g.apply(Action(decl.name, g.actors(decl)[0], payload))

    def legal(self) -> list[dict[str, Any]]:
        g = self._g()
        return [encode_action(self.rs, self.nt, a) for a in g.legal_actions()]

    def apply(self, action: dict[str, Any]) -> tuple[bool, str | None]:
        g = self._g()
        decl = self.rs.actions.get(action.get("action", ""))
        if decl is None:
            return False, "unknown-action"
        try:
            payload = {f: self._decode(action[f], t) for f, t in decl.fields}
        except (KeyError, ValueError):
            return False, "bad-payload"
        rej = g.try_apply(Action(decl.name, int(action["seat"]), payload))
        return (True, None) if rej is None else (False, rej.reason)

    def set_state(self, state: dict[str, Any]) -> None:
        # The protocol sends the state right after new_game: the game starts again from that position.
        g = self._g()
        try:
            self.game = Game(self.rs, dealer=g.v["dealer"], seed=0, values=state)
        except PositionError as exc:
            raise EngineFailure("protocol", f"set_state: {exc.message}") from None

    def results(self) -> list[dict[str, Any]]:
        g = self._g()
        return [{k: sheet_value(self.rs, self.nt, k, v, None) for k, v in row.items()
                 if k not in ("deal", "dealer", "marks")} for row in g.sheet]

    def game_end(self) -> dict[str, Any]:
        g = self._g()
        return {"over": g.over, "winner": g.v["winner"]}

    def _decode(self, value: Any, t: str) -> Any:
        return decode_value(value, t, self.nt, self._g().v["n_seats"], "field")

    def _g(self) -> Game:
        if self.game is None:
            raise EngineFailure("protocol", "no game started")
        return self.game


_LIVE: dict[int, tuple[subprocess.Popen[bytes], str]] = {}
MAX_LINE = 1 << 20  # the longest reply line the harness reads (1 MiB); a longer one is a protocol failure
_CHUNK = 1 << 16
_STDERR_TAIL = 4096  # bytes of the engine's standard error kept for a crash report
_TOKEN_VAR = "THOUSAND_ENGINE_TOKEN"
KILL_WAIT = 5.0  # seconds: how long closing an engine waits for the processes it killed to be gone


def _kill_all() -> None:
    for p, token in list(_LIVE.values()):
        _kill(p, token)


atexit.register(_kill_all)


def _tagged(token: str) -> list[int]:
    """Processes that inherited the engine's token: its descendants, even those that left its session."""
    needle = f"{_TOKEN_VAR}={token}".encode()
    me = os.getpid()
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if needle in env.split(b"\0"):
            found.append(int(name))
    return found


def _kill(p: subprocess.Popen[bytes], token: str, readers: tuple[_Reader, ...] = ()) -> None:
    # The engine runs in its own session and process group: kill the group, then every process that still
    # carries the engine's token (a child that called setsid() has left the group but not the environment).
    # A killed process keeps its environment until it has run its exit, which on a loaded machine takes a
    # moment: the rounds go on until none is left (a zombie has none), so that close() returns with the
    # engine's processes gone, not on their way out.
    deadline = time.monotonic() + KILL_WAIT
    while True:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        rest = _tagged(token)
        for pid in rest:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if not rest or time.monotonic() > deadline:
            break
        time.sleep(0.005)
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    # The threads reading the engine's output end at the end of the stream, which its death brings. Their
    # descriptors are closed only then: closed earlier, the number can go to the next engine's pipe, and a
    # thread still reading it would take that engine's replies (a 'hello' then goes unanswered).
    for r in readers:
        r.thread.join(timeout=5)
        r.close()
    for stream in (p.stdin, p.stdout, p.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    _LIVE.pop(p.pid, None)


class _TooLong:
    """Marker: the engine wrote a line longer than MAX_LINE."""


class _Reader:
    """A thread reading one of the engine's output streams, chunk by chunk, until the end of the stream, or
    until it is asked to :meth:`finish`: an engine that exited has written all it will write, but a child it
    left behind may hold the stream open, so no end of it comes. Asked to finish, the thread reads what is
    waiting in the pipe and stops when nothing more is, so the harness has every byte the engine wrote at
    once, not after a grace period spent waiting for an end that may never come."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        # Written to by finish(); the thread sleeps in poll() on both pipes.
        self._wake_r, self._wake_w = os.pipe()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        fd, wake = self._fd, self._wake_r
        try:
            # poll(), not select(): a process with many files open may give the pipe a number select() refuses.
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            poller.register(wake, select.POLLIN)
            while True:
                if fd not in dict(poller.poll()):  # an end of the stream counts (POLLHUP): read() says so
                    break  # asked to finish, and nothing is left to read
                chunk = os.read(fd, _CHUNK)
                if not chunk or not self.take(chunk):
                    break
        except (OSError, ValueError):
            pass
        finally:
            self.ended()

    def take(self, chunk: bytes) -> bool:
        """Read ``chunk``; False to stop reading."""
        raise NotImplementedError

    def ended(self) -> None:
        """The reading stopped."""

    def finish(self, timeout: float) -> None:
        """The engine has exited: read what it wrote and stop (waiting at most ``timeout`` seconds). The
        wake-up pipe stays open until :meth:`close`, so this never writes to a pipe nobody reads."""
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        self.thread.join(timeout)

    def close(self) -> None:
        """The wake-up pipe closed, once the thread has stopped (a descriptor's number closed earlier may go
        to another file while the thread still waits on it)."""
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass


class _Lines(_Reader):
    """Reply lines from the engine's standard output, read in chunks so that no line costs more than MAX_LINE."""

    def __init__(self, fd: int) -> None:
        self.q: queue.Queue[bytes | _TooLong | None] = queue.Queue()
        self._buf = bytearray()
        self._too_long = False
        super().__init__(fd)

    def take(self, chunk: bytes) -> bool:
        buf = self._buf
        buf += chunk
        while True:
            nl = buf.find(b"\n")
            if nl < 0:
                break
            line = bytes(buf[:nl])
            del buf[:nl + 1]
            if len(line) > MAX_LINE:
                self._too_long = True
                return False
            self.q.put(line)
        if len(buf) > MAX_LINE:
            self._too_long = True
            return False
        return True

    def ended(self) -> None:
        if self._too_long:
            self.q.put(_TooLong())
            return
        if self._buf.strip():
            self.q.put(bytes(self._buf))
        self.q.put(None)


# A line of a stack trace rather than a message: frames, headers, carets and runtime banners.
_FRAME = re.compile(r"^\s+(at |File \"|\[C\]|\S+:\d+: in )|^\s*(Traceback \(most recent call last\)|stack traceback:"
                    r"|\^+\s*$|~+\s*$|Node\.js v\d)")
_ERROR = re.compile(r"(error|exception|panic|fatal|assert)", re.IGNORECASE)


class _Tail(_Reader):
    """The last few kilobytes of the engine's standard error, whatever it writes and however long its lines."""

    def __init__(self, fd: int) -> None:
        self.buf = bytearray()
        self.lock = threading.Lock()
        super().__init__(fd)

    def take(self, chunk: bytes) -> bool:
        with self.lock:
            self.buf += chunk[-_STDERR_TAIL:]
            del self.buf[:-_STDERR_TAIL]
        return True

    def lines(self, n: int = 3) -> list[str]:
        """What the engine said last, its error message first: the lines that name an error, else the last
        lines that are not the frames of a stack trace (Node's "at …", Python's "File …", Lua's traceback)."""
        with self.lock:
            text = bytes(self.buf).decode("utf-8", errors="replace")
        said = [x.strip()[:300] for x in text.splitlines() if x.strip() and not _FRAME.match(x)]
        errors = [x for x in said if _ERROR.search(x)]
        return (errors or said)[-n:]


class SubprocessEngine(EngineAdapter):
    """A program speaking the protocol on stdin/stdout."""

    def __init__(self, command: str, timeout: float = 5.0, start_timeout: float = 30.0, grace: float = 1.0) -> None:
        self.command = command
        self.name = command
        self.timeout = timeout
        self.start_timeout = start_timeout
        # Seconds an engine has to exit by itself once told to quit before it is killed; one that closed
        # its output gets twice that, so that its exit code and last words on stderr can be reported.
        self.grace = grace
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: _Lines | None = None
        self.stderr: _Tail | None = None
        self.token = uuid.uuid4().hex
        self.counter = 0
        self.capabilities: dict[str, Any] = {}
        self._end: dict[str, Any] = {}
        self.variant: dict[str, Any] = {}

    # ------------------------------------------------------------------ process
    def start(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise EngineFailure("start", f"cannot read the engine command {self.command!r}: {exc}") from None
        if not argv:
            raise EngineFailure("start", "the engine command is empty")
        try:
            # Its own session (so its own process group), and a token in its environment that its
            # descendants inherit: close() finds and kills all of them.
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0, start_new_session=True,
                                         env={**os.environ, _TOKEN_VAR: self.token})
        except (OSError, ValueError) as exc:
            raise EngineFailure("start", f"cannot start {self.command!r}: {exc}") from None
        _LIVE[self.proc.pid] = (self.proc, self.token)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.lines = _Lines(self.proc.stdout.fileno())
        self.stderr = _Tail(self.proc.stderr.fileno())

    @property
    def errors(self) -> list[str]:
        """The last lines the engine wrote on standard error."""
        return self.stderr.lines() if self.stderr is not None else []

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write((json.dumps({"id": 0, "cmd": "quit"}) + "\n").encode())
                self.proc.stdin.flush()
                self.proc.wait(timeout=self.grace)
            except (OSError, ValueError, subprocess.TimeoutExpired, AssertionError):
                pass
        if self.proc is not None:
            _kill(self.proc, self.token, tuple(r for r in (self.lines, self.stderr) if r is not None))
            self.proc = None

    # ------------------------------------------------------------------ requests
    def request(self, cmd: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None and self.lines is not None
        self.counter += 1
        msg = {"id": self.counter, "cmd": cmd, **fields}
        try:
            self.proc.stdin.write((json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self._crashed(cmd) from None
        limit = timeout or self.timeout
        deadline = time.monotonic() + limit
        while True:
            left = deadline - time.monotonic()
            try:
                # In slices, so that an engine that died is called a crash at once, not a timeout at the end
                # (its standard output may stay open in a child it started, so no end of stream comes).
                raw = self.lines.q.get(timeout=max(0.0, min(left, _POLL)))
            except queue.Empty:
                if self.proc.poll() is not None:
                    # What it wrote before it exited may still be on its way through the reader: read to the
                    # end of what is in the pipe, not to an end of stream a child of the engine may withhold.
                    self.lines.finish(self.grace)
                    try:
                        raw = self.lines.q.get_nowait()
                    except queue.Empty:
                        raise self._crashed(cmd) from None
                elif left > _POLL:
                    continue
                else:
                    self.close()
                    raise EngineFailure("timeout", f"no reply to {cmd!r} within {limit:g}s") from None
            if raw is None:
                raise self._crashed(cmd)
            if isinstance(raw, _TooLong):
                self.close()
                raise EngineFailure("oversize", f"the reply to {cmd!r} is a line longer than {MAX_LINE} bytes "
                                                f"({MAX_LINE // (1 << 20)} MiB); the harness stopped reading")
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError as exc:
                self.close()
                raise EngineFailure("garbage", f"the reply to {cmd!r} is not valid UTF-8 (byte {exc.start}: "
                                               f"{raw[exc.start:exc.start + 1]!r}): "
                                               f"{raw[:80].decode('utf-8', 'replace')!r}") from None
            if not line:
                continue
            try:
                reply = json.loads(line, parse_int=_bounded_int, parse_constant=_no_constant)
            except _Unreadable as exc:
                self.close()
                raise EngineFailure("protocol", f"reply to {cmd!r}: {exc}: {line[:120]!r}") from None
            except (ValueError, RecursionError):  # not JSON (JSONDecodeError is a ValueError)
                self.close()
                raise EngineFailure("garbage", f"reply to {cmd!r} is not JSON: {line[:120]!r}") from None
            if not isinstance(reply, dict):
                self.close()
                raise EngineFailure("protocol", f"reply to {cmd!r} is not an object: {line[:120]!r}")
            rid = reply.get("id")
            if type(rid) is not int or rid != self.counter:
                self.close()
                raise EngineFailure("protocol", f"reply to request {self.counter} ({cmd!r}) carries id "
                                                f"{str(json.dumps(rid))[:40]}, not {self.counter}")
            if reply.get("error"):
                self.close()
                raise EngineFailure("protocol", f"engine reported an error on {cmd!r}: {str(reply['error'])[:300]}")
            return reply

    def _crashed(self, cmd: str) -> EngineFailure:
        code = None
        alive = False
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2 * self.grace)
            except subprocess.TimeoutExpired:
                alive = True
        if not alive and self.stderr is not None:
            # What it wrote before exiting: all of it is in the pipe by now.
            self.stderr.finish(self.grace)
        tail = "; ".join(self.errors)
        self.close()
        if alive:
            return EngineFailure("crash", f"engine closed its standard output during {cmd!r}"
                                 + (f": {tail}" if tail else ""))
        return EngineFailure("crash", f"engine exited (code {code}) during {cmd!r}" + (f": {tail}" if tail else ""))

    def _need(self, reply: dict[str, Any], key: str, kind: type, cmd: str) -> Any:
        if key not in reply or not isinstance(reply[key], kind) or (kind is int and isinstance(reply[key], bool)):
            self.close()
            raise EngineFailure("protocol", f"reply to {cmd!r} lacks {key!r} ({kind.__name__}): "
                                            f"{json.dumps(reply)[:200]}")
        return reply[key]

    # ------------------------------------------------------------------ the adapter
    def hello(self) -> dict[str, Any]:
        reply = self.request("hello", timeout=self.start_timeout, protocol=PROTOCOL)
        if reply.get("protocol") != PROTOCOL:
            self.close()
            raise EngineFailure("protocol", f"engine speaks {str(reply.get('protocol'))[:60]!r}, not {PROTOCOL!r}")
        try:
            self.capabilities = check_capabilities(reply.get("capabilities"))
        except EngineFailure:
            self.close()
            raise
        return self.capabilities

    def configure(self, overlays: list[str], params: dict[str, Any]) -> None:
        self.variant = {k: v for k, v in (("overlays", list(overlays)), ("params", dict(params))) if v}

    def new_game(self, ruleset: str, players: list[str], dealer: int) -> None:
        # overlays and params only when the run has them: an engine that knows only named rulesets is unchanged.
        self.request("new_game", ruleset=ruleset, players=players, dealer=dealer, **self.variant)

    def deal(self, deal: dict[str, Any]) -> None:
        self.request("deal", **deal)

    def set_state(self, state: dict[str, Any]) -> None:
        self.request("set_state", state=state)

    def legal(self) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = self._need(self.request("legal"), "actions", list, "legal")
        for a in actions:
            if not isinstance(a, dict) or "seat" not in a or "action" not in a:
                self.close()
                raise EngineFailure("protocol", f"a legal action must be an object with 'seat' and 'action': "
                                                f"{json.dumps(a)[:120]}")
        return actions

    def apply(self, action: dict[str, Any]) -> tuple[bool, str | None]:
        reply = self.request("apply", action=action)
        accepted = self._need(reply, "accepted", bool, "apply")
        return accepted, None if accepted else str(reply.get("reason") or "")

    def results(self) -> list[dict[str, Any]]:
        reply = self.request("results")
        rows: list[dict[str, Any]] = self._need(reply, "deals", list, "results")
        self._end = {k: reply[k] for k in ("over", "winner") if k in reply}
        return rows

    def game_end(self) -> dict[str, Any]:
        return dict(self._end)


_POLL = 0.25  # seconds between two looks at whether the engine is still running, while a reply is awaited


class _Unreadable(Exception):
    """A reply's number the harness will not read (as a record's reader would not)."""


def _bounded_int(text: str) -> int:
    # Python refuses integers of more than 4,300 digits with a ValueError of its own, long after the time a
    # thousands-of-digits number costs to read; a reply, like a record, has at most MAX_INT_DIGITS.
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Unreadable(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _no_constant(text: str) -> Any:
    raise _Unreadable(f"{text} is not a JSON number")


def state_keys(rs: Ruleset) -> list[str]:
    """What set_state may carry under a ruleset: its per-player game variables that records keep."""
    return [d.name for d in rs.vars.values() if d.scope == "seat" and d.lifetime == "game" and d.record and not d.zone]


def check_capabilities(caps: Any) -> dict[str, Any]:
    """The handshake's capabilities, checked: an object; the flags booleans; the lists lists."""
    if caps is None:
        return {}
    if not isinstance(caps, dict):
        raise EngineFailure("protocol", f"'capabilities' must be an object, not {json.dumps(caps)[:80]}")
    for flag in FLAGS:
        if flag in caps and not isinstance(caps[flag], bool):
            raise EngineFailure("protocol", f"capability {flag!r} must be true or false, not "
                                            f"{json.dumps(caps[flag])[:60]}")
    ns = caps.get("not_supported", [])
    if not isinstance(ns, list) or not all(isinstance(x, str) or (isinstance(x, dict) and isinstance(
            x.get("action"), str) and isinstance(x.get("phase", ""), str)) for x in ns):
        raise EngineFailure("protocol", "capability 'not_supported' must be a list of action names, notes, or "
                                        "objects {\"action\": NAME, \"phase\": PHASE}")
    sk = caps.get("state_keys", [])
    if not isinstance(sk, list) or not all(isinstance(x, str) for x in sk):
        raise EngineFailure("protocol", "capability 'state_keys' must be a list of variable names")
    pr = caps.get("projection", {})
    if not isinstance(pr, dict) or not all(isinstance(v, str) for v in pr.values()):
        raise EngineFailure("protocol", "capability 'projection' must be an object of texts")
    return dict(caps)


FLAGS = ("explicit_deal", "legal_actions", "results", "set_state")


__all__ = ["PROTOCOL", "EngineAdapter", "EngineFailure", "OracleEngine", "SubprocessEngine", "check_capabilities",
           "encode_value"]
