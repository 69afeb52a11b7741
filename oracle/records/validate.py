"""Validating a record: replay it, and turn what happened into a verdict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import Action, Game
from ..errors import InputError, OracleError
from ..rulecounts import RuleCounts
from ..ruleset import Ruleset
from .locator import Locator
from .reading import RecordFile, load_record
from .replay import Replayer
from .verdict import Verdict


def validate_record(rec: RecordFile | dict[str, Any], ruleset: str | None = None, all_errors: bool = False,
                    counts: RuleCounts | None = None, keep: dict[str, Any] | None = None,
                    cache: dict[Any, Ruleset] | None = None, *,
                    decisions: Callable[[Game, Action], None] | None = None, locator: Locator | None = None,
                    name: str = "<record>") -> Verdict:
    """Replay a record (as read, or as data with an optional locator); the verdict lists violations,
    or the error that made it unreadable.

    ``counts``, if given, counts every effect that ran and fired; ``decisions``, if given, is called
    with the game and each action before it is checked (rule coverage counts the checks there).
    ``keep``, if given, receives the replayer and the replayed game (for the score sheet).
    """
    if not isinstance(rec, RecordFile):
        try:
            rec = load_record(rec, locator.file if locator is not None else name, locator)
        except InputError as exc:
            return Verdict(name, False, ruleset, error=exc)
    try:
        r = Replayer(rec, ruleset, all_errors, cache=cache)
        if counts is not None:
            r.tracer_hook = counts.effect
        r.decision_hook = decisions
        if keep is not None:
            keep["replayer"] = r
        r.run()
        if keep is not None:
            keep["game"] = r.game
    except InputError as exc:
        return Verdict(rec.path, False, ruleset or str(rec.data.get("ruleset")), error=exc)
    except OracleError as exc:
        loc = exc.location or rec.locate("ruleset")
        return Verdict(rec.path, False, ruleset or str(rec.data.get("ruleset")), error=InputError(exc.message, loc))
    game = r.game
    assert game is not None
    said = rec.data.get("result")
    return Verdict(rec.path, not r.violations, r.rs.name, r.scored, r.actions, r.violations,
                   finished=game.over, record_deals=len(rec.data["deals"]), to_the_end=r.to_the_end,
                   record_finished=bool(said["finished"]) if isinstance(said, dict) and "finished" in said
                   else None)
