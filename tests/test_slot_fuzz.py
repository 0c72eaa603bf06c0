"""Fuzz the slot loader with the seeded mutational corpus of ``slot_fuzz``.

Every case must end in a valid model or in the loader's own error, one
located line; at the CLI end a sample must exit 2 with one line on the
terminal, never a traceback.  A failing case ``n`` is reproduced alone by
``slot_fuzz.case(n)``.
"""
from __future__ import annotations

import collections
import functools
import math

import pytest
from click.testing import CliRunner

import slot_fuzz
from harness.cli import main
from harness.slot.errors import MAX_MESSAGE, ModelError
from harness.slot.model import SlotModel, parse_model

DEFAULT_CASES = 3_000
SLOW_CASES = 100_000
CLI_SAMPLE = 40  # malformed cases through the CLI
CLI_VALID = 8  # valid mutants analysed through the CLI


def _outcome(n: int):
    """The loader's outcome for case ``n``: a model, or its ModelError; anything else fails."""
    text = slot_fuzz.case(n)
    try:
        return parse_model(text)
    except ModelError as exc:
        message = str(exc)
        assert exc.where, f"case {n}: the error names no place: {message}"
        assert "\n" not in message and len(message) <= MAX_MESSAGE, f"case {n}: {message[:300]}"
        return exc
    except Exception as exc:  # noqa: BLE001 - the point of the test
        pytest.fail(f"case {n}: {type(exc).__name__} escaped the loader: {str(exc)[:300]}")


@functools.lru_cache(maxsize=None)
def _default_outcomes() -> tuple:
    return tuple(_outcome(n) for n in range(DEFAULT_CASES))


def _run_corpus(cases: range) -> collections.Counter:
    kinds = collections.Counter()
    for n in cases:
        kinds["valid" if isinstance(_outcome(n), SlotModel) else "error"] += 1
    return kinds


@pytest.mark.pure_python  # the model parser alone (no C)
def test_corpus_seeds_are_valid_models():
    seeds = slot_fuzz.seeds()
    assert len(seeds) >= 7
    for text in seeds:
        assert isinstance(parse_model(text), SlotModel)


@pytest.mark.pure_python  # the model parser alone (no C)
def test_every_mutant_is_a_model_or_one_located_error():
    kinds = collections.Counter("valid" if isinstance(o, SlotModel) else "error" for o in _default_outcomes())
    assert sum(kinds.values()) == DEFAULT_CASES
    assert kinds["error"] >= DEFAULT_CASES // 2 and kinds["valid"] >= 50, kinds


@pytest.mark.slow
def test_every_mutant_is_a_model_or_one_located_error_at_scale():
    kinds = _run_corpus(range(DEFAULT_CASES, DEFAULT_CASES + SLOW_CASES))
    assert sum(kinds.values()) == SLOW_CASES and kinds["valid"] and kinds["error"], kinds


def _cli(tmp_path, n: int):
    path = tmp_path / f"case{n}.toml"
    path.write_text(slot_fuzz.case(n), encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path)])
    assert "Traceback" not in result.output, f"case {n}: {result.output[-2000:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), f"case {n}: {result.exception!r}"
    return result


def test_cli_sample_of_malformed_mutants_exits_2_with_one_line(tmp_path):
    malformed = [n for n, o in enumerate(_default_outcomes()) if isinstance(o, ModelError)]
    step = len(malformed) // CLI_SAMPLE
    for n in malformed[::step][:CLI_SAMPLE]:
        result = _cli(tmp_path, n)
        assert result.exit_code == 2, f"case {n}: {result.output}"
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and f"case{n}.toml" in lines[0], f"case {n}: {result.output[:1000]}"


def test_cli_runs_valid_mutants_to_a_verdict_or_one_line(tmp_path):
    # small: a short cycle, and no cascades (a mutant's chain beyond the exact limit is bounded, which takes
    # seconds; test_slot_cascade*.py analyse cascades)
    small = [n for n, m in enumerate(_default_outcomes())
             if isinstance(m, SlotModel) and math.prod(map(len, m.base_strips)) <= 10**5 and m.cascade is None]
    assert len(small) >= CLI_VALID
    for n in small[:: len(small) // CLI_VALID][:CLI_VALID]:
        result = _cli(tmp_path, n)
        assert result.exit_code in (0, 1, 2), f"case {n}: {result.output[-1000:]}"
        if result.exit_code == 2:
            assert len(result.output.strip().splitlines()) == 1, f"case {n}: {result.output[:1000]}"
        else:
            assert result.output.rstrip().splitlines()[-1].startswith("verdict: ")
