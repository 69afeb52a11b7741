"""The order in which clauses run: one named list per trigger, changed by overlays by name.

The core states the whole order once (``spec/sequence.yaml``): for every trigger,
every core clause by its full name (``rule/clause``). Overlays then, in the order a
ruleset lists them, replace a clause in place, drop one, or insert one ``before`` or
``after`` a named clause; an inserted clause without an anchor runs last. Clauses
that earlier overlays put after (or before) the same anchor stay nearer to it, so a
ruleset's order of overlays settles ties and nothing depends on numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import Location, RuleFileError, RulesetError
from .lang.program import Clause


@dataclass
class Sequence:
    by_trigger: dict[str, list[Clause]] = field(default_factory=dict)
    # An inserted clause -> the clause it was placed after (or before): clauses an earlier overlay
    # anchored to the same clause stay nearer to it.
    _after: dict[int, Clause] = field(default_factory=dict)
    _before: dict[int, Clause] = field(default_factory=dict)

    @classmethod
    def from_core(cls, order: dict[str, list[tuple[str, Location]]], clauses: dict[str, Clause],
                  where: Location) -> Sequence:
        """The core order, checked: every listed clause exists, runs on that trigger, and none is left out."""
        seq = cls()
        seen: set[str] = set()
        for on, refs in order.items():
            row = seq.by_trigger.setdefault(on, [])
            for ref, loc in refs:
                c = clauses.get(ref)
                if c is None:
                    raise RuleFileError(f"the sequence names clause {ref!r}, which no core rule has"
                                        + _near(ref, clauses), loc)
                if c.on != on:
                    raise RuleFileError(f"clause {ref!r} runs on {c.on!r}, not on {on!r}", loc)
                if ref in seen:
                    raise RuleFileError(f"clause {ref!r} is listed twice in the sequence", loc)
                seen.add(ref)
                row.append(c)
        missing = [ref for ref in clauses if ref not in seen]
        if missing:
            c = clauses[missing[0]]
            raise RuleFileError(f"clause {missing[0]!r} (on {c.on!r}) is missing from the sequence; "
                                f"list it under {c.on!r} in {where.file}", c.where)
        return seq

    def copy(self) -> Sequence:
        """A copy to change: its own lists and anchors, the same clauses (which nothing changes)."""
        return Sequence({on: list(row) for on, row in self.by_trigger.items()}, dict(self._after), dict(self._before))

    def clauses(self) -> list[Clause]:
        return [c for row in self.by_trigger.values() for c in row]

    def find(self, ref: str, where: Location | None) -> Clause:
        for row in self.by_trigger.values():
            for c in row:
                if c.ref == ref:
                    return c
        raise RulesetError(f"no clause {ref!r} in this ruleset" + _near(ref, [c.ref for c in self.clauses()]),
                           where)

    def replace(self, old: Clause, new: Clause) -> None:
        row = self.by_trigger[old.on]
        if new.on != old.on:
            raise RulesetError(f"clause {new.ref!r} replaces {old.ref!r} but runs on {new.on!r}, not {old.on!r}",
                               new.where)
        row[row.index(old)] = new
        for links in (self._after, self._before):
            if id(old) in links:
                links[id(new)] = links.pop(id(old))

    def drop(self, old: Clause) -> None:
        self.by_trigger[old.on].remove(old)

    def insert(self, new: Clause, after: str | None, before: str | None, where: Location | None) -> None:
        if after is not None and before is not None:
            raise RuleFileError(f"clause {new.ref!r} names both 'after' and 'before'; one anchor is enough", where)
        row = self.by_trigger.setdefault(new.on, [])
        if any(c.ref == new.ref for c in row):
            raise RuleFileError(f"clause {new.ref!r} already exists on {new.on!r}", where)
        anchor_ref = after if after is not None else before
        if anchor_ref is None:
            row.append(new)
            return
        anchor = self.find(anchor_ref, where)
        if anchor.on != new.on:
            raise RuleFileError(f"clause {new.ref!r} runs on {new.on!r} but its anchor {anchor_ref!r} runs on "
                                f"{anchor.on!r}", where)
        pos = row.index(anchor)
        if before is not None:
            while pos > 0 and _anchored(self._before, row[pos - 1], anchor):
                pos -= 1
            row.insert(pos, new)
            self._before[id(new)] = anchor
            return
        pos += 1
        while pos < len(row) and _anchored(self._after, row[pos], anchor):
            pos += 1
        row.insert(pos, new)
        self._after[id(new)] = anchor


def _anchored(links: dict[int, Clause], c: Clause, anchor: Clause) -> bool:
    """Whether ``c`` was placed next to ``anchor``, directly or through clauses placed next to it."""
    # Anchors always name clauses placed earlier, so this chain ends.
    while id(c) in links:
        c = links[id(c)]
        if c is anchor:
            return True
    return False


def _near(name: str, known: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""
