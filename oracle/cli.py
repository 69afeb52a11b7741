"""The ``thousand`` command line."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from .engine import Game, play_random
from .errors import InputError, OracleError
from .record import Recorder
from .ruleset import load_library, load_ruleset


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _param_pairs(pairs: list[str]) -> dict[str, Any]:
    """--set name=value, with the value read as YAML (numbers, true/false, lists)."""
    import yaml

    out: dict[str, Any] = {}
    for p in pairs:
        name, sep, raw = p.partition("=")
        if not sep or not name:
            raise InputError(f"--set needs name=value, not {p!r}")
        try:
            out[name.strip()] = yaml.safe_load(raw)
        except yaml.YAMLError:
            raise InputError(f"--set {name}: cannot read the value {raw!r}") from None
    return out


def cmd_play(args: argparse.Namespace) -> int:
    params = _param_pairs(args.set or [])
    overlays = args.overlay or []
    rs = load_ruleset(args.ruleset, overlays, params)
    seed = args.seed
    rng = random.Random(seed)
    n = rs.players
    players = args.players.split(",") if args.players else [f"P{i + 1}" for i in range(n)]
    if len(players) != n:
        raise InputError(f"ruleset {rs.name!r} seats {n} players, but --players names {len(players)}")
    dealer = rng.randrange(n)  # the lot for the first dealer (deal.first-dealer)
    game = Game(rs, players=n, dealer=dealer, seed=rng.randrange(2**32))
    rec = Recorder(game, players, seed, overlays, params)
    play_random(game, rng, on_action=rec, hinted=not args.uniform, max_deals=args.max_deals)
    record = rec.finish()
    text = json.dumps(record, ensure_ascii=False, indent=1 if args.pretty else None)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    res = record["result"]
    status = (f"won by {players[res['winner']]}" if res["finished"]
              else f"unfinished after {len(record['deals'])} deals")
    print(f"{rs.name}: {len(record['deals'])} deals, {status}; scores "
          + ", ".join(f"{p} {s}" for p, s in zip(players, res["score"], strict=False)), file=sys.stderr)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Load and compile every preset: the lint for rule files."""
    lib = load_library()
    names = args.ruleset or sorted(lib.presets)
    for name in names:
        rs = load_ruleset(name)
        print(f"{name}: {len(rs.rules)} rules, {len(rs.params)} parameters, {len(rs.actions)} actions — ok")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="thousand", description="The executable rulebook and conformance oracle of Тысяча.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = sub.add_parser("play", help="play a whole game with seeded random legal moves and print its record")
    play.add_argument("--ruleset", default="classic", help="named ruleset (default: classic)")
    play.add_argument("--overlay", action="append", metavar="ID", help="add an overlay (repeatable)")
    play.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable)")
    play.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    play.add_argument("--players", help="comma-separated player names, clockwise")
    play.add_argument("--max-deals", type=int, default=500, help="stop an unfinished game after this many deals")
    play.add_argument("--uniform", action="store_true",
                      help="choose uniformly among legal moves instead of following the rules' play hints")
    play.add_argument("--out", help="write the record to this file instead of standard output")
    play.add_argument("--pretty", action="store_true", help="indent the JSON")
    play.set_defaults(func=cmd_play)

    check = sub.add_parser("check", help="load and compile rulesets, reporting any error in the rule files")
    check.add_argument("ruleset", nargs="*", help="rulesets to check (default: all)")
    check.set_defaults(func=cmd_check)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except OracleError as exc:
        print(f"thousand: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
