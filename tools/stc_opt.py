"""
`stc-opt`: xdsl-opt with stc's dialects, passes and targets.

    stc-opt net.mlir -p 'task-split{task=3 vector=2,1,1,1}' -o split.mlir

Every xdsl-opt flag works. stc's dialects and passes reach it through the
`xdsl.universe` entry point (stc.compiler.universe), lazily. Bad input ends with one
message on stderr and exit code 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from xdsl.xdsl_opt_main import xDSLOptMain

from stc.compiler.diagnostics import StcError, reported_errors


class StcOptMain(xDSLOptMain):
    version_format = "stc-opt 0.1.0 built on xdsl {xdsl_version}"


def main(args: Sequence[str] | None = None) -> int:
    with reported_errors("stc-opt"):
        try:
            tool = StcOptMain(description="stc modular optimizer driver", args=args)
        except ValueError as e:  # unknown pass or bad pass option, raised while parsing -p
            raise StcError(str(e)) from None
        tool.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
