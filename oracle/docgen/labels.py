"""The words of the site itself, in each language it is built in.

Only the site's own furniture lives here (headings, column names, short
explanations of the generator's output). Everything about the game comes from
the rule files, so a new rule or preset never needs a change in this module.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

from .md import code, plain, show

LANGS: tuple[str, ...] = ("en", "ru")
DEFAULT_LANG = "en"

_LABELS: dict[str, dict[str, str]] = {
    # page titles
    "rules_title": {"en": "Rules", "ru": "Правила"},
    "presets_title": {"en": "Rulesets", "ru": "Наборы правил"},
    "overlays_title": {"en": "Overlays", "ru": "Дополнения"},
    "matrix_title": {"en": "Parameters by ruleset", "ru": "Параметры по наборам правил"},
    "decisions_title": {"en": "Decisions: where the sources disagree", "ru": "Решения: где источники расходятся"},
    "language_title": {"en": "The rule language", "ru": "Язык правил"},
    "schema_title": {"en": "The rule file format", "ru": "Формат файла правил"},
    "cli_title": {"en": "The command line", "ru": "Командная строка"},
    "sources_title": {"en": "Sources", "ru": "Источники"},
    "glossary_title": {"en": "Glossary", "ru": "Словарь"},
    # shared phrases
    "generated_note": {
        "en": "This page is generated from {what} by `thousand docs`; do not edit it by hand.",
        "ru": "Эта страница создана из {what} командой `thousand docs`; не правьте её вручную.",
    },
    "from_rule_files": {"en": "the rule files", "ru": "файлов правил"},
    "from_code": {"en": "the code", "ru": "кода"},
    "from_schemas": {"en": "the JSON Schemas", "ru": "JSON-схем"},
    "from_glossary": {"en": "the glossary data", "ru": "данных словаря"},
    "source_abbr": {
        "en": "{short}: the source text {title} (file {seed}); see the Sources page",
        "ru": "{short} — исходный текст {title} (файл {seed}); подробнее на странице «Источники»",
    },
    "none_yet": {"en": "None yet.", "ru": "Пока нет."},
    "default": {"en": "default", "ru": "по умолчанию"},
    "default_col": {"en": "Default", "ru": "По умолчанию"},
    "yes": {"en": "yes", "ru": "да"},
    "no": {"en": "no", "ru": "нет"},
    "lines": {"en": "Lines", "ru": "Строки"},
    "file": {"en": "File", "ru": "Файл"},
    "rule": {"en": "Rule", "ru": "Правило"},
    "rules": {"en": "Rules", "ru": "Правила"},
    "id": {"en": "Id", "ru": "Идентификатор"},
    "title": {"en": "Title", "ru": "Название"},
    "parameter": {"en": "Parameter", "ru": "Параметр"},
    "parameters": {"en": "Parameters", "ru": "Параметры"},
    "type": {"en": "Type", "ru": "Тип"},
    "meaning": {"en": "Meaning", "ru": "Смысл"},
    "value": {"en": "Value", "ru": "Значение"},
    "option": {"en": "Option", "ru": "Вариант"},
    "chosen_by": {"en": "Chosen by", "ru": "Кто выбирает"},
    "set_by": {"en": "Set by", "ru": "Кем задано"},
    "why": {"en": "Why this default", "ru": "Почему так по умолчанию"},
    "contradiction": {"en": "Contradiction {n}", "ru": "Противоречие {n}"},
    "no_number": {"en": "Not numbered in the catalogue", "ru": "Без номера в каталоге"},
    "topic": {"en": "Topic", "ru": "Вопрос"},
    "source_file": {"en": "Source file", "ru": "Файл источника"},
    "cited_by": {"en": "Cited by", "ru": "Где цитируется"},
    # rule pages
    "rule_meta": {"en": "Rule `{id}`, from `{path}`.", "ru": "Правило `{id}`, файл `{path}`."},
    "overlay_meta": {"en": "Overlay `{id}`, from `{path}`.", "ru": "Дополнение `{id}`, файл `{path}`."},
    "notes": {"en": "Notes", "ru": "Примечания"},
    "other_choices": {"en": "Rulesets that choose otherwise", "ru": "Наборы с другим выбором"},
    "in_rulesets": {"en": "In the rulesets", "ru": "В наборах"},
    "in_presets": {"en": "in {presets}", "ru": "в {presets}"},
    "all_default": {"en": "every ruleset keeps the default", "ru": "во всех наборах — по умолчанию"},
    "others_default": {"en": "the others keep the default", "ru": "в остальных — по умолчанию"},
    "no_params": {"en": "This rule has no parameters.", "ru": "У этого правила нет параметров."},
    "decisions": {"en": "Decisions", "ru": "Решения"},
    "decision_intro": {
        "en": "The sources disagree here, and each ruleset makes its own choice. All such points are listed on "
              "the [decisions page]({link}).",
        "ru": "Здесь источники расходятся, и каждый набор правил решает по-своему. Все такие места собраны на "
              "[странице решений]({link}).",
    },
    "decision_param": {
        "en": "{topic}: the choice is the parameter {param}.",
        "ru": "{topic}: выбор хранит параметр {param}.",
    },
    "overlays_ids": {"en": "Overlays by id: {ids}.", "ru": "Дополнения по идентификаторам: {ids}."},
    "all_others": {"en": "every other ruleset", "ru": "все остальные наборы"},
    "for_authors": {"en": "For rule authors", "ru": "Для авторов правил"},
    "what_it_sets": {"en": "What it sets", "ru": "Что задаёт"},
    "sets_these": {"en": "Sets", "ru": "Задаёт"},
    "source_files": {"en": "Source files: {files}.", "ru": "Файлы источников: {files}."},
    "example_record": {
        "en": "The worked example is the record {path} (ruleset {ruleset}).",
        "ru": "Разобранный пример — запись {path} (набор {ruleset}).",
    },
    "changed_by": {"en": "Overlays that change this rule", "ru": "Дополнения, которые меняют это правило"},
    "changed_none": {
        "en": "No overlay changes this rule yet.",
        "ru": "Пока ни одно дополнение не меняет это правило.",
    },
    "replaces": {"en": "replaces this rule's logic", "ru": "заменяет это правило своим"},
    "sets": {"en": "sets {what}", "ru": "задаёт {what}"},
    "used_in": {"en": "used in {presets}", "ru": "входит в наборы {presets}"},
    "used_nowhere": {"en": "used in no ruleset yet", "ru": "пока не входит ни в один набор"},
    "code": {"en": "Rule-language source", "ru": "Код на языке правил"},
    "code_intro": {
        "en": "The rule as the interpreter runs it. The language is described on the "
              "[rule language page]({link}).",
        "ru": "Правило в том виде, в каком его исполняет интерпретатор. Язык описан на "
              "[странице о языке правил]({link}).",
    },
    "no_code": {
        "en": "This rule has no code of its own: its parameters are read by other rules or by the interpreter.",
        "ru": "У этого правила нет своего кода: его параметры читают другие правила или интерпретатор.",
    },
    "phases": {"en": "Phases", "ru": "Фазы"},
    "state": {"en": "State", "ru": "Состояние"},
    "definitions": {"en": "Definitions", "ru": "Определения"},
    "actions": {"en": "Actions", "ru": "Действия"},
    "logic": {"en": "Logic", "ru": "Логика"},
    "scope": {"en": "Scope", "ru": "Область"},
    "lifetime": {"en": "Lifetime", "ru": "Время жизни"},
    "initial": {"en": "Initial", "ru": "Начальное"},
    "recorded": {"en": "Recorded", "ru": "В записи"},
    "zone": {"en": "zone", "ru": "зона"},
    "scope_game": {"en": "game", "ru": "одна на игру"},
    "scope_seat": {"en": "seat", "ru": "у каждого места"},
    "lifetime_deal": {"en": "deal", "ru": "партия"},
    "lifetime_game": {"en": "game", "ru": "игра"},
    "on": {"en": "on", "ru": "при"},
    "after": {"en": "after", "ru": "после"},
    "before": {"en": "before", "ru": "до"},
    "forbids": {"en": "forbids, reason `{reason}`", "ru": "запрещает, причина `{reason}`"},
    "effect": {"en": "effect", "ru": "меняет состояние"},
    "message": {"en": "Message", "ru": "Сообщение"},
    "phase": {"en": "phase", "ru": "фаза"},
    "actor": {"en": "actor", "ru": "кто ходит"},
    "payload": {"en": "payload", "ru": "данные"},
    "choices_of": {"en": "choices of `{field}`", "ru": "варианты `{field}`"},
    "sample": {"en": "sample", "ru": "случайное значение"},
    "when": {"en": "exists while", "ru": "доступно, пока"},
    "hint": {"en": "bot hint", "ru": "подсказка боту"},
    "examples": {"en": "Examples", "ru": "Примеры"},
    "golden_intro": {
        "en": "Records from the golden games that the oracle must reject under this rule; the test suite checks "
              "each verdict.",
        "ru": "Ходы из эталонных игр, которые оракул обязан отвергнуть по этому правилу; каждый такой вердикт "
              "проверяют тесты.",
    },
    "example_where": {
        "en": "{path} (ruleset {ruleset}, deal {deal})",
        "ru": "{path} (набор {ruleset}, партия {deal})",
    },
    "example_illegal": {"en": "Illegal, reason {reason}.", "ru": "Запрещено, причина {reason}."},
    "example_result": {
        "en": "A wrong result on the score sheet is rejected, reason {reason}.",
        "ru": "Неверный результат в записи счёта отвергается, причина {reason}.",
    },
    "rejected": {"en": "rejected", "ru": "отвергнуто"},
    "sources": {"en": "Sources", "ru": "Источники"},
    "sources_intro": {
        "en": "Lines of the source texts this rule rests on; see the [sources page]({link}).",
        "ru": "Строки исходных текстов, на которых основано правило; см. [страницу источников]({link}).",
    },
    "no_sources": {
        "en": "No source states this rule; it is needed to make the game executable.",
        "ru": "Ни один источник не формулирует это правило; оно нужно, чтобы игру можно было исполнить.",
    },
    "no_sources_overlay": {"en": "This overlay cites no source.", "ru": "Это дополнение не ссылается на источники."},
    "covers": {"en": "Catalogue entries covered: {items}.", "ru": "Покрывает записи каталога: {items}."},
    "origin_overlay": {
        "en": "This rule is added by the overlay [{id}]({link}).",
        "ru": "Это правило добавлено дополнением [{id}]({link}).",
    },
    # index pages
    "rules_intro": {
        "en": "Every rule of the core game, grouped by the part of the game it belongs to. Each page gives the "
              "text, the parameters and their values in each ruleset, the contested points, the code and the "
              "sources.",
        "ru": "Все правила основной игры, по частям игры. На странице каждого правила — текст, параметры и их "
              "значения в каждом наборе, спорные места, код и источники.",
    },
    "params_col": {"en": "Parameters", "ru": "Параметры"},
    "presets_intro": {
        "en": "A ruleset (preset) is the core rules, then overlays in order, then parameter values.",
        "ru": "Набор правил — это основные правила, поверх них по порядку дополнения и, наконец, значения "
              "параметров.",
    },
    "compare": {"en": "Compare", "ru": "Сравнение"},
    "ruleset_option": {"en": "--ruleset", "ru": "--ruleset"},
    "programs_title": {"en": "Computer programs", "ru": "Компьютерные программы"},
    "programs_intro": {
        "en": "These rulesets reproduce how a program plays, read from its code, so that the program can be "
              "checked against the oracle.",
        "ru": "Эти наборы повторяют то, как играет программа, по её коду: по ним программу можно сверить с "
              "оракулом.",
    },
    "see_matrix": {
        "en": "All parameters side by side: [parameters by ruleset]({matrix}); every contested point: "
              "[decisions]({decisions}).",
        "ru": "Все параметры рядом: [параметры по наборам]({matrix}); все спорные места: "
              "[решения]({decisions}).",
    },
    "overlays_intro": {
        "en": "An overlay sets parameters, replaces a named rule, or adds a rule of its own. Presets list the "
              "overlays they use.",
        "ru": "Дополнение задаёт параметры, заменяет одно из правил или добавляет своё. Каждый набор "
              "перечисляет дополнения, которые в него входят.",
    },
    # preset pages
    "preset_meta": {"en": "Ruleset `{id}`, from `{path}`.", "ru": "Набор `{id}`, файл `{path}`."},
    "extends": {"en": "Extends [{id}]({link}).", "ru": "Расширяет набор [{id}]({link})."},
    "overlays_used": {"en": "Overlays", "ru": "Дополнения"},
    "no_overlays": {"en": "This ruleset uses no overlays.", "ru": "Этот набор не использует дополнений."},
    "preset_rules": {
        "en": "This ruleset plays {n} of the [core rules]({link}) as written, and {extra} rules that its overlays "
              "replace or add (listed below).",
        "ru": "[Основных правил]({link}), которые действуют в этом наборе без изменений: {n}; правил, которые "
              "его дополнения заменяют или добавляют: {extra} (они перечислены ниже).",
    },
    "preset_rules_core": {
        "en": "This ruleset plays the {n} [core rules]({link}) as written.",
        "ru": "В этом наборе действуют все [основные правила]({link}) без изменений, их {n}.",
    },
    "replaced_by": {"en": "replaced by the overlay {overlay}", "ru": "заменено дополнением {overlay}"},
    "added_by": {"en": "added by the overlay {overlay}", "ru": "добавлено дополнением {overlay}"},
    "own_rule": {"en": "added by the overlay of the same name", "ru": "добавлено одноимённым дополнением"},
    "preset_values": {"en": "Parameters set by this ruleset", "ru": "Параметры, заданные этим набором"},
    "preset_no_values": {
        "en": "Every parameter keeps its default (listed on the [matrix]({link})).",
        "ru": "Все параметры остаются со значениями по умолчанию (см. [таблицу]({link})).",
    },
    "preset_decisions": {"en": "How this ruleset settles the decisions", "ru": "Как этот набор решает спорные места"},
    "play_it": {"en": "Play it", "ru": "Сыграть"},
    "play_it_text": {
        "en": "Play a whole game of this ruleset with random legal moves (seeded, so the same seed gives the same "
              "game) and write its record:",
        "ru": "Сыграть по этому набору целую игру случайными разрешёнными ходами и записать её (при том же "
              "значении --seed получается та же игра):",
    },
    "summary": {
        "en": "{rules} rules ({core} of them core rules as written), {params} parameters.",
        "ru": "Правил: {rules} (из них основных без изменений: {core}), параметров: {params}.",
    },
    # matrix and decisions
    "matrix_intro": {
        "en": "Every parameter, its default, and its value in each ruleset: a dot (·) means the ruleset keeps "
              "the default, a value in bold is the ruleset's own, and a dash means the ruleset does not have "
              "the parameter. A parameter's name links to the rule that declares it.",
        "ru": "Каждый параметр, его значение по умолчанию и значение в каждом наборе: точка (·) — набор "
              "оставляет значение по умолчанию, жирным — собственное значение набора, прочерк — в наборе нет "
              "такого параметра. Имя параметра ведёт к правилу, которое его объявляет.",
    },
    "matrix_differ": {"en": "Where the rulesets differ", "ru": "Где наборы различаются"},
    "matrix_no_diff": {
        "en": "No ruleset ({presets}) changes a parameter from its default.",
        "ru": "Ни один набор ({presets}) не меняет значений по умолчанию.",
    },
    "matrix_same": {"en": "The same in every ruleset", "ru": "Одинаково во всех наборах"},
    "matrix_same_text": {
        "en": "No ruleset changes these parameters; each keeps its default.",
        "ru": "Ни один набор не меняет эти параметры; у каждого — значение по умолчанию.",
    },
    "decisions_intro": {
        "en": "Each contested point names the parameter that holds the choice, the source lines behind each "
              "option, the default and why, and the option each ruleset picks. Sources are cited by short name "
              "and line: F0 58 is line 58 of the text F0 (see [sources]({link})).",
        "ru": "Для каждого спорного места указаны параметр, который хранит выбор, строки источников за каждым "
              "вариантом, вариант по умолчанию с обоснованием и выбор каждого набора. Источники названы коротко, "
              "с номером строки: F0 58 — строка 58 текста F0 (см. [источники]({link})).",
    },
    "decision_rule": {
        "en": "Rule: [{title}]({link}), parameter `{param}`.",
        "ru": "Правило: [{title}]({link}), параметр `{param}`.",
    },
    "overview": {"en": "At a glance", "ru": "Коротко"},
    "other_value": {"en": "(another value)", "ru": "(другое значение)"},
    # reference
    "language_intro": {
        "en": "Rule files carry code in a small language: expressions for guards, choices and definitions, and "
              "statement blocks for effects. This page is built from the grammar and the standard library's "
              "registry, so it always matches the interpreter.",
        "ru": "Файлы правил содержат код на небольшом языке: выражения для запретов, вариантов и определений и "
              "блоки операторов для действий. Страница собрана из грамматики и реестра стандартной библиотеки, "
              "поэтому всегда совпадает с интерпретатором.",
    },
    "types": {"en": "Types", "ru": "Типы"},
    "types_text": {
        "en": "Scalar types: {scalars}. `list[T]` is a list of `T`, `T?` may also be `none`, and `cards` is "
              "short for `list[card]`.",
        "ru": "Простые типы: {scalars}. `list[T]` — список из `T`, `T?` может быть ещё и `none`, `cards` — "
              "сокращение для `list[card]`.",
    },
    "keywords": {"en": "Keywords", "ru": "Ключевые слова"},
    "engine_vars": {"en": "Names the engine provides", "ru": "Имена, которые даёт движок"},
    "engine_vars_text": {
        "en": "Every game has these, whatever its rules.",
        "ru": "Они есть в любой игре, какими бы ни были правила.",
    },
    "teams": {"en": "Teams", "ru": "Команды"},
    "teams_text": {
        "en": "Where seats play in partnerships, one rule of the ruleset declares them with `teams:`. `seats` names "
              "a parameter of type `list[int]` that gives each seat its team (seats with one number play "
              "together); `shared` lists the per-player state variables a team holds as one, each with the yes/no "
              "parameter that shares it. The rules read the teams with `team(s)` and `same_team(a, b)` (and the "
              "engine's `teams`); where no rule declares teams, every seat is a team of its own, so one rule text "
              "serves both games. The interpreter checks the declaration when the ruleset is compiled (the "
              "parameter's type, one team for each seat, each shared name a per-player variable and its switch a "
              "yes/no parameter), refuses a starting position that gives partners different values of what "
              "they share, and stops with the rule's name if a deal ends with partners apart on it. When the "
              "score sheet's total is shared, the sheet (and so `thousand replay`) adds a column for each team. "
              "Example: `variants/players-4/partners.yaml`.",
        "ru": "Если места играют парами, одно правило набора объявляет это полем `teams:`. В `seats` указан "
              "параметр типа `list[int]`, который даёт каждому месту номер команды (места с одним номером играют "
              "вместе); в `shared` перечислены переменные состояния игрока, общие для команды, и у каждой — "
              "параметр «да/нет», который делает её общей. Правила узнают команды через `team(s)` и "
              "`same_team(a, b)` (и переменную движка `teams`); если команд не объявляет ни одно правило, каждое "
              "место — команда из одного игрока, так что один и тот же текст правила годится для обеих игр. "
              "Интерпретатор проверяет объявление при сборке набора (тип параметра, по команде на каждое место, "
              "каждое общее имя — переменная игрока, а её переключатель — параметр «да/нет»), не принимает "
              "начальную позицию, где у партнёров разные значения общего, и останавливается с именем правила, "
              "если партия кончилась, а у партнёров общее разошлось. Если общий — итог записи счёта, в записи "
              "(а значит, и в `thousand replay`) появляется столбец каждой команды. Пример: "
              "`variants/players-4/partners.yaml`.",
    },
    "grammar": {"en": "Grammar", "ru": "Грамматика"},
    "grammar_text": {
        "en": "The Lark grammar, as the parser reads it (`{path}`):",
        "ru": "Грамматика Lark в том виде, в каком её читает парсер (`{path}`):",
    },
    "stdlib": {"en": "Standard library", "ru": "Стандартная библиотека"},
    "stdlib_text": {
        "en": "Signatures give the argument types; arguments in brackets may be left out. The descriptions are "
              "the registry's own.",
        "ru": "В сигнатурах указаны типы аргументов; аргументы в квадратных скобках можно опустить. Описания "
              "взяты из самого реестра.",
    },
    "kind_pure": {"en": "Functions", "ru": "Функции"},
    "kind_procedure": {"en": "Procedures (change lists in place)", "ru": "Процедуры (меняют списки на месте)"},
    "kind_random": {"en": "Random (seeded)", "ru": "Случайные (с зерном)"},
    "kind_engine": {"en": "Engine calls", "ru": "Вызовы движка"},
    "signature": {"en": "Signature", "ru": "Сигнатура"},
    "description": {"en": "Description", "ru": "Описание"},
    "returns_arg": {"en": "type of argument {n}", "ru": "тип аргумента {n}"},
    "returns_elem": {"en": "item type of argument {n}", "ru": "тип элемента аргумента {n}"},
    "schema_intro": {
        "en": "Rule files (`spec/**.yaml`) and overlays (`variants/**.yaml`) follow the rule schema; presets "
              "(`variants/presets/*.yaml`) follow the preset schema. Files are checked against these schemas "
              "when they are loaded.",
        "ru": "Файлы правил (`spec/**.yaml`) и дополнений (`variants/**.yaml`) следуют схеме правила; наборы "
              "(`variants/presets/*.yaml`) — схеме набора. Файлы проверяются по этим схемам при загрузке.",
    },
    "field": {"en": "Field", "ru": "Поле"},
    "required": {"en": "Required", "ru": "Обязательно"},
    "any_value": {"en": "any value", "ru": "любое значение"},
    "list_of": {"en": "list of {x}", "ru": "список из {x}"},
    "map_of": {"en": "map from {k} to {v}", "ru": "словарь {k} → {v}"},
    "one_of": {"en": "one of {x}", "ru": "одно из {x}"},
    "exactly_one": {"en": "exactly one of: {x}", "ru": "ровно одно из: {x}"},
    "pattern": {"en": "matching `{p}`", "ru": "по шаблону `{p}`"},
    "names": {"en": "names", "ru": "имена"},
    "items_between": {"en": "{lo} to {hi} items", "ru": "от {lo} до {hi} элементов"},
    "definitions_of": {"en": "Parts", "ru": "Составные части"},
    "cli_intro": {
        "en": "Built from the command line's own definitions; `thousand COMMAND --help` prints the same.",
        "ru": "Страница собрана из определений самой командной строки; `thousand КОМАНДА --help` печатает "
              "ту же справку по-английски.",
    },
    "usage": {"en": "Usage", "ru": "Использование"},
    "command": {"en": "Command", "ru": "Команда"},
    "argument": {"en": "Argument", "ru": "Аргумент"},
    "sources_page_intro": {
        "en": "The rule files cite four source texts, all Russian web pages about the game, by file name and "
              "line; the texts themselves are not reproduced here. The rulebook calls them F0 … F3, after the "
              "number their file name starts with: F0 58 is line 58 of F0. What each text is, below, is our own "
              "description.",
        "ru": "Файлы правил ссылаются на четыре исходных текста — русские веб-страницы об игре — по имени "
              "файла и номеру строки; сами тексты здесь не приводятся. В своде они называются F0 … F3, по "
              "числу, с которого начинается имя файла: F0 58 — строка 58 текста F0. Что представляет собой "
              "каждый текст, ниже описано нашими словами.",
    },
    "source_title": {"en": "Title in the text", "ru": "Заголовок в тексте"},
    "source_about": {"en": "What it is", "ru": "Что это за текст"},
    "source_lines": {"en": "Lines", "ru": "Строк"},
    "short": {"en": "Short", "ru": "Обозначение"},
    "citations": {"en": "Citations", "ru": "Ссылок"},
    "glossary_intro": {
        "en": "Russian terms of the game, with the English words this rulebook uses for them.",
        "ru": "Русские термины игры и английские слова, которыми их передаёт английская версия свода.",
    },
    "russian": {"en": "Russian", "ru": "По-русски"},
    "transcript_title": {"en": "Transcript format", "ru": "Формат записи игры"},
    "coming": {"en": "Coming — not written yet", "ru": "Готовится — пока не написано"},
    "transcript_coming": {
        "en": "This page is generated from the record format's JSON Schema, which the code does not ship yet. "
              "Until then, the records that `thousand play` writes are the reference.",
        "ru": "Эта страница создаётся из JSON-схемы формата записи, которой в коде пока нет. До тех пор "
              "образцом служат записи, которые пишет `thousand play`.",
    },
    "transcript_intro": {
        "en": "A game record (transcript) names the ruleset and the players and lists every deal with its "
              "actions. Records are checked against this schema when they are read.",
        "ru": "Запись игры называет набор правил и игроков и перечисляет все партии с их действиями. При "
              "чтении запись проверяется по этой схеме.",
    },
    "marks": {"en": "Score-sheet marks", "ru": "Пометки в записи счёта"},
    "mark_event": {"en": "Event", "ru": "Событие"},
    "symbol": {"en": "Symbol", "ru": "Знак"},
    "not_normative": {
        "en": "Not a rule of the game: this file supports the software (for example the built-in bot). It "
              "never changes what is legal.",
        "ru": "Не правило игры: этот файл нужен программе (например, встроенному боту). На то, что разрешено, "
              "он не влияет.",
    },
    "not_normative_area": {"en": "Not rules of the game", "ru": "Не правила игры"},
    "english": {"en": "English", "ru": "По-английски"},
}


def label(key: str, lang: str, **fmt: object) -> str:
    """A site string in ``lang``, formatted; a missing key is a bug, so it raises."""
    text = _LABELS[key][lang]
    return text.format(**fmt) if fmt else text


# --------------------------------------------------------------------------- parameter values in words

VALUES_FILE = Path(__file__).with_name("values.yaml")


@functools.cache
def _values() -> dict[str, Any]:
    with VALUES_FILE.open(encoding="utf-8") as f:
        data = yaml.safe_load(f)
    return data if isinstance(data, dict) else {}


def plural(n: int, forms: list[str], lang: str) -> str:
    """The form of a noun that goes with the number ``n``: 1 очко, 3 очка, 5 очков; 1 point, 2 points."""
    if lang == "ru":
        m10, m100 = abs(n) % 10, abs(n) % 100
        form = forms[0] if m10 == 1 and m100 != 11 else forms[1] if 2 <= m10 <= 4 and not 12 <= m100 <= 14 \
            else forms[2]
    else:
        form = forms[0] if abs(n) == 1 else forms[1]
    return f"{n} {form}"


def _nth(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _key(value: Any) -> str:
    # YAML reads `true:` as a boolean key and `1:` as a number: compare as the rule files spell them.
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _word(table: dict[str, Any], item: Any, lang: str) -> str | None:
    entry = {_key(k): v for k, v in (table or {}).items()}.get(_key(item))
    return str(entry[lang]) if isinstance(entry, dict) and lang in entry else None


def _words_or_none(param: str, value: Any, lang: str) -> str | None:
    data = _values()
    entry = (data.get("params") or {}).get(param)
    value = plain(value)
    if entry is None:
        return None
    if entry == "yes-no":
        return label("yes" if value else "no", lang) if isinstance(value, bool) else None
    if not isinstance(entry, dict):
        return None
    if "list" in entry:
        if not isinstance(value, list):
            return None
        kind = entry["list"]
        if kind == "as-written":
            return code(" ".join(str(x) for x in value))  # symbols, not words: shown as the notation has them
        words = [_word(data.get(kind) or {}, x, lang) for x in value]
        return None if None in words else ", ".join(str(w) for w in words)
    if "map" in entry:
        if not isinstance(value, dict):
            return None
        keys = data.get("ranks" if entry["map"] == "rank-points" else "suits") or {}
        names = [_word(keys, k, lang) for k in value]
        if None in names:
            return None
        return ", ".join(f"{n} {v}" for n, v in zip(names, value.values(), strict=True))
    if "unit" in entry or "format" in entry:
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        special = _word(entry.get("special") or {}, value, lang)
        if special is not None:
            return special
        if "unit" in entry:
            forms = ((data.get("units") or {}).get(entry["unit"]) or {}).get(lang)
            return plural(value, forms, lang) if forms else None
        fmt = (entry["format"] or {}).get(lang)
        return str(fmt).format(n=value, nth=_nth(value)) if fmt else None
    return _word(entry, value, lang)


def has_value_label(param: str, value: Any) -> bool:
    """Whether the player's words for this value exist in every language of the site."""
    return all(_words_or_none(param, value, lang) is not None for lang in LANGS)


def value_label(param: str, value: Any, lang: str) -> str:
    """A parameter's value as a player says it, in ``lang``: «игрок справа от сдающего», «5 очков».

    A value without words (a new parameter not yet in values.yaml) shows as the rule files write
    it, so a page still builds; tests/test_docs_values.py fails for it.
    """
    words = _words_or_none(param, value, lang)
    return words if words is not None else show(value)


def action_label(kind: str, fields: dict[str, str], flags: list[str], lang: str) -> str | None:
    """A move as a player says it («ход Д♥ с «хвалю»», «ставка 120»), its fields already in words.

    ``flags`` are the payload's flags that are set. None where values.yaml has no words for the move
    or for one of its flags (tests/test_docs_values.py fails for that).
    """
    entry = (_values().get("actions") or {}).get(kind)
    if not isinstance(entry, dict) or lang not in entry:
        return None
    try:
        text = str(entry[lang]).format(**fields)
    except (KeyError, IndexError):
        return None
    for flag in flags:
        words = (entry.get(flag) or {}).get(lang) if isinstance(entry.get(flag), dict) else None
        if words is None:
            return None
        text += f" {words}"
    return text
