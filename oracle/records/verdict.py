"""The verdict on a record: valid, or the violations found, or why it could not be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, Location
from ..places import in_game
from ..plural import count
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
    # With --all-errors, an illegal action ends its deal's replay: how many of the deal's actions after it
    # were left unjudged (None when the violation ended no deal).
    skipped: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "action": self.action,
                "seat": None if self.seat is None else self.seat + 1, "player": self.seat_name,
                "what": self.what, "rule": self.rule, "reason": self.reason, "message": self.message,
                "allowed": self.allowed.to_json(), "allowed_text": self.allowed.text(self.seat_name),
                "sources": self.sources, "file": self.location.file, "line": self.location.line,
                "column": self.location.column, "skipped_actions": self.skipped}

    def format(self) -> str:
        where = in_game(self.deal, self.action, self.seat, self.seat_name)
        head = f"{self.location}: " + where + (": " if where else "") + self.what
        srcs = cite_lines(self.sources)
        out = f"{head}\n    rule {self.rule} [{self.reason}]: {self.message}"
        out += f"\n    allowed: {self.allowed.text(self.seat_name)}"
        if srcs:
            out += f"\n    sources: {srcs}"
        if self.skipped is not None:
            out += "\n    " + skipped_text(self.skipped, "en")
        return out


def skipped_text(n: int, lang: str = "en") -> str:
    """The line after a violation that ended its deal's replay (--all-errors)."""
    if lang == "ru":
        rest = f"остаток этой партии ({count(n, 'action', 'ru')}) не проверялся; " if n else ""
        return rest + "следующая партия проверяется с положения, которое указано в записи"
    rest = f"the rest of this deal ({count(n, 'action')}) was not judged; " if n else ""
    return rest + "the next deal is judged from the position the record states"


@dataclass
class Verdict:
    file: str
    valid: bool
    ruleset: str | None = None
    deals: int = 0
    actions: int = 0
    violations: list[Violation] = field(default_factory=list)
    error: InputError | None = None  # the record could not be read or understood
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
