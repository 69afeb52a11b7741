"""The standard library of the rule language, registered in one place.

Everything here is generic to seated trick-taking games: cards as (rank, suit),
seats in clockwise order, lists and zones of cards. No game's numbers live here.
The docs list this registry, so each entry carries a one-line description.

Cards, suits, ranks and seats are small integers at run time. A card is
``suit * number_of_ranks + rank``; the compiler inlines the hot primitives
(``suit``, ``rank``, ``card``) as arithmetic on those integers.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Inliner = Callable[["DeckShape", list[ast.expr]], "ast.expr | None"]  # None: call the function instead


@dataclass(frozen=True)
class DeckShape:
    ranks: tuple[str, ...]
    suits: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits)


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple[str, ...]
    returns: str  # a type, or "elem:N" / "arg:N" for the element or type of argument N
    doc: str
    kind: str = "pure"  # pure | procedure | random | engine
    impl: Callable[..., Any] | None = None
    inline: Inliner | None = None
    optional: int = 0  # how many trailing params may be left out
    examples: tuple[str, ...] = field(default=())
    doc_ru: str = ""  # the same description in Russian, for the rulebook's Russian pages
    # An engine procedure that gives state variables new values (not by assignment in the rules):
    # compiled code that keeps a variable in a local reads it afresh after a call of it.
    renews_vars: bool = False
    # A procedure's arguments it changes in place, by position: what rule coverage compares before and
    # after an effect that calls it, to tell whether the effect changed the game.
    changes: tuple[int, ...] = ()


REGISTRY: dict[str, Builtin] = {}


def register(name: str, params: list[str], returns: str, doc: str, *, kind: str = "pure",
             inline: Inliner | None = None, optional: int = 0, ru: str = "",
             renews_vars: bool = False,
             changes: tuple[int, ...] = ()) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        REGISTRY[name] = Builtin(name, tuple(params), returns, doc, kind, fn, inline, optional, doc_ru=ru,
                                 renews_vars=renews_vars, changes=changes)
        return fn
    return deco


def _binop(left: ast.expr, op: ast.operator, right: ast.expr) -> ast.expr:
    return ast.BinOp(left=left, op=op, right=right)


def _const(v: Any) -> ast.expr:
    return ast.Constant(value=v)


def _direct(pyname: str) -> Inliner:
    return lambda d, a: ast.Call(func=ast.Name(pyname, ast.Load()), args=list(a), keywords=[])


def _methods(*calls: tuple[int, str, tuple[int, ...]], places: tuple[int, ...] = ()) -> Inliner:
    """List methods called in place of a procedure: (object argument, method, its arguments) each, in
    order, as one expression. Rule expressions change nothing, so the order they are read in does not
    matter, but an argument read twice must read the same both times: a name or a constant, or, for
    the arguments in ``places``, a place such as ``hand[s]`` (appending to or clearing another list
    moves nothing in it). ``hand[s][0]`` changes once a card leaves ``hand[s]``: then the procedure
    is called instead (None)."""
    uses = [i for obj, _, args in calls for i in (obj, *args)]
    twice = {i for i in uses if uses.count(i) > 1}

    def inline(d: DeckShape, a: list[ast.expr]) -> ast.expr | None:
        if any(not (_plain(a[i]) or (i in places and _place(a[i]))) for i in twice):
            return None
        steps: list[ast.expr] = [ast.Call(func=ast.Attribute(a[obj], name, ast.Load()), args=[a[i] for i in args],
                                          keywords=[]) for obj, name, args in calls]
        return steps[0] if len(steps) == 1 else ast.Tuple(elts=steps, ctx=ast.Load())
    return inline


def _plain(node: ast.expr) -> bool:
    return isinstance(node, (ast.Name, ast.Constant))


def _place(node: ast.expr) -> bool:
    """A state variable, or an entry of one at a name or a constant: V['won'][w]."""
    while isinstance(node, ast.Subscript):
        if not _plain(node.slice):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def _cheap(node: ast.expr) -> bool:
    """An expression that costs little to work out twice: names, constants, arithmetic and
    subscripts of them (a rule expression changes nothing, so twice gives the same value)."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.BinOp):
        return _cheap(node.left) and _cheap(node.right)
    if isinstance(node, ast.UnaryOp):
        return _cheap(node.operand)
    if isinstance(node, ast.Subscript):
        return _cheap(node.value) and _cheap(node.slice)
    return False


def _constants(node: ast.expr) -> bool:
    return isinstance(node, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) for e in node.elts)


def _spread(pyname: str) -> Inliner:
    """``min([a, b])`` as ``min(a, b)``: no list built. A list of one item is left to the call (``min(a)``
    would look inside ``a``)."""
    def inline(d: DeckShape, a: list[ast.expr]) -> ast.expr:
        xs = a[0]
        if isinstance(xs, ast.List) and len(xs.elts) >= 2 and not any(isinstance(e, ast.Starred) for e in xs.elts):
            return ast.Call(func=ast.Name(pyname, ast.Load()), args=list(xs.elts), keywords=[])
        return ast.Call(func=ast.Name(pyname, ast.Load()), args=list(a), keywords=[])
    return inline


def _position(d: DeckShape, a: list[ast.expr]) -> ast.expr | None:
    """``xs.index(x) if x in xs else -1``, where reading both twice costs little: a list of constants
    (a tuple, which Python keeps as one constant), or a name, looked in for a cheap expression."""
    xs, x = a
    if _constants(xs):
        assert isinstance(xs, (ast.List, ast.Tuple))
        table = _positions_by_remainder(xs, x)
        if table is not None:
            return ast.Subscript(value=table, slice=x, ctx=ast.Load())
        xs = ast.Tuple(elts=list(xs.elts), ctx=ast.Load())
    elif not isinstance(xs, ast.Name):
        return None
    if not _cheap(x):
        return None
    index = ast.Call(func=ast.Attribute(xs, "index", ast.Load()), args=[x], keywords=[])
    return ast.IfExp(test=ast.Compare(left=x, ops=[ast.In()], comparators=[xs]), body=index,
                     orelse=ast.UnaryOp(op=ast.USub(), operand=_const(1)))


# The largest divisor for which a position in a list of constants is looked up in a table of remainders.
_REMAINDER_TABLE = 64


def _positions_by_remainder(xs: ast.List | ast.Tuple, x: ast.expr) -> ast.Tuple | None:
    """For ``x`` of the form ``n % k`` (a card's rank, say) with a small constant ``k > 0``: the table of the
    position of each remainder 0..k-1 in the constants ``xs`` (-1 where it is not there), so the position
    is one subscript instead of a search. None for any other ``x``. Whole numbers only: a remainder of
    them is always in 0..k-1, where the table and the search agree."""
    if not (isinstance(x, ast.BinOp) and isinstance(x.op, ast.Mod) and isinstance(x.right, ast.Constant)):
        return None
    k = x.right.value
    if type(k) is not int or not 0 < k <= _REMAINDER_TABLE:
        return None
    values = [e.value for e in xs.elts if isinstance(e, ast.Constant)]
    if any(type(v) is not int for v in values):
        return None
    return ast.Tuple(elts=[_const(values.index(r) if r in values else -1) for r in range(k)], ctx=ast.Load())


def _item(i: int) -> Inliner:
    return lambda d, a: ast.Subscript(value=a[0], slice=_const(i), ctx=ast.Load())


# --- cards -----------------------------------------------------------------

@register("suit", ["card"], "suit", "The suit of a card.",
          ru="Масть карты.",
          inline=lambda d, a: _binop(a[0], ast.FloorDiv(), _const(len(d.ranks))))
def _suit(card: int) -> int:  # pragma: no cover - always inlined
    raise AssertionError


@register("rank", ["card"], "rank", "The rank of a card.",
          ru="Достоинство карты.",
          inline=lambda d, a: _binop(a[0], ast.Mod(), _const(len(d.ranks))))
def _rank(card: int) -> int:  # pragma: no cover - always inlined
    raise AssertionError


@register("card", ["rank", "suit"], "card", "The card of the given rank and suit.",
          ru="Карта данного достоинства и масти.",
          inline=lambda d, a: _binop(_binop(a[1], ast.Mult(), _const(len(d.ranks))), ast.Add(), a[0]))
def _card(rank: int, suit: int) -> int:  # pragma: no cover - always inlined
    raise AssertionError


@register("all_cards", [], "list[card]", "Every card of the pack, in pack order.",
          ru="Все карты колоды в порядке колоды.",
          inline=lambda d, a: ast.Call(func=ast.Name("list", ast.Load()),
                                       args=[ast.Call(func=ast.Name("range", ast.Load()),
                                                      args=[_const(d.size)], keywords=[])], keywords=[]))
def _all_cards() -> list[int]:  # pragma: no cover - always inlined
    raise AssertionError


@register("all_suits", [], "list[suit]", "Every suit, in the order the pack lists them.",
          ru="Все масти в том порядке, в каком их перечисляет колода.",
          inline=lambda d, a: ast.List(elts=[_const(i) for i in range(len(d.suits))], ctx=ast.Load()))
def _suits() -> list[int]:  # pragma: no cover - always inlined
    raise AssertionError


@register("all_ranks", [], "list[rank]", "Every rank, in the order the pack lists them.",
          ru="Все достоинства в том порядке, в каком их перечисляет колода.",
          inline=lambda d, a: ast.List(elts=[_const(i) for i in range(len(d.ranks))], ctx=ast.Load()))
def _ranks() -> list[int]:  # pragma: no cover - always inlined
    raise AssertionError


# --- seats (clockwise = to the left) ---------------------------------------

def _n_seats() -> ast.expr:
    return ast.Subscript(value=ast.Name("V", ast.Load()), slice=_const("n_seats"), ctx=ast.Load())


@register("next_seat", ["seat"], "seat", "The seat to the left (next clockwise).",
          ru="Место слева (следующее по часовой стрелке).",
          inline=lambda d, a: _binop(_binop(a[0], ast.Add(), _const(1)), ast.Mod(), _n_seats()))
def _next_seat(s: int) -> int:  # pragma: no cover - always inlined
    raise AssertionError


@register("prev_seat", ["seat"], "seat", "The seat to the right (previous clockwise).",
          ru="Место справа (предыдущее по часовой стрелке).",
          inline=lambda d, a: _binop(_binop(a[0], ast.Sub(), _const(1)), ast.Mod(), _n_seats()))
def _prev_seat(s: int) -> int:  # pragma: no cover - always inlined
    raise AssertionError


@register("seat_after", ["seat", "int"], "seat", "The seat k places to the left (k may be negative).",
          ru="Место через k мест влево (k может быть отрицательным).",
          inline=lambda d, a: _binop(_binop(a[0], ast.Add(), a[1]), ast.Mod(), _n_seats()))
def _seat_after(s: int, k: int) -> int:  # pragma: no cover - always inlined
    raise AssertionError


@register("clockwise_from", ["seat", "list[seat]"], "list[seat]",
          "The seats of the list in clockwise order, starting at the given seat (or the first after it).",
          ru="Места из списка по часовой стрелке, начиная с данного места (или с первого после него).")
def clockwise_from(start: int, group: list[int]) -> list[int]:
    # Any modulus larger than the number of seats keeps the clockwise order.
    return sorted(group, key=lambda s: (s - start) % _WRAP)


_WRAP = 1_000_003


@register("next_in", ["seat", "list[seat]"], "seat?",
          "The first seat of the list strictly after the given seat, going clockwise; none if the list is empty.",
          ru="Первое место из списка строго после данного по часовой стрелке; none, если список пуст.")
def next_in(s: int, group: list[int]) -> int | None:
    # Seats are numbered clockwise: the next one is the smallest seat after s, or else the smallest of all.
    # One plain loop: called after nearly every action, where a comprehension and min() cost twice as much.
    after = lowest = None
    for x in group:
        if x > s:
            if after is None or x < after:
                after = x
        elif lowest is None or x < lowest:
            lowest = x
    return after if after is not None else lowest


# --- lists -------------------------------------------------------------------

@register("len", ["list[any]"], "int", "The number of items in a list.",
          ru="Число элементов списка.",
          inline=_direct("len"))
def _len(xs: list[Any]) -> int:
    return len(xs)


@register("sum", ["list[int]"], "int", "The sum of a list of numbers (0 for an empty list).",
          ru="Сумма списка чисел (0 для пустого списка).",
          inline=_direct("sum"))
def _sum(xs: list[int]) -> int:
    return sum(xs)


@register("count", ["list[bool]"], "int", "How many items of a list of conditions are true.",
          ru="Сколько условий в списке истинны.")
def _count(xs: list[bool]) -> int:
    return sum(1 for x in xs if x)


@register("any", ["list[bool]"], "bool", "Whether at least one condition in the list is true.",
          ru="Истинно ли хотя бы одно условие из списка.",
          inline=_direct("any"))
def _any(xs: list[bool]) -> bool:
    return any(xs)


@register("all", ["list[bool]"], "bool", "Whether every condition in the list is true (true for an empty list).",
          ru="Истинны ли все условия списка (для пустого списка — да).",
          inline=_direct("all"))
def _all(xs: list[bool]) -> bool:
    return all(xs)


@register("min", ["list[int]"], "int", "The smallest number of a non-empty list.",
          ru="Наименьшее число непустого списка.",
          inline=_spread("min"))
def _min(xs: list[int]) -> int:
    return min(xs)


@register("max", ["list[int]"], "int", "The largest number of a non-empty list.",
          ru="Наибольшее число непустого списка.",
          inline=_spread("max"))
def _max(xs: list[int]) -> int:
    return max(xs)


@register("argmax", ["list[any]"], "int",
          "The position of the largest item (lists compare item by item); the first one on a tie.",
          ru="Позиция наибольшего элемента (списки сравниваются поэлементно); при равенстве — первого из них.")
def argmax(xs: list[Any]) -> int:
    best = 0
    for i in range(1, len(xs)):
        if xs[i] > xs[best]:
            best = i
    return best


@register("position", ["list[any]", "any"], "int", "The position of an item in a list, or -1 if it is absent.",
          ru="Позиция элемента в списке или −1, если его там нет.", inline=_position)
def position(xs: list[Any], x: Any) -> int:
    try:
        return xs.index(x)
    except ValueError:
        return -1


@register("range", ["int", "int", "int"], "list[int]",
          "The numbers from the first up to but not including the second, in the given step (default 1).",
          ru="Числа от первого до второго, не включая его, с заданным шагом (по умолчанию 1).",
          optional=1)
def _range(a: int, b: int, step: int = 1) -> list[int]:
    return list(range(a, b, step)) if step > 0 else []


@register("sorted", ["list[any]"], "arg:0", "The list in ascending order.",
          ru="Список по возрастанию.")
def _sorted(xs: list[Any]) -> list[Any]:
    return sorted(xs)


@register("first", ["list[any]"], "elem:0", "The first item of a non-empty list.",
          ru="Первый элемент непустого списка.", inline=_item(0))
def _first(xs: list[Any]) -> Any:
    return xs[0]


@register("last", ["list[any]"], "elem:0", "The last item of a non-empty list.",
          ru="Последний элемент непустого списка.", inline=_item(-1))
def _last(xs: list[Any]) -> Any:
    return xs[-1]


@register("concat", ["list[list[any]]"], "elem:0", "The lists of a list joined into one.",
          ru="Списки из списка, соединённые в один.")
def concat(xss: list[list[Any]]) -> list[Any]:
    out: list[Any] = []
    for xs in xss:
        out.extend(xs)
    return out


@register("same_items", ["list[any]", "list[any]"], "bool",
          "Whether two lists hold the same items the same number of times, in any order.",
          ru="Содержат ли два списка одни и те же элементы столько же раз, в любом порядке.")
def same_items(a: list[Any], b: list[Any]) -> bool:
    if len(a) != len(b):
        return False
    try:  # cards, seats and numbers sort: several times quicker than counting
        return sorted(a) == sorted(b)
    except TypeError:  # items that do not compare with each other
        return Counter(a) == Counter(b)


@register("distinct", ["list[any]"], "bool", "Whether no item occurs twice in the list.",
          ru="Нет ли в списке повторяющихся элементов.")
def distinct(xs: list[Any]) -> bool:
    return len(set(xs)) == len(xs)


@register("slice", ["list[any]", "int", "int"], "arg:0", "The items from position a up to but not including b.",
          ru="Элементы с позиции a до позиции b, не включая её.")
def _slice(xs: list[Any], a: int, b: int) -> list[Any]:
    return list(xs[a:b])


@register("abs", ["int"], "int", "The absolute value of a number.",
          ru="Абсолютная величина числа.",
          inline=_direct("abs"))
def _abs(x: int) -> int:
    return abs(x)


@register("floor_to", ["int", "int"], "int", "The number rounded down to a multiple of the unit.",
          ru="Число, округлённое вниз до кратного единице округления.")
def floor_to(x: int, unit: int) -> int:
    return x - x % unit


@register("round_to", ["int", "int"], "int",
          "The number rounded to the nearest multiple of the unit; halves round up.",
          ru="Число, округлённое до ближайшего кратного единице округления; половина округляется вверх.")
def round_to(x: int, unit: int) -> int:
    return ((2 * x + unit) // (2 * unit)) * unit


# --- teams -----------------------------------------------------------------
# Each seat's team is the engine's `teams` (a team of its own when the rules declare none): these
# read it, so one rule text serves a game of partners and a game where everybody plays alone.

def _with_teams(pyname: str) -> Inliner:
    teams = ast.Subscript(value=ast.Name("V", ast.Load()), slice=_const("teams"), ctx=ast.Load())
    return lambda d, a: ast.Call(func=ast.Name(pyname, ast.Load()), args=[teams, *a], keywords=[])


@register("team", ["seat"], "list[seat]",
          "The seats of a seat's team, in seat order: the seat alone where the rules declare no teams.",
          ru="Места команды, в которую входит место, по порядку мест; если команд в правилах нет — само место.",
          inline=_with_teams("b_team"))
def team(teams: list[int], s: int) -> list[int]:
    mine = teams[s]
    return [t for t, x in enumerate(teams) if x == mine]


@register("same_team", ["seat", "seat"], "bool",
          "Whether two seats play in one team (a seat is in its own team).",
          ru="Играют ли два места в одной команде (место всегда в своей).",
          inline=_with_teams("b_same_team"))
def same_team(teams: list[int], a: int, b: int) -> bool:
    return teams[a] == teams[b]


# --- zones and state (procedures: statements only) -----------------------

@register("move", ["any", "list[any]", "list[any]"], "none",
          "Move one item from the first list to the end of the second.",
          ru="Переложить один элемент из первого списка в конец второго.", kind="procedure",
          inline=_methods((1, "remove", (0,)), (2, "append", (0,))), changes=(1, 2))
def move(x: Any, src: list[Any], dst: list[Any]) -> None:
    src.remove(x)
    dst.append(x)


@register("move_all", ["list[any]", "list[any]"], "none",
          "Move every item of the first list to the end of the second.",
          ru="Переложить все элементы первого списка в конец второго.", kind="procedure",
          inline=_methods((1, "extend", (0,)), (0, "clear", ()), places=(0,)), changes=(0, 1))
def move_all(src: list[Any], dst: list[Any]) -> None:
    dst.extend(src)
    src.clear()


@register("append", ["list[any]", "any"], "none", "Add an item to the end of a list.",
          ru="Добавить элемент в конец списка.", kind="procedure", inline=_methods((0, "append", (1,))),
          changes=(0,))
def append(xs: list[Any], x: Any) -> None:
    xs.append(x)


@register("clear", ["list[any]"], "none", "Remove every item from a list.",
          ru="Удалить из списка все элементы.", kind="procedure", inline=_methods((0, "clear", ())),
          changes=(0,))
def clear(xs: list[Any]) -> None:
    xs.clear()


@register("fill", ["list[any]", "any"], "none", "Set every item of a list to the value.",
          ru="Присвоить всем элементам списка данное значение.", kind="procedure", changes=(0,))
def fill(xs: list[Any], x: Any) -> None:
    for i in range(len(xs)):
        xs[i] = x


@register("reset", ["str"], "none",
          "Give every state variable of the named lifetime (\"deal\", \"game\") its initial value again.",
          ru="Вернуть начальные значения переменным состояния данного времени жизни («deal» — партия, «game» — игра).",
          kind="engine", renews_vars=True)
def reset(st: Any, lifetime: str) -> None:
    st.reset(lifetime)


@register("end_deal", [], "none",
          "Close the deal: append the recorded state variables to the score sheet.",
          ru="Закрыть партию: дописать записываемые переменные состояния в запись счёта.", kind="engine",
          renews_vars=True)
def end_deal(st: Any) -> None:
    st.end_deal()


@register("mark", ["str", "seat"], "none",
          "Note an event for the score sheet and for rule coverage (a bolt, a fall off the barrel…).",
          ru="Отметить событие для записи счёта и для покрытия правил (болт, падение с бочки…).",
          kind="engine")
def mark(st: Any, what: str, seat: int) -> None:
    st.mark(what, seat)


# --- chance (only in `sample`, which draws an action for the dealer) ---------

@register("shuffled", ["list[any]"], "arg:0", "The list in a random order (seeded).",
          ru="Список в случайном порядке (с зерном).", kind="random")
def shuffled(st: Any, xs: list[Any]) -> list[Any]:
    out = list(xs)
    st.rng.shuffle(out)
    return out


@register("random_int", ["int", "int"], "int", "A random whole number from a to b inclusive (seeded).",
          ru="Случайное целое число от a до b включительно (с зерном).",
          kind="random")
def random_int(st: Any, a: int, b: int) -> int:
    value: int = st.rng.randint(a, b)
    return value


@register("fail", ["str"], "none",
          "Stop with an error naming the rule: for consistency checks inside the rules themselves.",
          ru="Остановиться с ошибкой, назвав правило: для проверок согласованности внутри самих правил.",
          kind="engine")
def fail(st: Any, message: str) -> None:
    raise RuleCheckFailed(message)


class RuleCheckFailed(Exception):
    """Raised by ``fail``; the engine reports it with the id of the rule that failed."""
