"""``python -m calhamer``: the command line, as the ``calhamer`` script runs it."""

import sys

from calhamer.cli import main

sys.exit(main())
