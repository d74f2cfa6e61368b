"""``python -m wsd``: the ``wsd`` command, for an environment whose scripts are not on PATH."""

import sys

from wsd.cli import main

if __name__ == "__main__":
    sys.exit(main())
