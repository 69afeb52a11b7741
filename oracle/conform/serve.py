"""The oracle as a protocol engine on stdin/stdout: `thousand engine --ruleset classic`.

It is the reference implementation of the protocol (docs/reference/protocol.md) and what
the harness's own tests drive as a subprocess. `--mutant NAME` serves a deliberately
broken engine instead.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from .engines import PROTOCOL, EngineAdapter, EngineFailure, OracleEngine


def serve(engine: EngineAdapter, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
            reply = _handle(engine, msg)
        except json.JSONDecodeError as exc:
            reply = {"id": None, "error": f"not JSON: {exc.msg}"}
        except (EngineFailure, KeyError, TypeError, ValueError) as exc:
            reply = {"id": msg.get("id") if isinstance(msg, dict) else None, "error": str(exc)}
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()
        if isinstance(msg, dict) and msg.get("cmd") == "quit":
            return 0
    return 0


def _handle(engine: EngineAdapter, msg: dict[str, Any]) -> dict[str, Any]:
    cmd, rid = msg["cmd"], msg.get("id")
    if cmd == "hello":
        caps = {"explicit_deal": True, "legal_actions": True, "results": True, "set_state": True,
                **engine.hello()}
        return {"id": rid, "ok": True, "protocol": PROTOCOL, "engine": engine.name, "capabilities": caps}
    if cmd == "new_game":
        # The harness names the run's overlays and parameters in every new_game (protocol.md, new_game).
        if "overlays" in msg or "params" in msg:
            engine.configure(list(msg.get("overlays") or []), dict(msg.get("params") or {}))
        engine.new_game(msg["ruleset"], list(msg["players"]), int(msg["dealer"]))
        return {"id": rid, "ok": True}
    if cmd == "set_state":
        engine.set_state(dict(msg["state"]))
        return {"id": rid, "ok": True}
    if cmd == "deal":
        engine.deal({k: v for k, v in msg.items() if k not in ("id", "cmd")})
        return {"id": rid, "ok": True}
    if cmd == "legal":
        return {"id": rid, "ok": True, "actions": engine.legal()}
    if cmd == "apply":
        accepted, reason = engine.apply(dict(msg["action"]))
        return {"id": rid, "ok": True, "accepted": accepted, **({} if accepted else {"reason": reason})}
    if cmd == "results":
        rows = engine.results()
        return {"id": rid, "ok": True, "deals": rows, **engine.game_end()}
    if cmd == "quit":
        return {"id": rid, "ok": True}
    return {"id": rid, "error": f"unknown command {cmd!r}"}


def main(ruleset: str, mutant: str | None = None, overlays: list[str] | None = None,
         params: dict[str, Any] | None = None) -> int:
    if mutant:
        from .mutants import MutantEngine, by_name

        engine: EngineAdapter = MutantEngine(by_name(mutant), ruleset)
    else:
        engine = OracleEngine(ruleset)
    if overlays or params:
        engine.configure(list(overlays or []), dict(params or {}))
    return serve(engine)
