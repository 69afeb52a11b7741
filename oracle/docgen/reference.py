"""Reference pages built from the code itself: the rule language, the file schemas, the CLI.

Each page reads the thing it documents (the grammar file, the standard library's
registry, the JSON Schemas, the argparse definitions), so it cannot fall behind.
"""

from __future__ import annotations

import argparse
import json
from importlib.resources import files
from typing import Any

from ..lang import types as T
from ..lang.compiler import ENGINE_VARS, KEYWORDS
from ..lang.stdlib import REGISTRY, Builtin
from ..rulefile import schema
from .labels import label
from .md import code, fence, heading, link, prose, table
from .rules import source_label
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
                      [[_signature(b, lang), b.doc] for b in entries]), ""]
    others = sorted({b.kind for b in REGISTRY.values()} - set(KINDS))
    for kind in others:
        # A kind the docs do not know yet is still listed, under its own name.
        out += [heading(3, kind, f"stdlib-{kind}"), "",
                table([label("signature", lang), label("description", lang)],
                      [[_signature(b, lang), b.doc] for b in REGISTRY.values() if b.kind == kind]), ""]
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
             prose(spec.get("description", "")) if isinstance(spec, dict) else ""]
            for name, spec in node.get("properties", {}).items()]
    out = [table([label("field", lang), label("type", lang), label("required", lang), label("description", lang)],
                 rows), ""]
    if "oneOf" in node and "properties" in node:
        alts = [" + ".join(code(r) for r in alt.get("required", [])) for alt in node["oneOf"]]
        out += [label("exactly_one", lang, x="; ".join(alts)), ""]
    return out


def _schema_section(name: str, lang: str) -> list[str]:
    s = schema(name)
    out = [heading(2, s.get("title", name), f"{name}-schema"), "", prose(s.get("description", "")), "",
           f"<small>`oracle/schemas/{name}.schema.json`</small>", ""]
    out += _object_table(s, lang, name)
    defs = s.get("$defs", {})
    if defs:
        out += [heading(3, label("definitions_of", lang), f"{name}-parts"), ""]
    for dname, node in defs.items():
        out += [heading(4, code(dname), f"{name}-def-{dname}"), ""]
        if node.get("description"):
            out += [prose(node["description"]), ""]
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
    # argparse sizes its output to the terminal; a fixed width keeps the page reproducible.
    fmt = argparse.HelpFormatter(parser.prog, width=USAGE_WIDTH)
    fmt.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return fmt.format_help().strip()


def _arg_rows(parser: argparse.ArgumentParser) -> list[list[str]]:
    rows = []
    for act in parser._actions:
        if isinstance(act, argparse._HelpAction | argparse._SubParsersAction):
            continue
        # Spell arguments as argparse's own usage line does: metavar, else the choices, else the name.
        shown = act.metavar or ("{" + ",".join(map(str, act.choices)) + "}" if act.choices else None)
        names = ", ".join(act.option_strings) or str(shown or act.dest)
        if act.option_strings and act.nargs != 0:
            names += f" {shown or act.dest.upper()}"
        rows.append([code(names), prose(act.help or "")])
    return rows


def cli_page(lang: str) -> str:
    from ..cli import build_parser

    parser = build_parser()
    out = [f"# {label('cli_title', lang)}", "", label("cli_intro", lang), "",
           prose(parser.description or ""), "", fence(_usage(parser), "text"), ""]
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for sub in subs:
        helps = {c.dest: c.help for c in sub._choices_actions}
        for name, p in sub.choices.items():
            out += [heading(2, f"thousand {name}", f"cmd-{name}"), "", prose(helps.get(name) or p.description or ""),
                    "", fence(_usage(p), "text"), ""]
            rows = _arg_rows(p)
            if rows:
                out += [table([label("argument", lang), label("description", lang)], rows), ""]
    return "\n".join(out + _footer(lang, "from_code"))


# --------------------------------------------------------------------------- sources and glossary

def sources_page(site: Site, lang: str) -> str:
    page = SOURCES_PAGE
    cited: dict[str, list[tuple[str, str, str]]] = {}
    for r in (*site.rules, *site.overlays):
        for s in r.doc.get("sources") or []:
            seed = str(s["seed"])
            cited.setdefault(seed, [])
            if r.id not in [c[0] for c in cited[seed]]:
                cited[seed].append((r.id, r.page, ""))
    out = [f"# {label('sources_title', lang)}", "", label("sources_page_intro", lang), ""]
    rows = []
    for seed in sorted(cited):
        n = sum(1 for r in (*site.rules, *site.overlays) for s in r.doc.get("sources") or [] if str(s["seed"]) == seed)
        rules = ", ".join(f"[{rid}]({link(page, rp)})" for rid, rp, _ in cited[seed])
        rows.append([source_label(seed), code(seed), str(n), rules])
    out += [table([label("short", lang), label("source_file", lang), label("citations", lang),
                   label("cited_by", lang)], rows), ""]
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


