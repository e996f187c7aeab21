"""
A one-line progress bar on stderr: rounds done and the best cost so far.

    bar = Progress("st-search resnet50 (set)", total=7200)
    bar.update(100, 1.2e17)
    bar.close()
"""

from __future__ import annotations

import sys
import time

WIDTH = 30


class Progress:
    def __init__(self, label: str, total: int):
        self.label = label
        self.total = max(total, 1)
        self.started = time.monotonic()

    def update(self, done: int, best: float) -> None:
        filled = WIDTH * done // self.total
        elapsed = time.monotonic() - self.started
        bar = "#" * filled + "-" * (WIDTH - filled)
        sys.stderr.write(f"\r{self.label} [{bar}] {done}/{self.total} best {best:.4g} {elapsed:.0f}s")
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()
