"""What the forkserver of :class:`~.parallel.WorkerPool` imports before it forks any
worker (besides the module of the function the pool maps): the parser, built (its
grammar and lexers: about a tenth of a second of every worker's start otherwise).

Importing this module builds the parser of the importing thread; nothing else does so
on import.
"""

from __future__ import annotations

from ..reading import parser

parser.build_parser()
