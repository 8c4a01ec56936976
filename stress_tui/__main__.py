"""``python -m stress_tui``: the same as the ``stress-tui`` command."""

import sys

from stress_tui.cli.main import main

sys.exit(main())
