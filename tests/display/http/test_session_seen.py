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
