"""The verdict on a record: valid, or the violations found, or why it could not be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Location, OracleError
from ..places import in_game
from ..sources import cite_lines
from .allowed import NOTHING, Allowed


@dataclass
class Violation:
    deal: int | None  # 1-based
    action: int | None  # 1-based, within the deal
    seat: int | None
    seat_name: str | None
    what: str  # the action or value, as text
    rule: str
    reason: str
    message: str
    sources: list[dict[str, Any]]
    location: Location
    allowed: Allowed = NOTHING  # what the rules allowed there: the legal actions, or the right value

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "action": self.action,
                "seat": None if self.seat is None else self.seat + 1, "player": self.seat_name,
                "what": self.what, "rule": self.rule, "reason": self.reason, "message": self.message,
                "allowed": self.allowed.to_json(), "allowed_text": self.allowed.text(self.seat_name),
                "sources": self.sources, "file": self.location.file, "line": self.location.line,
                "column": self.location.column}

    def format(self) -> str:
        where = in_game(self.deal, self.action, self.seat, self.seat_name)
        head = f"{self.location}: " + where + (": " if where else "") + self.what
        srcs = cite_lines(self.sources)
        out = f"{head}\n    rule {self.rule} [{self.reason}]: {self.message}"
        out += f"\n    allowed: {self.allowed.text(self.seat_name)}"
        if srcs:
            out += f"\n    sources: {srcs}"
        return out


@dataclass
class Verdict:
    file: str
    valid: bool
    ruleset: str | None = None
    deals: int = 0
    actions: int = 0
    violations: list[Violation] = field(default_factory=list)
    # The record could not be read or understood (an InputError), or the rules failed on it (a RuleRuntimeError).
    error: OracleError | None = None
    finished: bool = False

    @property
    def exit_code(self) -> int:
        return 2 if self.error is not None else (0 if self.valid else 1)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "valid": self.valid, "ruleset": self.ruleset, "deals": self.deals,
                               "actions": self.actions, "finished": self.finished,
                               "violations": [v.to_json() for v in self.violations]}
        if self.error is not None:
            loc = self.error.location
            out["error"] = {"message": self.error.message, "file": loc.file if loc else self.file,
                            "line": loc.line if loc else None, "column": loc.column if loc else None}
        return out
