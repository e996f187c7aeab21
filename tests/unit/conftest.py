"""Shared helpers of the unit tests."""

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from stc.compiler.ir_files import stc_context


def parse(text: str) -> ModuleOp:
    module = Parser(stc_context(), text).parse_module()
    module.verify()
    return module


@pytest.fixture
def parse_ir():
    return parse
