"""``python -m display demo ARGS --port P`` as a whole process, its output (stdout and stderr)
read line by line as it comes: what the demo tests start and watch."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.utils import free_port


class DemoProcess:
    """The demo run in ``cwd`` with environment ``env`` on a free port; ``url`` is its server."""

    def __init__(self, cwd: Path, env: dict[str, str], *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "display", "demo", *args, "--port", str(self.port)]
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    @property
    def text(self) -> str:
        with self.changed:
            return "\n".join(self.lines)

    def wait_for(self, pattern: str | re.Pattern[str], timeout: float = 120) -> int:
        """The index of the first line matching ``pattern`` (a substring or a regex); fails the
        test on exit or timeout, showing the output."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for n, line in enumerate(self.lines):
                    if pattern.search(line) if isinstance(pattern, re.Pattern) else pattern in line:
                        return n
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    pytest.fail(f"no {pattern!r} in the demo's output:\n" + "\n".join(self.lines))
                self.changed.wait(min(left, 0.2))

    def line(self, pattern: str | re.Pattern[str], timeout: float = 120) -> str:
        """The first line matching ``pattern`` itself (see ``wait_for``)."""
        n = self.wait_for(pattern, timeout)
        with self.changed:
            return self.lines[n]

    def stop(self) -> int:
        """Ctrl-C, as a user stops it; the exit code (-9 if it was still running 30 s later and
        had to be killed). Its output is closed once read to the end."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        try:
            code = self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            code = self.process.wait()
        self.reader.join(10)
        if not self.reader.is_alive():  # else a child still holds the pipe: closing would block
            assert self.process.stdout is not None
            self.process.stdout.close()
        return code
