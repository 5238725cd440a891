"""RFC 7386 merge patches: the RFC's own examples, diff, and folding (including what cannot fold)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from display.live.mergepatch import NOT_COMPOSABLE, apply, compose, diff
from display.live.tournament import Change, fold

RFC_7386_APPENDIX_A = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


@pytest.mark.parametrize(("target", "patch", "result"), RFC_7386_APPENDIX_A)
def test_apply_matches_rfc_examples(target: Any, patch: Any, result: Any) -> None:
    assert apply(target, patch) == result


def test_delete_then_partial_re_add_does_not_compose() -> None:
    first, second = {"rows": {"7": None}}, {"rows": {"7": {"score": 5}}}
    assert compose(first, second) is NOT_COMPOSABLE
    # folding then sends the whole document, which is right whatever the old row held
    current = {"rows": {"7": {"score": 5}}}
    change = fold([Change(1, 2, {"v": first}), Change(2, 3, {"v": second})], {"v": current})
    assert change.documents == {"v": current} and "v" not in change.patches
    old = {"rows": {"7": {"score": 1, "place": 3}}}
    assert apply(apply(old, first), second) == current


json_leaf = st.one_of(st.integers(-5, 5), st.text("ab", max_size=2), st.booleans())
docs = st.recursive(
    json_leaf, lambda c: st.dictionaries(st.sampled_from("abcd"), c, max_size=4), max_leaves=12
)
objects = st.dictionaries(st.sampled_from("abcd"), docs, max_size=4)


@given(objects, objects)
def test_diff_then_apply_gives_the_new_document(old: Any, new: Any) -> None:
    patch = diff(old, new)
    assert (old if patch is None else apply(old, patch)) == new


@given(objects, objects, objects)
def test_compose_equals_applying_in_turn_or_refuses(a: Any, b: Any, c: Any) -> None:
    first, second = diff(a, b), diff(b, c)
    if first is None or second is None:
        return
    folded = compose(first, second)
    if folded is NOT_COMPOSABLE:
        return
    assert apply(a, folded) == c
    # and for any other document the fold still equals applying in turn
    assert apply(c, folded) == apply(apply(c, first), second)
