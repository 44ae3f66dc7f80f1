"""Recording a game as it is played: the core of ``allfours record`` (no Textual here).

* :mod:`.entries` reads what the scorer types (``js``, ``10h``, ``b``, a digit…);
* :mod:`.session` keeps the game as entries, judged one by one by the referee,
  and writes the record after every change; :mod:`.editing` gives it undo, redo and
  corrections, :mod:`.directing` a director's ruling on any deal of the game,
  :mod:`.expecting` what comes next, :mod:`.building` the game its entries make,
  :mod:`.describing` one line per entry, :mod:`.resuming` the entries of a written
  game;
* :mod:`.referee` asks the shared referee and sorts its answer into refuse,
  confirm first, or accept;
* :mod:`.storage` locks the file and writes it atomically;
* :mod:`.opening` decides, for a file, between resuming, a new game and refusing;
* :mod:`.script` turns a game into typed lines, and records from such lines.
"""

from .entries import Annotation, DealStart, Entry, Expectation, Phase, read_entry
from .opening import NewGame, Refused, Resume, inspect, new_tags
from .session import Outcome, Session, entries_of_game
from .storage import FileLocked, RecordFile

__all__ = [
    "Annotation",
    "DealStart",
    "Entry",
    "Expectation",
    "FileLocked",
    "NewGame",
    "Outcome",
    "Phase",
    "RecordFile",
    "Refused",
    "Resume",
    "Session",
    "entries_of_game",
    "inspect",
    "new_tags",
    "read_entry",
]
