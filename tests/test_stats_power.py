"""Power: every defective device of the zoo is caught (verdict fail) at its stated sample size."""
import pytest

from stats import run_battery
from stats.defects import DEFECTS
from stats.kinds import kind_of
from tests.stats_support import FAR_TAIL, device_spec


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_defect_is_caught_far_in_the_tail(name):
    defect = DEFECTS[name]
    spec = device_spec(defect.device)
    result = run_battery(spec, defect.draw(defect.n, 20240))
    assert result.verdict == "fail"
    by_name = {t.name: t for t in result.tests}
    for test in defect.caught_by:
        assert by_name[test].pvalue < FAR_TAIL, (test, by_name[test].pvalue)
        assert by_name[test].verdict == "fail"


def test_zoo_is_not_empty_and_covers_every_kind():
    kinds = {kind_of(device_spec(d.device)).kind for d in DEFECTS.values()}
    assert {"categorical", "dice", "permutation", "bytes"} <= kinds and len(DEFECTS) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_defect_caught_99_percent_of_the_time_at_stated_n(name):
    """Power study: at the stated n the battery fails at α = 0.01 in >= 97 of 100 independent runs
    (P(<= 96 | power 0.99) ≈ 0.02)."""
    defect = DEFECTS[name]
    spec = device_spec(defect.device)
    fails = sum(run_battery(spec, defect.draw(defect.n, seed)).verdict == "fail" for seed in range(100))
    assert fails >= 97, fails
