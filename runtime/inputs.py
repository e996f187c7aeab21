"""
A network's inputs as users hold them: int8 NCHW arrays by name, drawn from a seed where
not given. The golden executor and the machine complete and check inputs the same way,
so both run a module on the same values.

    >>> completed_inputs({"image": (1, 3, 2, 2)}, {}, seed=0)["image"].dtype
    dtype('int8')
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from stc.compiler.diagnostics import StcError

Arrays = dict[str, np.ndarray]
"""Arrays by input or output name."""


def random_int8_inputs(shapes: Mapping[str, tuple[int, ...]], seed: int) -> Arrays:
    """Uniform int8 arrays of the given NCHW shapes, drawn in order from one generator."""
    rng = np.random.default_rng(seed)
    inputs: Arrays = {}
    for name, shape in shapes.items():
        try:
            inputs[name] = rng.integers(-128, 128, size=shape, dtype=np.int8)
        except MemoryError as e:
            raise StcError(f"input {name!r}: out of memory ({e})") from None
    return inputs


def completed_inputs(shapes: Mapping[str, tuple[int, ...]], given: Mapping[str, np.ndarray], seed: int) -> Arrays:
    """`given`, plus the inputs it lacks drawn from `seed` as `random_int8_inputs` draws them
    (nothing is drawn when none is missing)."""
    if shapes.keys() <= given.keys():
        return dict(given)
    return random_int8_inputs(shapes, seed) | dict(given)


def check_int8_inputs(owner: str, shapes: Mapping[str, tuple[int, ...]], inputs: Mapping[str, np.ndarray]) -> None:
    """Check that `inputs` names only inputs of `owner` and holds int8 values (in an
    integer array of any width) of each input's NCHW shape."""
    if unknown := sorted(set(inputs) - set(shapes)):
        raise StcError(f"{owner} has no input {unknown[0]!r} (inputs: {', '.join(shapes)})")
    for name, shape in shapes.items():
        array = inputs[name]
        if array.shape != shape:
            raise StcError(f"input {name!r} must be NCHW {list(shape)}, got {list(array.shape)}")
        if array.dtype.kind not in "iu":
            raise StcError(f"input {name!r} must hold int8 values, got {array.dtype}")
        if array.size and (array.min() < -128 or array.max() > 127):
            raise StcError(f"input {name!r} must hold int8 values, got {array.dtype} in [{array.min()}, {array.max()}]")
