"""``python -m calhamer.cli``: the command line."""

import sys

from calhamer.cli import main

sys.exit(main())
