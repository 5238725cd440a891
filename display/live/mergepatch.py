"""JSON Merge Patch (RFC 7386): make, apply and fold patches between view documents.

``diff(old, new)`` gives the smallest merge patch turning ``old`` into ``new`` (None when equal).
``compose(first, second)`` folds two patches into one where that is possible and returns
``NOT_COMPOSABLE`` where it is not: after ``first`` deletes (or replaces with a scalar) a key that
``second`` then partly re-adds as an object, a single merge patch would merge into the *old* object
instead of replacing it (RFC 7386 section 2 has no "replace" operation). Callers then send the whole
document instead (docs/protocol.md).
"""

from __future__ import annotations

from typing import Final

from display.types import Json

NOT_COMPOSABLE: Final = object()


def apply(target: Json, patch: Json) -> Json:
    """RFC 7386 section 2, MergePatch(Target, Patch). Returns a new value; inputs are not changed."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = apply(result.get(key), value)
    return result


def diff(old: Json, new: Json) -> Json:
    """A merge patch p with ``apply(old, p) == new``; None if they are already equal.

    ``new`` must not contain nulls (views never do: an absent key means "none").
    """
    if old == new:
        return None
    if not isinstance(old, dict) or not isinstance(new, dict):
        return new
    patch: dict[str, Json] = {key: None for key in old if key not in new}
    for key, value in new.items():
        was = old.get(key, _ABSENT)
        # Most members of a view are unchanged: compared here, not in a call each.
        if was is _ABSENT:
            patch[key] = value
        elif was != value:
            patch[key] = diff(was, value) if isinstance(value, dict) else value
    return patch


_ABSENT: Final = object()


def compose(first: Json, second: Json) -> Json:
    """One patch equal to applying ``first`` then ``second``, or ``NOT_COMPOSABLE``."""
    if not isinstance(second, dict):
        return second
    if not isinstance(first, dict):
        # first set a scalar or deleted; second merges into nothing: only a full replace says that.
        return NOT_COMPOSABLE
    result = dict(first)
    for key, value in second.items():
        if key not in first:
            result[key] = value
            continue
        folded = compose(first[key], value)
        if folded is NOT_COMPOSABLE:
            return NOT_COMPOSABLE
        result[key] = folded
    return result
