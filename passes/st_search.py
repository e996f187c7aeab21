"""
The `st-search` pass: SET's schedule search (seed 002) as a mapping. For every task graph
it searches an RA tree with the cost model, lowers the best tree to an `st` action script
(splits per layer partition and subbatch, puts at cores, steps and phases) and runs that
script as `st-apply` would; the mapping keeps the tree and the estimate (`st.search`).
See `stc.compiler.search.searched_mapping` and docs/passes/st-search.md.

    stc-opt net.mlir -p 'st-search{target=tianjicx seed=0},st-route,st-lmem-alloc,isa-lower'
    stc-opt net.mlir -p 'st-search{target=set-8x8 script=net.script.mlir}'   # the script, editable

```mlir
st.mapping @tiny target "tianjicx" applied attributes {st.search = {tree = "T 1/1 ...", ...}} {
  st.split_group [4, 6] by [1, 8, 16, 1, 1]
  st.put_group_in 42 at (0, 0, 0, 0), (0, 0, axon)
}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.search.annealing import RETURN_EVERY
from stc.compiler.search.searched_mapping import SearchOptions, map_searched


@dataclass(frozen=True)
class StSearchPass(ModulePass):
    """
    Search, lower and apply a schedule for every task graph of the module.

    Options:

    - target: the hardware target (preset name or TOML path; default tianjicx).
    - cost: edp (default), energy, latency, or the seed's e<N>d / ed<N>.
    - seed: the seed of chain 0 (chain i uses seed + i); the result is deterministic for it.
    - rounds: annealing rounds per chain (default 25 per layer; SET's are 100).
    - chains: independent chains, run on the machine's cores (default 2).
    - budget: seconds (from the search's start) after which every chain stops; each chain
      cools and returns to its best tree over the budget as over its rounds, whichever ends
      first (then the result depends on speed).
    - space: set (default), ls (layer-sequential) or lp (layer-pipeline).
    - script: a file to write the graph and its unapplied script to.
    - relay: on a target of several cores without multicast loads (tianjicx, aie-ml), a
      box several cores load in one phase is loaded once and sent on by its loader
      (default true; false: each core loads its own copy).
    - every: each chain returns to its best tree after each such fraction of its rounds
      (default 0.1; 1: only at the end).
    - polish: each chain ends by joining one-layer pool and add segments to a neighbour
      where that is cheaper (default true).
    """

    name = "st-search"

    target: str = "tianjicx"
    cost: str = "edp"
    seed: int = 0
    rounds: int | None = None
    chains: int = 2
    budget: float | None = None
    space: str = "set"
    script: str | None = None
    relay: bool = True
    every: float = RETURN_EVERY
    polish: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        search = (self.seed, self.rounds, self.chains, self.budget, self.space, self.script, self.relay, self.every)
        search += (self.polish,)
        options = SearchOptions(self.target, self.cost, *search)
        map_searched(op, options)
