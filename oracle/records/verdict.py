"""The verdict on a record: valid, or the violations found, or why it could not be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Location, OracleError
from ..places import in_game
from ..plural import count
from ..sources import cite_lines, short_name
from .allowed import NOTHING, Allowed

# A verdict's own words; the rule's title, the place and what was allowed come in the same language.
WORDS: dict[str, dict[str, str]] = {
    "rule": {"en": "rule", "ru": "правило"},
    "allowed": {"en": "allowed:", "ru": "можно:"},
    "sources": {"en": "sources:", "ru": "источники:"},
}


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
    titles: dict[str, str] = field(default_factory=dict)  # the rule's title in each language

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "action": self.action,
                "seat": None if self.seat is None else self.seat + 1, "player": self.seat_name,
                "what": self.what, "rule": self.rule, "reason": self.reason, "message": self.message,
                "allowed": self.allowed.to_json(), "allowed_text": self.allowed.text(self.seat_name),
                # A source text by its file (and the short label the text output cites it by), never
                # under the rule files' own key "seed".
                "sources": [{"source_file": str(s["seed"]), "label": short_name(str(s["seed"])),
                             "lines": list(s["lines"])} for s in self.sources],
                "file": self.location.file, "line": self.location.line,
                "column": self.location.column, "skipped_actions": self.skipped}

    def format(self, lang: str = "en") -> str:
        """The lines ``thousand validate`` prints; in Russian (``lang="ru"``) the labels, the place and the
        rule's title (for its English message) are Russian, the rule id, reason and sources as they are."""
        where = in_game(self.deal, self.action, self.seat, self.seat_name, lang)
        head = f"{self.location}: " + where + (": " if where else "") + self.what
        srcs = cite_lines(self.sources)
        message = self.message if lang == "en" else self.titles.get(lang) or self.message
        out = f"{head}\n    {WORDS['rule'][lang]} {self.rule} [{self.reason}]: {message}"
        out += f"\n    {WORDS['allowed'][lang]} {self.allowed.text(self.seat_name, lang)}"
        if srcs:
            out += f"\n    {WORDS['sources'][lang]} {srcs}"
        if self.skipped is not None:
            out += "\n    " + skipped_text(self.skipped, lang)
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
    # The record could not be read or understood (an InputError), or the rules failed on it (a RuleRuntimeError).
    error: OracleError | None = None
    finished: bool = False  # whether the game was over where the replay stopped
    record_deals: int = 0  # the deals the record holds
    to_the_end: bool = False  # whether the replay went through the whole record (no stop at a violation)
    record_finished: bool | None = None  # what the record's own result says, if it says

    @property
    def exit_code(self) -> int:
        return 2 if self.error is not None else (0 if self.valid else 1)

    def to_json(self) -> dict[str, Any]:
        # Where the replay stopped (at the first violation, or the end) and what the record holds are
        # told apart: a record can hold 40 deals and be judged up to its 3rd.
        out: dict[str, Any] = {"file": self.file, "valid": self.valid, "ruleset": self.ruleset,
                               "judged_to_the_end": self.to_the_end, "deals_scored": self.deals,
                               "actions_judged": self.actions, "game_over": self.finished,
                               "record_deals": self.record_deals, "record_finished": self.record_finished,
                               "violations": [v.to_json() for v in self.violations]}
        if self.error is not None:
            loc = self.error.location
            out["error"] = {"message": self.error.message, "file": loc.file if loc else self.file,
                            "line": loc.line if loc else None, "column": loc.column if loc else None}
        return out
