"""Ranking-point scales (EPC 2009, EPC Qualifying: 100 for the top, a reducing scale below)."""

from __future__ import annotations

import pytest

from scoring.errors import SettingsError
from scoring.scales import PRESETS, get_scale, scale_setting


def test_every_preset_gives_100_or_its_top_to_first_and_never_rises() -> None:
    """EPC 2009, EPC Qualifying: "a reducing number of points for lower positions"."""
    for scale in PRESETS.values():
        table = [scale.points(p) for p in range(1, 400)]
        assert table == sorted(table, reverse=True)
        assert table[-1] == 0
        assert scale.points(scale.last_scoring_place) >= 1
        assert scale.points(scale.last_scoring_place + 1) == 0


def test_papa_scale() -> None:
    """EPC 2009, EPC Qualifying with the PAPA scale: 100, 90, 85, 84, ... down by one, so 1 point
    at 87th (85 - 84) and 0 from 88th on (scoring/scales.py cites the sources)."""
    papa = get_scale("papa")
    assert [papa.points(p) for p in (1, 2, 3, 4, 5, 10)] == [100, 90, 85, 84, 83, 78]
    assert (papa.points(86), papa.points(87), papa.points(88), papa.points(500)) == (2, 1, 0, 0)
    assert papa.last_scoring_place == 87


def test_papa_quick_decay_scale() -> None:
    """Match Play's "PAPA w/ Quick Decay": 100, 90, 85, 83, 81, 79 ... down by two: 85 - 2 * 42 = 1
    at 45th, then 0."""
    scale = get_scale("papa-quick-decay")
    assert [scale.points(p) for p in range(1, 7)] == [100, 90, 85, 83, 81, 79]
    assert (scale.points(45), scale.points(46)) == (1, 0)
    assert scale.last_scoring_place == 45


@pytest.mark.parametrize(
    ("name", "top", "last"),
    [("linear", 100, 100), ("linear-150", 150, 150), ("linear-200", 200, 200), ("top-30", 30, 30)],
)
def test_linear_scales(name: str, top: int, last: int) -> None:
    """Linear scales: top, top - 1, ... 1 at place ``top``, then 0."""
    scale = get_scale(name)
    assert [scale.points(p) for p in (1, 2, 3)] == [top, top - 1, top - 2]
    assert (scale.points(last), scale.points(last + 1)) == (1, 0)


def test_custom_table_scores_zero_below_its_end() -> None:
    """EPC 2009, EPC Qualifying: a TD's own table for places 1..n; places below n get 0."""
    for setting in ((100, 80, 60), [100, 80, 60], "100, 80,60"):
        scale = get_scale(setting)
        assert [scale.points(p) for p in (1, 2, 3, 4, 99)] == [100, 80, 60, 0, 0]
        assert scale_setting(scale) == [100, 80, 60]
        assert scale.last_scoring_place == 3


def test_preset_names_round_trip() -> None:
    """Settings store a preset by name so a tournament's settings stay readable."""
    for name in PRESETS:
        assert scale_setting(get_scale(name)) == name
    assert get_scale(" PAPA ").name == "papa"


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("ifpa-2099", "Unknown points scale"),
        ("", "Unknown points scale"),
        ((), "between 1 and"),
        ((100, 110), "must not rise"),
        ((100, -1), "whole number >= 0"),
        ((100, 2.5), "whole number >= 0"),
        ((True,), "whole number >= 0"),
        (42, "preset name or a list"),
    ],
)
def test_bad_scales_are_refused(setting: object, message: str) -> None:
    """EPC 2009, EPC Qualifying: a scale is 100 for the top and reducing below; nothing else."""
    with pytest.raises(SettingsError, match=message):
        get_scale(setting)
