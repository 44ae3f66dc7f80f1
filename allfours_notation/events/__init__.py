"""The event layer: team matches in bullseyes, standings and the prize list, computed
from the games' own records.

An event file (``EVENT.toml``, :mod:`.eventfile`) names the event, its rules, its scoring,
its match rule, its teams and, if it likes, its schedule and prizes.  The games are
ordinary AFN files in a folder, tagged with their place (``[Round]``, ``[Table]``,
``[HomeTeam]``, ``[AwayTeam]``); :mod:`.games` reads and checks each once through
``checking.check``, :mod:`.assemble` places them and counts the matches, and
:mod:`.standings`, :mod:`.prizes` and :mod:`.report` give the director's sheet, standings,
prize list and the ``results.json`` exchange file.

This floor sits above the archive tools and below the command line.  It knows no rule of
All Fours: every game's result (who won, the scores, each Hang Jack, kick and count for
Game) is the referee's, read from the replay.
"""
