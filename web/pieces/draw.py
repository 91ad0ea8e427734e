#!/usr/bin/env python3
"""Draws shvedka's piece set: twelve SVG files (wK.svg ... bP.svg) in this directory.

Simple paths on a 45x45 view box, each piece a "body" (filled, outlined) and "line" details
in the contrasting colour; black pieces get a light rim so they stand out on dark squares.
Drawn for shvedka; MIT OR Apache-2.0 like the rest of the project (README.md here).
"""
import os

P = {
    "P": [("body", '<path d="M22.5 8.5a5.5 5.5 0 0 0-3.6 9.7c-1.9 1-3.2 2.8-3.2 4.9 0 1.4.6 2.7 1.6 3.6-2.8 2-5 5.6-5 10.3h20.4c0-4.7-2.2-8.3-5-10.3 1-.9 1.6-2.2 1.6-3.6 0-2.1-1.3-3.9-3.2-4.9a5.5 5.5 0 0 0-3.6-9.7z"/>'),
          ("body", '<rect x="11" y="36" width="23" height="4" rx="1.5"/>')],
    "R": [("body", '<path d="M11 9h5v4h4.5V9h4v4H29V9h5v8l-3 3v13l2.5 3H11.5l2.5-3V20l-3-3z"/>'),
          ("body", '<rect x="9.5" y="36" width="26" height="4" rx="1.5"/>'),
          ("line", '<path d="M11 17h23M14 20h17M14 33h17"/>')],
    "B": [("body", '<circle cx="22.5" cy="7.5" r="2.8"/>'),
          ("body", '<path d="M22.5 10.5c-5 4.5-8 9-8 13 0 3 1.5 5 3.5 6-1.5 1.5-2.5 3.5-2.5 6h14c0-2.5-1-4.5-2.5-6 2-1 3.5-3 3.5-6 0-4-3-8.5-8-13z"/>'),
          ("body", '<rect x="10" y="36" width="25" height="4" rx="1.5"/>'),
          ("line", '<path d="M25.5 15.5l-5.5 6.5M18.5 29.5h8"/>')],
    "N": [("body", '<path d="M12 36.5c1-6 4.5-8.5 7.5-11.5 1.5-1.5 1.5-3.5 0-3.5-1.2 1.8-3.3 2.6-5.3 2.8-1.9 1.6-3.9 2.3-5.2.7-1-1.3-.6-3 .8-4.5 3-3 5.2-6.5 6.2-9l-.6-3.5 2.6 1.7 1.4-3.2 2 3.5c8 1.3 13.5 7.5 13.5 18v8.5z"/>'),
          ("body", '<rect x="10" y="36" width="25" height="4" rx="1.5"/>'),
          ("line", '<circle cx="17" cy="14.5" r="1.1"/><path d="M10.5 21.2l1.3-.4"/>')],
    "Q": [("body", '<path d="M11.5 35.5L9 15l6 11 1.5-13.5 6 12.5 6-12.5L30 26l6-11-2.5 20.5z"/>'),
          ("body", '<circle cx="9" cy="13.5" r="2.4"/><circle cx="16.5" cy="11" r="2.4"/><circle cx="22.5" cy="9.5" r="2.4"/><circle cx="28.5" cy="11" r="2.4"/><circle cx="36" cy="13.5" r="2.4"/>'),
          ("body", '<rect x="10" y="35.5" width="25" height="4.5" rx="1.5"/>'),
          ("line", '<path d="M12.5 31.5h20"/>')],
    "K": [("body", '<path d="M22.5 25c-2.5-3.5-3-7 0-10.5 3 3.5 2.5 7 0 10.5z"/>'),
          ("body", '<path d="M11.5 35.5c-2-6-4-12 1.5-15 4.5-2.5 8 .5 9.5 4.5 1.5-4 5-7 9.5-4.5 5.5 3 3.5 9 1.5 15z"/>'),
          ("body", '<rect x="10" y="35.5" width="25" height="4.5" rx="1.5"/>'),
          ("line", '<path d="M22.5 25v10M13 30.5c6-2 13-2 19 0"/>'),
          ("cross", '<path d="M22.5 4v9M19 7.5h7"/>')],
}
NAMES = {"P": "pawn", "R": "rook", "B": "bishop", "N": "knight", "Q": "queen", "K": "king"}
COLOURS = {  # fill, edge, detail line, rim
    "w": ("#fbfbf8", "#161616", "#161616", None),
    "b": ("#1d1d1f", "#000", "#e8e8e8", "#f4f4f4"),
}


def svg(colour, role):
    fill, edge, line, rim = COLOURS[colour]
    parts = P[role]
    of = lambda *kinds: [e for k, e in parts if k in kinds]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">',
           f'<title>{"white" if colour == "w" else "black"} {NAMES[role]}</title>']
    if rim:
        out += [f'<g fill="none" stroke="{rim}" stroke-opacity=".7" stroke-width="3.4" stroke-linejoin="round">',
                *of("body", "cross"), "</g>"]
    out += [f'<g fill="{fill}" stroke="{edge}" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">',
            *of("body"), "</g>"]
    if of("cross"):
        out += [f'<g fill="none" stroke="{edge if colour == "w" else fill}" stroke-width="2.2" stroke-linecap="round">',
                *of("cross"), "</g>"]
    if of("line"):
        out += [f'<g fill="none" stroke="{line}" stroke-width="1.2" stroke-linecap="round" stroke-linejoin="round">',
                *of("line"), "</g>"]
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for colour in COLOURS:
        for role in P:
            with open(os.path.join(here, f"{colour}{role}.svg"), "w") as f:
                f.write(svg(colour, role))
