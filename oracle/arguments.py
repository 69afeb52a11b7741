"""The command line's grammar: every command, option and help text of ``thousand``.

Kept apart from the commands themselves (oracle.cli) so that the site's CLI reference can be
generated from the same parser without the docs importing the CLI that runs them.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from . import __version__

# The exit codes of every command (README and docs/reference/verdicts.md list them).
EXIT_OK = 0
EXIT_INVALID = 1  # a record breaks a rule (validate, replay); coverage: some files were left out
EXIT_UNREADABLE = 2  # a record (or a rule file) cannot be read
EXIT_USAGE = 64  # the command line is wrong, as in sysexits.h: nothing was judged
EXIT_INTERNAL = 70  # a bug of ours
EXIT_INTERRUPTED = 130

LANGS = ["en", "ru"]
PATHS_HELP = "records (.json, .yaml), folders or patterns; - reads one record from standard input"
LANG_HELP = "language of the text (default: from LC_ALL, LC_MESSAGES or LANG; ru when it starts with ru, else en)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="thousand", description="The executable rulebook and conformance oracle of Тысяча.",
                epilog="Run 'thousand COMMAND --help' for a command's options.")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                   help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=_Parser)

    play = sub.add_parser("play", help="play a whole game with seeded random legal moves and print its record")
    play.add_argument("--ruleset", default="classic", help="named ruleset (default: classic)")
    play.add_argument("--overlay", action="append", metavar="ID", help="add an overlay (repeatable)")
    play.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable)")
    play.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    play.add_argument("--players", help="comma-separated player names, clockwise")
    play.add_argument("--max-deals", type=int, default=500, help="stop an unfinished game after this many deals")
    bots = play.add_mutually_exclusive_group()
    bots.add_argument("--uniform", action="store_true",
                      help="choose uniformly among legal moves instead of following the rules' play hints")
    bots.add_argument("--simple", action="store_true",
                      help="follow the rules' play hints move by move, without playing the deal out first "
                           "(the golden games' bot: games run to hundreds of deals)")
    play.add_argument("--out", help="write the record to this file instead of standard output")
    play.add_argument("--pretty", action="store_true",
                      help="indent the record, one action per line (the default; kept for older scripts)")
    play.add_argument("--compact", action="store_true", help="write the record as one line of JSON")

    val = sub.add_parser("validate", help="check game records against a ruleset: every action and recorded result")
    val.add_argument("paths", nargs="+", metavar="FILE|DIR|GLOB", help=PATHS_HELP)
    val.add_argument("--ruleset", help="judge by this ruleset instead of the one each record names")
    val.add_argument("--all-errors", action="store_true",
                     help="report every independent violation: after an illegal action the rest of its deal is "
                     "skipped, and the next deal is judged from the position the record states")
    val.add_argument("--format", choices=["text", "json"], default="text",
                     help="text for people (default), or one JSON document with every file's verdict")
    val.add_argument("--jobs", type=int, default=1, metavar="N",
                     help="validate files in N parallel processes (default: 1)")
    val.add_argument("--dask", metavar="ADDRESS", help="validate on the Dask cluster with this scheduler address "
                     "(tcp://host:8786; needs the dask extra, and the files readable by every worker)")
    val.add_argument("-q", "--quiet", action="store_true",
                     help="print only the summary: the counts, and the exit code says the rest")
    val.add_argument("--problems", action="store_true", help="print only invalid or unreadable files")
    val.add_argument("--lang", choices=LANGS, help=LANG_HELP)

    rep = sub.add_parser("replay", help="print a record's score sheet as players keep it on paper")
    rep.add_argument("file", help="the game record (.json or .yaml; - reads standard input)")
    rep.add_argument("--ruleset", help="judge by this ruleset instead of the one the record names")
    rep.add_argument("--deals", metavar="A-B",
                     help="show only these deals, counting from 1: 3-7, 12 or 100- (to the end)")
    rep.add_argument("--lang", choices=LANGS, help=LANG_HELP)
    rep.add_argument("--no-pager", action="store_true",
                     help="print straight to the terminal instead of through $PAGER (less)")

    cov = sub.add_parser("coverage", help="which rules a set of records exercises, and which it never reaches")
    cov.add_argument("paths", nargs="+", metavar="FILE|DIR|GLOB", help=PATHS_HELP)
    cov.add_argument("--ruleset", help="judge by this ruleset instead of the one each record names")
    cov.add_argument("--format", choices=["text", "json"], default="text", help="text (default) or JSON")
    cov.add_argument("--jobs", type=int, default=1, metavar="N",
                     help="replay files in N parallel processes (default: 1)")
    cov.add_argument("-q", "--quiet", action="store_true",
                     help="print only the summary, not the table of every rule")
    cov.add_argument("--lang", choices=LANGS, help=LANG_HELP)

    gold = sub.add_parser("golden", help="regenerate (or --check) the golden games of every ruleset")
    gold.add_argument("--out", default="tests/golden", help="folder of the golden games (default: tests/golden)")
    gold.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    gold.add_argument("--ruleset", action="append", help="only this ruleset (repeatable)")

    rsets = sub.add_parser("rulesets", help="list the named rulesets")
    rsets.add_argument("--lang", choices=LANGS, help=LANG_HELP)

    expl = sub.add_parser("explain", help="a ruleset's parameters, overlays and the sources it follows")
    expl.add_argument("name", help="a ruleset name, as 'thousand rulesets' lists them")
    expl.add_argument("--lang", choices=LANGS, help=LANG_HELP)
    expl.add_argument("--dossier", action="store_true",
                      help="list what the preset's dossier must answer for (every rule that can change a verdict, "
                           "every parameter) and what answers each; exit 1 if something is unanswered")
    expl.add_argument("--no-pager", action="store_true",
                      help="print straight to the terminal instead of through $PAGER (less)")

    dif = sub.add_parser("diff", help="how two rulesets differ, rule by rule and parameter by parameter")
    dif.add_argument("a", help="the first ruleset")
    dif.add_argument("b", help="the second ruleset")
    dif.add_argument("--format", choices=["text", "json"], default="text", help="text (default) or JSON")
    dif.add_argument("--lang", choices=LANGS, help=LANG_HELP)

    conf = sub.add_parser("conform", help="drive another engine and the oracle side by side through generated games")
    conf.add_argument("--engine", required=True,
                      help="command that starts the engine (protocol on stdin/stdout), or 'oracle'")
    conf.add_argument("--ruleset", default="classic")
    conf.add_argument("--overlay", action="append", help="add a variant overlay to the ruleset (repeatable)")
    conf.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable)")
    conf.add_argument("--examples", type=int, default=200,
                      help="generated games in the whole run, at most (default 200)")
    conf.add_argument("--time", type=float, help="seconds the run may take, at most (default: no limit)")
    conf.add_argument("--max-disagreements", type=int, default=20,
                      help="stop after this many root causes (default 20)")
    conf.add_argument("--exclude", action="append", metavar="KEY",
                      help="skip a known root cause by its key, as a report names it (parameter:NAME or rule:RULE; "
                           "repeatable): it is counted, not reported, and the run looks for the others")
    conf.add_argument("--seed", type=int, default=0, help="reproduce a run exactly")
    conf.add_argument("--deals", type=int, default=4, help="deals per generated game, at most (default 4)")
    conf.add_argument("--timeout", type=float, default=5.0, help="seconds the engine has to answer a request")
    conf.add_argument("--start-timeout", type=float, default=30.0, help="seconds the engine has to start")
    conf.add_argument("--shrink-seconds", type=float, default=10.0, help="time to shrink each disagreement")
    conf.add_argument("--shrink-examples", type=int, metavar="N",
                      help="at most N games to shrink each disagreement (the same result on any machine)")
    conf.add_argument("--out", default="conformance-failures", help="folder for the counterexample records")
    conf.add_argument("--format", choices=["text", "json"], default="text")
    conf.add_argument("--quiet", action="store_true", help="no progress lines on standard error")

    eng = sub.add_parser("engine", help="serve the oracle as an engine speaking the protocol on stdin/stdout")
    eng.add_argument("--ruleset", default="classic", help="named ruleset to serve (default: classic)")
    eng.add_argument("--overlay", action="append", help="add a variant overlay to the ruleset (repeatable)")
    eng.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable)")
    eng.add_argument("--mutant",
                     help="serve a deliberately broken engine (one of those in oracle/conform/mutants.yaml)")

    check = sub.add_parser("check", help="load and compile rulesets, reporting any error in the rule files")
    check.add_argument("ruleset", nargs="*", help="rulesets to check (default: all)")

    docs = sub.add_parser("docs", help="write the rulebook site's Markdown pages from the rule files")
    docs.add_argument("--out", default="docs/generated",
                      help="folder to replace with the generated pages (default: docs/generated)")
    docs.add_argument("--data", help="the site's data folder: nav skeleton, areas, glossary (default: OUT/../_data)")
    return p


