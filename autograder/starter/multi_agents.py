"""Multi-agent search: your Pacman agents. Fill in every function that raises NotImplementedError.

Grade your work with ``autograder`` in this folder (``autograder -q q2`` for one
question, ``autograder --list`` to see the tests) and watch an agent play with
``pacman -p multi_agents.py:MinimaxAgent -a depth=3``.

The state API (use only these; states never change, ``successor`` returns a new one):

- ``state.num_agents``: Pacman is agent 0, the ghosts are 1 .. num_agents - 1.
- ``state.legal_actions(agent)``: the agent's actions, in the order West, Stop, East,
  North, South. Visit them in this order and never reorder them.
- ``state.successor(agent, action)``: the state after ``agent`` plays ``action``.
- ``state.is_win()``, ``state.is_lose()``, ``state.is_terminal()``, ``state.score``.
- ``state.pacman_position``, ``state.ghost_positions``, ``state.agent_position(i)``,
  ``state.scared_timer(i)``, ``state.num_food``, ``state.food_positions()``,
  ``state.nearest_food_distance()``, ``state.capsules``, ``state.has_wall(x, y)``,
  ``state.layout.maze_distance(a, b)``.

Search rules the autograder checks exactly:

- One unit of depth is one ply: Pacman moves, then every ghost moves once.
- Evaluate a state with ``self.evaluate(state)`` when it is won or lost, or when it is
  Pacman's turn again after ``self.depth`` plies. Do not expand it further.
- Pacman (agent 0) maximises; ghosts minimise (minimax, alpha-beta) or average over
  their legal actions (expectimax).
- At the root, return the first action (in legal order) whose value is the best.
- The grader counts every state you generate with ``successor``: generate only the
  states the algorithm needs.
"""

from __future__ import annotations

import random
from typing import Any

from autograder.student import MultiAgentSearchAgent


class ReflexAgent:
    """Chooses a move by looking one step ahead (question 1).

    ``get_action`` is written for you: it scores every legal action with
    ``evaluate_action`` and picks a best one at random. Your job is ``evaluate_action``.
    """

    def get_action(self, state: Any) -> str:
        """Return one of the best actions according to `evaluate_action`."""
        actions: list[str] = list(state.legal_actions(0))
        values = [self.evaluate_action(state, a) for a in actions]
        best = max(values)
        return random.choice([a for a, v in zip(actions, values, strict=True) if v == best])

    def evaluate_action(self, state: Any, action: str) -> float:
        """How good it is for Pacman to play ``action`` in ``state`` (higher is better).

        Look at ``state.successor(0, action)``: the food left and how far the nearest
        dot is, where the ghosts are and whether they are scared. To pass, the agent
        must win games on openClassic against one random ghost (5 and 10 wins out of
        10, and average scores of 500 and 1000, earn the points).
        """
        raise NotImplementedError("ReflexAgent.evaluate_action")


class MinimaxAgent(MultiAgentSearchAgent):
    """Minimax search to ``self.depth`` plies (question 2)."""

    def get_action(self, state: Any) -> str:
        """Return the minimax action from ``state`` (Pacman to move).

        Every ghost is assumed to pick the move worst for Pacman. Leaves are scored
        with ``self.evaluate``. Among equally good actions, any one is right (the
        first in legal order, the last or a random one).
        """
        raise NotImplementedError("MinimaxAgent.get_action")


class AlphaBetaAgent(MultiAgentSearchAgent):
    """Minimax with alpha-beta pruning (question 3)."""

    def get_action(self, state: Any) -> str:
        """Return the minimax action from ``state``, pruning with alpha-beta.

        Prune only on strict inequality: at a Pacman node stop when the value is
        greater than beta, at a ghost node when it is less than alpha. Pruning on
        equality generates different states and fails the tests. Pass the bounds down
        to every child, and update alpha at the root as its children are searched.
        """
        raise NotImplementedError("AlphaBetaAgent.get_action")


class ExpectimaxAgent(MultiAgentSearchAgent):
    """Expectimax search (question 4)."""

    def get_action(self, state: Any) -> str:
        """Return the expectimax action from ``state``.

        Every ghost is assumed to pick uniformly at random among its legal actions, so
        a ghost node's value is the average of its children's values.
        """
        raise NotImplementedError("ExpectimaxAgent.get_action")


def better_evaluation(state: Any) -> float:
    """A strong evaluation function: the value of ``state`` for Pacman (question 5).

    The autograder plays 10 games on smallClassic against one random ghost with a
    depth-2 expectimax that scores leaves with this function. Points come from
    winning (1, 5 and 10 wins), from average scores of 500 and 1000, and from never
    timing out. Try ``pacman -l smallClassic -k 1 -p multi_agents.py:ExpectimaxAgent
    -a depth=2,evalFn=better``.
    """
    raise NotImplementedError("better_evaluation")
