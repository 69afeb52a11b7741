"""Counting things in words: "1 deal", "2 deals"; «1 партия», «2 партии», «5 партий».

English has two forms (one, other). Russian has three, chosen by the last two digits:
1, 21, 101 take the first («партия»); 2–4, 22–24 the second («партии»); 0, 5–20, 25–30 the third
(«партий»).
"""

from __future__ import annotations

# The nouns the command line counts, in each language: English (one, other), Russian (one, few, many).
NOUNS: dict[str, dict[str, tuple[str, ...]]] = {
    "deal": {"en": ("deal", "deals"), "ru": ("партия", "партии", "партий")},
    "action": {"en": ("action", "actions"), "ru": ("действие", "действия", "действий")},
    "file": {"en": ("file", "files"), "ru": ("файл", "файла", "файлов")},
    "record": {"en": ("record", "records"), "ru": ("запись", "записи", "записей")},
    "rule": {"en": ("rule", "rules"), "ru": ("правило", "правила", "правил")},
    "parameter": {"en": ("parameter", "parameters"), "ru": ("параметр", "параметра", "параметров")},
    "row": {"en": ("row", "rows"), "ru": ("строка", "строки", "строк")},
    "overlay": {"en": ("overlay", "overlays"), "ru": ("дополнение", "дополнения", "дополнений")},
    "player": {"en": ("player", "players"), "ru": ("игрок", "игрока", "игроков")},
    "ruleset": {"en": ("ruleset", "rulesets"), "ru": ("набор правил", "набора правил", "наборов правил")},
}


def form(n: int, forms: tuple[str, ...], lang: str = "en") -> str:
    """The form of a noun that goes with the number ``n``."""
    n = abs(n)
    if lang == "ru":
        one, few, many = forms
        if n % 10 == 1 and n % 100 != 11:
            return one
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return few
        return many
    one, other = forms
    return one if n == 1 else other


def count(n: int, noun: str, lang: str = "en") -> str:
    """``n`` followed by the noun in the right form: count(2, "deal") == "2 deals"."""
    return f"{n} {form(n, NOUNS[noun][lang], lang)}"
