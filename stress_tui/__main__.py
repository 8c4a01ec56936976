"""``python -m stress_tui``: the same as the ``stress-tui`` command."""

import sys

from .cli import main

sys.exit(main())
