"""``python -m display`` with every garbage collection logged (``--diagnose`` only).

Runs the same CLI in the same way (``runpy``), after adding a ``gc.callbacks`` hook that appends one
line per collection to ``$BENCH_GC_LOG``: ``<perf_counter at end> <generation> <pause ms>
<collected> <objects in the oldest generation after a full collection, else 0>``. perf_counter is CLOCK_MONOTONIC, so the bench can tell whether a slow push overlapped
a collection. The hook costs a few microseconds per collection.
"""

from __future__ import annotations

import gc
import os
import runpy
import sys
import time
from typing import Any

_log = open(os.environ["BENCH_GC_LOG"], "w", buffering=1)  # noqa: SIM115
_started = 0.0


def _hook(phase: str, info: dict[str, Any]) -> None:
    global _started
    now = time.perf_counter()
    if phase == "start":
        _started = now
        return
    pause_ms = (now - _started) * 1e3
    tracked = len(gc.get_objects(generation=2)) if info["generation"] == 2 else 0
    _log.write(f"{now:.6f} {info['generation']} {pause_ms:.3f} {info['collected']} {tracked}\n")


if __name__ == "__main__":
    gc.callbacks.append(_hook)
    sys.argv = ["display", *sys.argv[1:]]
    runpy.run_module("display", run_name="__main__", alter_sys=True)
