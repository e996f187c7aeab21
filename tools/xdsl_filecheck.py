"""
xDSL's own filecheck suite, run with `xdsl-opt` and again with `stc-opt` in its place.

    python -m stc.tools.xdsl_filecheck [--cache build/xdsl-filecheck] [--only FOLDER]

The suite is not in xDSL's wheel. The first run downloads the source distribution of
the installed xDSL through pip into the cache folder and unpacks its `tests/filecheck`
there. lit then runs the suite twice: with the installed `xdsl-opt` (which loads stc's
universe, as for anyone who has stc installed), and with an `xdsl-opt` first on PATH
that runs `stc-opt`. Tests that need a tool this machine lacks (mlir-opt, llvmlite, ...)
are unsupported in both runs. It prints both pass counts and every test that passes in
one run only, and exits 1 if there is any.

`--only FOLDER` runs only the tests vendored in FOLDER (the subset `./dev test` runs),
after checking that each is byte-for-byte upstream's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from importlib.metadata import version
from pathlib import Path

import click

SUITE = "tests/filecheck"


def fetch_suite(cache: Path) -> Path:
    """xDSL's filecheck suite for the installed version, downloaded once into `cache`."""
    release = f"xdsl-{version('xdsl')}"
    suite = cache / release / SUITE
    if suite.is_dir():
        return suite
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / f"{release}.tar.gz"
    if not archive.is_file():
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
        subprocess.run([*pip, f"xdsl=={version('xdsl')}", "--dest", str(cache)], check=True)
    with tarfile.open(archive) as sources:
        members = [m for m in sources.getmembers() if m.name.startswith(f"{release}/{SUITE}/")]
        sources.extractall(cache, members=members, filter="data")
    return suite


def run_lit(suite: Path, path: str, tests: list[str], jobs: int) -> dict[str, str]:
    """Each test's result code (PASS, FAIL, UNSUPPORTED, ...) with PATH set to `path`."""
    lit = Path(sys.executable).parent / "lit"
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.json"
        command = [str(lit), "-q", "-j", str(jobs), "-o", str(results), *(str(suite / t) for t in tests or ["."])]
        done = subprocess.run(command, env=os.environ | {"PATH": path}, capture_output=True, text=True, check=False)
        if not results.is_file():
            raise click.ClickException(f"lit wrote no results:\n{done.stderr}")
        report = json.loads(results.read_text())
    return {test["name"].split(" :: ", 1)[1]: test["code"] for test in report["tests"]}


def stc_opt_as_xdsl_opt(folder: Path) -> Path:
    """A folder holding an `xdsl-opt` that runs this environment's `stc-opt`."""
    shim = folder / "xdsl-opt"
    shim.write_text(f'#!/bin/sh\nexec "{Path(sys.executable).parent / "stc-opt"}" "$@"\n')
    shim.chmod(0o755)
    return folder


def vendored_tests(folder: Path, suite: Path) -> list[str]:
    """The tests vendored in `folder`, by their path in the suite; each must be upstream's."""
    tests = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.mlir") if "Output" not in p.parts)
    changed = [t for t in tests if (folder / t).read_bytes() != (suite / t).read_bytes()]
    if changed:
        raise click.ClickException(f"vendored tests differ from xDSL's: {', '.join(changed)}")
    return tests


def summary(codes: dict[str, str]) -> str:
    counts = Counter(codes.values())
    return ", ".join(f"{n} {code.lower()}" for code, n in counts.most_common())


@click.command()
@click.option("--cache", default="build/xdsl-filecheck", show_default=True, type=click.Path(path_type=Path))
@click.option("--only", type=click.Path(exists=True, file_okay=False, path_type=Path), help="Vendored subset.")
@click.option("-j", "--jobs", default=2, show_default=True, help="lit workers.")
def main(cache: Path, only: Path | None, jobs: int) -> None:
    suite = fetch_suite(cache)
    tests = [] if only is None else vendored_tests(only, suite)
    path = os.pathsep.join((str(Path(sys.executable).parent), os.environ["PATH"]))
    xdsl = run_lit(suite, path, tests, jobs)
    with tempfile.TemporaryDirectory() as folder:
        stc = run_lit(suite, os.pathsep.join((str(stc_opt_as_xdsl_opt(Path(folder))), path)), tests, jobs)
    print(f"xDSL {version('xdsl')} filecheck suite, {len(xdsl)} tests{'' if only is None else f' in {only}'}:")
    print(f"  xdsl-opt: {summary(xdsl)}")
    print(f"  stc-opt:  {summary(stc)}")
    differ = sorted(t for t in xdsl if (xdsl[t] == "PASS") != (stc.get(t) == "PASS"))
    for test in differ:
        print(f"  {test}: xdsl-opt {xdsl[test]}, stc-opt {stc.get(test)}")
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
