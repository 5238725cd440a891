"""The TD password of a data directory (``display/http/auth.py``): made once, kept in ``td-password``
(0600, directory 0700) and the same on every start; ``BACKGLASS_TD_PASSWORD`` replaces it; a
password that worked keeps working when another one is found beside it. Real Redis, real files."""

from __future__ import annotations

import asyncio
from pathlib import Path

from display.errors import ApiError
from display.http.auth import Auth


async def signs_in(auth: Auth, password: str) -> bool:
    try:
        await auth.sign_in("td", password, None, "")
    except ApiError as refused:
        assert refused.status == 401
        return False
    return True


async def test_made_once_kept_and_the_same_on_every_start(auth: Auth, tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = await auth.ensure_td_password(None, data)
    assert made.source == "new" and made.password
    kept = data / "td-password"
    assert kept.read_text() == made.password + "\n"
    assert (kept.stat().st_mode & 0o777, data.stat().st_mode & 0o777) == (0o600, 0o700)
    again = await auth.ensure_td_password(None, data)
    assert (again.source, again.password) == ("file", made.password)
    assert again.lines() == [f"TD password (kept in {kept}): {made.password}"]
    assert await signs_in(auth, made.password)
    assert not await signs_in(auth, "guess")


async def test_two_first_starts_at_once_keep_one_password(auth: Auth, tmp_path: Path) -> None:
    data = tmp_path / "data"
    other = Auth(auth.redis, auth.prefix)
    both = await asyncio.gather(
        auth.ensure_td_password(None, data), other.ensure_td_password(None, data)
    )
    assert both[0].password == both[1].password
    assert sorted(b.source for b in both) == ["file", "new"]


async def test_the_tds_own_password_replaces_it_and_stays(auth: Auth, tmp_path: Path) -> None:
    data = tmp_path / "data"
    generated = (await auth.ensure_td_password(None, data)).password
    assert generated
    old_session = await auth.sign_in("td", generated, None, "")
    assert await auth.principal(f"Bearer {old_session}") is not None
    chosen = await auth.ensure_td_password("the-tds-choice", data)  # a start with a new password
    assert chosen.source == "env" and chosen.password is None
    assert await auth.principal(f"Bearer {old_session}") is None  # its TD sessions ended
    assert chosen.notes == (
        "BACKGLASS_TD_PASSWORD replaced the TD password: the one used before no longer signs in, "
        "and the TD sessions signed in with it have ended",
        f"{data / 'td-password'} held the password generated earlier; removed",
    )
    assert not (data / "td-password").exists()
    assert await signs_in(auth, "the-tds-choice") and not await signs_in(auth, generated)
    later = await auth.ensure_td_password(None, data)  # started again without it: it stays
    assert (later.source, later.by, later.password) == ("earlier", "env", None)
    kept_session = await auth.sign_in("td", "the-tds-choice", None, "")
    assert (await auth.ensure_td_password("the-tds-choice", data)).notes == ()  # same: no end
    assert await auth.principal(f"Bearer {kept_session}") is not None
    assert not (data / "td-password").exists()
    assert await signs_in(auth, "the-tds-choice")


async def test_a_kept_password_and_another_one_redis_holds_both_work(
    auth: Auth, tmp_path: Path
) -> None:
    """Two data directories on one Redis (one key prefix): the first one's password stays; the
    second, with a password file of its own, is added beside it; the TD's own replaces both."""
    first = await auth.ensure_td_password(None, tmp_path / "a")
    assert first.password
    beside = await auth.ensure_td_password(None, tmp_path / "b")  # no file there: nothing made
    assert (beside.source, beside.by, beside.password) == ("earlier", "generated", None)
    assert not (tmp_path / "b" / "td-password").exists()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "td-password").write_text("kept-in-b\n")
    second = await auth.ensure_td_password(None, tmp_path / "b")
    assert (second.source, second.password) == ("file", "kept-in-b")
    assert "still works too" in second.notes[0]
    assert await signs_in(auth, first.password) and await signs_in(auth, "kept-in-b")
    assert (await auth.ensure_td_password(None, tmp_path / "b")).notes == ()  # once
    await auth.ensure_td_password("chosen", tmp_path / "a")
    assert not await signs_in(auth, first.password) and not await signs_in(auth, "kept-in-b")
    stale = await auth.ensure_td_password(None, tmp_path / "b")  # b's file is out of date now
    assert (stale.source, stale.by) == ("earlier", "env")
    assert not (tmp_path / "b" / "td-password").exists()


async def test_a_store_that_lost_it_gets_it_back_from_the_file(auth: Auth, tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = await auth.ensure_td_password(None, data)
    assert made.password
    await auth.redis.delete(f"{auth.prefix}:td", f"{auth.prefix}:td:by")
    assert not await signs_in(auth, made.password)
    back = await auth.ensure_td_password(None, data)
    assert (back.source, back.password) == ("file", made.password)
    assert await signs_in(auth, made.password)
