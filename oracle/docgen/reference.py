"""Reference pages built from the code itself: the rule language, the file schemas, the CLI.

Each page reads the thing it documents (the grammar file, the standard library's
registry, the JSON Schemas, the argparse definitions), so it cannot fall behind.
"""

from __future__ import annotations

import argparse
import copy
import json
from importlib.resources import files
from typing import Any

from ..lang import types as T
from ..lang.compiler import ENGINE_VARS, KEYWORDS
from ..lang.stdlib import REGISTRY, Builtin
from ..rulefile import schema
from ..sources import load_sources
from . import cli_ru
from .labels import label
from .md import code, fence, heading, link, prose, table
from .rules import quote_title, source_label, tr
from .site import Site

LANGUAGE_PAGE = "reference/language.md"
SCHEMA_PAGE = "reference/schema.md"
CLI_PAGE = "reference/cli.md"
SOURCES_PAGE = "reference/sources.md"
GLOSSARY_PAGE = "reference/glossary.md"
TRANSCRIPT_PAGE = "reference/transcript.md"
RECORD_SCHEMA = "record"  # oracle/schemas/record.schema.json
KINDS = ("pure", "procedure", "random", "engine")
USAGE_WIDTH = 78  # fixed, so the page does not depend on the terminal that generated it

# The schemas' own titles and descriptions are English; their Russian, by the English text. A text
# missing here stays English on the Russian page, and tests/test_docs_language.py says so.
SCHEMA_RU: dict[str, str] = {
    "Rule file": "Файл правила",
    "Named ruleset (preset)": "Именованный набор правил",
    "The program whose configuration this ruleset reproduces (for example mekedron/thousand). The site lists "
    "such rulesets apart from the games people play.":
        "Программа, настройки которой воспроизводит этот набор (например, mekedron/thousand). На сайте такие "
        "наборы перечислены отдельно от игр, в которые играют люди.",
    "Game record": "Запись игры",
    "One rule (or one tightly related group) of the executable rulebook of Тысяча. Overlays (variants/) use "
    "the same fields plus `set`, `overrides`, `change`, `after`, `conflicts` and `requires`.":
        "Одно правило (или тесно связанная группа правил) исполняемого свода «Тысячи». Дополнения (variants/) "
        "пользуются теми же полями и ещё `set`, `overrides`, `change`, `after`, `conflicts` и `requires`.",
    "The parameter (a list of numbers, one per seat) that gives each seat its team; seats with one number play "
    "together.":
        "Параметр (список чисел, по одному на место), который даёт каждому месту его команду; места с одним "
        "номером играют вместе.",
    "Per-player state variables a team holds as one, each with the yes/no parameter that shares it: the score "
    "sheet shows a team's column for its shared total.":
        "Переменные состояния игрока, общие для команды, и у каждой — параметр «да/нет», который делает её "
        "общей; если общий итог, в записи счёта у команды свой столбец.",
    "In one rule of a ruleset: the seats play in teams. The rules read a seat's team with team(s) and "
    "same_team(a, b), and the engine's teams.":
        "В одном правиле набора: места играют командами. Правила узнают команду места через team(s) и "
        "same_team(a, b), а также через переменную движка teams.",
    "The clause's name within its rule; its full name is rule/id.":
        "Имя пункта внутри правила; полное имя — правило/пункт.",
    "Overlays only: run right after this clause (rule/clause).":
        "Только в дополнениях: выполнять сразу после этого пункта (правило/пункт).",
    "Overlays only: run right before this clause (rule/clause).":
        "Только в дополнениях: выполнять прямо перед этим пунктом (правило/пункт).",
    "What an overlay changes in one named rule: clauses replaced (only the fields given) or dropped, "
    "definitions replaced.":
        "Что дополнение меняет в одном правиле: заменяет пункты (только указанные поля) или убирает их, "
        "заменяет определения.",
    "A list parameter with exactly one item for each rank (or suit) of the pack, in pack order.":
        "Параметр-список, в котором ровно по одному элементу на каждое достоинство (или масть) колоды, в "
        "порядке колоды.",
    "A list parameter whose items must all differ (names a reader must tell apart).":
        "Параметр-список, все элементы которого должны различаться (названия, которые читатель должен "
        "различать).",
    "The fewest items a list parameter may have.": "Сколько элементов должно быть в параметре-списке хотя бы.",
    "Overlays only: rule id -> the parts of that rule this overlay changes. The overlay is a rule of its own "
    "besides: the state, marks and clauses it declares are added.":
        "Только в дополнениях: правило → те его части, которые меняет это дополнение. Кроме того, дополнение — "
        "самостоятельное правило: объявленные в нём переменные состояния, знаки и пункты добавляются к набору.",
    "Overlays only: the rule this overlay replaces whole. Its logic, define, actions, state, phases and marks, "
    "where the overlay gives them, replace the rule's own; its params are added to the rule's.":
        "Только в дополнениях: правило, которое это дополнение заменяет целиком. Поля дополнения `logic`, "
        "`define`, `actions`, `state`, `phases` и `marks`, если они в нём есть, заменяют те же поля правила, а "
        "его `params` добавляются к параметрам правила.",
    "Core only, in one rule: for every trigger, every core clause (rule/clause) in the order they run.":
        "Только в основе и только в одном правиле: для каждого события — все основные пункты "
        "(правило/пункт) в том порядке, в каком они выполняются.",
    "Text in both languages of the rulebook: English (en) and Russian (ru).":
        "Текст на обоих языках свода: английском (en) и русском (ru).",
    "When a recorded value of this variable is wrong, the rule to blame is the one that decided this other "
    "variable (a running total is explained by the deal's points).":
        "Если записанное значение этой переменной неверно, виновато правило, которое определило ту, другую "
        "переменную (нарастающий итог объясняется очками партии).",
    "A per-player flag of the game: this per-player value means something only for a player for whom the flag "
    "holds (the deals on the barrel of a player not on it are not compared).":
        "Флаг игрока, действующий всю игру: это значение игрока что-то значит, только пока флаг у него поднят "
        "(партии на бочке у игрока, который на ней не сидит, не сравниваются).",
    "Values worth starting a generated game from (the conformance harness draws each player's start value "
    "from them).":
        "Значения, с которых стоит начинать сгенерированную игру (проверка движков берёт из них начальное "
        "значение для каждого игрока).",
    "Hints for the seeded random player (never for legality): how often to pick this action, and whether to "
    "prefer the first (lowest) choices.":
        "Подсказки случайному игроку (на допустимость ходов не влияют): как часто выбирать это действие и "
        "предпочитать ли первые (младшие) варианты.",
    "A rule-language number: how much a simple bot likes this choice. Never affects legality.":
        "Число на языке правил: насколько этот вариант нравится простому боту. На допустимость не влияет.",
    "A condition on the state (not the payload): the action exists only while it holds.":
        "Условие на состояние игры (не на данные действия): действие существует, только пока оно выполнено.",
    "What a player is told when the clause refuses an action, in both languages.":
        "Что говорят игроку, когда правило отвергает его ход, — на обоих языках.",
    "Events this rule notes on the score sheet, with the symbol players draw for them.":
        "События, которые правило отмечает в записи счёта, и значок, которым их рисуют игроки.",
    "false for files that are not rules of the game (play hints); coverage and the rulebook treat them apart.":
        "false у файлов, которые не являются правилами игры (подсказки для игры); покрытие и свод правил "
        "рассматривают их отдельно.",
    "Overlays that must come earlier in the same ruleset (this one refines them).":
        "Дополнения, которые должны стоять раньше в том же наборе (это дополнение их уточняет).",
    "Core only, in one rule: which state variables and mark are the score sheet's columns.":
        "Только в основе, в одном правиле: какие переменные состояния и какой знак составляют столбцы записи "
        "счёта.",
    "The per-player running total (the game's final score).": "Нарастающий итог каждого игрока (итоговый счёт игры).",
    "The per-player points a deal writes down.": "Очки, которые партия записывает каждому игроку.",
    "The deal's declarer (a seat, or none), written beside the row.":
        "Разыгрывающий партии (место или никто), его пишут рядом со строкой.",
    "The declarer's contract, written beside him.": "Заказ разыгрывающего, его пишут рядом с ним.",
    "Whether the declarer conceded the deal.": "Расписался ли разыгрывающий в этой партии.",
    "The mark written beside the contract of a conceded deal.": "Знак, который ставят рядом с заказом при росписи.",
    "Written by `thousand conform` on a counterexample: the disagreement between an engine and the rules that this "
    "record reproduces (it may be about something the record alone cannot show, such as a legal action the engine "
    "did not offer). validate and replay print it.":
        "Пишет `thousand conform` в запись-контрпример: расхождение между движком и правилами, которое эта запись "
        "воспроизводит (оно может касаться того, чего одна запись не покажет, например допустимого хода, который "
        "движок не предложил). Его печатают validate и replay.",
    "A named ruleset: the core rules, then overlays in order, then parameter values. Its dossier says where each "
    "choice comes from.":
        "Именованный набор правил: основные правила, затем дополнения по порядку, затем значения параметров. Его "
        "досье говорит, откуда взят каждый выбор.",
    "Where each point of this preset comes from: an entry per parameter (by name), per rule that can change a "
    "verdict (by rule id: the rule and all its parameters) and per overlay (by id); see oracle/dossier.py. The "
    "resolver checks only that each key names a rule, parameter or overlay of the ruleset.":
        "Откуда взят каждый пункт набора: запись на параметр (по имени), на правило, способное изменить вердикт "
        "(по id правила: само правило и все его параметры), и на дополнение (по id); см. oracle/dossier.py. "
        "Сборка набора проверяет только, что каждый ключ называет правило, параметр или дополнение этого набора.",
    "Rules and parameters the source is silent on, decided together: one shared decision, the preset's lines "
    "that are silent or near (sources), and the lines behind the kept reading (kept; else the rule files' own "
    "sources).":
        "Правила и параметры, о которых источник молчит, решённые вместе: одно общее решение, строки источника "
        "набора, которые молчат или ближе всего к вопросу (sources), и строки, на которых держится сохранённое "
        "прочтение (kept; без них — собственные источники файлов правил).",
    "More rule ids, parameters or overlays the same entry answers for.":
        "Другие правила, параметры или дополнения, на которые отвечает та же запись.",
    "Rules of the preset's own source that the preset leaves out, with the reason.":
        "Правила из источника набора, которых в наборе нет, с причиной.",
    "The source lines a choice comes from, or our decision with its reason (a decision may also cite the lines "
    "it reads).":
        "Строки источника, откуда взят выбор, или наше решение с причиной (решение тоже может ссылаться на "
        "строки, которые оно толкует).",
    "A game of Тысяча as played: the ruleset, the players, and every deal with its actions and, optionally, "
    "the results written on the score sheet. JSON and YAML share this model.":
        "Сыгранная игра в «Тысячу»: набор правил, игроки и все партии с их действиями и, если нужно, "
        "результатами из записи счёта. У JSON и YAML одна и та же модель.",
    "A player's name from `players`, or a seat number counted from 0 clockwise.":
        "Имя игрока из `players` или номер места по часовой стрелке, считая с 0.",
    "Cards as a list, or as one string separated by spaces: rank then suit, e.g. 10H QS; ♠♣♦♥ and В Д К Т are "
    "accepted too.":
        "Карты списком или одной строкой через пробел: достоинство, затем масть, например 10H QS; можно "
        "писать и ♠♣♦♥, и В Д К Т.",
    "One action: who, what, and the fields of its payload (for example `value`, `card`, `to`, `marriage`).":
        "Одно действие: кто, что и поля его данных (например, `value`, `card`, `to`, `marriage`).",
    "Values written on the score sheet after the deal, each a list in seat order (delta, score, bolts…) or a "
    "single value (declarer, contract…). Every value given is checked.":
        "Значения, записанные после партии: список по местам (delta, score, bolts…) или одно значение "
        "(declarer, contract…). Проверяется каждое указанное значение.",
    "One deal. The cards dealt stand at this level under the names of the deal's fields (`hands`, "
    "`talon_cards`; `order` where the ruleset models the shuffle and the cut).":
        "Одна партия. Сданные карты стоят на этом уровне под именами полей сдачи (`hands`, `talon_cards`; "
        "`order`, если набор моделирует тасовку и снятие).",
    "Begin mid-game instead of with a first dealer: who deals the first recorded deal, and the state of the "
    "game then (scores, bolts, barrel…).":
        "Начать с середины игры, а не с первого сдающего: кто сдаёт первую записанную партию и каким было "
        "тогда состояние игры (счёт, болты, бочка…).",
    "For golden test records: the verdict the oracle must give.":
        "Для эталонных тестовых записей: вердикт, который обязан вынести оракул.",
}


def _schema_text(text: str, lang: str) -> str:
    return SCHEMA_RU.get(text, text) if lang == "ru" else text


def _footer(lang: str, what: str) -> list[str]:
    return [f"<small>{label('generated_note', lang, what=label(what, lang))}</small>", ""]


# --------------------------------------------------------------------------- the rule language

def _signature(b: Builtin, lang: str) -> str:
    required = len(b.params) - b.optional
    args = list(b.params[:required]) + [f"[{p}]" for p in b.params[required:]]
    ret = b.returns
    if ret.startswith("arg:"):
        ret = label("returns_arg", lang, n=int(ret[4:]) + 1)
    elif ret.startswith("elem:"):
        ret = label("returns_elem", lang, n=int(ret[5:]) + 1)
    call = f"{b.name}({', '.join(args)})"
    return f"{code(call)} → {ret if ret != b.returns else code(ret)}"


def _builtin_doc(b: Builtin, lang: str) -> str:
    return b.doc_ru if lang == "ru" and b.doc_ru else b.doc


def language_page(lang: str) -> str:
    grammar_path = "oracle/lang/grammar.lark"
    grammar = files("oracle").joinpath("lang", "grammar.lark").read_text(encoding="utf-8")
    out = [f"# {label('language_title', lang)}", "", label("language_intro", lang), "",
           heading(2, label("types", lang), "types"), "",
           label("types_text", lang, scalars=", ".join(code(s) for s in sorted(T.SCALARS))), "",
           heading(2, label("keywords", lang), "keywords"), "",
           ", ".join(code(k) for k in sorted(KEYWORDS)), "",
           heading(2, label("engine_vars", lang), "engine-vars"), "", label("engine_vars_text", lang), "",
           table(["", label("type", lang)], [[code(n), code(t)] for n, t in ENGINE_VARS.items()]), "",
           heading(2, label("stdlib", lang), "stdlib"), "", label("stdlib_text", lang), ""]
    for kind in KINDS:
        entries = [b for b in REGISTRY.values() if b.kind == kind]
        if not entries:
            continue
        out += [heading(3, label(f"kind_{kind}", lang), f"stdlib-{kind}"), "",
                table([label("signature", lang), label("description", lang)],
                      [[_signature(b, lang), _builtin_doc(b, lang)] for b in entries]), ""]
    others = sorted({b.kind for b in REGISTRY.values()} - set(KINDS))
    for kind in others:
        # A kind the docs do not know yet is still listed, under its own name.
        out += [heading(3, kind, f"stdlib-{kind}"), "",
                table([label("signature", lang), label("description", lang)],
                      [[_signature(b, lang), _builtin_doc(b, lang)] for b in REGISTRY.values() if b.kind == kind]),
                ""]
    out += [heading(2, label("teams", lang), "teams"), "", label("teams_text", lang), ""]
    out += [heading(2, label("grammar", lang), "grammar"), "", label("grammar_text", lang, path=grammar_path), "",
            fence(grammar, "text"), ""]
    return "\n".join(out + _footer(lang, "from_code"))


# --------------------------------------------------------------------------- the schemas

def _type_of(node: Any, lang: str, local: str) -> str:
    """A schema node in words, with $refs as links to the part they name."""
    if not isinstance(node, dict) or not node:
        return label("any_value", lang)
    if "$ref" in node:
        target, _, fragment = str(node["$ref"]).partition("#")
        sname = target.removesuffix(".schema.json") or local
        name = fragment.rsplit("/", 1)[-1]
        return f"[{code(name)}](#{sname}-def-{name})"
    if "const" in node:
        return code(json.dumps(node["const"], ensure_ascii=False))
    if "enum" in node:
        return label("one_of", lang, x=", ".join(code(v) for v in node["enum"]))
    for key in ("oneOf", "anyOf"):
        if key in node and "type" not in node:
            return " / ".join(_type_of(n, lang, local) for n in node[key])
    t = node.get("type")
    if isinstance(t, list):
        return " / ".join(_type_of({**node, "type": x}, lang, local) for x in t)
    if t == "array":
        text = label("list_of", lang, x=_type_of(node.get("items", {}), lang, local))
        if "minItems" in node and node.get("minItems") == node.get("maxItems"):
            text += f" ({node['minItems']})"
        elif "minItems" in node and "maxItems" in node:
            text += f" ({label('items_between', lang, lo=node['minItems'], hi=node['maxItems'])})"
        return text
    if t == "object" and "properties" not in node:
        keys = node.get("propertyNames")
        key = _type_of(keys, lang, local) if keys else code("string")
        return label("map_of", lang, k=key, v=_type_of(node.get("additionalProperties", {}), lang, local))
    text = code(t) if isinstance(t, str) else label("any_value", lang)
    extras = []
    if "pattern" in node:
        extras.append(label("pattern", lang, p=node["pattern"]))
    for key, sym in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("minLength", "length ≥")):
        if key in node:
            extras.append(f"{sym} {node[key]}")
    return text + (f" ({', '.join(extras)})" if extras else "")


def _object_table(node: dict[str, Any], lang: str, local: str) -> list[str]:
    required = set(node.get("required", []))
    rows = [[code(name), _type_of(spec, lang, local), label("yes", lang) if name in required else "",
             prose(_schema_text(spec.get("description", ""), lang)) if isinstance(spec, dict) else ""]
            for name, spec in node.get("properties", {}).items()]
    out = [table([label("field", lang), label("type", lang), label("required", lang), label("description", lang)],
                 rows), ""]
    if "oneOf" in node and "properties" in node:
        alts = [" + ".join(code(r) for r in alt.get("required", [])) for alt in node["oneOf"]]
        out += [label("exactly_one", lang, x="; ".join(alts)), ""]
    return out


def _schema_section(name: str, lang: str) -> list[str]:
    s = schema(name)
    out = [heading(2, _schema_text(s.get("title", name), lang), f"{name}-schema"), "",
           prose(_schema_text(s.get("description", ""), lang)), "",
           f"<small>`oracle/schemas/{name}.schema.json`</small>", ""]
    out += _object_table(s, lang, name)
    defs = s.get("$defs", {})
    if defs:
        out += [heading(3, label("definitions_of", lang), f"{name}-parts"), ""]
    for dname, node in defs.items():
        out += [heading(4, code(dname), f"{name}-def-{dname}"), ""]
        if node.get("description"):
            out += [prose(_schema_text(node["description"], lang)), ""]
        if node.get("type") == "object" and "properties" in node:
            out += _object_table(node, lang, name)
        else:
            out += [_type_of(node, lang, name), ""]
    return out


def _has_schema(name: str) -> bool:
    return files("oracle").joinpath("schemas", f"{name}.schema.json").is_file()


def transcript_page(lang: str) -> str:
    """The record (transcript) format, from its schema once the code ships one."""
    out = [f"# {label('transcript_title', lang)}", ""]
    if not _has_schema(RECORD_SCHEMA):
        note = ["!!! warning \"" + label("coming", lang) + "\"", "", "    " + label("transcript_coming", lang), ""]
        return "\n".join(out + note)
    out += [label("transcript_intro", lang), ""]
    out += _schema_section(RECORD_SCHEMA, lang)
    return "\n".join(out + _footer(lang, "from_schemas"))


def schema_page(lang: str) -> str:
    out = [f"# {label('schema_title', lang)}", "", label("schema_intro", lang), ""]
    out += _schema_section("rule", lang)
    out += _schema_section("preset", lang)
    return "\n".join(out + _footer(lang, "from_schemas"))


# --------------------------------------------------------------------------- the command line

def _usage(parser: argparse.ArgumentParser) -> str:
    # argparse sizes its output to the terminal; a fixed width keeps the page reproducible. The list of
    # commands would make the first usage line wider than the page: it is spelled COMMAND, and the
    # commands get their own sections.
    actions = []
    for act in parser._actions:
        if isinstance(act, argparse._SubParsersAction):
            act = copy.copy(act)
            act.metavar = "COMMAND"
        actions.append(act)
    fmt = argparse.HelpFormatter(parser.prog, width=USAGE_WIDTH)
    fmt.add_usage(parser.usage, actions, parser._mutually_exclusive_groups)
    return fmt.format_help().strip()


def _help(command: str, act: argparse.Action, lang: str) -> str:
    if lang == "ru":
        key = act.option_strings[0] if act.option_strings else act.dest
        ru = cli_ru.OPTIONS.get((command, key))
        if ru:
            return ru
    return act.help if act.help and act.help != argparse.SUPPRESS else ""


def _arg_rows(parser: argparse.ArgumentParser, command: str, lang: str) -> list[list[str]]:
    rows = []
    for act in parser._actions:
        if isinstance(act, argparse._HelpAction | argparse._SubParsersAction):
            continue
        # Spell arguments as argparse's own usage line does: metavar, else the choices, else the name.
        shown = act.metavar or ("{" + ",".join(map(str, act.choices)) + "}" if act.choices else None)
        names = ", ".join(act.option_strings) or str(shown or act.dest)
        if act.option_strings and act.nargs != 0:
            names += f" {shown or act.dest.upper()}"
        rows.append([code(names), prose(_help(command, act, lang))])
    return rows


def cli_page(lang: str) -> str:
    from ..arguments import build_parser

    parser = build_parser()
    description = cli_ru.DESCRIPTION if lang == "ru" else parser.description or ""
    out = [f"# {label('cli_title', lang)}", "", label("cli_intro", lang), "",
           prose(description), "", fence(_usage(parser), "text"), ""]
    top = _arg_rows(parser, "", lang)
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    commands = [(name, p, {c.dest: c.help for c in sub._choices_actions}.get(name) or p.description or "")
                for sub in subs for name, p in sub.choices.items()]
    if lang == "ru":
        commands = [(name, p, cli_ru.COMMANDS.get(name, text)) for name, p, text in commands]
    if commands:
        out += [table([label("command", lang), label("description", lang)],
                      [[f"[{code('thousand ' + name)}](#cmd-{name})", prose(text)] for name, _, text in commands]), ""]
    if top:
        out += [table([label("argument", lang), label("description", lang)], top), ""]
    for name, p, text in commands:
        out += [heading(2, code(f"thousand {name}"), f"cmd-{name}"), "", prose(text), "", fence(_usage(p), "text"), ""]
        rows = _arg_rows(p, name, lang)
        if rows:
            out += [table([label("argument", lang), label("description", lang)], rows), ""]
    return "\n".join(out + _footer(lang, "from_code"))


# --------------------------------------------------------------------------- sources and glossary

def sources_page(site: Site, lang: str) -> str:
    page = SOURCES_PAGE
    cited: dict[str, list[tuple[str, str]]] = {}
    counts: dict[str, int] = {}
    for r in (*site.rules, *site.overlays):
        for s in r.doc.get("sources") or []:
            seed = str(s["seed"])
            counts[seed] = counts.get(seed, 0) + 1
            if r.id not in [rid for rid, _ in cited.setdefault(seed, [])]:
                cited[seed].append((r.id, r.page))
    known = load_sources(site.library.root)
    out = [f"# {label('sources_title', lang)}", "", label("sources_page_intro", lang), ""]
    rows = [[source_label(seed), quote_title(known[seed].title) if seed in known else "", code(seed),
             str(known[seed].lines) if seed in known else "", str(counts.get(seed, 0))]
            for seed in sorted(set(known) | set(cited))]
    out += [table([label("short", lang), label("source_title", lang), label("source_file", lang),
                   label("source_lines", lang), label("citations", lang)], rows), ""]
    for seed in sorted(set(known) | set(cited)):
        short = source_label(seed)
        out += [heading(2, f"{short}: {quote_title(known[seed].title)}" if seed in known else short, short.lower()), ""]
        if seed in known:
            out += [prose(tr(dict(known[seed].about), lang)), ""]
        out += [f"<small>{code('../shared/sources/' + seed)}</small>", ""]
        if cited.get(seed):
            rules = ", ".join(f"[{rid}]({link(page, rp)})" for rid, rp in cited[seed])
            out += [f"**{label('cited_by', lang)}:** {rules}", ""]
    return "\n".join(out + _footer(lang, "from_rule_files"))


def glossary_page(site: Site, lang: str) -> str:
    out = [f"# {label('glossary_title', lang)}", "", label("glossary_intro", lang), ""]
    rows = []
    for term in site.glossary:
        meaning = term.get("meaning", {})
        rows.append([f"**{term['ru']}**", term["en"], prose(meaning.get(lang) or meaning.get("en", ""))])
    out += [table([label("russian", lang), label("english", lang), label("meaning", lang)], rows)
            if rows else label("none_yet", lang), ""]
    return "\n".join(out + _footer(lang, "from_glossary"))


