"""Test-wide settings.

Under CI (``CI`` set in the environment) hypothesis runs derandomised: the same examples
every run, so a submission's result never depends on which random examples were drawn.
Locally it keeps exploring new examples.

The student files under ``autograder/fixtures`` are graded by the end-to-end tests, never
collected: several share the name ``multi_agents.py``, and one does not even parse.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

collect_ignore = ["autograder/fixtures"]
