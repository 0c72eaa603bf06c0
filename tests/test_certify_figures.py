"""The report's figures: matplotlib (the `report` extra) when installed, the inline SVG fallback without it."""
import base64
import io
import os
import pathlib
import re
import sys
import tomllib

import pytest
from click.testing import CliRunner

from certify_support import need_matplotlib, png_size, png_text_keys
from harness.certify import figures, svg
from harness.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
BAD, INK = (0xc0, 0x39, 0x2b), (0x1f, 0x29, 0x33)


@pytest.fixture
def plots():
    need_matplotlib()
    from harness.certify import plots

    return plots


@pytest.fixture
def no_matplotlib(monkeypatch):
    """As on a plain install: `import matplotlib` raises ImportError."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.delitem(sys.modules, "harness.certify.plots", raising=False)


def _png(img: str) -> bytes:
    match = re.fullmatch(r'<img class="plot" src="data:image/png;base64,([A-Za-z0-9+/=]+)" width="(\d+)" '
                         r'height="(\d+)" alt="([^"]*)">', img)
    assert match, img[:200]
    png = base64.b64decode(match[1], validate=True)
    assert png_size(png) == (int(match[2]), int(match[3]))
    return png


def _pixels(png: bytes):
    import matplotlib.image

    return (matplotlib.image.imread(io.BytesIO(png), format="png")[..., :3] * 255).round().astype(int)


def _has(pixels, colour) -> bool:
    return bool((abs(pixels - colour) <= 2).all(axis=-1).any())


# One call of every kind, with the arguments html.py gives it.
CASES = {
    "frequency": ("f", ["a", "b", "c", "d"], [100, 96, 104, 100], [100.0] * 4, 2.576),
    "bars": ("b", ["a", "b", "c"], [0.5, -1.2, None], 2.576),
    "heatmap": ("h", 3, 2, [4.0, -4.0, 0.0, None, 1.0, -1.0], "position", "label", ["x", "y"]),
    "histogram": ("p", [0.05, 0.15, 0.5, 0.51, 0.99]),
    "parts": ("r", ["lines", "feature"], [0.8, 0.15]),
    "convergence": ("c", [0, 1000, 4000, 16000], [None, 0.97, 0.99, 0.985], [None, 0.9, 0.95, 0.97],
                    [None, 1.04, 1.03, 1.0], 0.9877, "rounds"),
}


def test_renderer_is_matplotlib_when_installed(plots):
    chosen = figures.renderer()
    assert chosen.module is plots and chosen.description.startswith("matplotlib ")
    assert "Agg backend" in chosen.description and set(figures.KINDS) <= set(dir(plots)) & set(dir(svg))


def test_renderer_falls_back_to_inline_svg_without_matplotlib(no_matplotlib):
    chosen = figures.renderer()
    assert chosen.module is svg
    assert "inline SVG" in chosen.description and "pip install 'rngcert[report]'" in chosen.description


@pytest.mark.parametrize("kind", figures.KINDS)
def test_every_kind_is_a_png_of_the_stated_size_and_reproducible(plots, kind):
    img = getattr(plots, kind)(*CASES[kind])
    png = _png(img)
    width, height = png_size(png)
    assert width == round(plots.WIDTH_IN * plots.DPI) and height >= 100
    assert f'alt="{CASES[kind][0]}"' in img
    assert b"Software" not in png_text_keys(png)  # nothing that names the machine or the build in the bytes
    assert getattr(plots, kind)(*CASES[kind]) == img  # same numbers, same bytes
    assert _pixels(png).std() > 10  # something is drawn


def test_a_users_matplotlib_settings_change_nothing(plots):
    import matplotlib

    before = plots.frequency(*CASES["frequency"])
    with matplotlib.rc_context({"figure.facecolor": "black", "font.size": 20, "axes.grid": False,
                                "lines.linewidth": 5}):
        assert plots.frequency(*CASES["frequency"]) == before


def test_no_gui_backend_is_touched(plots, tmp_path):
    """Drawing never imports pyplot (which would pick a GUI backend where a display exists)."""
    import subprocess

    code = ("import sys; from harness.certify import plots; plots.parts('r', ['a'], [0.9]); "
            "print('matplotlib.pyplot' in sys.modules)")
    env = {**os.environ, "DISPLAY": ":0", "PYTHONSAFEPATH": "1"}  # a display, as on a desktop
    env.pop("MPLBACKEND", None)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=tmp_path, env=env)
    assert result.stdout.strip() == "False", result.stderr


def test_frequency_marks_a_cell_outside_its_interval(plots):
    title, labels, _, expected, z = CASES["frequency"]
    inside = _pixels(_png(plots.frequency(title, labels, [100, 96, 104, 100], expected, z)))
    outside = _pixels(_png(plots.frequency(title, labels, [100, 96, 150, 100], expected, z)))
    assert _has(inside, INK) and not _has(inside, BAD)
    assert _has(outside, BAD)


def test_residual_bars_beyond_the_limit_are_red(plots):
    assert not _has(_pixels(_png(plots.bars("b", ["a", "b"], [1.0, -2.0], 2.576))), BAD)
    assert _has(_pixels(_png(plots.bars("b", ["a", "b"], [1.0, -3.0], None))), INK)
    drawn = _pixels(_png(plots.bars("b", ["a", "b"], [1.0, -3.0], 2.576)))
    assert _has(drawn, BAD) and _has(drawn, INK)


def test_heatmap_colours_high_low_and_impossible_cells(plots):
    pixels = _pixels(_png(plots.heatmap(*CASES["heatmap"])))
    assert _has(pixels, (0xff, 0x33, 0x33)) and _has(pixels, (0x33, 0x66, 0xff))  # +4 red, -4 blue (saturated)
    assert _has(pixels, (0, 0, 0)) and _has(pixels, (0xff, 0xff, 0xff))  # impossible black, expected white
    tall = _png(plots.heatmap("h", 416, 2, [0.0] * 832, "position", "label"))
    assert png_size(tall)[1] > png_size(_png(plots.heatmap(*CASES["heatmap"])))[1]  # taller for more rows


def test_convergence_marks_a_point_whose_interval_misses_the_exact_figure(plots):
    args = list(CASES["convergence"])
    assert not _has(_pixels(_png(plots.convergence(*args))), BAD)
    args[4] = [None, 1.04, 1.03, 0.98]  # the last interval ends below the exact 0.9877
    assert _has(_pixels(_png(plots.convergence(*args))), BAD)


def test_a_plain_install_certifies_with_inline_svg_figures(tmp_path, no_matplotlib):
    """Without the extra (.ci/run's plain wheel): the same bundle, its figures drawn as inline SVG, no error."""
    plan = tmp_path / "plan.toml"
    plan.write_text(f"format = 1\nselftest = false\n[engine]\nseed = '{SEED}'\n"
                    "[[devices]]\ndevice = 'dice:2'\nsamples = 3000\ntests = ['frequency', 'independence']\n")
    result = CliRunner().invoke(main, ["certify", str(plan), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.stderr == "" and "Traceback" not in result.output
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert re.findall(r'<figure data-plot="(\w+)">', page) == ["frequency", "bars", "heatmap"]
    assert page.count("<svg") == 3 and "<img" not in page
    assert "matplotlib is not installed" in page and "pip install &#x27;rngcert[report]&#x27;" in page


def test_the_report_extra_installs_matplotlib_and_the_readme_commands_install_it():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert [r for r in extras["report"] if r.startswith("matplotlib")]
    readme = (ROOT / "README.md").read_text().split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    main_job, tests = [block.split("```", 1)[0] for block in readme.split("```sh\n")[1:]]
    assert "pip install -q '.[report]'" in main_job and "pip install -q '.[report,test,dask]'" in tests
