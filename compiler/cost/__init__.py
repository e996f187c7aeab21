"""
The cost model (seed 002): what a schedule of a network on a target costs, priced with the
target's unit costs (`stc.compiler.targets.cost_units`), as the machine prices execution.

- `network`: a task graph as layers and the tensors between them;
- `mesh`: cores in snake order, links, the bytes XY routes put on them, DRAM ports;
- `partition`: how a layer is divided among its cores;
- `layer_cost`: one layer on its cores (a leaf); `staging`: NC1HWC0 staging of its inputs;
- `leaf_bound`: a lower bound of a leaf's cost; `leaf_pricing`: a leaf's cheapest partition;
- `recursion`: a cut from its children (the seed's rules);
- `tree`: RA trees and their notation; `schedule`: a tree unrolled into time slots;
- `evaluate`: a whole tree; `objective`: cost functions.

docs/cost-model.md describes the model and what it measured.
"""
