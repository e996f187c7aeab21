"""
The moves of seed 002's annealing on RA trees, with SET's relative weights. Each takes a
copy of the tree and returns the changed copy, or None when the move does not apply.

| move | weight | does |
|---|---|---|
| `swap_before` | 10 | swap a subtree with its preceding sibling, if it does not read from it |
| `swap_after` | 10 | swap with the following sibling, if that one does not read from it |
| `remove_cut` | 20 | delete a cut, splicing its children into its parent |
| `wrap_range` | 20 | wrap consecutive siblings in a new cut of the other kind (at the root: T half the time) |
| `fewer_subbatches` | 20 | halve a cut's subbatch count ("batch down": larger subbatches) |
| `more_subbatches` | 20 | double a cut's subbatch count ("batch up") |
| `move_leaf` | 40 | move a layer into the neighbouring cut, or out of its cut to the grandparent |
| `shift_boundary` | 20 | stc's: move the last child of a segment to the front of the next, or back |
| `split_segment` | 10 | stc's: cut a segment in two of the same kind and subbatches |
| `split_cores` | 10 | stc's: a T-cut becomes an S-cut of two T-cuts (its children before and after a point) |

Wrapping children of a root T-cut of one subbatch merges segments: stc's one deviation from
SET's moves, the new cut takes the largest subbatch count of the wrapped segments, and
one-layer segments join it as layers, so that merging does not always overflow the buffers.

Segments are the children of a root T-cut of one subbatch. SET's moves reach a segment
one layer longer or shorter only through a one-layer segment of the whole batch, which
rarely fits the buffers; `shift_boundary` and `split_segment` move a boundary directly and
keep the layers' order.

Only the swaps change the order of the layers, and only when no dependence is crossed, so
the depth-first leaf order stays a topological order of the network. `legal` checks what a
tree must satisfy before it is priced.

    tree = mutate(tree, rng, rules)
"""

from __future__ import annotations

import random

from attrs import frozen

from stc.compiler.cost.network import Network
from stc.compiler.cost.tree import Node


@frozen
class Rules:
    """What the moves need to know: producers of each layer, the batch, the space searched
    ("set": any tree; "ls": T-cuts only; "lp": a root T-cut over S-cuts of layers)."""

    producers: tuple[frozenset[int], ...]
    batch: int
    space: str = "set"

    @staticmethod
    def of(network: Network, space: str = "set") -> Rules:
        return Rules(tuple(frozenset(layer.producers) for layer in network.layers), network.batch, space)

    def reads(self, reader: Node, writer: Node) -> bool:
        """Whether a layer of `reader` reads a layer of `writer`."""
        written = set(writer.leaves())
        return any(self.producers[layer] & written for layer in reader.leaves())


def parents(tree: Node) -> list[tuple[Node, int]]:
    """(parent, index) of every node but the root."""
    return [(node, index) for node in tree.nodes() for index in range(len(node.children))]


def cuts(tree: Node) -> list[Node]:
    return [node for node in tree.nodes() if not node.is_leaf]


def swap_before(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    options = [(parent, i) for parent, i in parents(tree) if i > 0]
    if not options:
        return None
    parent, i = rng.choice(options)
    mover, other = parent.children[i], parent.children[i - 1]
    if rules.reads(mover, other):
        return None
    parent.children[i - 1], parent.children[i] = mover, other
    return tree


def swap_after(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    options = [(parent, i) for parent, i in parents(tree) if i + 1 < len(parent.children)]
    if not options:
        return None
    parent, i = rng.choice(options)
    mover, other = parent.children[i], parent.children[i + 1]
    if rules.reads(other, mover):
        return None
    parent.children[i], parent.children[i + 1] = other, mover
    return tree


def remove_cut(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    options = [(parent, i) for parent, i in parents(tree) if not parent.children[i].is_leaf]
    if not options:
        return None
    parent, i = rng.choice(options)
    parent.children[i : i + 1] = parent.children[i].children
    return tree


def wrap_range(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    options = [node for node in cuts(tree) if len(node.children) >= 2]
    if not options:
        return None
    parent = rng.choice(options)
    count = len(parent.children)
    longest = count if parent is tree else count - 1
    if longest < 2:
        return None
    length = rng.randint(2, longest)
    start = rng.randint(0, count - length)
    kind = "S" if parent.kind == "T" else "T"
    if parent is tree and rng.random() < 0.5:
        kind = "T"
    chosen = parent.children[start : start + length]
    if parent is tree and parent.kind == "T" and parent.n == 1:
        # merging segments: one-layer segments join as layers, the new one keeps their subbatches
        n = max(child.n for child in chosen)
        chosen = [child.children[0] if len(child.children) == 1 else child for child in chosen]
        wrapped = Node.cut(kind, chosen, n)
    else:
        wrapped = Node.cut(kind, chosen)
    parent.children[start : start + length] = [wrapped]
    return tree


def fewer_subbatches(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    options = [node for node in cuts(tree) if node.n % 2 == 0]
    if not options:
        return None
    rng.choice(options).n //= 2
    return tree


def more_subbatches(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    options = cuts(tree)
    rng.choice(options).n *= 2
    return tree


def move_leaf(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    leaves = [(parent, i) for parent, i in parents(tree) if parent.children[i].is_leaf]
    parent, i = rng.choice(leaves)
    leaf = parent.children[i]
    grand = next(((node, j) for node, j in parents(tree) if node.children[j] is parent), None)
    options = []
    if i > 0 and not parent.children[i - 1].is_leaf:
        options.append("into previous")
    if i + 1 < len(parent.children) and not parent.children[i + 1].is_leaf:
        options.append("into next")
    if grand is not None and i in (0, len(parent.children) - 1):
        options.append("out")
    if not options:
        return None
    choice = rng.choice(options)
    if choice == "into previous":
        parent.children[i - 1].children.append(parent.children.pop(i))
    elif choice == "into next":
        parent.children[i + 1].children.insert(0, parent.children.pop(i))
    else:
        assert grand is not None
        node, j = grand
        parent.children.pop(i)
        node.children.insert(j if i == 0 else j + 1, leaf)
    return tree


def segment_cuts(tree: Node) -> list[int]:
    """Indices of the root's children that are segments of several children (cuts)."""
    if tree.kind != "T" or tree.n != 1:
        return []
    return [i for i, child in enumerate(tree.children) if not child.is_leaf]


def shift_boundary(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    segments = segment_cuts(tree)
    pairs = [i for i in segments if i + 1 in segments]
    if not pairs:
        return None
    i = rng.choice(pairs)
    before, after = tree.children[i], tree.children[i + 1]
    if rng.random() < 0.5:
        after.children.insert(0, before.children.pop())
    else:
        before.children.append(after.children.pop(0))
    return tree


def split_segment(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    options = [i for i in segment_cuts(tree) if len(tree.children[i].children) >= 2]
    if not options:
        return None
    i = rng.choice(options)
    segment = tree.children[i]
    at = rng.randint(1, len(segment.children) - 1)
    halves = [Node.cut(segment.kind, part, segment.n) for part in (segment.children[:at], segment.children[at:])]
    tree.children[i : i + 1] = halves
    return tree


def split_cores(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    """A T-cut of several children becomes an S-cut of two T-cuts, its children before and
    after a random point, with its subbatches: the two halves run on their own cores, the
    second a stage behind the first when it reads from it."""
    options = [node for node in cuts(tree) if node.kind == "T" and len(node.children) >= 2]
    if not options:
        return None
    node = rng.choice(options)
    at = rng.randint(1, len(node.children) - 1)
    halves = [Node.cut("T", part) for part in (node.children[:at], node.children[at:])]
    node.kind, node.children = "S", halves
    return tree


MOVES = (
    swap_before,
    swap_after,
    remove_cut,
    wrap_range,
    fewer_subbatches,
    more_subbatches,
    move_leaf,
    shift_boundary,
    split_segment,
    split_cores,
)
WEIGHTS = (10, 10, 20, 20, 20, 20, 40, 20, 10, 10)


def tidy(tree: Node) -> Node:
    """Drop empty cuts and replace a one-child cut of one subbatch by its child (not the root)."""
    for node in list(tree.nodes()):
        node.children = [child for child in node.children if child.is_leaf or child.children]
        node.children = [
            child.children[0] if not child.is_leaf and len(child.children) == 1 and child.n == 1 else child
            for child in node.children
        ]
    return tree


def legal(tree: Node, rules: Rules) -> bool:
    """Layers in an order their dependences allow, every cut non-empty with a subbatch count
    dividing its batch, and the tree inside the searched space."""
    seen: set[int] = set()
    for layer in tree.leaves():
        if not rules.producers[layer] <= seen:
            return False
        seen.add(layer)
    if tree.is_leaf or not in_batches(tree, rules.batch):
        return False
    return in_space(tree, rules.space)


def in_batches(node: Node, batch: int) -> bool:
    if node.is_leaf:
        return True
    if not node.children or node.n < 1 or batch % node.n:
        return False
    return all(in_batches(child, batch // node.n) for child in node.children)


def in_space(tree: Node, space: str) -> bool:
    if space == "ls":
        return all(node.kind != "S" for node in tree.nodes())
    if space == "lp":
        return tree.kind == "T" and all(
            child.is_leaf or (child.kind == "S" and all(c.is_leaf for c in child.children)) for child in tree.children
        )
    return True


def propose(tree: Node, rng: random.Random, rules: Rules) -> tuple[str, Node | None]:
    """A random move (by SET's weights) applied to a copy: the move's name and the changed
    tree, None when the move does not apply or leaves a tree that is not legal."""
    move = rng.choices(MOVES, WEIGHTS)[0]
    changed = move(tree.copy(), rng, rules)
    if changed is None:
        return move.__name__, None
    changed = tidy(changed)
    return move.__name__, changed if legal(changed, rules) else None


def mutate(tree: Node, rng: random.Random, rules: Rules) -> Node | None:
    """`propose`'s tree."""
    return propose(tree, rng, rules)[1]


def propose_legal(tree: Node, rng: random.Random, rules: Rules, attempts: int) -> list[tuple[str, Node | None]]:
    """Moves drawn until one leaves a legal tree, at most `attempts`: every draw's name and
    tree (None but for the last, which is None too when none applied)."""
    drawn = []
    for _ in range(attempts):
        name, changed = propose(tree, rng, rules)
        drawn.append((name, changed))
        if changed is not None:
            break
    return drawn
