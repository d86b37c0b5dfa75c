"""The base class students' search agents subclass, under the name starter files import.

``from autograder.student import MultiAgentSearchAgent`` is the name the starter file and
existing submissions use; the class lives in the sandbox (`autograder.sandbox.student`),
the part of the autograder that runs in the worker next to the student's code.
"""

from __future__ import annotations

from autograder.sandbox.student import MultiAgentSearchAgent, resolve_evaluation

__all__ = ["MultiAgentSearchAgent", "resolve_evaluation"]
