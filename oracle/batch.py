"""Validation as a pure function, for batch systems: a record's bytes and name in, a JSON-able verdict out.

A platform that already runs Dask or Spark maps :func:`validate_bytes` over its files; nothing
here touches the file system, the terminal or global settings, and the result is plain data
(dicts, lists, strings, numbers) that pickles and serialises to JSON. Each process keeps the
rulesets it has compiled (``oracle.rulecache``), so a worker pays the compile once. :func:`validate_path` reads a file
first (for a bag of paths on a shared file system), exactly as ``thousand validate`` does, and
:func:`validate_with_dask` is the ``thousand validate --dask ADDRESS`` path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import InputError, Location
from .plural import count
from .records import RecordFile, Verdict, conformance_note, read_record, record_from_bytes, validate_record


def _unreadable(name: str, ruleset: str | None, err: InputError) -> dict[str, Any]:
    return Verdict(name, False, ruleset, error=err).to_json() | {"text": str(err)}


# The verdict's head line in each language.
WORDS: dict[str, dict[str, str]] = {
    "valid": {"en": "{name}: valid ({deals}, {actions}, ruleset {ruleset})",
              "ru": "{name}: верна ({deals}, {actions}, набор правил {ruleset})"},
    "invalid": {"en": "{name}: INVALID under ruleset {ruleset}", "ru": "{name}: НЕВЕРНА по набору правил {ruleset}"},
    "unfinished": {"en": "    the game is not finished: the record stops after {deals}, before anyone has won",
                   "ru": "    партия не окончена: запись обрывается после {deals}, победителя нет"},
}


def _judge(rec: RecordFile, name: str, ruleset: str | None, all_errors: bool, lang: str = "en") -> dict[str, Any]:
    try:
        verdict = validate_record(rec, ruleset, all_errors)
    except Exception as exc:  # a bug of ours: reported as such, never as a traceback in a batch
        err = InputError(f"internal error while validating ({type(exc).__name__}: {exc}); please report it",
                         Location(name))
        return _unreadable(name, ruleset, err)
    out = verdict.to_json()
    if verdict.error is not None:
        out["text"] = str(verdict.error)
    elif verdict.valid:
        out["text"] = WORDS["valid"][lang].format(name=name, deals=count(verdict.deals, "deal", lang),
                                                  actions=count(verdict.actions, "action", lang),
                                                  ruleset=verdict.ruleset)
        if not verdict.finished:  # valid as far as it goes: a game cut short is not a whole game
            out["text"] += "\n" + WORDS["unfinished"][lang].format(deals=count(verdict.deals, "deal", lang))
    else:
        out["text"] = WORDS["invalid"][lang].format(name=name, ruleset=verdict.ruleset) + "\n" + "\n".join(
            v.format(lang) for v in verdict.violations)
    note = conformance_note(rec.data)
    if note:
        out["text"] += "\n" + note  # a counterexample says what it is evidence of
        out["conformance"] = rec.data["conformance"]
    return out


def validate_bytes(data: bytes, name: str, ruleset: str | None = None, all_errors: bool = False,
                   lang: str = "en") -> dict[str, Any]:
    """The verdict on one record given as bytes, as JSON-able data.

    ``name`` is the file name the verdict and its messages point to (and ``.json``/``.yaml`` tells
    the format); ``ruleset`` judges by that named ruleset instead of the record's own. The result is
    ``Verdict.to_json()`` (``valid``, ``deals_scored``, ``violations`` with deal, action, rule, reason, line
    and column, or ``error`` for a record that cannot be read) plus ``text``: the lines
    ``thousand validate`` prints for it (in ``lang``, "en" or "ru"). Never raises for bad input.
    """
    try:
        rec = record_from_bytes(data, name)
    except InputError as exc:
        return _unreadable(name, ruleset, exc)
    return _judge(rec, name, ruleset, all_errors, lang)


def validate_path(path: str, ruleset: str | None = None, all_errors: bool = False,
                  lang: str = "en") -> dict[str, Any]:
    """Read one record file, with the readers' limits (special and oversized files refused before reading),
    and validate it: exactly what ``thousand validate`` does for each file."""
    try:
        rec = read_record(path)
    except InputError as exc:
        return _unreadable(path, ruleset, exc)
    return _judge(rec, path, ruleset, all_errors, lang)


def validate_with_dask(address: str, paths: Sequence[str], ruleset: str | None = None,
                       all_errors: bool = False, lang: str = "en", timeout: float = 10.0) -> list[dict[str, Any]]:
    """Validate files on the Dask cluster whose scheduler is at ``address``; verdicts in the order given.

    The workers read the files, so the paths must name the same files on every worker (a shared
    or copied folder). Needs the ``dask`` extra.
    """
    try:
        import dask.bag as db
        from dask.distributed import Client
    except ImportError:
        raise InputError("--dask needs Dask: pip install 'thousand-oracle[dask]'") from None
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
    with client:
        threads = max(1, sum(client.nthreads().values()))
        # A few partitions per worker thread: enough to balance, few enough that each pays off its task.
        bag = db.from_sequence(list(paths), npartitions=max(1, min(len(paths), 4 * threads)))
        return list(bag.map(validate_path, ruleset=ruleset, all_errors=all_errors, lang=lang)
                    .compute(scheduler=client))
