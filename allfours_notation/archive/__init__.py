"""Archives: many games across many files, listed, searched, summarised and exported.

The pieces, each usable on its own:

- :mod:`.analysis`: one game parsed, refereed and reduced to what the archive
  tools ask about (scores, items, calls, diagnostics), the same diagnostics
  ``allfours check`` reports;
- :mod:`.identity`: a game's identity (a digest of its records, layout ignored),
  for ``find --dedupe`` and for never exporting a game twice;
- :mod:`.catalog`: one line per game from the headers-only scan (``allfours list``);
- :mod:`.select`: filters by tag, player, rules, date, result, deals and content
  (``allfours find``), and the original bytes of each game;
- :mod:`.stats`: standings and the game's own statistics (``allfours stats``);
- :mod:`.tables`: the rows of the relational export, shared by :mod:`.sqlite`
  and :mod:`.csvout`;
- :mod:`.parallel`: an ordered, bounded map over worker processes (from a forkserver)
  (``allfours check -j``).

Plots (:mod:`.plots`) import matplotlib, an optional extra, only when called.
"""
