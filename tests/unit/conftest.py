"""Shared helpers of the unit tests."""

import os
import resource
from pathlib import Path

import pytest
from hypothesis import settings
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from stc.compiler import targets
from stc.compiler.ir_files import stc_context


def parse(text: str) -> ModuleOp:
    module = Parser(stc_context(), text).parse_module()
    module.verify()
    return module


# No per-example deadline: the suite runs on shared, loaded machines, where hypothesis's 200 ms
# deadline fails correct code; speed is measured in the benchmarks (tools/bench_*.py).
settings.register_profile("stc", deadline=None)
settings.load_profile("stc")


@pytest.fixture(scope="module")
def small_tianjicx(tmp_path_factory: pytest.TempPathFactory) -> str:
    """tianjicx's memory and alignment rules on a 2×2 mesh."""
    text = (Path(targets.__file__).parent / "tianjicx.toml").read_text()
    text = text.replace("cores_y = 10", "cores_y = 2").replace("cores_x = 16", "cores_x = 2")
    text = text.replace("row_max = 9", "row_max = 1").replace("column_max = 15", "column_max = 1")
    path = tmp_path_factory.mktemp("targets") / "tianjicx-2x2.toml"
    path.write_text(text)
    return str(path)


@pytest.fixture
def parse_ir():
    return parse


RLIMIT_BYTES = 1 << 30
"""The address space a resource bomb's subprocess gets (`limited_memory`)."""


def limited_memory() -> None:
    """Limit a subprocess to RLIMIT_BYTES (`subprocess.run(..., preexec_fn=limited_memory)`)."""
    resource.setrlimit(resource.RLIMIT_AS, (RLIMIT_BYTES, RLIMIT_BYTES))


def fuzz_examples(count: int) -> int:
    """The examples a fuzz test draws: `count` in CI, `STC_FUZZ_SCALE` times as many in an
    offline campaign (`STC_FUZZ_SCALE=20 pytest tests/unit/test_*fuzz*.py`)."""
    return count * int(os.environ.get("STC_FUZZ_SCALE", "1"))
