"""`rngcert certify`: the example plan end to end, the bundle, the schema, the clause table, bad plans."""
import base64
import hashlib
import json
import pathlib
import re

import jsonschema
import pytest
from click.testing import CliRunner

from browser_support import VIEWPORT, load
from certify_support import need_matplotlib, png_size, png_text_keys
from harness.certify import figures
from harness.certify.bundle import schema
from harness.certify.clauses import CLAUSES, NOT_COVERED
from harness.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "plan.toml"
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def certify(*args):
    return CliRunner().invoke(main, ["certify", *map(str, args)])


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The annotated example plan, run once for every test of its bundle."""
    out = tmp_path_factory.mktemp("example") / "report"
    result = certify(EXAMPLE, "--out", out, "--quiet")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return result, out, report


def test_example_plan_certifies_every_kind_of_section(example):
    result, out, report = example
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("verdict: PASS (every one of the 7 sections passes)")
    assert [s["key"] for s in report["sections"]] == [
        "selftest", "device:roulette-single", "device:shoe:8", "device:dice:2", "device:roulette-double",
        "game:baccarat", "slot:slot_compliant"]
    assert all(s["verdict"] == "pass" and s["complete"] for s in report["sections"])
    assert report["verdict"] == "pass" and report["complete"] and not report["interrupted"]
    sections = {s["key"]: s for s in report["sections"]}
    # our devices name the generator that drew them, each on its own stream; the capture names its file
    streams = [sections[k]["provenance"]["stream"] for k in ("device:roulette-single", "device:shoe:8",
                                                               "device:dice:2")]
    assert streams == [100, 101, 102]
    capture = sections["device:roulette-double"]
    assert capture["provenance"] is None and capture["result"]["n"] == 20_000
    wheel = hashlib.sha256((ROOT / "examples" / "wheel7.csv").read_bytes()).hexdigest()
    assert capture["inputs"] == [{"role": "capture", "path": "wheel7.csv", "sha256": wheel}]
    # exact game and slot figures as fractions
    banker = next(b for b in sections["game:baccarat"]["result"]["bets"] if b["name"] == "banker")
    assert banker["rtp"] == "10732465128097/10847218479825"
    slot = sections["slot:slot_compliant"]["result"]
    assert re.fullmatch(r"\d+/\d+", slot["rtp"]) and {c["rule"] for c in slot["checks"]} >= {"jp-3-3", "jp-4-3"}


def test_target_power_gives_the_n_that_reaches_it(example):
    _, _, report = example
    dice = next(s for s in report["sections"] if s["key"] == "device:dice:2")["result"]
    assert dice["source"]["target_delta"] == 0.25
    frequency = next(t for t in dice["tests"] if t["name"] == "frequency")
    assert 0.24 < frequency["detectable"]["delta"] <= 0.25  # the smallest n that reaches δ = 0.25


def test_provenance_names_build_platform_command_and_every_input(example):
    from harness import selftest

    _, out, report = example
    p = report["provenance"]
    info = selftest.build_info()
    assert p["build"] == {"core_sha256": info["core_sha256"], "kernels_sha256": info["kernels_sha256"]}
    assert p["cpu_path"]["keystream"] == info["keystream_path"] and p["rngcert_version"] == info["version"]
    assert p["command"] == ["rngcert", "certify", str(EXAMPLE), "--out", str(out)]
    assert len(p["runs"]) == 1 and p["runs"][0]["finished_utc"].endswith("Z")
    hashes = {i["path"]: i["sha256"] for i in p["inputs"]}
    for name in ("plan.toml", "wheel7.csv", "slot_compliant.toml"):
        assert hashes[name] == hashlib.sha256((ROOT / "examples" / name).read_bytes()).hexdigest()
    assert report["plan"]["engine"] == {"name": "chacha20", "mode": "replay", "seed_fingerprint":
                                        hashlib.sha256(bytes.fromhex(SEED)).hexdigest()[:16], "stream": 100}
    drawn = [s for s in report["sections"] if s["kind"] != "selftest"]  # (the self-test's pin uses this seed too)
    assert SEED not in json.dumps([report["plan"], drawn])  # the seed by fingerprint only


def test_report_validates_against_the_shipped_schema(example):
    _, _, report = example
    validator = jsonschema.Draft202012Validator(schema())
    validator.check_schema(schema())
    assert not list(validator.iter_errors(report))
    broken = json.loads(json.dumps(report))
    broken["sections"][1]["verdict"] = "ok"
    del broken["provenance"]["build"]
    assert len(list(validator.iter_errors(broken))) == 2


def test_clause_table_lists_every_clause_with_its_evidence(example):
    _, _, report = example
    rows = {r["id"]: r for r in report["clauses"]}
    assert list(rows) == [c.id for c in CLAUSES]
    assert all(r["citation"] for r in rows.values())
    assert rows["000-10-3-3"]["status"] == "checked" and rows["000-10-3-3"]["evidence"] == [
        {"section": "slot:slot_compliant", "what": "check jp-3-3", "verdict": "pass"}]
    baccarat = {e["section"] for e in rows["000-1-13-2"]["evidence"]}
    assert baccarat == {"device:shoe:8", "game:baccarat"}
    assert rows["000-7-2-8"]["evidence"][0]["section"] == "device:roulette-double"  # the lab's capture
    assert rows["000-9-13-2"]["status"] == "not in plan"  # rngcert checks it; this plan has no tiles
    not_covered = [r for r in rows.values() if r["status"] == NOT_COVERED]
    assert {"000-10-help", "gli11-seeding"} <= {r["id"] for r in not_covered}
    assert rows["000-10-5"]["status"] == "not in plan"  # a [[rounds]] section of a slot model checks it
    assert rows["000-etable-fault"]["status"] == "not in plan"  # a [[rounds]] section checks it (test_certify_rounds)
    assert all(r["note"] and r["verdict"] is None for r in not_covered)


def test_an_undecided_slot_check_makes_its_clause_incomplete(example):
    """A slot rule checked on rigorous bounds that straddle its limit is "undecided": the clause it is the
    evidence of is incomplete, never a pass, and the bundle still validates against its schema."""
    _, _, report = example
    changed = json.loads(json.dumps(report))
    slot = next(s for s in changed["sections"] if s["kind"] == "slot")
    check = next(c for c in slot["result"]["checks"] if c["rule"] == "jp-4-3")
    check["verdict"] = "undecided"
    clause = next(c for c in CLAUSES if c.id == "000-10-4-3")
    row = clause.assess(changed["sections"], replay=True)
    assert row["status"] == "checked" and row["verdict"] == "incomplete"
    assert [e["verdict"] for e in row["evidence"]] == ["incomplete"]
    changed["clauses"] = [row if r["id"] == clause.id else r for r in changed["clauses"]]
    validator = jsonschema.Draft202012Validator(schema())
    assert not list(validator.iter_errors(changed))
    check["verdict"] = "unknown"
    assert len(list(validator.iter_errors(changed))) == 1


def test_manifest_and_digest_hash_every_file(example):
    _, out, _ = example
    listed = {}
    for line in (out / "MANIFEST.sha256").read_text().splitlines():
        digest, name = line.split("  ", 1)
        listed[name] = digest
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} - {"MANIFEST.sha256"}
    assert set(listed) == files and "checkpoints/run.json" in files
    for name, digest in listed.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest, name
    digest, name = (out / "report.json.sha256").read_text().split()
    assert name == "report.json" and digest == listed["report.json"]


def test_html_is_one_self_contained_page(example):
    _, out, report = example
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "<link" not in page
    # only links within the page, and images only as data inside it
    assert not re.search(r"""(?:src|href)\s*=\s*(?!["']?#|"data:image/png;base64,[A-Za-z0-9+/=]+")""", page)
    assert not re.search(r"url\(", page)
    for record in report["sections"]:
        assert f'id="s-{re.sub(r"[^A-Za-z0-9]", "-", record["key"])}"' in page
    # frequency and residual plots, heat maps, p-value histograms, convergence, RTP parts
    kinds = re.findall(r'<figure data-plot="(\w+)">', page)
    assert set(kinds) == set(figures.KINDS) and len(kinds) >= 20
    assert "observed count per cell against expected, 99% interval" in page
    assert "position-card: residual per position × label" in page and "adjacency: residual per label × label" in page
    assert "RTP parts" in page and "KS D = " in page


def test_figures_are_matplotlib_pngs_of_their_stated_size(example):
    need_matplotlib()
    _, out, _ = example
    page = (out / "report.html").read_text(encoding="utf-8")
    images = re.findall(r'<img class="plot" src="data:image/png;base64,([^"]+)" width="(\d+)" height="(\d+)"', page)
    assert len(images) == page.count("<figure data-plot=") == page.count("<img ") >= 20 and "<svg" not in page
    for data, width, height in images:
        png = base64.b64decode(data, validate=True)
        assert png_size(png) == (int(width), int(height)) and b"Software" not in png_text_keys(png)
    import matplotlib

    assert f"<td>matplotlib {matplotlib.__version__}, Agg backend, PNG at 120 dpi</td>" in page


def test_both_renderers_draw_the_same_figures(example):
    """The inline SVG fallback of a plain install draws every figure matplotlib draws, captioned alike."""
    from harness.certify import html, svg

    _, out, report = example
    fallback = html.render(report, figures.Renderer(svg, "inline SVG"))
    caption = r'<figure data-plot="(\w+)"><figcaption>([^<]*)</figcaption>'
    drawn = re.findall(caption, fallback)
    assert drawn == re.findall(caption, (out / "report.html").read_text(encoding="utf-8")) and len(drawn) >= 20
    assert fallback.count("<svg") == len(drawn) and "<img" not in fallback
    assert "<td>inline SVG</td>" in fallback


def test_low_power_is_warned_in_the_bundle(example):
    _, out, report = example
    shoe = next(s for s in report["sections"] if s["key"] == "device:shoe:8")["result"]
    assert shoe["power_warning"].startswith("warning: low power:")
    assert any(t["low_power"] for t in shoe["tests"])
    assert "low power" in (out / "report.html").read_text(encoding="utf-8")


def test_html_renders_in_headless_chromium(example, tmp_path):
    """The page as a regulator's browser shows it: no console error, every figure in place and loaded."""
    _, out, report = example
    page = out / "report.html"
    loaded = load(page.as_uri(), tmp_path / "profile")
    assert loaded.errors == []  # no console error, no exception, nothing that failed to load
    text = page.read_text(encoding="utf-8")
    assert loaded.figures == text.count("<figure data-plot=") >= 20
    assert len(loaded.images) == text.count("<img ")
    assert all(i["complete"] and i["width"] > 0 and i["height"] > 0 for i in loaded.images), \
        [i["alt"] for i in loaded.images if not i["width"]]
    if "matplotlib" in figures.renderer().description:  # the report extra: every figure a PNG image
        assert len(loaded.images) == loaded.figures and loaded.svgs == 0
    else:
        assert loaded.svgs == loaded.figures and not loaded.images
    assert "Summary: verdict per clause" in loaded.text and report["plan"]["title"] in loaded.text
    assert png_size(loaded.screenshot) == VIEWPORT and len(loaded.screenshot) > 20_000


def test_browser_check_sees_console_errors_and_broken_images(tmp_path):
    """The check above is not vacuous: a page with a console error and two broken images fails it."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><body><script>console.error("boom")</script>'
                    '<img src="data:image/png;base64,AAAA" alt="bad data"><img src="missing.png" alt="missing">'
                    '<img src="data:image/png;base64,' + _ONE_PIXEL + '" alt="good"></body></html>')
    loaded = load(page.as_uri(), tmp_path / "profile")
    assert any("boom" in e for e in loaded.errors) and any("missing.png" in e for e in loaded.errors), loaded.errors
    assert [(i["alt"], i["width"] > 0) for i in loaded.images] == [("bad data", False), ("missing", False),
                                                                   ("good", True)]


_ONE_PIXEL = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


PLAN_HEAD = f'''format = 1
selftest = false
[engine]
seed = "{SEED}"
'''


@pytest.mark.parametrize("body,message", [
    ("[[devices]]\ndevice = 'roulette-triple'\n", "devices[0].device: "),
    ("[[devices]]\ndevice = 'dice:2'\nsamples = 0\n", "devices[0].samples: must be a whole number in [1, 9,007,199,254,740,992], got 0"),
    ("[[devices]]\ndevice = 'dice:2'\nsamples = 10\ntarget = {delta = 0.1}\n", "give either samples or a target"),
    ("[[devices]]\ndevice = 'k-of-n:3:20'\n", "a device kind, not one of our devices"),
    ("[[devices]]\ndevice = 'dice:2'\ninput = 'missing.csv'\n", "devices[0].input: no such file: missing.csv"),
    ("[[devices]]\ndevice = 'dice:2'\ntests = ['nope']\n", "devices[0].tests: 'nope' is not a battery test"),
    ("[[devices]]\ndevice = 'dice:2'\nsampels = 5\n", "devices[0]: unknown key 'sampels'"),
    ("[[games]]\ngame = 'baccarat'\noptions = {decks = 99}\n", "games[0].options.decks: "),
    ("[[games]]\ngame = 'craps'\noptions = {decks = 8}\n", "craps takes no option 'decks'"),
    ("[[games]]\ngame = 'baccarat'\nvariant = 'xx'\n", "'xx' is not a variant of baccarat"),
    ("[[slots]]\nmodel = 'nope.toml'\n", "slots[0].model: no such file"),
    ("[statistics]\nalpha = 1.5\n", "statistics.alpha: must be strictly between 0 and 1"),
    ("[statistics]\nprocedure = 'bonferroni'\n", "statistics.procedure: 'bonferroni' is not one of holm"),
    ("[jurisdiction]\nprofiles = ['mars']\n", "'mars' is not a profile"),
    ("[[devices]\n", "not valid TOML"),
])
def test_bad_plan_is_one_line_and_exit_2(tmp_path, body, message):
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN_HEAD + body)
    result = certify(plan, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_bad_engine_seed_and_plan_without_sections(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text("format = 1\n[engine]\nseed = 'abc'\n")
    r = certify(plan, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "engine.seed: chacha20:" in r.stderr
    plan.write_text("selftest = false\n")
    r = certify(plan, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "the plan certifies nothing" in r.stderr
    plan.write_text("selftest = 1\n")
    r = certify(plan, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "plan.toml: selftest: must be true or false, got 1" in r.stderr
    plan.write_text("format = 2\n")
    r = certify(plan, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "this rngcert reads plan format 1, got 2" in r.stderr


def test_game_strategy_and_file_option_are_checked_and_hashed(tmp_path):
    import shutil as sh

    from harness.certify.plan import PlanError, load_plan

    sh.copy(ROOT / "examples" / "pai_gow_rules.txt", tmp_path / "rules.txt")
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN_HEAD + "[[games]]\ngame = 'pai-gow'\nstrategy = 'table'\noptions = { rules = 'rules.txt' }\n")
    [game] = load_plan(plan).games
    assert game.strategy == "table" and game.files() == [tmp_path / "rules.txt"]
    assert load_plan(plan).inputs() == [tmp_path / "rules.txt"]
    plan.write_text(PLAN_HEAD + "[[games]]\ngame = 'pai-gow'\nstrategy = 'lucky'\n")
    with pytest.raises(PlanError, match=r"games\[0\]\.strategy: pai-gow: strategy must be one of"):
        load_plan(plan)


def test_signed_bundle_verifies_with_the_labs_key(tmp_path):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (Encoding, NoEncryption, PrivateFormat, PublicFormat,
                                                              load_pem_public_key)

    key = Ed25519PrivateKey.generate()
    pem = tmp_path / "lab.pem"
    pem.write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN_HEAD + "[[devices]]\ndevice = 'dice:2'\nsamples = 2000\ntests = ['frequency']\n")
    out = tmp_path / "out"
    result = certify(plan, "--out", out, "--sign-key", pem, "--quiet")
    assert result.exit_code == 0, result.output
    signature = (out / "report.json.sig").read_bytes()
    public = load_pem_public_key((out / "report.json.pub.pem").read_bytes())
    public.verify(signature, (out / "report.json").read_bytes())  # raises if it does not verify
    raw = (Encoding.Raw, PublicFormat.Raw)
    assert public.public_bytes(*raw) == key.public_key().public_bytes(*raw)
    manifest = (out / "MANIFEST.sha256").read_text()
    assert "  report.json.sig\n" in manifest and "  report.json.pub.pem\n" in manifest
    pem.write_text("not a key")
    bad = certify(plan, "--out", tmp_path / "other", "--sign-key", pem)
    assert bad.exit_code == 2 and "lab.pem: not an unencrypted PEM private key" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1 and not (tmp_path / "other").exists()

