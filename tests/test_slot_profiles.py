"""The jurisdiction profiles added for labs (pa, ms, il, nm, mt): bounds, inclusive upper
limits, and a citation with its verification status on every rule."""
from __future__ import annotations

import dataclasses
import json
import pathlib
from fractions import Fraction

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.profiles import PROFILES, check

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
BOUNDS = {  # profile: (low, high, high inclusive)
    "pa": (Fraction(85, 100), None, False),
    "ms": (Fraction(80, 100), Fraction(1), True),
    "il": (Fraction(80, 100), Fraction(1), True),
    "nm": (Fraction(80, 100), None, False),
    "mt": (Fraction(80, 100), Fraction(92, 100), True),
}


@pytest.fixture(scope="module")
def analysis():
    return analyse(load_model(EXAMPLES / "slot_weighted.toml"))


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_each_profile_checks_its_rtp_range_at_the_edges(analysis, name):
    low, high, inclusive = BOUNDS[name]
    (rule,) = PROFILES[name]
    assert (rule.kind, rule.low, rule.high, rule.high_inclusive) == ("rtp_range", low, high, inclusive)
    assert rule.citation and rule.verified.startswith("UNVERIFIED")

    def passes(rtp):
        (result,) = check(dataclasses.replace(analysis, rtp=rtp), name)
        return result.passed

    assert passes(low) and not passes(low - Fraction(1, 10**9))
    if high is not None:
        assert passes(high) == inclusive and not passes(high + Fraction(1, 10**9))
    else:
        assert passes(Fraction(3, 2))


def test_a_return_of_exactly_100_percent_passes_ms_and_il_but_not_jp(analysis):
    at_one = dataclasses.replace(analysis, rtp=Fraction(1))
    assert check(at_one, "ms")[0].passed and check(at_one, "il")[0].passed
    assert not check(at_one, "jp")[1].passed  # 4-3 ロ: below 1


def test_cli_verdicts_for_the_new_profiles():
    path = EXAMPLES / "slot_weighted.toml"  # RTP 93.33%: above Montana's 92% video line cap
    for profile, code in (("pa", 0), ("ms", 0), ("il", 0), ("nm", 0), ("mt", 1)):
        result = CliRunner().invoke(main, ["slot", str(path), "--profile", profile, "--json"])
        assert result.exit_code == code, (profile, result.output)
        report = json.loads(result.stdout)
        assert report["profile"] == profile
