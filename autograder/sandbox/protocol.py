"""The worker protocol: the grader's commands as named messages, and the worker's reply tags.

The grader sends one command at a time as a pickle (the worker trusts the grader); the
worker answers with short tagged byte strings the grader parses without unpickling,
because the student's code could write anything to the pipe:

- ``R<json>`` (`READY`): ready, loaded, agent made, initial state registered, states
  evaluated (``{"values": [...]}``);
- ``A<action>`` (`ANSWER`): the action of a decision;
- ``X<json>`` (`RAISED`): the student's code raised (type, message, where, traceback);
- ``S<parent> <agent> <action>`` (`SUCCESSOR`): a successor request during a decision;
- ``U<number>,<number>...`` (`NOTICE`): states sent ahead that the agent was handed.

`SetLayout` and `Seed` get no reply; `Quit` ends the worker. The grader answers a
successor request with a pickled tuple (one per successor call, so kept small):
``(CHILD, ...)`` with the child (see `autograder.grading.servers`) or
``(FAILED, exception type name, message)``, raised in the student's code.

>>> import pickle
>>> pickle.loads(pickle.dumps(MakeAgent("student", "MinimaxAgent", 2, "tree")))
MakeAgent(source='student', name='MinimaxAgent', depth=2, evaluation='tree')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "ANSWER",
    "CHILD",
    "FAILED",
    "NOTICE",
    "RAISED",
    "READY",
    "SUCCESSOR",
    "Command",
    "Decide",
    "Evaluate",
    "Load",
    "MakeAgent",
    "Play",
    "Quit",
    "Register",
    "Seed",
    "SetLayout",
    "TreeDecide",
]

READY: Final = b"R"
ANSWER: Final = b"A"
RAISED: Final = b"X"
SUCCESSOR: Final = b"S"
NOTICE: Final = b"U"

CHILD: Final = "c"
"""First item of a successor reply that carries the child."""
FAILED: Final = "e"
"""First item of a successor reply that carries the error the call raises."""


@dataclass(frozen=True, slots=True)
class Load:
    """Import the student's file."""

    path: str


@dataclass(frozen=True, slots=True)
class MakeAgent:
    """Build the agent the next decisions are asked of."""

    source: str
    """``"student"`` (a class of the student's file) or ``"reference"`` (one of ours)."""
    name: str
    """The class name (a registry name for ``"reference"``)."""
    depth: int | None
    """The search depth, or ``None`` for an agent that takes none."""
    evaluation: str | None
    """``"tree"`` (the tree's values), ``"student:<function>"``, a built-in evaluation
    function's name, or ``None`` for the agent's default."""


@dataclass(frozen=True, slots=True)
class SetLayout:
    """The layout of the next states (no reply)."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Seed:
    """Seed the worker's `random` module (no reply)."""

    seed: int


@dataclass(frozen=True, slots=True)
class Decide:
    """Decide in a real game state, generating successors through the grader."""

    number: int
    """The grader's number of the state."""
    fields: tuple[Any, ...]
    """The state's wire fields."""


@dataclass(frozen=True, slots=True)
class Play:
    """Decide in a real game state, generating successors locally (evaluation games)."""

    fields: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class TreeDecide:
    """Decide at the root of an explicit game tree, generating through the grader."""

    num_agents: int
    number: int
    info: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Register:
    """Call the agent's ``register_initial_state``.

    With a ``number`` the state's successors come from the grader; without one (``None``)
    they are generated locally.
    """

    number: int | None
    fields: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Quit:
    """End the worker."""


@dataclass(frozen=True, slots=True)
class Evaluate:
    """Score states with the student's evaluation function (our search runs in the grader)."""

    function: str
    """``"student:<function>"``: which of the student's functions."""
    states: tuple[tuple[Any, ...], ...]
    """The states' wire fields (on the current layout)."""


Command = (
    Load | MakeAgent | SetLayout | Seed | Decide | Play | TreeDecide | Register | Evaluate | Quit
)
"""Every command the grader sends."""
