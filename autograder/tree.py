"""Small explicit game trees that implement the same protocol as `pacman.GameState`.

The search functions in `agents.search` run on them unchanged, which is how the
autograder checks the exact set of states a search generates.

A state's legal actions are exactly its listed edges, in the order given. Tree states
behave like game states (SPEC section 6): a won or lost state has no legal actions and
no successor, whatever edges a case file gives it, so a search that stops on
``is_win()``/``is_lose()`` and one that stops on an empty action list are both right;
asking for an agent the game does not have is an error, as in the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["TreeGame", "TreeState", "check_agent"]


class TreeGame:
    """A game given as named states, labelled edges and leaf values.

    Args:
        start: Name of the root state.
        successors: For each state, its ``(action, next_state)`` edges in legal order.
        evaluation: Value for agent 0 of every state a search may evaluate.
        num_agents: How many agents take turns (agent 0 maximises).
        win_states: Names of won states (terminal).
        lose_states: Names of lost states (terminal).

    >>> g = TreeGame.from_edges("A", [("A", "x", "B")], {"B": 1.0}, num_agents=1)
    >>> g.root.successor(0, "x")
    TreeState('B')
    """

    def __init__(
        self,
        start: str,
        successors: Mapping[str, Sequence[tuple[str, str]]],
        evaluation: Mapping[str, float],
        *,
        num_agents: int,
        win_states: Iterable[str] = (),
        lose_states: Iterable[str] = (),
    ) -> None:
        if num_agents < 1:
            raise ValueError(f"num_agents must be >= 1, got {num_agents!r}")
        self.start = start
        ended = frozenset(win_states) | frozenset(lose_states)
        # A finished game has no moves: edges a case file gives a won or lost state are
        # set aside, as the engine gives such a state none.
        self.successors = {k: tuple(v) for k, v in successors.items() if k not in ended}
        self.ignored_edges = {k: tuple(v) for k, v in successors.items() if k in ended}
        """Edges a (classic) case file gives won or lost states: never followed."""
        self.evaluation = dict(evaluation)
        self.num_agents = num_agents
        self.win_states = frozenset(win_states)
        self.lose_states = frozenset(lose_states)
        self._states: dict[str, TreeState] = {}

    @classmethod
    def from_edges(
        cls,
        start: str,
        edges: Iterable[tuple[str, str, str]],
        evaluation: Mapping[str, float],
        *,
        num_agents: int,
        win_states: Iterable[str] = (),
        lose_states: Iterable[str] = (),
    ) -> TreeGame:
        """Build a tree from ``(state, action, next_state)`` triples in legal order."""
        successors: dict[str, list[tuple[str, str]]] = {}
        for state, action, nxt in edges:
            successors.setdefault(state, []).append((action, nxt))
        return cls(
            start,
            successors,
            evaluation,
            num_agents=num_agents,
            win_states=win_states,
            lose_states=lose_states,
        )

    def state(self, name: str) -> TreeState:
        """The state object for ``name`` (one object per name)."""
        s = self._states.get(name)
        if s is None:
            s = TreeState(self, name)
            self._states[name] = s
        return s

    @property
    def root(self) -> TreeState:
        """The start state."""
        return self.state(self.start)

    @property
    def names(self) -> frozenset[str]:
        """Every state name the tree mentions: the start, edge ends and valued states."""
        found = {self.start, *self.evaluation, *self.win_states, *self.lose_states}
        for parent, edges in (*self.successors.items(), *self.ignored_edges.items()):
            found.add(parent)
            found.update(nxt for _, nxt in edges)
        return frozenset(found)

    def children(self, name: str) -> tuple[tuple[str, str], ...]:
        """The ``(action, next_state)`` edges out of ``name``, in legal order."""
        return self.successors.get(name, ())

    def value(self, name: str) -> float:
        """The given value for agent 0 of the state called ``name``.

        Raises:
            KeyError: If the tree gives no value for that state.
        """
        try:
            return self.evaluation[name]
        except KeyError:
            raise KeyError(f"state {name!r} has no evaluation in this tree") from None

    def evaluate(self, state: TreeState) -> float:
        """The given value of ``state`` for agent 0.

        Raises:
            KeyError: If the tree gives no value for that state.
        """
        return self.value(state.name)


def check_agent(agent: object, num_agents: int) -> None:
    """Raise, as the engine does, for an agent index the game does not have."""
    try:
        known = 0 <= agent < num_agents  # type: ignore[operator]
    except TypeError:
        known = False
    if not known:
        raise ValueError(f"no agent {agent!r}: agents are 0 .. {num_agents - 1}")


class TreeState:
    """One named state of a `TreeGame`; compares and hashes by name."""

    __slots__ = ("game", "name")

    def __init__(self, game: TreeGame, name: str) -> None:
        self.game = game
        self.name = name

    @property
    def num_agents(self) -> int:
        """Number of agents in the game."""
        return self.game.num_agents

    def legal_actions(self, agent: int = 0) -> list[str]:
        """Edge labels out of this state, in the order given (none when it is won or lost).

        Raises:
            ValueError: If ``agent`` is not an agent of this game.
        """
        if self.is_terminal():
            return []
        check_agent(agent, self.game.num_agents)
        return [a for a, _ in self.game.successors.get(self.name, ())]

    def successor(self, agent: int, action: str) -> TreeState:
        """The state the edge labelled ``action`` leads to.

        Raises:
            ValueError: If the game is over here, ``agent`` is not an agent of this game,
                or no such edge leaves this state.
        """
        if self.is_terminal():
            won = "won" if self.is_win() else "lost"
            raise ValueError(f"state {self.name!r} is {won}: a finished game has no successors")
        check_agent(agent, self.game.num_agents)
        for a, nxt in self.game.successors.get(self.name, ()):
            if a == action:
                return self.game.state(nxt)
        raise ValueError(f"state {self.name!r} has no action {action!r}")

    def is_win(self) -> bool:
        """Whether this is a won state."""
        return self.name in self.game.win_states

    def is_lose(self) -> bool:
        """Whether this is a lost state."""
        return self.name in self.game.lose_states

    def is_terminal(self) -> bool:
        """Whether this is a won or lost state."""
        return self.name in self.game.win_states or self.name in self.game.lose_states

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TreeState):
            return NotImplemented
        return self.name == other.name and self.game is other.game

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"TreeState({self.name!r})"
