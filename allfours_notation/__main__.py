"""``python -m allfours_notation`` runs the ``allfours`` command."""

import sys

from .cli import main

sys.exit(main())
