"""``python -m oracle`` runs the ``thousand`` command line (handy in a checkout without the console script)."""

import sys

from .cli import main

sys.exit(main())
