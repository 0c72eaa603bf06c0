"""Helpers shared by the certify tests."""
import importlib.util
import os
import struct

import pytest


def without_times(value):
    """``value`` (a report, or part of one) without the keys that may differ between two runs of one plan:
    durations and rates (keys ending in ``seconds`` or ``per_second``)."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if not k.endswith(("seconds", "per_second"))}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; raises ``AssertionError`` if ``data`` is not a PNG."""
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR", data[:16]
    return struct.unpack(">II", data[16:24])


def png_text_keys(data: bytes) -> list[bytes]:
    """The keywords of a PNG's text chunks (tEXt, zTXt, iTXt)."""
    keys, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind in (b"tEXt", b"zTXt", b"iTXt"):
            keys.append(data[at + 8:at + 8 + length].split(b"\0", 1)[0])
        at += 12 + length
    return keys


def need_matplotlib() -> None:
    """Skip without matplotlib (the ``report`` extra), except in CI (CI=true), where the README's test
    command installs it and its absence fails."""
    if importlib.util.find_spec("matplotlib") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but matplotlib is not installed: the README's test command installs '.[report,test,dask]'")
        pytest.skip("matplotlib is not installed (pip install 'rngcert[report]')")


def draw_figures_as_svg(monkeypatch) -> None:
    """Draw the page's figures with the inline SVG fallback: for tests of ``report.json`` that run
    ``certify`` many times, where matplotlib would cost seconds a run and change nothing they check
    (the figures are drawn from the report; tests/test_certify.py and tests/test_certify_figures.py
    test matplotlib's)."""
    from harness.certify import figures, html, svg

    # html binds the name at import: patching figures.renderer alone misses it once html is imported
    # (e.g. by an earlier test in the run), and matplotlib would draw after all
    svg_renderer = lambda: figures.Renderer(svg, "inline SVG (test)")  # noqa: E731
    monkeypatch.setattr(figures, "renderer", svg_renderer)
    monkeypatch.setattr(html, "renderer", svg_renderer)
