"""Summarise a py-spy ``--format raw`` profile (collapsed stacks) as shares of sampled time.

    .venv/bin/python -m bench.pyspy_summary bench/results/<time>-pyspy-ours-n1000.txt [--top 25]
        [--focus display/] [--under push_score]

Prints, per function (``name (file)``, lines merged): its *inclusive* share (samples whose stack
contains it) and its *self* share (samples where it is the innermost frame). ``--under NAME`` keeps
only samples whose stack contains a frame matching NAME (then shares are of those samples);
``--focus`` lists only functions whose file contains the text. The profiles are of busy time
(py-spy leaves out idle samples by default); only the main (event loop) thread's samples are
counted unless ``--all-threads``.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<name>.*?) \((?P<file>[^()]*?)(?::\d+)?\)$")


def frames(stack: str) -> list[str]:
    out = []
    for raw in stack.split(";"):
        m = FRAME.match(raw.strip())
        out.append(f"{m['name']} ({m['file']})" if m else raw.strip())
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("profile", type=Path)
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--focus", default="")
    p.add_argument("--under", default="")
    p.add_argument(
        "--all-threads",
        action="store_true",
        help="also count worker threads (by default only the event loop's thread: an "
        "idle thread-pool worker blocked in a lock is not always seen as idle)",
    )
    args = p.parse_args()
    inclusive: Counter[str] = Counter()
    self_: Counter[str] = Counter()
    total = 0
    for line in args.profile.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        fs = frames(stack)
        if not args.all_threads and fs[0].startswith("Thread._bootstrap"):
            continue
        if args.under and not any(args.under in f for f in fs):
            continue
        n = int(count)
        total += n
        for f in set(fs):
            inclusive[f] += n
        self_[fs[-1]] += n
    print(f"{args.profile.name}: {total} samples" + (f" under {args.under}" if args.under else ""))
    print(f"{'incl %':>7} {'self %':>7}  function (file)")
    shown = 0
    for f, n in inclusive.most_common():
        if args.focus and args.focus not in f:
            continue
        print(f"{100 * n / total:7.1f} {100 * self_[f] / total:7.1f}  {f}")
        shown += 1
        if shown >= args.top:
            break
    print(f"\nTop self time:\n{'self %':>7}  function (file)")
    for f, n in self_.most_common(args.top):
        print(f"{100 * n / total:7.1f}  {f}")


if __name__ == "__main__":
    main()
