"""The pieces of `stc.tools.xdsl_filecheck` that need neither the network nor lit."""

import subprocess
from pathlib import Path

import click
import pytest

from stc.tools.xdsl_filecheck import stc_opt_as_xdsl_opt, vendored_tests

VENDORED = Path(__file__).parents[1] / "lit" / "xdsl-0.74.0" / "tests" / "filecheck"


def test_the_xdsl_opt_it_puts_first_on_path_is_stc_opt(tmp_path: Path):
    shim = stc_opt_as_xdsl_opt(tmp_path) / "xdsl-opt"
    version = subprocess.run([shim, "--version"], capture_output=True, text=True, check=True).stdout
    assert version.startswith("stc-opt ")


def test_vendored_tests_are_named_by_their_path_in_the_suite_and_must_be_upstreams(tmp_path: Path):
    suite, vendored = tmp_path / "suite", tmp_path / "vendored"
    for folder in (suite / "dialects", vendored / "dialects"):
        folder.mkdir(parents=True)
        (folder / "ops.mlir").write_text("// RUN: true\n")
    (vendored / "lit.local.cfg").write_text("")
    assert vendored_tests(vendored, suite) == ["dialects/ops.mlir"]
    (vendored / "dialects" / "ops.mlir").write_text("// RUN: false\n")
    with pytest.raises(click.ClickException, match="dialects/ops.mlir"):
        vendored_tests(vendored, suite)


def test_the_vendored_subset_is_in_place():
    assert len(list(VENDORED.rglob("*.mlir"))) >= 40
    assert (VENDORED.parents[1] / "LICENSE").read_text().startswith("=" * 78 + "\nThe xDSL project is under the Apache")
