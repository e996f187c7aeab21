"""
`stc-opt`: xdsl-opt with stc's dialects, passes and targets.

    stc-opt net.mlir -p 'task-split{task=3 vector=2,1,1,1}' -o split.mlir

Every xdsl-opt flag works. stc's dialects and passes reach it through the
`xdsl.universe` entry point (stc.tools.universe), lazily. Bad input ends with one
message on stderr and exit code 1. Otherwise it behaves as xdsl-opt: xDSL's own
filecheck suite passes the same with either (`python -m stc.tools.xdsl_filecheck`).
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import sys
import warnings
from collections.abc import Callable, Sequence
from io import BytesIO
from pathlib import Path
from typing import IO, cast, get_args, get_origin, get_type_hints

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.targets.mlir import MLIRTarget
from xdsl.utils.arg_spec import ArgSpec, ArgSpecConvertible, parse_pipeline, parse_spec
from xdsl.utils.arg_spec import _convert_arg_to_type as convert_option  # pyright: ignore[reportPrivateUsage]
from xdsl.utils.exceptions import ArgSpecParseError
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

from stc.compiler.diagnostics import StcError, reported_errors
from stc.compiler.files import check_regular_file, read_bounded
from stc.compiler.heap import frozen_between_passes
from stc.compiler.ir_files import decode_source, parse_source
from stc.compiler.op_lines.printer import LinePrinter
from stc.compiler.references import references_within
from stc.compiler.verification import Verifier
from stc.tools.ending import exit_at_once


@dataclasses.dataclass(frozen=True)
class LineTarget(MLIRTarget):
    """xdsl-opt's `mlir` output, printed by `LinePrinter` (the same text, faster), except
    with syntax highlighting."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax_highlight:
            super().emit(ctx, module, output)
            return
        printer = LinePrinter(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


class StcOptMain(xDSLOptMain):
    """xdsl-opt, with errors in the input, `-p` and `-t` that name what is wrong."""

    version_format = "stc-opt 0.1.0, xdsl-opt built from xdsl version {xdsl_version}"
    settle: Callable[[], None] = staticmethod(lambda: None)
    """Called after each pass: `main` freezes the heap there (stc.compiler.heap)."""

    def register_all_targets(self) -> None:
        self.available_targets["mlir"] = lambda: LineTarget
        super().register_all_targets()

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--data-dir",
            action="append",
            default=[],
            type=Path,
            help="A directory that paths in the IR (an st.mapping's target file) may name files in, "
            "besides the input file's own. Repeatable.",
        )
        arg_parser.add_argument(
            "--verify-each",
            action="store_true",
            help="Verify every op after every pass. By default the ops a pass left alone are not "
            "verified again (stc.compiler.verification); ops with regions always are.",
        )

    def reference_roots(self) -> list[Path]:
        """Where paths in the IR may name files: the input's directory (the current one
        for stdin), then each --data-dir."""
        own = Path.cwd() if self.args.input_file is None else Path(self.args.input_file).parent
        return [own, *self.args.data_dir]

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        if file_extension != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        implicit_module = not self.args.no_implicit_module
        return parse_source(self.ctx, chunk.read(), self.get_input_name(), implicit_module, start_offset)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The input, checked to be UTF-8 as a whole (so that an error gives the line in
        the file, not in a `--split-input-file` chunk)."""
        if self.args.input_file is not None:
            check_regular_file(Path(self.args.input_file))
        stream, extension = super().get_input_stream()
        with stream:
            source = read_bounded(stream, self.get_input_name())
        decode_source(source, self.get_input_name())
        return BytesIO(source), extension

    def setup_pipeline(self) -> None:
        target = parse_spec(self.args.target)  # parsed once already, in __init__
        target_factory = self.available_targets[target.name]
        if not inspect.signature(target_factory).parameters:  # a Target class, not an old-style function
            check_options(cast(Callable[[], type[Target]], target_factory)(), target)
        for spec in parse_passes(self.args.passes):
            if (pass_factory := self.available_passes.get(spec.name)) is not None:
                check_options(pass_factory(), spec)
        verify = not self.args.disable_verify
        self.args.disable_verify = True  # xDSL's callback would verify the whole module; ours does
        super().setup_pipeline()
        verifier = Verifier(full=self.args.verify_each)
        xdsl_callback = self.pipeline.callback
        assert xdsl_callback is not None

        def callback(previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
            if verify:
                verifier.verify(module, last=following is None)
            xdsl_callback(previous, module, following)
            self.settle()

        self.pipeline = dataclasses.replace(self.pipeline, callback=callback)


def parse_passes(text: str) -> list[ArgSpec]:
    """The passes a `-p` argument names, with their options."""
    try:
        return list(parse_pipeline(text))
    except ArgSpecParseError as e:
        raise malformed("-p", e) from None


def malformed(flag: str, error: ArgSpecParseError) -> StcError:
    """The error for an argument that does not parse, at its position in the argument."""
    location = str(error).split("\n", 1)[1]
    return StcError(f"malformed {flag} argument at {location}")


def check_options(convertible: type[ArgSpecConvertible], spec: ArgSpec) -> None:
    """Check each option in `spec` against the type of the field it sets, so that an
    error names the pass (or target) and the option."""
    hints = get_type_hints(convertible)
    types = {field.name: hints[field.name] for field in dataclasses.fields(convertible) if field.init}
    for option, value in spec.normalize_parameter_names().parameters.items():
        if option not in types:
            raise StcError(f"{spec.name} has no option {option!r} (options: {', '.join(types)})")
        try:
            convert_option(value, types[option])
        except ValueError:
            given = ",".join(str(v) for v in value)
            kind = option_kind(types[option])
            raise StcError(f"{spec.name}: option {option} takes {kind}, got {option}={given}") from None


OPTION_KINDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
LIST_KINDS = {int: "a list of integers", float: "a list of numbers", str: "a list of strings"}


def option_kind(annotation: object) -> str:
    """What an option of this type is written as.

    >>> option_kind(int | None), option_kind(tuple[int, ...]), option_kind(bool)
    ('an integer', 'a list of integers', 'true or false')
    """
    kinds = [kind for kind in get_args(annotation) if kind is not type(None)]
    if get_origin(annotation) is tuple:
        return LIST_KINDS.get(kinds[0], str(annotation))
    if len(kinds) == 1:
        return option_kind(kinds[0])
    return OPTION_KINDS.get(annotation, str(annotation))  # pyright: ignore[reportArgumentType, reportCallIssue]


def main(args: Sequence[str] | None = None) -> int:
    """`stc-opt` with `args`; as the console script (no `args`), the process ends at once
    when the run does (`exit_at_once`)."""
    if args is not None:
        return run(args)
    try:
        status = run(None)
    except SystemExit as end:
        exit_at_once(end.code)
    exit_at_once(status)


def run(args: Sequence[str] | None) -> int:
    # As xdsl-opt does: Python hides DeprecationWarnings outside __main__ by default.
    warnings.filterwarnings("default", category=DeprecationWarning)
    with reported_errors("stc-opt"):
        try:
            tool = StcOptMain(description="stc modular optimizer driver", args=args)
        except ValueError as e:  # unknown pass, raised while parsing -p
            raise StcError(str(e)) from None
        except ArgSpecParseError as e:  # a BaseException; the target is parsed before -p
            raise malformed("-t", e) from None
        with references_within(tool.reference_roots()), frozen_between_passes() as settle:
            tool.settle = settle
            tool.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
