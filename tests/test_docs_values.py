"""Every parameter value has a player's words in every language (oracle/docgen/values.yaml).

The pages show a value as a player says it («игрок справа от сдающего», «5 очков»), never as the
rule files spell it (`right-of-dealer`): a new parameter, or a new choice of an enum, without its
words fails here, and so does an entry left behind for a parameter no rule declares any more.
"""

from __future__ import annotations

from typing import Any

from oracle.docgen import labels
from oracle.docgen.labels import has_value_label, plural, value_label
from oracle.ruleset import load_library, resolve
from oracle.yamlpos import plain


def _declared() -> dict[str, list[dict[str, Any]]]:
    lib = load_library()
    found: dict[str, list[dict[str, Any]]] = {}
    for doc in (*lib.rules.values(), *lib.overlays.values()):
        for name, spec in (doc.get("params") or {}).items():
            found.setdefault(str(name), []).append(plain(spec))
    return found


def _values_to_name(spec: dict[str, Any]) -> list[Any]:
    """The values a page can show for a parameter: every choice or flag value, and its default."""
    if spec.get("choices"):
        return list(spec["choices"])
    if spec["type"] == "bool":
        return [True, False]
    return [spec["default"]]


def test_every_parameter_value_has_words_in_every_language() -> None:
    declared = _declared()
    assert len(declared) > 100
    missing = [f"{name} = {value!r}" for name, specs in declared.items() for spec in specs
               for value in _values_to_name(spec) if not has_value_label(name, value)]
    assert not missing, "values without a player's words in oracle/docgen/values.yaml:\n" + "\n".join(missing)


def test_every_value_a_ruleset_sets_has_words() -> None:
    lib = load_library()
    missing = []
    for pid in lib.presets:
        res = resolve(pid)
        missing += [f"{pid}: {name} = {value!r}" for name, value in res.values.items()
                    if not has_value_label(name, value)]
    assert not missing, "\n".join(missing[:20])


def test_no_words_for_a_parameter_nobody_declares() -> None:
    stale = sorted(set(labels._values()["params"]) - set(_declared()))
    assert not stale, f"values.yaml has words for parameters no rule declares: {stale}"


def test_a_value_without_words_is_reported_and_shown_as_written() -> None:
    assert not has_value_label("cutter", "across-the-table")
    assert value_label("cutter", "across-the-table", "ru") == "across-the-table"
    assert not has_value_label("no_such_parameter", 3)
    assert value_label("cutter", "right-of-dealer", "ru") == "игрок справа от сдающего"
    assert value_label("cutter", "right-of-dealer", "en") == "the player on the dealer's right"


def test_numbers_take_their_unit_declined() -> None:
    assert [plural(n, ["очко", "очка", "очков"], "ru") for n in (1, 3, 5, 11, 21, 112, 120)] == [
        "1 очко", "3 очка", "5 очков", "11 очков", "21 очко", "112 очков", "120 очков"]
    assert value_label("bid_step", 5, "ru") == "5 очков" and value_label("bid_step", 5, "en") == "5 points"
    assert value_label("players", 3, "ru") == "3 игрока"
    assert value_label("falls_limit", 0, "ru") == "никогда" and value_label("falls_limit", 3, "en") == "the 3rd fall"
    assert value_label("must_beat", True, "ru") == "обязан перебить"
    assert value_label("marriage_values", {"hearts": 100, "spades": 40}, "ru") == "черви 100, пики 40"


def test_every_move_has_a_players_words_in_every_language() -> None:
    from oracle.docgen.labels import LANGS, action_label

    lib = load_library()
    missing = []
    for doc in (*lib.rules.values(), *lib.overlays.values()):
        for kind, spec in (plain(doc.get("actions")) or {}).items():
            payload = spec.get("payload") or {}
            fields = {f: "X" for f, t in payload.items() if t != "bool"}
            flags = [f for f, t in payload.items() if t == "bool"]
            for lang in LANGS:
                if action_label(str(kind), fields, flags, lang) is None:
                    missing.append(f"{doc.path}: {kind} ({lang})")
    assert not missing, "moves without a player's words in oracle/docgen/values.yaml:\n" + "\n".join(missing)
    assert action_label("play", {"card": "Д♥"}, ["marriage"], "ru") == "ход Д♥ с «хвалю»"
    assert action_label("bid", {"value": "120"}, [], "en") == "bid 120"


def test_every_choice_has_whole_words_in_exactly_the_sites_languages() -> None:
    # An unquoted comma inside a flow mapping ({en: a, b, ru: c, d}) silently makes a key of
    # the words after it and cuts the label short; every choice's words must be just en and ru.
    from oracle.docgen.labels import LANGS

    broken = []
    for name, entry in labels._values()["params"].items():
        if not isinstance(entry, dict) or {"list", "map", "unit", "format"} & set(entry):
            continue
        for choice, words in entry.items():
            if not (isinstance(words, dict) and set(words) == set(LANGS)
                    and all(isinstance(w, str) and w for w in words.values())):
                broken.append(f"{name} = {choice!r}: {words!r}")
    assert not broken, "values.yaml words that are not one string per language:\n" + "\n".join(broken)
