"""A deliberately naive reference model of the rules (SPEC §2-4), for cross-checking.

Nothing here is shared with ``pacman.core``: the board is a list of strings, positions
are ``(x, y)`` floats as in the classic game, food and capsules are frozensets of cells,
and every rule is written out in the order SPEC §4 states it. It is slow and obviously
correct; the engine, which runs on precomputed tables and bitmasks, must agree with it
state by state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

WEST, STOP, EAST, NORTH, SOUTH = "West", "Stop", "East", "North", "South"
ORDER = (WEST, STOP, EAST, NORTH, SOUTH)
VECTOR = {WEST: (-1, 0), STOP: (0, 0), EAST: (1, 0), NORTH: (0, 1), SOUTH: (0, -1)}
REVERSE = {WEST: EAST, EAST: WEST, NORTH: SOUTH, SOUTH: NORTH, STOP: STOP}


@dataclass(frozen=True)
class Board:
    """The static part: the text rows and where agents start."""

    rows: tuple[str, ...]
    pacman_start: tuple[int, int]
    ghost_starts: tuple[tuple[int, int], ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    def tile(self, x: int, y: int) -> str:
        # y counts from the bottom: the last text row is y = 0.
        return self.rows[self.height - 1 - y][x]

    def is_wall(self, x: float, y: float) -> bool:
        return self.tile(int(x), int(y)) == "%"


@dataclass(frozen=True)
class Agent:
    pos: tuple[float, float]
    direction: str
    timer: int


@dataclass(frozen=True)
class State:
    board: Board
    agents: tuple[Agent, ...]
    food: frozenset[tuple[int, int]]
    capsules: frozenset[tuple[int, int]]
    score: int
    win: bool
    lose: bool

    def key(self) -> tuple[Any, ...]:
        """What SPEC §4 says two equal states share (no turn, no win/lose flag)."""
        return (
            tuple((a.pos, a.direction, a.timer) for a in self.agents),
            self.food,
            self.capsules,
            self.score,
        )


def parse(text: str, num_ghosts: int | None = None) -> State:
    """Read a well-formed layout text and return its start state."""
    rows = tuple(line.strip() for line in text.strip("\n").splitlines() if line.strip())
    height = len(rows)
    pacman = None
    ghosts = []
    food = set()
    capsules = set()
    for r, row in enumerate(rows):
        y = height - 1 - r
        for x, ch in enumerate(row):
            if ch == "P":
                pacman = (x, y)
            elif ch == "G":
                ghosts.append((1, x, y))
            elif ch in "1234":
                ghosts.append((int(ch), x, y))
            elif ch == ".":
                food.add((x, y))
            elif ch == "o":
                capsules.add((x, y))
    assert pacman is not None
    ghosts.sort()
    if num_ghosts is not None:
        ghosts = ghosts[:num_ghosts]
    board = Board(rows, pacman, tuple((x, y) for _, x, y in ghosts))
    starts = [pacman, *board.ghost_starts]
    return State(
        board=board,
        agents=tuple(Agent((float(x), float(y)), STOP, 0) for x, y in starts),
        food=frozenset(food),
        capsules=frozenset(capsules),
        score=0,
        win=False,
        lose=False,
    )


def legal_actions(state: State, agent: int) -> list[str]:
    if state.win or state.lose:
        return []
    me = state.agents[agent]
    x, y = me.pos
    if x != int(x) or y != int(y):
        return [me.direction]  # between grid points: keep going
    possible = [d for d in ORDER if not state.board.is_wall(x + VECTOR[d][0], y + VECTOR[d][1])]
    if agent == 0:
        return possible
    possible.remove(STOP)
    back = REVERSE[me.direction]
    if back in possible and len(possible) > 1:
        possible.remove(back)
    return possible


def _meet(state: State, ghost: int, agents: list[Agent]) -> str:
    """What happens between Pacman and ``ghost``: "nothing", "eat" (and respawn) or "kill"."""
    g = agents[ghost]
    pac = agents[0].pos
    if abs(g.pos[0] - pac[0]) + abs(g.pos[1] - pac[1]) > 0.7:
        return "nothing"
    if g.timer > 0:
        sx, sy = state.board.ghost_starts[ghost - 1]
        agents[ghost] = Agent((float(sx), float(sy)), STOP, 0)
        return "eat"
    return "kill"


def successor(state: State, agent: int, action: str) -> State:
    if state.win or state.lose:
        raise RuntimeError("terminal")
    if action not in legal_actions(state, agent):
        raise ValueError(f"illegal {action} for {agent}")
    agents = list(state.agents)
    me = agents[agent]
    dx, dy = VECTOR[action]
    score = state.score
    win = lose = False
    food = state.food
    capsules = state.capsules
    if agent == 0:
        pos = (me.pos[0] + dx, me.pos[1] + dy)
        facing = me.direction if action == STOP else action
        agents[0] = Agent(pos, facing, 0)
        cell = (int(pos[0]), int(pos[1]))
        if cell in food:
            food = food - {cell}
            score += 10
            if not food:
                score += 500
                win = True
        if cell in capsules:
            capsules = capsules - {cell}
            for i in range(1, len(agents)):
                agents[i] = replace(agents[i], timer=40)
        score -= 1
        for i in range(1, len(agents)):
            what = _meet(state, i, agents)
            if what == "eat":
                score += 200
            elif what == "kill" and not win:
                score -= 500
                lose = True
    else:
        speed = 0.5 if me.timer > 0 else 1.0
        pos = (me.pos[0] + dx * speed, me.pos[1] + dy * speed)
        timer = me.timer
        if timer == 1:
            pos = (float(int(pos[0] + 0.5)), float(int(pos[1] + 0.5)))
        agents[agent] = Agent(pos, action, max(0, timer - 1))
        what = _meet(state, agent, agents)
        if what == "eat":
            score += 200
        elif what == "kill":
            score -= 500
            lose = True
    return State(state.board, tuple(agents), food, capsules, score, win, lose)


def perft(state: State, depth: int) -> tuple[int, int]:
    """Full-width search of ``depth`` plies: (successor calls, distinct states generated).

    One ply is Pacman and then every ghost moving once (SPEC §6); won or lost states are
    not expanded. The distinct count uses SPEC §4 state equality.
    """
    n = len(state.agents)
    seen: set[tuple[Any, ...]] = set()
    calls = 0

    def expand(s: State, turn: int) -> None:
        nonlocal calls
        if s.win or s.lose or turn == depth * n:
            return
        agent = turn % n
        for a in legal_actions(s, agent):
            child = successor(s, agent, a)
            calls += 1
            seen.add(child.key())
            expand(child, turn + 1)

    expand(state, 0)
    return calls, len(seen)
