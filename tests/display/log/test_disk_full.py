"""A full disk under the embedded Redis, for real: its data directory on a small tmpfs, filled up.

Redis runs ``appendfsync always``, so a write it cannot append to its AOF makes it exit before
answering (display/embedded/supervisor.py): the push answers 503, nothing unpersisted is acknowledged,
and once space returns the supervisor's restart takes the retried push, exactly once.

Mounting needs root (``mount -t tmpfs``); CI runs as root on this kind of machine, so a failed mount
fails the test with the reason instead of skipping it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, serve_in_loop

EPC = "epc-qualifying"


@contextlib.contextmanager
def small_tmpfs(size: str = "2m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on a directory of its own, unmounted and removed afterwards.

    Not under pytest's tmp_path: a concurrent pytest session's clean-up may rename an old basetemp
    while the mount is live, and the unmount by its old path then misses it, leaving a directory
    that every later session fails to remove ("Device or resource busy")."""
    where = Path(tempfile.mkdtemp(prefix="backglass-disk-"))
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, (
        f"the disk-full tests mount a small tmpfs and need root (uid {os.getuid()}): "
        f"mount said {done.stderr.strip()!r}"
    )
    try:
        yield where
    finally:
        # lazy: a Redis still holding its AOF open must not keep the mount (and the test) alive
        subprocess.run(["umount", "-l", str(where)], check=False)
        shutil.rmtree(where, ignore_errors=True)


def fill(disk: Path) -> Path:
    """Write ``disk/filler`` until the filesystem has no block left; returns its path."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        for chunk in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    out.write(b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
    return filler


async def push(api: Api, tid: str, player: int, key: str) -> tuple[int, dict[str, Any]]:
    body = {"player": str(player), "machine": "1", "score": player * 100}
    r = await api.post(f"/api/t/{tid}/scores", body, key=key)
    return r.status_code, r.json()


async def recorded(api: Api, tid: str) -> dict[str, int]:
    r = await api.http.get(f"/api/t/{tid}/log")
    r.raise_for_status()
    found = [rec for rec in r.json()["records"] if rec["type"] == "score_recorded"]
    players = [rec["player"] for rec in found]
    assert len(players) == len(set(players)), f"a score recorded twice: {players}"
    return {rec["player"]: rec["seq"] for rec in found}


async def test_disk_full_under_redis() -> None:
    """Fill the disk under the embedded Redis: pushes answer 201 while their AOF write fits and 503
    after (never a 500); none of the 503'd pushes is in the log when space returns; retried with
    their keys they land once each, and every 201 is still there."""
    with small_tmpfs() as disk:
        settings = Settings(data_dir=disk / "data", td_password=TD_PASSWORD)  # embedded Redis
        async with serve_in_loop(settings) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("full", EPC, players=60, machines=1)
            acked: dict[str, int] = {}
            filler = fill(disk)
            refused: list[tuple[int, str]] = []
            for player in range(1, 60):
                key = uuid.uuid4().hex
                status, answer = await push(api, "full", player, key)
                assert status in (201, 503), (status, answer)
                if status == 201:  # the AOF's last page still had room for it
                    acked[str(player)] = answer["version"]
                    continue
                # Redis 6.2 exits when its AOF write fails, mid-command: the server cannot know
                # whether the append ran, so it may say so (outcome_unknown, with the key)
                assert answer["error"] in ("store_unavailable", "outcome_unknown"), answer
                refused.append((player, key))
                if len(refused) == 3:
                    break
            assert refused, "the disk never filled up"
            # Still full: the retry of a refused push is refused again, reads come from memory.
            status, _ = await push(api, "full", *refused[0])
            assert status == 503
            assert (await api.http.get("/api/t/full/views")).status_code == 200

            filler.unlink()  # space returns
            for _ in range(200):  # the supervisor brings Redis back (backoff <= 5 s)
                if (await api.http.get("/api/t/full/log")).status_code == 200:
                    break
                await asyncio.sleep(0.05)
            assert await recorded(api, "full") == acked  # none of the refused is there
            for player, key in refused:  # the phone's retries, with the same key
                for _ in range(200):
                    status, answer = await push(api, "full", player, key)
                    if status != 503:
                        break
                    await asyncio.sleep(0.05)
                assert status == 201, answer
                acked[str(player)] = answer["version"]
                again = await push(api, "full", player, key)
                assert again[1]["version"] == answer["version"]
            assert await recorded(api, "full") == acked
            await api.close()
