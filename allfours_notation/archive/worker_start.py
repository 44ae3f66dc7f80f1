"""What the forkserver of :class:`~.parallel.WorkerPool` imports before it forks any
worker (besides the module of the function the pool maps): the parser, made (its
table loaded and its lexers' expressions compiled once, not in every worker).

Importing this module builds the parser of the importing thread; nothing else does so
on import.
"""

from __future__ import annotations

from ..reading import game_parser

game_parser.build_parser()
