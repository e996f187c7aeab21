"""
stc-report on a large network: the page's size and the time to make it, against the time
to lower the same mapped graph and run it on the machine without a report (what `isa-lower`
and `stc-run` take), and, with `--browser`, a screenshot in headless Chromium checked to be
non-blank.

    python -m stc.tools.bench_report [--network resnet18] [--target tianjicx] [--runs 3] [--browser]

Mapping the network (task-split{fit}, st-place, st-route, st-lmem-alloc) is timed once and
is not part of either figure. Chromium is Debian's `chromium` package, run with no network,
no GPU and a fresh profile.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}
"""Channels of each PNG colour type: grey, RGB, grey + alpha, RGBA."""


def take_screenshot(page: Path, png: Path, profile: Path, size: tuple[int, int] = (1200, 900)) -> Path:
    """Open `page` in headless Chromium (a fresh profile, no network) and save a screenshot."""
    chromium = shutil.which("chromium")
    if chromium is None:
        raise FileNotFoundError("chromium is not installed (Debian: apt-get install chromium)")
    command = [
        chromium,
        *CHROMIUM_FLAGS,
        f"--user-data-dir={profile}",
        f"--window-size={size[0]},{size[1]}",
        f"--screenshot={png}",
        page.resolve().as_uri(),
    ]
    subprocess.run(command, capture_output=True, timeout=180, check=True)
    return png


def decode_png(path: Path) -> np.ndarray:
    """The pixels of an 8-bit, non-interlaced PNG as an array (height, width, channels)."""
    data = path.read_bytes()
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError(f"{path} is not a PNG file")
    position, idat, header = len(PNG_SIGNATURE), bytearray(), b""
    while position < len(data):
        length = int.from_bytes(data[position : position + 4], "big")
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        position += 12 + length
    width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
    depth, colour, interlace = header[8], header[9], header[12]
    if depth != 8 or interlace or colour not in CHANNELS:
        raise ValueError(f"{path}: only 8-bit non-interlaced grey/RGB(A) PNGs are read")
    channels = CHANNELS[colour]
    rows = np.frombuffer(zlib.decompress(bytes(idat)), np.uint8).reshape(height, 1 + width * channels)
    return unfilter(rows, channels).reshape(height, width, channels)


def unfilter(rows: np.ndarray, bpp: int) -> np.ndarray:
    """Undo PNG's per-row filters (none, sub, up, average, paeth)."""
    out = np.zeros((rows.shape[0], rows.shape[1] - 1), np.int64)
    previous = np.zeros(rows.shape[1] - 1, np.int64)
    for index, row in enumerate(rows):
        kind, line = int(row[0]), row[1:].astype(np.int64)
        if kind == 1:
            line = np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) % 256
        elif kind == 2:
            line = (line + previous) % 256
        elif kind in (3, 4):
            line = predicted(line, previous, bpp, kind)
        out[index] = previous = line
    return out.astype(np.uint8)


def predicted(line: np.ndarray, above: np.ndarray, bpp: int, kind: int) -> np.ndarray:
    """The average (3) and paeth (4) filters, which depend on the byte just decoded: a loop
    over plain ints, faster than numpy on a few bytes at a time."""
    raw, up, result = line.tolist(), above.tolist(), [0] * line.size
    for i, value in enumerate(raw):
        left = result[i - bpp] if i >= bpp else 0
        if kind == 3:
            guess = (left + up[i]) // 2
        else:
            upper_left = up[i - bpp] if i >= bpp else 0
            estimate = left + up[i] - upper_left
            to_left, to_up, to_upper_left = abs(estimate - left), abs(estimate - up[i]), abs(estimate - upper_left)
            if to_left <= to_up and to_left <= to_upper_left:
                guess = left
            elif to_up <= to_upper_left:
                guess = up[i]
            else:
                guess = upper_left
        result[i] = (value + guess) % 256
    return np.array(result, np.int64)


def screenshot_is_blank(png: Path) -> bool:
    """Whether under 2 % of the pixels differ from the most common colour (a blank page)."""
    pixels = decode_png(png)
    flat = pixels.reshape(-1, pixels.shape[2])
    colours, counts = np.unique(flat, axis=0, return_counts=True)
    return len(colours) < 8 or 1 - counts.max() / len(flat) < 0.02


def mapped_network(network: str, target: str) -> ModuleOp:
    from stc.compiler.zoo import build_network
    from stc.passes.st_lmem_alloc import StLmemAllocPass
    from stc.passes.st_place import StPlacePass
    from stc.passes.st_route import StRoutePass
    from stc.passes.task_split import TaskSplitPass

    module = build_network(network)
    for stage in (TaskSplitPass(fit=target), StPlacePass(target=target), StRoutePass(), StLmemAllocPass()):
        stage.apply(Context(), module)
    return module


def lower_and_run(module: ModuleOp) -> None:
    from stc.passes.isa_lower import IsaLowerPass
    from stc.runtime.machine import run_isa_module

    program = module.clone()
    IsaLowerPass().apply(Context(), program)
    run_isa_module(program)


def timed(run: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def main() -> None:
    from stc.compiler.draw.report import report_html

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--network", default="resnet18")
    parser.add_argument("--target", default="tianjicx")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--browser", action="store_true", help="also screenshot the page in headless Chromium")
    args = parser.parse_args()
    mapping_seconds, module = timed(lambda: mapped_network(args.network, args.target))
    assert isinstance(module, ModuleOp)
    report_times, plain_times, page = [], [], ""
    for _ in range(args.runs):  # alternating, so a change of load favours neither
        seconds, page = timed(lambda: report_html(module, source=f"{args.network}.mlir"))
        report_times.append(seconds)
        plain_times.append(timed(lambda: lower_and_run(module))[0])
    assert isinstance(page, str)
    print(f"{args.network} on {args.target}: mapped in {mapping_seconds:.1f} s (not counted)")
    print(f"page: {len(page.encode()) / 1e6:.2f} MB, {page.count('<rect')} rects, {page.count('<tr>') - 1} layer rows")
    for name, times in (("stc-report", report_times), ("isa-lower + machine run", plain_times)):
        print(f"{name}: min {min(times):.1f} s, median {statistics.median(times):.1f} s over {args.runs} runs")
    print(f"report / (lower + run): {min(report_times) / min(plain_times):.2f} (min over min)")
    if args.browser:
        with tempfile.TemporaryDirectory() as folder:
            html = Path(folder) / "report.html"
            html.write_text(page, encoding="utf-8")
            seconds, png = timed(lambda: take_screenshot(html, Path(folder) / "shot.png", Path(folder) / "profile"))
            assert isinstance(png, Path)
            verdict = "blank" if screenshot_is_blank(png) else "not blank"
            print(f"chromium: screenshot in {seconds:.1f} s, {verdict}")


if __name__ == "__main__":
    main()
