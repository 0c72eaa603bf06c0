"""Helpers shared by the certify tests."""


def without_times(value):
    """``value`` (a report, or part of one) without the keys that may differ between two runs of one plan:
    durations and rates (keys ending in ``seconds`` or ``per_second``)."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if not k.endswith(("seconds", "per_second"))}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value
