"""A session's last use (``P:seen``, shown on the desk) is noted at most once per ``SEEN_EVERY``
seconds by one process, but every request reads the session, so an ended one is refused at once
(``display/http/auth.py``). Real Redis; the clock is the test's."""

from __future__ import annotations

from display.http.auth import SEEN_EVERY, Auth


async def test_last_use_is_noted_once_per_interval_and_an_ended_session_is_refused_at_once(
    auth: Auth,
) -> None:
    clock = [1000.0]
    timed = Auth(auth.redis, auth.prefix, clock=lambda: clock[0])
    await timed.issue_steward("t1", "Sam")
    pin = await timed.issue_steward("t1", "Kim")
    bearer = "Bearer " + await timed.sign_in("steward", pin, "t1", "Kim")
    seen = f"{auth.prefix}:seen"
    assert await auth.redis.hlen(seen) == 0

    assert (await timed.principal(bearer)) is not None
    (first,) = (await auth.redis.hgetall(seen)).values()
    await auth.redis.delete(seen)  # so a second note would show
    clock[0] += SEEN_EVERY / 2
    assert (await timed.principal(bearer)) is not None
    assert await auth.redis.hlen(seen) == 0  # read only: not noted again within the interval
    clock[0] += SEEN_EVERY
    assert (await timed.principal(bearer)) is not None
    assert await auth.redis.hlen(seen) == 1 and first

    await timed.revoke_steward("t1", "Kim")
    clock[0] += 0.001  # within the interval of the last note: still read, so refused
    assert (await timed.principal(bearer)) is None
    assert await auth.redis.hlen(seen) == 0


async def test_every_process_refuses_a_session_ended_through_another_at_once(auth: Auth) -> None:
    """Two processes on one Redis, both within their note interval: a sign-out through one and
    a revocation through the other are refused by both on the next request."""
    clock = [1000.0]
    one = Auth(auth.redis, auth.prefix, clock=lambda: clock[0])
    other = Auth(auth.redis, auth.prefix, clock=lambda: clock[0])
    pin = await one.issue_steward("t1", "Kim")
    bearer = "Bearer " + await one.sign_in("steward", pin, "t1", "Kim")
    assert await one.principal(bearer) is not None and await other.principal(bearer) is not None
    clock[0] += 1
    assert await other.end_session(bearer)
    assert await one.principal(bearer) is None and await other.principal(bearer) is None

    pin = await one.issue_steward("t1", "Sam")
    bearer = "Bearer " + await one.sign_in("steward", pin, "t1", "Sam")
    assert await one.principal(bearer) is not None and await other.principal(bearer) is not None
    clock[0] += SEEN_EVERY / 3
    await one.revoke_steward("t1", "Sam")
    assert await other.principal(bearer) is None and await one.principal(bearer) is None


async def test_a_write_may_take_the_principal_read_within_the_interval_a_read_may_not(
    auth: Auth,
) -> None:
    """``recent=True`` (a write whose append checks the session) answers from the last read
    that noted the session, with no Redis read, but only within ``SEEN_EVERY``; a plain call
    still reads, so it refuses an ended session at once."""
    clock = [1000.0]
    timed = Auth(auth.redis, auth.prefix, clock=lambda: clock[0])
    pin = await timed.issue_steward("t1", "Kim")
    bearer = "Bearer " + await timed.sign_in("steward", pin, "t1", "Kim")
    assert await timed.principal(bearer, recent=True) is not None  # read and noted
    key = timed.session_key(bearer)
    assert key is not None and await timed.session_exists(key)
    await auth.redis.delete(key)  # ended behind this process's back
    assert not await timed.session_exists(key)
    clock[0] += SEEN_EVERY / 2
    recent = await timed.principal(bearer, recent=True)
    assert recent is not None and recent.name == "Kim" and recent.tournament == "t1"
    assert await timed.principal(bearer) is None  # a read refuses it, and forgets it
    assert await timed.principal(bearer, recent=True) is None

    pin = await timed.issue_steward("t1", "Sam")
    bearer = "Bearer " + await timed.sign_in("steward", pin, "t1", "Sam")
    assert await timed.principal(bearer, recent=True) is not None
    await auth.redis.delete(timed.session_key(bearer) or "")
    clock[0] += SEEN_EVERY  # the interval is over: read again
    assert await timed.principal(bearer, recent=True) is None
