"""Write the reference tree cases into autograder/cases/<algorithm>/*.toml.

Run from the repository root: ``python autograder/cases/make_cases.py``. The
lecture-style trees below are written by hand; the chain and random families are built
from fixed seeds, so every run writes the same files. Each tree goes to the folders of
the algorithms listed with it; the expected answers are then filled in by our reference
agents (`autograder.grading.trees.generate_tree_solutions`). Edit the trees here, not in
the generated files, and check the files in.

Every file written here starts with `GENERATED`; a run deletes only such files that it no
longer writes, so a case written by hand in an algorithm's folder (without that first
line) stays and gets its answers like the others.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from autograder.algorithms import algorithm as algorithm_row  # noqa: E402
from autograder.algorithms import algorithm_names  # noqa: E402
from autograder.diagram import draw_tree  # noqa: E402
from autograder.grading.catalogue import BUGS, Flaws, flawed_search  # noqa: E402
from autograder.grading.trees import generate_tree_solutions  # noqa: E402
from autograder.tree import TreeGame  # noqa: E402

GENERATED = "# Written by autograder/cases/make_cases.py; edit the tree there and rerun it.\n"
"""The first line of every case file this script writes (and may delete)."""

PACMAN_MOVES = ("West", "Stop", "East", "North", "South")
GHOST_MOVES = ("West", "East", "North", "South")


@dataclass
class Spec:
    """One tree, written to every algorithm folder in ``algorithms``."""

    stem: str
    description: str
    depth: int
    agents: int
    tree: str
    values: str
    tags: tuple[str, ...] = ()
    win: tuple[str, ...] = ()
    lose: tuple[str, ...] = ()
    diagram: str = ""
    start: str = "A"
    algorithms: tuple[str, ...] = algorithm_names()
    notes: dict[str, str] = field(default_factory=dict)


# --- hand-written, lecture-style trees ----------------------------------------------

LECTURE_DIAGRAM = r"""
                  A               max
        a1/      a2|      a3\
         B         C         D    ghost
      / | \     / | \     / | \
     E  F  G    H  I  J    K  L  M
     3 12  8    {h}  4  6   14  5  2
"""

LECTURE_TREE = """
A a1 B
A a2 C
A a3 D
B b1 E
B b2 F
B b3 G
C c1 H
C c2 I
C c3 J
D d1 K
D d2 L
D d3 M
"""


def lecture_values(h: int) -> str:
    """The leaf values of the textbook tree, with H set to ``h``."""
    return f"E 3\nF 12\nG 8\nH {h}\nI 4\nJ 6\nK 14\nL 5\nM 2\n"


HAND = [
    Spec(
        "lecture-3x3",
        "The textbook tree: Pacman over three ghost nodes with three leaves each.",
        1,
        2,
        LECTURE_TREE,
        lecture_values(2),
        ("lecture",),
        diagram=LECTURE_DIAGRAM.format(h=2),
    ),
    Spec(
        "lecture-3x3-equal-bound",
        "The textbook tree with H = 3: C's first leaf equals alpha, which must not prune.",
        1,
        2,
        LECTURE_TREE,
        lecture_values(3),
        ("lecture", "equal-bound"),
        diagram=LECTURE_DIAGRAM.format(h=3),
    ),
    Spec(
        "lecture-binary-depth-2",
        "A binary two-ply tree (16 leaves) with cut-offs at both ghost and Pacman nodes.",
        2,
        2,
        """
        A l B
        A r C
        B l D
        B r E
        C l F
        C r G
        D l H
        D r I
        E l J
        E r K
        F l L
        F r M
        G l N
        G r O
        H l P
        H r Q
        I l R
        I r S
        J l T
        J r U
        K l V
        K r W
        L l X
        L r Y
        M l Z
        M r AA
        N l AB
        N r AC
        O l AD
        O r AE
        """,
        """
        P 3
        Q 5
        R 6
        S 9
        T 1
        U 2
        V 0
        W -1
        X 7
        Y 4
        Z 2
        AA 6
        AB 8
        AC 1
        AD 5
        AE 3
        """,
        ("lecture",),
        diagram=r"""
                       A                          max
              l/               \r
             B                   C                ghost
         l/     \r           l/     \r
        D         E         F         G           max
      l/ \r     l/ \r     l/ \r     l/ \r
      H   I     J   K     L   M     N   O         ghost
     / \ / \   / \ / \   / \ / \   / \ / \
     P Q R S   T U V W   X Y Z AA AB AC AD AE
     3 5 6 9   1 2 0 -1  7 4 2 6  8  1  5  3
""",
    ),
    Spec(
        "risky-ghost",
        "A ghost that either lets Pacman through or catches him: minimax plays safe, "
        "expectimax takes the average.",
        1,
        2,
        "A West B\nA East C\nB West D\nB East E\nC West F\nC East G\n",
        "D 0\nE 100\nF 10\nG 12\n",
        ("lecture",),
        diagram=r"""
              A            max
        West/   \East
           B     C         ghost
          / \   / \
         D   E F   G
         0 100 10  12
""",
    ),
    Spec(
        "equal-bound-at-max-node",
        "A Pacman node two moves down reaches a value equal to beta: it must keep searching.",
        2,
        2,
        "A a1 B\nA a2 C\nB b1 D\nB b2 E\nC c1 I\n"
        "D d1 F\nE e1 G\nE e2 H\nI i1 M\n"
        "F f1 J\nG g1 K\nH h1 L\nM m1 N\n",
        "J 5\nK 5\nL 7\nN 2\n",
        ("lecture", "equal-bound"),
        diagram=r"""
                 A                 max
            a1/     \a2
             B        C            ghost
          b1/ \b2      |c1
           D    E      I           max     (beta = 5 at E after D = 5)
          d1| e1/ \e2   |i1
           F   G   H   M           ghost
           |   |   |   |
           J   K   L   N
           5   5   7   2
""",
    ),
    Spec(
        "tied-root",
        "The first two root actions are worth the same: either is right (any tied-best action is).",
        1,
        2,
        "A West B\nA Stop C\nA East D\nB West E\nB East F\nC West G\nC East H\n"
        "D West I\nD East J\n",
        "E 4\nF 6\nG 4\nH 9\nI 1\nJ 7\n",
        ("tied-root", "equal-bound"),
        diagram=r"""
                 A               max
        West/  Stop|  \East
           B       C       D     ghost
          / \     / \     / \
         E   F   G   H   I   J
         4   6   4   9   1   7
""",
    ),
    Spec(
        "tied-root-last-actions",
        "The last two root actions tie two plies down: either is right (any tied-best action is).",
        2,
        2,
        "A West B\nA East C\nA North D\n"
        "B West E\nC West F\nC East G\nD West H\nD East I\n"
        "E West J\nF West K\nF East L\nG West M\nH West N\nH East O\nI West P\n"
        "J West Q\nK West R\nL West S\nM West T\nN West U\nO West V\nP West W\n",
        "B 0\nC 0\nD 0\nE 1\nF 3\nG 5\nH 5\nI 3\nJ 2\nK 4\nL 7\nM 5\nN 3\nO 6\nP 4\n"
        "Q 1\nR 4\nS 7\nT 5\nU 6\nV 3\nW 4\n",
        ("tied-root",),
        diagram=r"""
                  A                          max
       West/   East|       \North
          B        C            D            ghost
          |      /   \        /   \
          E     F     G      H     I         max
          |    / \    |     / \    |
          J   K   L   M    N   O   P         ghost
          |   |   |   |    |   |   |
          Q   R   S   T    U   V   W
          1   4   7   5    6   3   4
""",
    ),
    Spec(
        "three-way-chance",
        "A ghost with three moves: the mean of 0, 0 and 9 is 3 (averaging two at a time gives "
        "4.5).",
        1,
        2,
        "A West B\nA East C\nB West D\nB East E\nB North F\nC West G\nC East H\nC North I\n",
        "D 0\nE 0\nF 9\nG 4\nH 4\nI 4\n",
        ("chance",),
        diagram=r"""
                 A                 max
          West/     \East
             B         C           chance
           / | \     / | \
          D  E  F   G  H  I
          0  0  9   4  4  4
""",
        algorithms=("expectimax",),
    ),
    Spec(
        "three-ghost-moves-depth-2",
        "Ghosts with three moves two plies deep: a mean of three, not of two at a time.",
        2,
        2,
        "A West B\nA East C\nB West D\nB East E\nB North F\nC West G\nC East H\nC North I\n"
        "D West J\nE West K\nF West L\nG West M\nH West N\nI West O\n"
        "J West P\nJ East Q\nJ North R\nK West S\nL West T\nM West U\nN West V\nO West W\n",
        "P 1\nQ 1\nR 30\nS 2\nT 3\nU 5.5\nV 5.5\nW 5.5\n",
        ("chance",),
        algorithms=("expectimax",),
    ),
    Spec(
        "tied-root-expectimax",
        "Under expectimax the first two actions have the same average (either is right); "
        "minimax breaks the tie.",
        1,
        2,
        "A West B\nA East C\nA North D\nB West E\nB East F\nC West G\nC East H\n"
        "D West I\nD East J\n",
        "E 5\nF 5\nG 3\nH 7\nI 0\nJ 2\n",
        ("lecture",),
        diagram=r"""
                 A               max
        West/  East|  \North
           B       C       D     ghost
          / \     / \     / \
         E   F   G   H   I   J
         5   5   3   7   0   2
""",
    ),
    Spec(
        "lose-trap-depth-2",
        "A lost state two moves down ends the game: it is scored, and it has no moves.",
        2,
        2,
        "A West B\nA East C\nB West D\nB East E\nC West F\nC East G\n"
        "E West K\nK West L\nL West M\nF West N\nN West O\nO West P\n"
        "G West Q\nQ West R\nR West S\n",
        "B 0\nC 0\nD -100\nE 9\nF 6\nG 7\nK 9\nL 9\nM 9\nN 6\nO 6\nP 6\nQ 7\nR 7\nS 7\n",
        ("win-lose-above-depth",),
        lose=("D",),
        diagram=r"""
              A                  max
       West/     \East
          B         C            ghost
        /   \     /   \
     D LOSE  E   F     G         max   (D ends the game: no moves)
      -100   |   |     |
             K   N     Q         ghost
             |   |     |
             L   O     R         max
             |   |     |
             M   P     S
             9   6     7
""",
    ),
    Spec(
        "win-at-pacman-turn",
        "Pacman wins after one ply on the left: the won state is scored, not searched further.",
        2,
        2,
        "A West B\nA East C\nB West D\nB East E\nC West F\nC East G\n"
        "E West H\nH West I\nF West J\nJ West K\nG West L\nL West M\n"
        "I West N\nN West O\nK West P\nP West Q\nM West R\nR West S\n",
        "B 0\nC 0\nD 500\nE 60\nH 60\nI 60\nF 30\nJ 30\nK 30\nG 40\nL 40\nM 40\n"
        "N 0\nO 0\nP 0\nQ 0\nR 0\nS 0\n",
        ("win-lose-above-depth",),
        win=("D",),
        diagram=r"""
              A                 max
       West/     \East
          B         C           ghost
        /   \     /   \
    D WIN    E   F     G        max
    500      |   |     |
             H   J     L        ghost
             |   |     |
             I   K     M
            60  30    40        (and one more ply of chains below)
""",
    ),
    Spec(
        "lose-next-to-root",
        "Moving West loses at once; the lost state has no moves and must be scored.",
        1,
        2,
        "A West B\nA East C\nC West D\nC East E\nD West F\nE West G\nF West H\nG West I\n",
        "B -500\nD 3\nE 5\nF 0\nG 0\nH 9\nI 9\n",
        ("win-lose-above-depth",),
        lose=("B",),
        diagram=r"""
           A              max
    West/     \East
    B LOSE      C         ghost
    -500      /   \
             D     E      (one more ply below D and E,
             3     5       for searches that go too deep)
""",
    ),
    Spec(
        "every-move-loses",
        "Every move loses (the ghost catches Pacman either way): the agent must still move, "
        "choosing the loss its evaluation ranks best.",
        1,
        2,
        "A West B\nA East C\nB West D\nB East E\nC West F\nC East G\n",
        "D -500\nE -510\nF -490\nG -530\n",
        ("win-lose-above-depth", "advice"),
        lose=("D", "E", "F", "G"),
        diagram=r"""
             A              max
      West/     \East
         B         C        ghost
       /   \     /   \
      D     E   F     G     every one a lost state
    -500 -510 -490 -530
""",
    ),
    Spec(
        "every-move-loses-two-ghosts",
        "With two ghosts, every move ends caught by the second ghost: the agent must still "
        "move, choosing the loss its evaluation ranks best.",
        1,
        3,
        "A West B\nA East C\nB West D\nC West E\nD West F\nD East G\nE West H\nE East I\n",
        "F -500\nG -505\nH -495\nI -520\n",
        # Advice: no classic tree has a position where every move loses, so a search that
        # ranks every loss alike (-inf) is not failed for it; a None returned is named.
        ("win-lose-above-depth", "advice"),
        lose=("F", "G", "H", "I"),
        diagram=r"""
             A              max
      West/     \East
         B         C        ghost 1
         |         |
         D         E        ghost 2
       /   \     /   \
      F     G   H     I     every one a lost state
    -500 -505 -495 -520
""",
    ),
    Spec(
        "two-ghosts-depth-1",
        "Two ghosts each move once after Pacman before the leaves are scored.",
        1,
        3,
        "A West B\nA East C\nB West D\nB East E\nC West F\nC East G\n"
        "D West H\nD East I\nE West J\nE East K\nF West L\nF East M\nG West N\nG East O\n",
        "B 5\nC 5\nD 3\nE 10\nF 9\nG 8\nH 6\nI 9\nJ 4\nK 8\nL 7\nM 2\nN 5\nO 10\n",
        ("lecture",),
        diagram=r"""
                      A                        max
            West/            \East
               B                 C             ghost 1
           /       \         /       \
          D         E       F         G        ghost 2
         / \       / \     / \       / \
        H   I     J   K   L   M     N   O
        6   9     4   8   7   2     5   10
""",
    ),
    Spec(
        "three-ghosts-depth-1",
        "Three ghosts move in turn (ghost 1, 2, then 3) before the leaves are scored.",
        1,
        4,
        "A West B\nA East C\nB West D\nB East E\nC West F\nC East G\n"
        "D West H\nD East I\nE West J\nF West K\nF East L\nG West M\n"
        "H West N\nH East O\nI West P\nJ West Q\nJ East R\nK West S\nL West T\nL East U\n"
        "M West V\nM East W\n",
        "B 0\nC 0\nD 2\nE 9\nF 1\nG 8\nH 4\nI 9\nJ 3\nK 0\nL 6\nM 7\n"
        "N 8\nO 5\nP 7\nQ 6\nR 9\nS 9\nT 1\nU 4\nV 8\nW 6\n",
        ("lecture",),
        diagram=r"""
                        A                          max
              West/            \East
                 B                 C               ghost 1
              /     \           /     \
             D       E         F       G           ghost 2
            / \      |        / \      |
           H   I     J       K   L     M           ghost 3
          / \  |    / \      |  / \   / \
         N  O  P   Q   R     S  T  U  V  W
         8  5  7   6   9     9  1  4  8  6
""",
    ),
    Spec(
        "pacman-alone-depth-1",
        "One agent only, one ply: Pacman moves once and the states are scored.",
        1,
        1,
        "A West B\nA East C\nB West D\nC West E\n",
        "B 4\nC 6\nD 9\nE 0\n",
        (),
        diagram=r"""
           A        max
    West/     \East
       B         C  (scored: one ply)
       4         6
       |         |
       D         E  (for searches that go too deep)
       9         0
""",
    ),
    Spec(
        "pacman-alone",
        "One agent only: every ply is a single Pacman move.",
        2,
        1,
        "A West B\nA East C\nB West D\nB East E\nC West F\nC East G\n"
        "D West H\nE West I\nF West J\nG West K\n",
        "B 1\nC 2\nD 4\nE 3\nF 5\nG 0\nH 0\nI 9\nJ 1\nK 2\n",
        (),
        diagram=r"""
              A              max
       West/     \East
          B         C        max
        /   \     /   \
       D     E   F     G
       4     3   5     0
""",
    ),
]


def _names() -> Iterator[str]:
    for size in itertools.count(1):
        for letters in itertools.product("ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeat=size):
            yield "".join(letters)


# --- chains that pay off at one depth each ------------------------------------------


def depth_turns(depth: int, agents: int) -> dict[str, int]:
    """After how many moves the reference and each depth bug evaluate a chain."""
    turns = {"reference": depth * agents}
    if depth >= 2:
        turns["depth-per-agent"] = depth
        turns["depth-after-pacman"] = (depth - 1) * agents + 1
        turns["one-ply-too-shallow"] = (depth - 1) * agents
    else:
        turns["depth-per-agent"] = 1
    turns["one-ply-too-deep"] = (depth + 1) * agents
    if agents > 2:
        turns["one-ghost-layer"] = depth * 2
    return turns


def chain_spec(depth: int, agents: int) -> Spec:
    """Chains from the root, each worth 100 at the move count where one search scores."""
    turns = sorted(set(depth_turns(depth, agents).values()))
    longest = max(turns)
    names = _names()
    next(names)
    tree, values, rows = [], [], []
    for t_pay in turns:
        action = f"t{t_pay}"
        prev = "A"
        row = []
        for t in range(1, longest + 1):
            name = next(names)
            tree.append(f"{prev} {action if t == 1 else 'go'} {name}")
            value = 100 if t == t_pay else 0
            values.append(f"{name} {value}")
            row.append(f"{name}={value}" if t == t_pay else name)
            prev = name
        rows.append(f"A -{action}-> " + " - ".join(row))
    diagram = (
        f"Root A has one chain per action; chain tK is worth 100 only after K moves\n"
        f"(the reference scores after {depth} x {agents} = {depth * agents} moves).\n"
        + "\n".join(rows)
    )
    return Spec(
        f"chain-{agents}agents-depth{depth}",
        f"Chains that pay off at different depths: only the right depth (depth {depth}, "
        f"{agents} agents) picks t{depth * agents}.",
        depth,
        agents,
        "\n".join(tree),
        "\n".join(values),
        ("deep-chain",),
        diagram=diagram,
    )


CHAINS = [chain_spec(d, n) for n, d in [(2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (3, 4), (4, 3)]]


# --- seeded random trees ------------------------------------------------------------


def random_spec(seed: int, agents: int, depth: int, budget: int = 60) -> Spec:
    """A seeded random tree with every state valued.

    Some states above the limit are won or lost (a finished game has no moves), and some
    leaves have one more ply below them to expose searches that go deeper than asked.
    """
    rng = random.Random(seed)
    names = _names()
    start = next(names)
    tree: list[str] = []
    values: dict[str, int] = {}
    win: list[str] = []
    lose: list[str] = []
    limit = depth * agents
    queue = [(start, 0)]
    count = 1

    def add(parent: str, moves: tuple[str, ...], width: int, turn: int) -> None:
        nonlocal count
        chosen = rng.sample(moves, width)
        if chosen == ["Stop"]:  # Pacman always has a move besides Stop, as in a real maze
            chosen = [rng.choice(moves[2:])]
        for action in sorted(chosen, key=moves.index):
            child = next(names)
            tree.append(f"{parent} {action} {child}")
            queue.append((child, turn))
            count += 1

    while queue:
        name, turn = queue.pop(0)
        values[name] = rng.randint(-5, 5)
        agent = turn % agents
        moves = PACMAN_MOVES if agent == 0 else GHOST_MOVES
        if 0 < turn < limit and rng.random() < 0.1:
            won = rng.random() < 0.5
            (win if won else lose).append(name)
            values[name] = rng.randint(10, 20) if won else rng.randint(-20, -10)
        elif turn < limit:
            width = 1 if count >= budget else rng.randint(2, 3) if agent == 0 else rng.randint(1, 2)
            add(name, moves, width, turn + 1)
        elif (turn == limit and rng.random() < 0.5) or limit < turn < limit + agents:
            add(name, moves, 1, turn + 1)  # one more ply below the limit
    return Spec(
        f"random-{agents}agents-depth{depth}-seed{seed}",
        f"A seeded random tree ({agents} agents, depth {depth}, seed {seed}) with small "
        "values, so ties and equal bounds are common.",
        depth,
        agents,
        "\n".join(tree),
        "\n".join(f"{k} {v}" for k, v in values.items()),
        ("random",),
        win=tuple(win),
        lose=tuple(lose),
    )


RANDOM = [
    random_spec(seed, agents, depth, budget)
    for seed, agents, depth, budget in [
        (1, 2, 1, 40),
        (2, 2, 2, 50),
        (3, 2, 2, 50),
        (4, 2, 3, 60),
        (5, 2, 4, 70),
        (6, 3, 1, 40),
        (7, 3, 2, 60),
        (8, 3, 2, 60),
        (9, 3, 3, 70),
        (10, 4, 1, 50),
        (11, 4, 2, 70),
        (12, 5, 1, 50),
        (13, 5, 2, 30),
        (14, 2, 3, 60),
    ]
]


# --- writing ------------------------------------------------------------------------


def _game(spec: Spec) -> TreeGame:
    edges = [tuple(line.split()) for line in spec.tree.splitlines() if line.split()]
    values = {
        line.split()[0]: float(line.split()[1]) for line in spec.values.splitlines() if line.split()
    }
    return TreeGame.from_edges(
        spec.start,
        edges,  # type: ignore[arg-type]
        values,
        num_agents=spec.agents,
        win_states=spec.win,
        lose_states=spec.lose,
    )


def _computed_tags(spec: Spec, algorithm: str, game: TreeGame) -> list[str]:
    tags = [f"depth-{spec.depth}"]
    named = {1: "one-agent", 2: "two-agents", 3: "three-agents"}
    tags.append(named.get(spec.agents, "many-agents"))
    limit = spec.depth * spec.agents

    def terminal_above(name: str, turn: int) -> bool:
        if name in game.win_states or name in game.lose_states:
            return 0 < turn < limit
        return turn < limit and any(terminal_above(c, turn + 1) for _, c in game.children(name))

    if terminal_above(game.start, 0):
        tags.append("win-lose-above-depth")

    def run(alg: str, flaws: Flaws = Flaws()) -> tuple[object, frozenset[str]]:  # noqa: B008
        seen = {game.start}
        result = flawed_search(
            game.root,
            algorithm=alg,
            depth=spec.depth,
            evaluate=game.evaluate,
            observe=lambda s: seen.add(s.name),
            flaws=flaws,
        )
        return result.action, frozenset(seen)

    if _is_tied(game, spec.depth, algorithm):
        tags.append("tied-root")
    if run("alpha_beta")[1] != run("minimax")[1]:
        tags.append("pruning")
    if run("alpha_beta")[1] != run("alpha_beta", BUGS["prune-on-equality"].flaws)[1]:
        tags.append("equal-bound")
    return tags


def _is_tied(game: TreeGame, depth: int, algorithm: str) -> bool:
    """Whether two root actions share the best value under ``algorithm``."""
    n = game.num_agents

    def value(name: str, turn: int) -> float:
        if name in game.win_states or name in game.lose_states or turn == depth * n:
            return game.evaluation[name]
        kids = [value(c, turn + 1) for _, c in game.children(name)]
        if turn % n == 0:
            return max(kids)
        chance = algorithm_row(algorithm).ghost_role == "chance"
        return sum(kids) / len(kids) if chance else min(kids)

    root = [value(c, 1) for _, c in game.children(game.start)]
    return root.count(max(root)) > 1


def _block(text: str) -> str:
    lines = [line.strip() for line in text.strip("\n").splitlines()]
    return "\n".join(line for line in lines if line)


def write(spec: Spec, algorithm: str) -> Path:
    """Write ``spec`` as the case file of ``algorithm``, without its answer."""
    game = _game(spec)
    tags = list(dict.fromkeys([*spec.tags, *_computed_tags(spec, algorithm, game)]))
    diagram = spec.diagram.strip("\n") or draw_tree(game, spec.depth, algorithm=algorithm)
    quoted = ", ".join(f'"{t}"' for t in tags)
    text = (
        f"{GENERATED}"
        f'description = "{spec.description}"\n'
        f'algorithm = "{algorithm}"\n'
        f"depth = {spec.depth}\n"
        f"agents = {spec.agents}\n"
        f"tags = [{quoted}]\n"
        f'start = "{spec.start}"\n'
        f"win = [{', '.join(repr(s).replace(chr(39), chr(34)) for s in spec.win)}]\n"
        f"lose = [{', '.join(repr(s).replace(chr(39), chr(34)) for s in spec.lose)}]\n"
        f"diagram = '''\n{diagram}\n'''\n"
        f"tree = '''\n{_block(spec.tree)}\n'''\n"
        f"values = '''\n{_block(spec.values)}\n'''\n"
    )
    path = HERE / algorithm / f"{spec.stem}.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def is_generated(path: Path) -> bool:
    """Whether ``path`` is a case file this script wrote (it starts with `GENERATED`)."""
    with path.open(encoding="utf-8", errors="replace") as f:
        return f.readline() == GENERATED


def main() -> None:
    """Write every case, delete the stale generated ones, and fill in the answers."""
    written = set()
    for spec in [*HAND, *CHAINS, *RANDOM]:
        for algorithm in spec.algorithms:
            written.add(write(spec, algorithm))
    for algorithm in algorithm_names():  # only the tree folders: the other cases are not ours
        for path in (HERE / algorithm).glob("*.toml"):
            if path not in written and is_generated(path):
                path.unlink()
    generate_tree_solutions(HERE)
    for algorithm in algorithm_names():
        print(algorithm, len(list((HERE / algorithm).glob("*.toml"))), "cases")


if __name__ == "__main__":
    main()
