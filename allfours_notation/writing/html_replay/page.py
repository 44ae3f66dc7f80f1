"""Assemble the page: the stylesheet, the data, the script and the record, all inline."""

from __future__ import annotations

import html
import json
import os
from functools import cache
from typing import Any

ASSETS = ("replay.css", "replay.js")


@cache
def asset(name: str) -> str:
    """The text of one of the page's inline assets, shipped beside this module.  Read
    by its path where the package is a folder of files, as the grammar's table is
    (:func:`~allfours_notation.reading.lalr.grammar_file`): ``importlib.resources``
    imports ``zipfile`` to open a file beside the module (12 M instructions once a
    process, issue 38)."""
    path = os.path.join(os.path.dirname(os.path.realpath(__file__)), name)
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as text:
            return text.read()
    from importlib import resources

    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` can close the tag.

    Without the encoder's check for circular references: the data is made afresh of
    dicts, lists and scalars (:func:`.data.replay_data`), and the check noted every one
    of a page's ten thousand containers (15% of the encoding, issue 38).  Each character
    is replaced only where it occurs: finding it is a fast scan, but replacing one
    character by six counts it first, character by character, over the whole text (a
    page's three replacements cost a fifth as much as encoding it, and a page seldom
    holds any of the three)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), check_circular=False)
    for unsafe, escaped in _UNSAFE:
        if unsafe in text:
            text = text.replace(unsafe, escaped)
    return text


_UNSAFE = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"))


def render_page(data: dict[str, Any], record: str, *, filename: str,
                shared: bool = False) -> str:
    """One HTML document replaying ``data`` (see :func:`.data.replay_data`), with
    ``record`` (the game's AFN as written in ``filename``) embedded and downloadable.

    ``shared``: the stylesheet and the script are not inline but the files
    ``replay.css`` and ``replay.js`` beside the page (:data:`ASSETS`, written once
    for a site of many replay pages), so each page carries only its game."""
    title = html.escape(str(data["title"]))
    style = ('<link rel="stylesheet" href="replay.css">' if shared
             else f"<style>\n{asset('replay.css')}\n</style>")
    script = ('<script src="replay.js"></script>' if shared
              else f"<script>\n{asset('replay.js')}\n</script>")
    save_as = html.escape(f"game-{data['game']}.afn")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="allfours html">
<title>{title}</title>
{style}
</head>
<body>
<header class="top">
  <h1 id="title">{title}</h1>
  <p class="sub"><span id="rules"></span> · <span id="source">{html.escape(filename)}</span>
    <button type="button" id="scheme"
      title="Switch between the light and dark schemes">◐</button></p>
  <nav id="deal-links" aria-label="Deals"></nav>
</header>
<main>
  <section id="table" class="table" aria-label="The table"></section>
  <section id="facts" class="facts"></section>
  <section id="now" class="now" aria-live="polite"></section>
  <section class="controls" aria-label="Steps">
    <div class="buttons">
      <button type="button" id="prev-deal" title="Previous deal (PgUp)">⇤ deal</button>
      <button type="button" id="prev-trick" title="Previous trick (↑)">↑ trick</button>
      <button type="button" id="prev" title="Previous card (←)">←</button>
      <button type="button" id="next" title="Next card (→)">→</button>
      <button type="button" id="next-trick" title="Next trick (↓)">trick ↓</button>
      <button type="button" id="next-deal" title="Next deal (PgDn)">deal ⇥</button>
    </div>
    <input type="range" id="slider" min="0" max="0" value="0" aria-label="Step">
    <p class="keys">Keys: → ← card, ↓ ↑ trick, PgDn PgUp deal,
      Home End start and end of the deal.</p>
  </section>
  <section id="score" class="score" aria-label="Score"></section>
  <section id="analysis" class="analysis" aria-label="Analysis"></section>
  <section id="advice" class="advice" aria-label="Advice"></section>
  <section id="problems" class="problems" aria-label="Problems"></section>
  <details class="record">
    <summary>The record (AFN)</summary>
    <pre id="afn">{html.escape(record)}</pre>
    <p><a id="save" download="{save_as}" href="#">Save the record as {save_as}</a></p>
  </details>
</main>
<script type="application/json" id="replay-data">{script_json(data)}</script>
{script}
</body>
</html>
"""
