"""Cards, hands and tables drawn as SVG, for the rulebook's illustrations.

Everything is drawn here from shapes: the suit signs are paths, not font glyphs, so
an image reads the same with any fonts and fetches nothing. Only the rank letters
and captions are text, in the reader's generic sans-serif font. The module knows
the four French suits by name and how playing cards look; which cards exist, what
they are called and what they are worth comes from the ruleset, through the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
RED = "#c62828"
BLACK = "#1b1b1b"
INK = "#263238"
MUTED = "#607d8b"
ACCENT = "#1565c0"
GOOD = "#2e7d32"
GOLD = "#f9a825"
CARD_W = 56
CARD_H = 80

# Suit signs in a 100 × 100 box, drawn from curves so that no font is needed.
_HEART = ("M50 92 C22 68 2 50 2 29 C2 13 14 3 28 3 C39 3 46 10 50 19 C54 10 61 3 72 3 C86 3 98 13 98 29 "
          "C98 50 78 68 50 92 Z")
_DIAMOND = "M50 2 L90 50 L50 98 L10 50 Z"
_SPADE = ("M50 2 C32 26 2 42 2 63 C2 78 13 88 27 88 C37 88 43 83 46 77 C45 88 41 94 33 99 L67 99 "
          "C59 94 55 88 54 77 C57 83 63 88 73 88 C87 88 98 78 98 63 C98 42 68 26 50 2 Z")
_CLUB = ("M50 4 A22 22 0 0 0 36 43 A22 22 0 1 0 46 72 C45 86 41 93 33 99 L67 99 C59 93 55 86 54 72 "
         "A22 22 0 1 0 64 43 A22 22 0 0 0 50 4 Z")
SUIT_PATHS = {"spades": _SPADE, "clubs": _CLUB, "diamonds": _DIAMOND, "hearts": _HEART}
RED_SUITS = frozenset({"hearts", "diamonds"})


class Mark(Enum):
    """How a card is set apart in a picture."""

    PLAIN = "plain"
    DIM = "dim"  # not among the choices
    LEGAL = "legal"  # one of the legal choices
    REFUSED = "refused"  # the move the rules refuse
    WINNER = "winner"  # took the trick
    LIFTED = "lifted"  # picked out of the hand (given away, declared)


@dataclass(frozen=True)
class Face:
    """A card as drawn: the rank as the reader's language writes it, and the suit's name."""

    rank: str
    suit: str

    @property
    def colour(self) -> str:
        return RED if self.suit in RED_SUITS else BLACK


def _attr(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def text(x: float, y: float, s: str, size: float = 13, *, anchor: str = "start", weight: str = "normal",
         colour: str = INK, italic: bool = False) -> str:
    style = ' font-style="italic"' if italic else ""
    return (f'<text x="{_attr(x)}" y="{_attr(y)}" font-size="{_attr(size)}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{colour}"{style}>{escape(s)}</text>')


def suit_sign(suit: str, x: float, y: float, size: float, colour: str | None = None) -> str:
    """A suit sign with its top left corner at (x, y), ``size`` wide and high."""
    fill = colour or (RED if suit in RED_SUITS else BLACK)
    path = SUIT_PATHS.get(suit)
    if path is None:  # a pack with other suits: its initial, so the picture still says which suit
        return text(x + size / 2, y + size * 0.85, suit[:1].upper(), size, anchor="middle", colour=fill)
    return (f'<path d="{path}" fill="{fill}" '
            f'transform="translate({_attr(x)} {_attr(y)}) scale({_attr(size / 100)})"/>')


def card(face: Face | None, x: float, y: float, scale: float = 1.0, mark: Mark = Mark.PLAIN) -> str:
    """One card; ``None`` is a card face down."""
    w, h = CARD_W * scale, CARD_H * scale
    if mark is Mark.LIFTED:
        y -= 10 * scale
    parts = ['<g opacity="0.38">' if mark is Mark.DIM else "<g>"]
    box = f'x="{_attr(x)}" y="{_attr(y)}" width="{_attr(w)}" height="{_attr(h)}" rx="{_attr(5 * scale)}"'
    if face is None:
        parts.append(f'<rect {box} fill="#37474f" stroke="#263238" stroke-width="1"/>')
        parts.append(f'<rect x="{_attr(x + 4 * scale)}" y="{_attr(y + 4 * scale)}" width="{_attr(w - 8 * scale)}" '
                     f'height="{_attr(h - 8 * scale)}" rx="{_attr(3 * scale)}" fill="none" stroke="#90a4ae" '
                     f'stroke-width="1" stroke-dasharray="{_attr(3 * scale)} {_attr(2 * scale)}"/>')
        parts.append(suit_sign("diamonds", x + w / 2 - 8 * scale, y + h / 2 - 8 * scale, 16 * scale, "#90a4ae"))
        parts.append("</g>")
        return "".join(parts)
    stroke, width = {Mark.LEGAL: (GOOD, 2.5), Mark.REFUSED: (RED, 3.0), Mark.WINNER: (GOLD, 3.0),
                     Mark.LIFTED: (ACCENT, 2.5)}.get(mark, ("#90a4ae", 1.0))
    parts.append(f'<rect {box} fill="#ffffff" stroke="{stroke}" stroke-width="{_attr(width)}"/>')
    size = (15 if len(face.rank) < 2 else 13) * scale
    parts.append(text(x + 4 * scale, y + 16 * scale, face.rank, size, weight="bold", colour=face.colour))
    parts.append(suit_sign(face.suit, x + 4.5 * scale, y + 20 * scale, 12 * scale))
    parts.append(suit_sign(face.suit, x + w - 31 * scale, y + h - 34 * scale, 27 * scale))
    if mark is Mark.REFUSED:
        # A cross over the card's free corner, so the refused card is seen without colour too.
        cx, cy, r = x + w - 11 * scale, y + 11 * scale, 6 * scale
        cross = (f"M{_attr(cx - r)} {_attr(cy - r)} L{_attr(cx + r)} {_attr(cy + r)} "
                 f"M{_attr(cx + r)} {_attr(cy - r)} L{_attr(cx - r)} {_attr(cy + r)}")
        parts.append(f'<path d="{cross}" stroke="{RED}" stroke-width="{_attr(2.5 * scale)}" stroke-linecap="round"/>')
    parts.append("</g>")
    return "".join(parts)


@dataclass
class Row:
    """A labelled row of cards, with an optional caption under each card and a note at the end."""

    label: str
    cards: Sequence[Face | None]
    marks: Sequence[Mark] = ()
    captions: Sequence[str] = ()
    note: str = ""
    overlap: bool = False  # a hand held in the fingers: cards overlap, corners showing
    note_colour: str = INK


@dataclass
class Picture:
    """An SVG document being assembled: parts in drawing order, and its size."""

    width: float
    height: float
    title: str
    parts: list[str] = field(default_factory=list)

    def svg(self) -> str:
        w, h = _attr(self.width), _attr(self.height)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
                f'role="img" font-family="{FONT}">\n<title>{escape(self.title)}</title>\n'
                + "\n".join(self.parts) + "\n</svg>\n")


def _row_width(row: Row, scale: float) -> float:
    n = len(row.cards)
    step = (34 if row.overlap else CARD_W + 8) * scale
    return 0 if n == 0 else step * (n - 1) + CARD_W * scale


def rows_picture(rows: Sequence[Row], title: str, scale: float = 1.0, label_width: float | None = None,
                 note_width: float = 0) -> Picture:
    """Rows of cards under each other: hands, a talon, tricks, a position."""
    has_captions = any(r.captions for r in rows)
    row_h = (CARD_H + 20 + (16 if has_captions else 0)) * scale
    if label_width is None:
        label_width = max((len(r.label) for r in rows), default=0) * 9 + 18
    cards_w = max((_row_width(r, scale) for r in rows), default=0)
    notes = max((len(r.note) for r in rows), default=0)
    note_w = max(note_width, notes * 7.2 + 24 if notes else 0)
    pic = Picture(label_width + cards_w + note_w + 10, row_h * len(rows) + 6, title)
    for i, row in enumerate(rows):
        top = i * row_h + 14 * scale
        mid = top + CARD_H * scale / 2
        pic.parts.append(text(4, mid + 5, row.label, 14, weight="bold"))
        step = (34 if row.overlap else CARD_W + 8) * scale
        for j, face in enumerate(row.cards):
            mark = row.marks[j] if j < len(row.marks) else Mark.PLAIN
            x = label_width + j * step
            pic.parts.append(card(face, x, top, scale, mark))
            if j < len(row.captions) and row.captions[j]:
                pic.parts.append(text(x + CARD_W * scale / 2, top + CARD_H * scale + 15, row.captions[j], 12,
                                      anchor="middle", colour=MUTED))
        if row.note:
            pic.parts.append(text(label_width + _row_width(row, scale) + 14, mid + 5, row.note, 13,
                                  colour=row.note_colour))
    return pic


@dataclass
class Cell:
    """One cell of a drawn table: its text, and whether it stands out."""

    text: str
    colour: str = INK
    bold: bool = False
    fill: str = ""  # background, for the row or cell to be noticed


def table_picture(headers: Sequence[str], rows: Sequence[Sequence[Cell]], title: str,
                  widths: Sequence[float], aligns: Sequence[str] = (), row_h: float = 22,
                  legend: Sequence[str] = ()) -> Picture:
    """A ruled table, as written on paper: an auction, a score sheet."""
    total_w = sum(widths)
    pic = Picture(total_w + 2, row_h * (len(rows) + 1) + 4 + 18 * len(legend) + (8 if legend else 0), title)
    xs = [1.0]
    for w in widths:
        xs.append(xs[-1] + w)

    def put(i: int, y: float, c: Cell) -> None:
        align = aligns[i] if i < len(aligns) else "start"
        x = xs[i] + 6 if align == "start" else xs[i + 1] - 6 if align == "end" else (xs[i] + xs[i + 1]) / 2
        pic.parts.append(text(x, y + row_h * 0.7, c.text, 13, anchor=align, weight="bold" if c.bold else "normal",
                              colour=c.colour))

    pic.parts.append(f'<rect x="1" y="1" width="{_attr(total_w)}" height="{_attr(row_h)}" fill="#eceff1"/>')
    for i, h in enumerate(headers):
        put(i, 1, Cell(h, bold=True))
    for r, row in enumerate(rows):
        y = 1 + row_h * (r + 1)
        for i, c in enumerate(row):
            if c.fill:
                pic.parts.append(f'<rect x="{_attr(xs[i])}" y="{_attr(y)}" width="{_attr(widths[i])}" '
                                 f'height="{_attr(row_h)}" fill="{c.fill}"/>')
        for i, c in enumerate(row):
            put(i, y, c)
        pic.parts.append(f'<line x1="1" y1="{_attr(y)}" x2="{_attr(total_w + 1)}" y2="{_attr(y)}" '
                         f'stroke="#cfd8dc" stroke-width="1"/>')
    bottom = 1 + row_h * (len(rows) + 1)
    for x in xs:
        pic.parts.append(f'<line x1="{_attr(x)}" y1="1" x2="{_attr(x)}" y2="{_attr(bottom)}" stroke="#b0bec5" '
                         'stroke-width="1"/>')
    pic.parts.append(f'<rect x="1" y="1" width="{_attr(total_w)}" height="{_attr(bottom - 1)}" fill="none" '
                     'stroke="#78909c" stroke-width="1.2"/>')
    for k, line in enumerate(legend):
        pic.parts.append(text(4, bottom + 20 + 18 * k, line, 12, colour=MUTED))
    return pic
