"""``python -m pacman``: the same as the ``pacman`` command."""

from __future__ import annotations

import sys

from pacman.cli import main

sys.exit(main())
