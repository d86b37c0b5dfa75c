"""The grader's side of the proxies: it computes, records and counts every successor.

A server holds every state it handed out during one test, by a number unique in the
grader's process (the root of each decision included; equal states share one number, and
a test holds at most `MAX_STATES`), and the set of distinct states generated during the
current decision. The worker's proxies refer to states by number
only, so the grader always computes successors from its own states.

A Pacman server sends siblings ahead and counts one when the worker reports handing it
over; it accepts such a notice only for a state it sent ahead during the current
decision, so a worker cannot have states of other decisions (or states it was never
sent) counted. A worker can always report fewer states than its student used, by
computing successors locally with the engine; that only makes its own count wrong.
"""

from __future__ import annotations

import itertools
from typing import Any

from autograder.sandbox.protocol import CHILD, FAILED
from autograder.sandbox.proxy import state_fields
from autograder.tree import TreeGame, TreeState
from pacman.core.errors import PacmanError
from pacman.core.state import GameState

__all__ = ["PacmanServer", "TreeServer"]

_NUMBERS = itertools.count()
"""State numbers are never reused, so a state a student kept from an earlier test cannot
stand for another one."""


_STALE = "this state belongs to an earlier test; keep no states between tests"

MAX_STATES = 500_000
"""Most distinct states a Pacman server keeps for one test (a reference game trace needs
about 10,000). Equal states share one number, so repeating a request costs nothing; a
test that asks for more distinct states fails with `_TOO_MANY`."""

_TOO_MANY = (
    f"this test asked for more than {MAX_STATES:,} distinct states; the grader keeps no more "
    "(a search of the given depth needs far fewer)"
)


class PacmanServer:
    """Answers successor requests on real `GameState` objects."""

    def __init__(self) -> None:
        self.states: dict[int, GameState] = {}
        """Every state handed out during the test, by number (at most `MAX_STATES`)."""
        self._numbers: dict[GameState, int] = {}
        """The number of each state handed out: equal states share one."""
        self.generated: set[GameState] = set()
        """Distinct states of the current decision: its root and every child handed out."""
        self.sent_ahead: set[int] = set()
        """Numbers of the siblings sent ahead during the current decision (not yet noticed)."""

    def begin(self, root: GameState) -> tuple[int, tuple[Any, ...]]:
        """Start a decision at ``root``; returns its number and fields for the worker."""
        self.generated = {root}
        self.sent_ahead = set()
        number = self._number(root, always=True)
        assert number is not None
        return number, state_fields(root)

    def _number(self, state: GameState, *, always: bool = False) -> int | None:
        """The state's number, new if it has none.

        ``None`` past `MAX_STATES` states, unless ``always`` (a decision's root, which the
        test itself hands out).
        """
        number = self._numbers.get(state)
        if number is None:
            if len(self._numbers) >= MAX_STATES and not always:
                return None
            number = next(_NUMBERS)
            self._numbers[state] = number
            self.states[number] = state
        return number

    def serve(self, parent: int, agent: int, action: str) -> tuple[Any, ...]:
        """Compute and record one successor; the reply sends its siblings along.

        Only the successor asked for is counted; a sibling is counted when the worker
        reports handing it over (`notice`).
        """
        state = self.states.get(parent)
        if state is None:
            return (FAILED, "ValueError", _STALE)
        try:
            child = state.successor(agent, action)
        except (PacmanError, ValueError) as exc:
            return (FAILED, type(exc).__name__, str(exc))
        self.generated.add(child)
        siblings: list[tuple[str, int, tuple[Any, ...]]] = []
        chosen = 0
        for a in state.legal_actions(agent):
            if a == action:
                chosen, sibling = len(siblings), child
            else:
                sibling = state.successor(agent, a)
            number = self._number(sibling)
            if number is None:
                return (FAILED, "MemoryError", _TOO_MANY)
            if sibling is not child:
                self.sent_ahead.add(number)
            siblings.append((a.value, number, state_fields(sibling)))
        return (CHILD, chosen, siblings)

    def notice(self, number: int) -> None:
        """The worker handed the student a sibling sent ahead: count it now.

        Only a state sent ahead during the current decision counts (once); any other
        number is ignored.
        """
        if number in self.sent_ahead:
            self.sent_ahead.discard(number)
            self.generated.add(self.states[number])


class TreeServer:
    """Answers successor requests on an explicit `TreeGame`."""

    def __init__(self, game: TreeGame) -> None:
        self.game = game
        self.states: dict[int, TreeState] = {}
        self.generated: set[str] = set()
        """Names of the distinct states generated: the root and every child handed out."""

    def info(self, state: TreeState) -> tuple[Any, ...]:
        """What the worker's proxy knows of a state: name, edges, win/lose flags, value."""
        return (
            state.name,
            tuple(state.legal_actions(0)),
            state.is_win(),
            state.is_lose(),
            self.game.evaluation.get(state.name),
        )

    def begin(self) -> tuple[int, int, tuple[Any, ...]]:
        """Start the decision at the root; returns (num_agents, number, info)."""
        root = self.game.root
        number = next(_NUMBERS)
        self.states = {number: root}
        self.generated = {root.name}
        return self.game.num_agents, number, self.info(root)

    def serve(self, parent: int, agent: int, action: str) -> tuple[Any, ...]:
        """Follow one edge and record the state it leads to; the reply for the worker."""
        state = self.states.get(parent)
        if state is None:
            return (FAILED, "ValueError", _STALE)
        # A won or lost state gets the edges the tree gives it, as in `autograder.tree`:
        # a search that forgets to stop there expands them, and the diagnosis says so.
        try:
            child = state.successor(agent, action)
        except ValueError as exc:
            return (FAILED, "ValueError", str(exc))
        number = next(_NUMBERS)
        self.states[number] = child
        self.generated.add(child.name)
        return (CHILD, number, self.info(child))
