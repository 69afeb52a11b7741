"""Engines the conformance harness can drive: the oracle itself, and any program speaking the protocol.

The protocol is JSON lines over standard input and output, one request and one reply
per line (docs/protocol.md). Actions are written as in game records: ``{"seat": 1,
"action": "play", "card": "KH", "marriage": false}``. A subprocess engine is started in
its own process group, every request has a time limit, and the whole group is killed
when the harness is done, so no process is left behind.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from abc import ABC, abstractmethod
from typing import Any

from ..cards import notation
from ..engine import Action, Game
from ..records import decode_value, encode_action, encode_value, sheet_value
from ..ruleset import Ruleset, load_ruleset

PROTOCOL = "thousand-engine/1"


class EngineFailure(Exception):
    """The engine crashed, hung, printed garbage or broke the protocol."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind  # crash | timeout | garbage | protocol | start
        self.message = message


class EngineAdapter(ABC):
    """What the harness needs from an engine. Python engines can subclass this directly."""

    name = "engine"

    def hello(self) -> dict[str, Any]:
        """Capabilities: {"explicit_deal": bool, "legal_actions": bool, "results": bool, "rulesets": [...]}."""
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

    def set_state(self, state: dict[str, Any]) -> None:
        """Start from a game state: per-player values by variable name (for example the scores)."""
        raise EngineFailure("protocol", "this engine cannot start from a given state")

    def close(self) -> None:  # noqa: B027 - optional for in-process engines
        pass


class OracleEngine(EngineAdapter):
    """The reference interpreter as an engine (also the base of the deliberately broken mutants)."""

    def __init__(self, ruleset: str | Ruleset = "classic", overlays: list[str] | None = None,
                 params: dict[str, Any] | None = None, name: str = "oracle") -> None:
        self.rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset, overlays, params)
        self.nt = notation(self.rs)
        self.name = name
        self.game: Game | None = None
        self.players: list[str] = []

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
        g = self._g()
        for name, values in state.items():
            if name not in g.v:
                raise EngineFailure("protocol", f"no state variable {name!r}")
            g.v[name] = list(values)

    def results(self) -> list[dict[str, Any]]:
        g = self._g()
        return [{k: sheet_value(self.rs, self.nt, k, v, list(range(len(self.players)))) for k, v in row.items()
                 if k not in ("deal", "dealer", "marks")} for row in g.sheet]

    def _decode(self, value: Any, t: str) -> Any:
        return decode_value(value, t, self.nt, self._g().v["n_seats"], "field")

    def _g(self) -> Game:
        if self.game is None:
            raise EngineFailure("protocol", "no game started")
        return self.game


_LIVE: set[subprocess.Popen[str]] = set()


def _kill_all() -> None:
    for p in list(_LIVE):
        _kill(p)


atexit.register(_kill_all)


def _kill(p: subprocess.Popen[str]) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    _LIVE.discard(p)


class SubprocessEngine(EngineAdapter):
    """A program speaking the protocol on stdin/stdout."""

    def __init__(self, command: str, timeout: float = 5.0, start_timeout: float = 30.0) -> None:
        self.command = command
        self.name = command
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []
        self.counter = 0
        self.capabilities: dict[str, Any] = {}

    # ------------------------------------------------------------------ process
    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True)
        except (OSError, ValueError) as exc:
            raise EngineFailure("start", f"cannot start {self.command!r}: {exc}") from None
        _LIVE.add(self.proc)
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        self._stderr = threading.Thread(target=self._drain, args=(self.proc.stderr,), daemon=True)
        self._stderr.start()

    @staticmethod
    def _pump(stream: Any, out: queue.Queue[str | None]) -> None:
        for line in stream:
            out.put(line)
        out.put(None)

    def _drain(self, stream: Any) -> None:
        for line in stream:
            self.errors.append(line.rstrip())
            del self.errors[:-20]

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(json.dumps({"id": 0, "cmd": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired, AssertionError):
                pass
        if self.proc is not None:
            _kill(self.proc)
            self.proc = None

    # ------------------------------------------------------------------ requests
    def request(self, cmd: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        self.counter += 1
        msg = {"id": self.counter, "cmd": cmd, **fields}
        try:
            self.proc.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._crashed(cmd) from None
        limit = timeout or self.timeout
        deadline = time.monotonic() + limit
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.close()
                raise EngineFailure("timeout", f"no reply to {cmd!r} within {limit:g}s") from None
            if line is None:
                raise self._crashed(cmd)
            line = line.strip()
            if not line:
                continue
            try:
                reply = json.loads(line)
            except json.JSONDecodeError:
                self.close()
                raise EngineFailure("garbage", f"reply to {cmd!r} is not JSON: {line[:120]!r}") from None
            if not isinstance(reply, dict):
                raise EngineFailure("protocol", f"reply to {cmd!r} is not an object: {line[:120]!r}")
            if reply.get("id") != self.counter:
                raise EngineFailure("protocol", f"reply to request {self.counter} ({cmd!r}) carries id "
                                                f"{reply.get('id')!r}")
            if reply.get("error"):
                raise EngineFailure("protocol", f"engine reported an error on {cmd!r}: {reply['error']}")
            return reply

    def _crashed(self, cmd: str) -> EngineFailure:
        code = self.proc.wait(timeout=5) if self.proc is not None else None
        if self.proc is not None:
            self._stderr.join(timeout=5)  # the engine's last words: read all of stderr before quoting it
        tail = "; ".join(self.errors[-3:])
        return EngineFailure("crash", f"engine exited (code {code}) during {cmd!r}" + (f": {tail}" if tail else ""))

    def _need(self, reply: dict[str, Any], key: str, kind: type, cmd: str) -> Any:
        if key not in reply or not isinstance(reply[key], kind):
            raise EngineFailure("protocol", f"reply to {cmd!r} lacks {key!r} ({kind.__name__}): {reply}")
        return reply[key]

    # ------------------------------------------------------------------ the adapter
    def hello(self) -> dict[str, Any]:
        reply = self.request("hello", timeout=self.start_timeout, protocol=PROTOCOL)
        if reply.get("protocol") != PROTOCOL:
            raise EngineFailure("protocol", f"engine speaks {reply.get('protocol')!r}, not {PROTOCOL!r}")
        self.capabilities = dict(reply.get("capabilities") or {})
        return self.capabilities

    def new_game(self, ruleset: str, players: list[str], dealer: int) -> None:
        self.request("new_game", ruleset=ruleset, players=players, dealer=dealer)

    def deal(self, deal: dict[str, Any]) -> None:
        self.request("deal", **deal)

    def set_state(self, state: dict[str, Any]) -> None:
        self.request("set_state", state=state)

    def legal(self) -> list[dict[str, Any]]:
        actions = self._need(self.request("legal"), "actions", list, "legal")
        for a in actions:
            if not isinstance(a, dict) or "seat" not in a or "action" not in a:
                raise EngineFailure("protocol", f"a legal action must have 'seat' and 'action': {a!r}")
        return actions

    def apply(self, action: dict[str, Any]) -> tuple[bool, str | None]:
        reply = self.request("apply", action=action)
        accepted = self._need(reply, "accepted", bool, "apply")
        return accepted, None if accepted else str(reply.get("reason") or "")

    def results(self) -> list[dict[str, Any]]:
        return self._need(self.request("results"), "deals", list, "results")


__all__ = ["PROTOCOL", "EngineAdapter", "EngineFailure", "OracleEngine", "SubprocessEngine", "encode_value"]
