"""The states the student's search sees in the worker: proxies answered by the grader.

A `PacmanProxy` is a read-only `pacman.GameState` (every accessor works as usual) whose
`successor` does not compute anything locally: it asks the grader, which computes the
real successor, records it for counting and sends back the child's fields. A
`TreeProxy` does the same for the explicit trees of the tree tests. The grader thus
owns the truth: counts are taken in its own process, and nothing the student's code
does in the worker can change them.

A proxy remembers the children it was given, so asking twice for the same successor
costs one message; the grader counts distinct states, so the count is unchanged.

To save round trips, the grader answers a Pacman state's successor request with every
sibling (all the agent's legal actions), but counts only the one asked for. When the
student's code later asks for a sibling, the proxy hands it over at once and tells the
grader, which counts it then: such notices travel together as one ``U<n>,<n>,...``
message just before the worker's next request or answer, so they cost no extra wait.
Either way a state is counted exactly when the student's code receives it.

Every decision (and every ``register_initial_state`` call) has a number
(`begin_decision`). A child a proxy kept from an earlier decision is not handed over
from the cache: the proxy asks the grader again, because SPEC section 6 counts every
state returned during the decision, and the grader accepts notices only for states it
sent ahead during the current one.

What this does not prevent: the worker holds the real engine, so a student's code can
always compute successors locally (``GameState.successor`` on a state it builds). That
only lowers its own count, which the grader then finds wrong.
"""

from __future__ import annotations

import pickle
from typing import Any, Final, Protocol

from autograder.sandbox.protocol import CHILD, NOTICE, SUCCESSOR
from pacman.core.errors import IllegalActionError, TerminalStateError
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = [
    "MAX_ACTION_CHARS",
    "Channel",
    "PacmanProxy",
    "TreeProxy",
    "begin_decision",
    "decode_request",
    "flush_notices",
    "local_state",
    "pacman_proxy",
    "state_fields",
    "tree_proxy",
    "tree_value",
]

MAX_ACTION_CHARS: Final = 200
"""Longest action text sent to the grader (a student may return anything)."""

ERRORS: Final[dict[str, type[Exception]]] = {
    "IllegalActionError": IllegalActionError,
    "TerminalStateError": TerminalStateError,
    "ValueError": ValueError,
    "KeyError": KeyError,
}
"""Exception types the grader may ask the worker to raise in the student's code."""


Fields = tuple[Any, ...]
"""A state's compact fields: positions, directions (names), timers, food, ..., status."""


class Channel(Protocol):
    """The worker's side of the pipe to the grader."""

    def send_bytes(self, data: bytes) -> None:
        """Send one message."""

    def recv_bytes(self) -> bytes:
        """Receive one message."""


def encode_request(parent: int, agent: object, action: object) -> bytes:
    """A successor request as sent to the grader: ``b"S<parent> <agent> <action>"``.

    >>> encode_request(3, 1, Direction.WEST)
    b'S3 1 West'
    """
    text = str(action)[:MAX_ACTION_CHARS]
    return SUCCESSOR + f"{parent} {agent} {text}".encode(errors="replace")


def decode_request(data: bytes) -> tuple[int, int, str]:
    """Parse `encode_request` output; the grader never unpickles what a worker sends.

    >>> decode_request(b"S3 1 West")
    (3, 1, 'West')

    Raises:
        ValueError: If the message is not a well-formed request.
    """
    head, _, action = data[1:].decode(errors="replace").partition(" ")
    agent_text, _, action = action.partition(" ")
    try:
        return int(head), int(agent_text), action
    except ValueError:
        raise ValueError(f"no agent {agent_text!r}: agents are numbered from 0") from None


def state_fields(state: GameState) -> Fields:
    """The compact fields of a real state, without its layout (`GameState.wire_fields`)."""
    return state.wire_fields()


_pending: list[int] = []
"""Numbers of siblings handed to the student's code that the grader has not been told of."""

_decision = [0]
"""The number of the current decision (one list cell, so the proxies read it cheaply)."""


def begin_decision() -> None:
    """Start a new decision: children cached in earlier ones are asked for again."""
    _decision[0] += 1


def flush_notices(channel: Channel) -> None:
    """Tell the grader which siblings sent ahead were handed over since the last message."""
    if _pending:
        channel.send_bytes(NOTICE + ",".join(map(str, _pending)).encode())
        _pending.clear()


def _ask(channel: Channel, parent: int, agent: object, action: object) -> tuple[Any, Any]:
    """Ask the grader for a successor; returns the two parts of its reply.

    For a tree state: the child's number and info; for a Pacman state: the index of the
    child asked for, and ``(action, number, fields)`` of every sibling.

    Raises:
        IllegalActionError, TerminalStateError, ValueError, KeyError: As the grader says.
    """
    flush_notices(channel)
    channel.send_bytes(encode_request(parent, agent, action))
    reply = pickle.loads(channel.recv_bytes())
    if reply[0] != CHILD:
        raise ERRORS.get(reply[1], ValueError)(reply[2])
    return reply[1], reply[2]


def local_state(layout: Layout, fields: Fields) -> GameState:
    """A real, local `GameState` with these fields (for games that count nothing)."""
    return GameState.from_wire(layout, fields)


class PacmanProxy(GameState):
    """A game state whose successors come from the grader (see the module docstring)."""

    __slots__ = ("_channel", "_counted", "_decision", "_gid", "_kids")

    _gid: int
    _channel: Channel
    _kids: dict[tuple[Any, str], PacmanProxy] | None
    _counted: bool
    _decision: int

    def successor(self, agent: int, action: Direction | str) -> PacmanProxy:
        """The state after ``agent`` plays ``action``, computed and counted by the grader.

        Raises:
            TerminalStateError: If the game is already won or lost.
            IllegalActionError: If the action is not legal for that agent here.
            ValueError: If ``agent`` is not an agent of this game.
        """
        kids = self._kids
        if kids is None:
            kids = self._kids = {}
        try:
            key = (agent, str(action))
            child = kids.get(key)
        except TypeError:  # an unhashable "agent": let the grader reject it
            key, child = None, None
        if child is not None and child._decision == _decision[0]:
            if not child._counted:  # sent ahead by the grader: now it is generated
                child._counted = True
                _pending.append(child._gid)
            return child
        # Not cached, or cached in an earlier decision: the grader must count it again.
        chosen, siblings = _ask(self._channel, self._gid, agent, action)
        channel, layout, decision = self._channel, self.layout, _decision[0]
        for name, gid, fields in siblings:
            sibling = pacman_proxy(channel, layout, gid, fields)
            sibling._decision = decision
            kids[(agent, name)] = sibling
        child = kids[(agent, siblings[chosen][0])]
        child._counted = True
        if key is not None:
            kids[key] = child
        return child


def pacman_proxy(channel: Channel, layout: Layout, gid: int, fields: Fields) -> PacmanProxy:
    """Build the proxy of the grader's state number ``gid``."""
    s = PacmanProxy.from_wire(layout, fields)
    s._gid = gid
    s._channel = channel
    s._kids = None
    s._counted = False
    s._decision = _decision[0]
    return s


class TreeProxy:
    """A state of an explicit game tree whose successors come from the grader.

    It offers the search protocol (`num_agents`, `legal_actions`, `successor`,
    `is_terminal`) plus `is_win`, `is_lose`, `score` and the state's `name`; it compares
    and hashes by name. The tree's value of a state is what the tree tests' evaluation
    function returns, and it is also the state's `score` (as in the classic Berkeley
    tree tests, whose ``scoreEvaluationFunction`` reads the tree's evaluation).
    """

    __slots__ = (
        "_channel",
        "_decision",
        "_gid",
        "_kids",
        "_legal",
        "_lose",
        "_name",
        "_num_agents",
        "_value",
        "_win",
    )

    def __init__(self, channel: Channel, num_agents: int, gid: int, info: tuple[Any, ...]) -> None:
        self._channel = channel
        self._num_agents = num_agents
        self._gid = gid
        self._name: str
        self._legal: tuple[str, ...]
        self._name, self._legal, self._win, self._lose, self._value = info
        self._kids: dict[tuple[Any, str], TreeProxy] = {}
        self._decision = _decision[0]

    @property
    def name(self) -> str:
        """The state's name in the tree."""
        return self._name

    @property
    def num_agents(self) -> int:
        """Number of agents taking turns (agent 0 maximises)."""
        return self._num_agents

    def legal_actions(self, agent: int = 0) -> list[str]:
        """The edge labels out of this state, in the order searches visit them.

        A won or lost state has none, as in the engine.

        Raises:
            ValueError: If ``agent`` is not an agent of this game (as in the engine).
        """
        if self._win or self._lose:
            return []
        try:
            known = 0 <= agent < self._num_agents
        except TypeError:
            known = False
        if not known:
            raise ValueError(f"no agent {agent!r}: agents are 0 .. {self._num_agents - 1}")
        return list(self._legal)

    def is_win(self) -> bool:
        """Whether this is a won state."""
        return bool(self._win)

    def is_lose(self) -> bool:
        """Whether this is a lost state."""
        return bool(self._lose)

    def is_terminal(self) -> bool:
        """Whether this is a won or lost state."""
        return bool(self._win or self._lose)

    def successor(self, agent: int, action: str) -> TreeProxy:
        """The state the edge ``action`` leads to, answered and counted by the grader.

        Raises:
            ValueError: If no such edge leaves this state.
        """
        key = (agent, str(action))
        child = self._kids.get(key)
        if child is not None and child._decision == _decision[0]:
            return child
        gid, info = _ask(self._channel, self._gid, agent, action)
        child = TreeProxy(self._channel, self._num_agents, gid, info)
        self._kids[key] = child
        return child

    @property
    def score(self) -> float:
        """The state's score: the tree's value of it (see `value`).

        Raises:
            KeyError: If the tree gives this state no value.
        """
        return self.value()

    def value(self) -> float:
        """The tree's value of this state (what the evaluation function returns).

        Raises:
            KeyError: If the tree gives this state no value: a search that evaluates
                it is not searching to the right depth.
        """
        if self._value is None:
            raise KeyError(
                f"state {self._name!r} has no value in this tree: only the states at the "
                "search depth and the won or lost ones should be evaluated"
            )
        return float(self._value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TreeProxy):
            return NotImplemented
        return self._name == other._name

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f"TreeState({self._name!r})"


def tree_proxy(channel: Channel, num_agents: int, gid: int, info: tuple[Any, ...]) -> TreeProxy:
    """Build the proxy of the grader's tree state number ``gid``."""
    return TreeProxy(channel, num_agents, gid, info)


def tree_value(state: Any) -> float:
    """The evaluation function of the tree tests: the tree's value of ``state``."""
    if isinstance(state, TreeProxy):
        return state.value()
    raise TypeError(f"the tree tests' evaluation function got {state!r}, not a tree state")
