"""The printable page of the night's links: one link and QR code per table.

The QR codes are SVG made by segno (pure Python), inline in the page: it prints
from any browser without a network.  Names come from file names and are escaped.
"""

from __future__ import annotations

import html

import segno

__all__ = ["links_page"]

STYLE = """
body { font: 16px/1.4 system-ui, sans-serif; margin: 1.5rem; }
.table { display: inline-block; width: 17rem; margin: 0 1rem 2rem 0; vertical-align: top;
         break-inside: avoid; }
.table h3 { margin: 0 0 .3rem; font-size: 1.4rem; }
.table svg { width: 12rem; height: 12rem; }
.link { font: 12px/1.3 monospace; word-break: break-all; }
.round + .round { break-before: page; }
.round > h2 { font-size: 1.6rem; margin: 0 0 1rem; }
"""


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as an inline SVG element."""
    code = segno.make(link, error="m")
    svg: str = code.svg_inline(border=2, omitsize=True)  # a viewBox: the page sizes it
    return svg


def links_page(links: list[tuple[str, str]], headings: dict[str, str] | None = None) -> str:
    """The page: a heading, then each table's name, QR code and link.  ``headings``:
    a table's group (an event's round, "Round 2"), each group under its heading and
    printed on a page of its own."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name, link in links:
        groups.setdefault((headings or {}).get(name, ""), []).append((name, link))
    sections = []
    for heading, members in groups.items():
        cards = "\n".join(
            f'<div class="table"><h3>{html.escape(name)}</h3>{qr_svg(link)}'
            f'<div class="link">{html.escape(link)}</div></div>' for name, link in members)
        title = f"<h2>{html.escape(heading)}</h2>\n" if heading else ""
        sections.append(f'<section class="round">{title}{cards}</section>')
    body = "\n".join(sections)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>allfours serve: the tables' links</title><style>{STYLE}</style>"
            "</head><body>\n<h1>The tables' links</h1>\n"
            "<p>Scan a table's code with the phone that scores at that table. "
            "Keep this page private: a link lets its holder score for the table.</p>\n"
            f"{body}\n</body></html>\n")
