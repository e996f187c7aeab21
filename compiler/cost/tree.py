"""
RA trees (seed 002): leaves are layers; a T-cut runs its children one after another on the
same cores, an S-cut side by side on disjoint cores; a cut divides its batch into `n`
subbatches. The printed form is the seed's: `T 64/8` is a T-cut over batch 64 in 8
subbatches of 8, a leaf is `name batch`, depth is indentation.

    tree = Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=8)
    print(tree.notation(network, batch=64))
    T 64/8
        conv4 8
        conv9 8
"""

from __future__ import annotations

from collections.abc import Iterator

from stc.compiler.cost.network import Network

CUT_KINDS = ("T", "S")


class Node:
    """A leaf (`layer` set) or a cut (`kind` "T" or "S", `n` subbatches, children)."""

    __slots__ = ("kind", "layer", "n", "children")

    def __init__(self, kind: str, layer: int = -1, n: int = 1, children: list[Node] | None = None):
        self.kind = kind
        self.layer = layer
        self.n = n
        self.children: list[Node] = children or []

    @staticmethod
    def leaf(layer: int) -> Node:
        return Node("L", layer=layer)

    @staticmethod
    def cut(kind: str, children: list[Node], n: int = 1) -> Node:
        assert kind in CUT_KINDS
        return Node(kind, n=n, children=children)

    @property
    def is_leaf(self) -> bool:
        return self.kind == "L"

    def copy(self) -> Node:
        return Node(self.kind, self.layer, self.n, [child.copy() for child in self.children])

    def leaves(self) -> Iterator[int]:
        """The layers in depth-first order: the order they start in."""
        if self.is_leaf:
            yield self.layer
            return
        for child in self.children:
            yield from child.leaves()

    def nodes(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.nodes()

    def key(self) -> tuple:
        """A hashable form of the subtree."""
        if self.is_leaf:
            return (self.layer,)
        return (self.kind, self.n, tuple(child.key() for child in self.children))

    def notation(self, network: Network, batch: int, indent: str = "") -> str:
        """The seed's printed form; `batch` is this node's batch."""
        if self.is_leaf:
            return f"{indent}{network.layers[self.layer].name} {batch}"
        lines = [f"{indent}{self.kind} {batch}/{self.n}"]
        lines += [child.notation(network, batch // self.n, indent + "\t") for child in self.children]
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self.is_leaf:
            return f"L{self.layer}"
        return f"{self.kind}/{self.n}[{', '.join(map(repr, self.children))}]"
