"""Validating a record: replay it, and turn what happened into a verdict."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import Action, Game, Rejection
from ..errors import InputError, OracleError, RuleRuntimeError
from ..rulecounts import RuleCounts
from ..ruleset import Ruleset, RulesetRequest
from .locator import Locator
from .reading import RecordFile, load_record
from .replay import Replayer
from .verdict import Verdict


@dataclass(frozen=True)
class Judgement:
    """What judging a record gives: the verdict, and (when the record could be replayed at all) the ruleset
    it was judged by and the replay itself, to look at any point of the game (``replay.game_at``)."""

    verdict: Verdict
    replay: Replayer | None = None

    @property
    def ruleset(self) -> Ruleset | None:
        return self.replay.rs if self.replay is not None else None

    @property
    def game(self) -> Game | None:
        """The game as the replay left it: at the end, or where the replay stopped."""
        return self.replay.game if self.replay is not None else None


def judge(rec: RecordFile | dict[str, Any], ruleset: str | None = None, all_errors: bool = False,
          counts: RuleCounts | None = None, cache: dict[RulesetRequest, Ruleset] | None = None, *,
          rules: Ruleset | None = None, decisions: Callable[[Game, Action], None] | None = None,
          locator: Locator | None = None, name: str = "<record>",
          decision_parts: Callable[[Game, str, int, Mapping[str, Any]], None] | None = None,
          checked: Callable[[Rejection | None], None] | None = None) -> Judgement:
    """Replay a record (as read, or as data with an optional locator) and judge it.

    ``ruleset`` names the ruleset to judge by in place of the record's own; ``rules`` gives one already
    resolved (say, from another rule tree). ``counts``, if given, counts every effect that ran and fired;
    ``decisions``, if given, is called with the game and each action before it is checked (rule coverage
    counts the checks there); ``decision_parts`` is the same with the action's kind, seat and payload, no
    action made of them; ``checked``, if given, is called after each action's check with what it found (the
    refusal, or None: the action was applied), so that a hook need not check the action itself.
    """
    if not isinstance(rec, RecordFile):
        try:
            rec = load_record(rec, locator.file if locator is not None else name, locator)
        except InputError as exc:
            return Judgement(Verdict(name, False, ruleset, error=exc))
    asked = rules.name if rules is not None else ruleset or str(rec.data.get("ruleset"))
    r: Replayer | None = None
    try:
        r = Replayer(rec, ruleset, all_errors, cache=cache, rules=rules)
        if counts is not None:
            r.tracer_hook = counts
        if decisions is not None:
            told = decisions
            r.decision_hook = lambda game, kind, seat, payload: told(game, Action(kind, seat, payload))
        elif decision_parts is not None:
            r.decision_hook = decision_parts
        r.checked_hook = checked
        r.run()
    except InputError as exc:
        return Judgement(Verdict(rec.path, False, asked, error=exc), r)
    except RuleRuntimeError as exc:
        # The rules themselves failed on this record: reported as that, at the failing rule's file, not as
        # a record that cannot be read.
        return Judgement(Verdict(rec.path, False, asked, error=exc if exc.location is not None else
                                 RuleRuntimeError(exc.message, rec.locate("ruleset"))), r)
    except OracleError as exc:
        loc = exc.location or rec.locate("ruleset")
        return Judgement(Verdict(rec.path, False, asked, error=InputError(exc.message, loc)), r)
    game = r.game
    assert game is not None
    said = rec.data.get("result")
    return Judgement(Verdict(rec.path, not r.violations, r.rs.name, r.scored, r.actions, r.violations,
                             finished=game.over, record_deals=len(rec.data["deals"]), to_the_end=r.to_the_end,
                             record_finished=bool(said["finished"]) if isinstance(said, dict) and "finished" in said
                             else None), r)


def validate_record(rec: RecordFile | dict[str, Any], ruleset: str | None = None, all_errors: bool = False,
                    counts: RuleCounts | None = None, cache: dict[RulesetRequest, Ruleset] | None = None, *,
                    rules: Ruleset | None = None, decisions: Callable[[Game, Action], None] | None = None,
                    locator: Locator | None = None, name: str = "<record>") -> Verdict:
    """The verdict of :func:`judge`: the violations, or the error that made the record unreadable."""
    return judge(rec, ruleset, all_errors, counts, cache, rules=rules, decisions=decisions, locator=locator,
                 name=name).verdict
