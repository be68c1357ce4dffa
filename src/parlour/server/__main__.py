"""``python -m parlour.server [options]``: the same as ``parlour serve``."""

import sys

from parlour.cli import app

if __name__ == "__main__":
    app(["serve", *sys.argv[1:]], prog_name="parlour")
