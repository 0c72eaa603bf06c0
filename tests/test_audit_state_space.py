"""docs/audit_contract.md §5: the engines' 256-bit secret against each device's outcome space.

The table's figures are recomputed here from the device registry (a wheel's
sections, a die's faces, a stack's multiset of items) with exact integer
arithmetic, so a change of a device's table changes the test, not the prose."""
import math
import pathlib
import re
from collections import Counter

import rngcore
from rngcore.devices.registry import device_spec
from rngcore.engines import engines

CONTRACT = pathlib.Path(__file__).resolve().parent.parent / "docs" / "audit_contract.md"
KEY_BITS = 256


def outcomes(name: str) -> int:
    """How many distinguishable outcomes one draw of the device has, exactly."""
    spec = device_spec(name)
    if spec.kind == "categorical":
        return len(spec.sections)
    if spec.kind == "dice":
        return len(spec.labels) ** spec.width
    assert spec.kind == "permutation", spec.kind
    count = math.factorial(len(spec.multiset))
    for copies in Counter(spec.multiset).values():
        count //= math.factorial(copies)
    return count


def _table() -> dict:
    section = CONTRACT.read_text(encoding="utf-8").split("## 5. Key size against the number of outcomes")[1]
    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| ([\d,.]+) \|$", section, flags=re.M)
    return {name: float(log2.replace(",", "")) for name, log2 in rows}


def test_the_outcome_table_is_computed_from_the_devices():
    table = _table()
    assert len(table) == 11
    for name, printed in table.items():
        exact = outcomes(name)
        assert round(math.log2(exact), 1) == printed, name
    # The sentences around the table: which devices fit in 2^256 and which do not.
    fits = {name for name in table if outcomes(name) <= 2**KEY_BITS}
    assert fits == {"roulette-single", "roulette-double", "big-six", "money-wheel", "dice:3", "tiles", "deck"}
    assert outcomes("shoe:2") > 2**KEY_BITS
    # An 8-deck shoe: 416!/(8!)^52, about 2^2229 (a 6-deck shoe is the one of about 2^1646).
    assert outcomes("shoe:8") == math.factorial(416) // math.factorial(8) ** 52
    assert 2**2229 < outcomes("shoe:8") < 2**2230 and 2**1646 < outcomes("shoe:6") < 2**1647


def test_every_engine_has_a_256_bit_security_strength():
    for name, engine in engines().items():
        if engine.name == "test":
            continue
        if name == "chacha20":
            assert engine.seed_bytes * 8 == KEY_BITS  # the key is the whole secret
        else:
            assert engine.parameters["security_strength"] == KEY_BITS, name
            if engine.parameters["mechanism"] == "HMAC_DRBG":
                assert rngcore.ffi.sizeof(engine()._state.w.hmac.key) * 8 == KEY_BITS  # K; V is 256 bits too
            else:
                assert engine.parameters["cipher"] == "AES-256"
                assert rngcore.lib.RNG_CTR_DRBG_SEEDLEN * 8 == KEY_BITS + 128  # seedlen = keylen + blocklen
    assert rngcore.lib.RNG_DRBG_SECURITY_BYTES * 8 == KEY_BITS
