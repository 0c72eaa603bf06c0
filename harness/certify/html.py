"""``report.html``: the report as one self-contained page a regulator reads.

Inline CSS and inline figures, no script, no external resource of any
kind, so the page shows the same offline, in an archive, or printed.  The
figures are drawn by matplotlib (PNG data URIs) when the ``report`` extra is
installed, else as rngcert's own inline SVG (:mod:`harness.certify.figures`);
the provenance table says which.  It is drawn from ``report.json`` alone: the summary
(verdict per clause, per section), the provenance, then each section —
devices with their battery table, frequency plot with 99% intervals,
residual plot, heat maps for shuffles and the p-value histogram; games
with their RTP table and the simulation's convergence plot; slots with their
PAR sheet, RTP parts and convergence plot.
"""
from __future__ import annotations

from html import escape

from harness.certify.figures import KINDS, Renderer, renderer

Z99 = 2.5758293035489004  # two-sided 99% normal quantile: the intervals of the frequency plots

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2933;margin:0 auto;max-width:1100px;
padding:16px 24px}
h1{font-size:22px;margin:8px 0}h2{font-size:18px;border-bottom:2px solid #d9e2ec;padding-bottom:4px;margin-top:32px}
h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0 12px;width:100%}th,td{border:1px solid #d9e2ec;padding:3px 6px;
text-align:left;vertical-align:top}th{background:#f0f4f8}td.num{text-align:right;font-variant-numeric:tabular-nums}
.exact{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.verdict{font-weight:700;padding:1px 6px;border-radius:3px;white-space:nowrap}
.pass{background:#d8f3dc;color:#1b4332}.fail{background:#f8d7da;color:#842029}
.incomplete,.skipped{background:#fff3cd;color:#664d03}.none{background:#e9ecef;color:#495057}
.warning{background:#fff3cd;border-left:4px solid #e0a800;padding:6px 10px}
.plot{width:100%;height:auto;margin:4px 0 10px}img.plot{width:auto;max-width:100%}figure{margin:0;break-inside:avoid}
figcaption{font-size:12px;font-weight:600}
.tick{font-size:9px;fill:#52606d}.grid{stroke:#eef2f6}
.note{color:#52606d;font-size:12px}code{font-size:12px}
@media print{h2{break-before:page}}
"""


def _verdict(value) -> str:
    if value is None:
        return '<span class="verdict none">—</span>'
    return f'<span class="verdict {escape(str(value))}">{escape(str(value).upper())}</span>'


def _anchor(key: str) -> str:
    return "s-" + "".join(ch if ch.isalnum() else "-" for ch in key)


def _table(headers: list[str], rows: list[list[str]], numeric: set[int] = frozenset()) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f'<td{" class=num" if i in numeric else ""}>{cell}</td>'
                                    for i, cell in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _g(x, digits: int = 4) -> str:
    return "—" if x is None else f"{x:.{digits}g}"


def _summary(report: dict) -> str:
    rows = [[escape(r["id"]), escape(r["citation"]), escape(r["requirement"]), escape(r["status"]),
             _verdict(r["verdict"]),
             ", ".join(f'<a href="#{_anchor(e["section"])}">{escape(e["section"])}</a> ({escape(e["what"])})'
                       for e in r["evidence"]) + (f'<div class="note">{escape(r["note"])}</div>' if r["note"] else "")]
            for r in report["clauses"]]
    sections = [[f'<a href="#{_anchor(s["key"])}">{escape(s["key"])}</a>', escape(s["title"]), _verdict(s["verdict"]),
                 escape(s["reason"])] for s in report["sections"]]
    return ("<h2 id=summary>Summary: verdict per clause</h2>"
            + _table(["clause", "citation", "requirement", "status", "verdict", "evidence"], rows)
            + "<h3>Sections</h3>" + _table(["section", "what", "verdict", "reason"], sections))


def _provenance(report: dict, figures: Renderer) -> str:
    p, plan = report["provenance"], report["plan"]
    runs = [[escape(" ".join(r["argv"])), escape(r["started_utc"]), escape(str(r.get("finished_utc") or "—")),
             "yes" if r.get("interrupted") else "no"] for r in p["runs"]]
    inputs = [[escape(i["role"]), escape(i["path"]), f'<span class="exact">{i["sha256"]}</span>'] for i in p["inputs"]]
    engine = plan["engine"]
    facts = [
        ["rngcert", escape(p["rngcert_version"])],
        ["certified core (csrc/core) SHA-256", f'<span class="exact">{p["build"]["core_sha256"]}</span>'],
        ["kernels (csrc/kernels) SHA-256", f'<span class="exact">{p["build"]["kernels_sha256"]}</span>'],
        ["CPU path", escape(f'keystream {p["cpu_path"]["keystream"]}, bulk shuffle {p["cpu_path"]["bulk_shuffle"]}, '
                            f'AVX2 {"yes" if p["cpu_path"]["cpu_has_avx2"] else "no"}')],
        ["platform", escape(" ".join(str(v) for v in p["platform"].values()))],
        ["engine", escape(f'{engine["name"]}, {engine["mode"]} mode'
                          + (f', seed fingerprint {engine["seed_fingerprint"]}, first stream {engine["stream"]}'
                             if engine["mode"] == "replay" else ""))],
        ["statistics", escape(", ".join(f"{k} {v}" for k, v in plan["statistics"].items()))],
        ["profiles", escape(", ".join(plan["profiles"]))],
        ["figures", escape(figures.description)],
    ]
    return ("<h2 id=provenance>Provenance</h2>" + _table(["", ""], facts)
            + "<h3>Invocations (UTC)</h3>" + _table(["command", "started", "finished", "interrupted"], runs)
            + "<h3>Inputs</h3>" + _table(["role", "file", "SHA-256"], inputs))


def _cell_labels(cells: dict, axis: int) -> list[str]:
    labels = cells["axes"][axis]
    return list(labels) if labels is not None else [str(i + 1) for i in range(cells["shape"][axis])]


def _device_plots(result: dict, figure) -> list[str]:
    out = []
    for test in result["tests"]:
        cells = test.get("cells")
        if not cells or test["verdict"] == "skipped":
            continue
        shape = cells["shape"]
        if len(shape) == 1 and cells["axes"][0] is not None:
            labels = _cell_labels(cells, 0)
            out.append(figure("frequency", f'{test["name"]}: observed count per cell against expected, 99% interval',
                                     labels, cells["observed"], cells["expected"], Z99))
            out.append(figure("bars", f'{test["name"]}: residual (O - E)/√E per cell; dashed: ±{Z99:.3f}', labels,
                                cells["residual"], Z99))
        elif len(shape) == 2 and cells["axes"][1] is not None:
            row_name = "label" if cells["axes"][0] is not None else "position"
            out.append(figure("heatmap", f'{test["name"]}: residual per {row_name} × label', shape[0], shape[1],
                                   cells["residual"], row_name, "label", _cell_labels(cells, 1)))
    ks = result.get("pvalue_uniformity")
    if ks:
        out.append(figure("histogram", f'p-values of the {ks["n"]} tests: KS D = {ks["ks_statistic"]:.3f}, '
                                 f'p = {ks["pvalue"]:.3g} (dashed: uniform)', ks["pvalues"]))
    return out


def _device(record: dict, figure) -> str:
    result = record["result"]
    rows = []
    for t in result["tests"]:
        d = t["detectable"]
        detect = "—" if d is None else escape(f'{d["deviation"]}, δ = {d["delta"]:.3g}' if d["delta"] is not None
                                              else d["deviation"])
        weak = ' <span class="verdict incomplete">low power</span>' if t.get("low_power") else ""
        rows.append([escape(t["name"]), _g(t["statistic"]), "—" if t["df"] is None else str(t["df"]), _g(t["pvalue"]),
                     _g(t["holm_pvalue"]), _verdict(t["verdict"]), detect + weak, escape(t["note"] or "")])
    src = result.get("source", {})
    what = (f'{result["n"]:,} {result["unit"]} ' + (f'read from {escape(src["capture"])} ({escape(src["container"])}, '
            f'read as {escape(src["reading"])})' if "capture" in src else "drawn from rngcert's device"))
    html = [f'<p>{what}; family-wise α = {result["alpha"]:g} (Holm over the tests that ran).</p>',
            _table(["test", "statistic", "df", "p", "Holm p", "verdict", "detects (δ at the stated power)", "note"],
                   rows, {1, 2, 3, 4})]
    if result.get("power_warning"):
        html.append(f'<p class="warning">{escape(result["power_warning"])}</p>')
    html += _device_plots(result, figure)
    return "".join(html)


def _game(record: dict, figure) -> str:
    result = record["result"]
    rows = [[escape(b["name"]), f'{b["rtp_float"]:.6f}', f'<span class="exact">{escape(b["rtp"])}</span>',
             f'{b["house_edge_float"] * 100:.4f}%', escape(b.get("source", ""))] for b in result["bets"]]
    params = ", ".join(f"{k} {v}" for k, v in result["parameters"].items() if not isinstance(v, dict))
    html = [f'<p>variant {escape(result["variant"])}' + (f" ({escape(params)})" if params else "")
            + f'; rules table SHA-256 <span class="exact">{result["rules_sha256"]}</span></p>',
            f'<p class="note">{escape(result.get("note") or "")}</p>',
            _table(["bet", "RTP", "exact RTP", "house edge", "source"], rows, {1})]
    sim = result.get("simulation")
    if sim:
        rows = [[escape(b["name"]), f'{b["decisions"]:,}', _g(b["simulated_rtp_float"], 6),
                 "—" if b["interval_999"] is None else f'[{b["interval_999"][0]:.6f}, {b["interval_999"][1]:.6f}]',
                 f'{b["exact_rtp_float"]:.6f}', {True: "yes", False: "NO", None: "—"}[b["exact_inside_interval"]]]
                for b in sim["bets"]]
        html.append(f'<h3>Simulation: {sim["rounds"]:,} rounds</h3>'
                    + _table(["bet", "decisions", "simulated RTP", "99.9% interval", "exact", "inside"], rows,
                             {1, 2, 4}))
        html += _convergence_plots(sim.get("convergence"), figure)
    return "".join(html)


#: Bets of one game drawn as convergence plots (the game's first: its main bets); all are in the JSON.
CONVERGENCE_PLOTS = 4


def _convergence_plots(block: dict | None, figure) -> list[str]:
    """Running return against the exact figure, per series of the report's ``convergence`` block."""
    if not block or not block["points"]:
        return []
    names = [b["name"] for b in block["points"][0]["bets"]]
    out = []
    for k, name in enumerate(names[:CONVERGENCE_PLOTS]):
        series = [p["bets"][k] for p in block["points"]]
        interval = [s["interval"] or [None, None] for s in series]
        out.append(figure("convergence", 
            f'{name}: running return over the {block["unit"]} played, 99.9% interval (grey), exact '
            f'{block["exact"][name]["rtp_float"]:.6f} (dashed)',
            [p["rounds"] for p in block["points"]], [s["rtp"] for s in series], [i[0] for i in interval],
            [i[1] for i in interval], block["exact"][name]["rtp_float"], block["unit"]))
    if len(names) > CONVERGENCE_PLOTS:
        out.append(f'<p class="note">Convergence of the other {len(names) - CONVERGENCE_PLOTS} bets: '
                   '<code>simulation.convergence</code> in report.json.</p>')
    return out


def _slot(record: dict, figure) -> str:
    r = record["result"]
    model = r["model"]
    names = list(r["parts_float"])
    facts = [["model", escape(f'{model["name"]}: {model["reels"]} reels × {model["rows"]} rows, '
                              f'{model["paylines"]} lines, total bet {model["total_bet"]}')],
             ["RTP", f'{r["rtp_float"]:.6%} = <span class="exact">{escape(r["rtp"])}</span>'],
             ["hit frequency", f'{r["hit_frequency_float"]:.6f}'],
             ["least likely win", escape(f'{r["min_win_outcome"]}: {r["min_win_probability_float"]:.4g} per play')]]
    parts = [[escape(k), f'{r["parts_float"][k]:.6%}', f'<span class="exact">{escape(r["parts"][k])}</span>']
             for k in names]
    checks = [[escape(c["rule"]), escape(c["text"]), _verdict(c["verdict"]), escape(c["citation"]),
               escape(c.get("note") or "")] for c in r["checks"]]
    classes = [[escape(c.get("name", "")), escape(str(c.get("award", ""))), _g(c.get("probability_float"), 6),
                _g(c.get("rtp_float"), 6)] for c in r.get("classes", [])]
    return "".join([
        _table(["PAR sheet", ""], facts),
        figure("parts", "RTP parts (share of the total bet returned)", names, [r["parts_float"][k] for k in names]),
        _table(["part", "RTP", "exact"], parts, {1}),
        "<h3>Checks</h3>", _table(["rule", "requirement", "verdict", "citation", "note"], checks),
        *_convergence_plots((r.get("simulation") or {}).get("convergence"), figure),
        "<h3>Winning outcomes</h3>" if classes else "",
        _table(["outcome", "award", "probability per play", "RTP share"], classes, {2, 3}) if classes else "",
    ])


def _selftest(record: dict, figure) -> str:
    rows = [[escape(c["engine"]), escape(c["name"]), _verdict(c["verdict"]), escape(c.get("detail", ""))]
            for c in record["result"]["checks"]]
    return _table(["engine", "check", "verdict", "detail"], rows)


def _rounds(record: dict, figure) -> str:
    r = record["result"]
    rows = [[escape(c["check"]), _verdict("pass" if c["ok"] else "fail"), escape(c["detail"])] for c in r["checks"]]
    return (f'<p>{escape(r["game"])} ({escape(r["variant"])}): {r["rounds"]} rounds, {r["records"]} journal records, '
            f'tip <span class="exact">{escape(r["tip"])}</span></p>' + _table(["check", "verdict", "detail"], rows))


RENDERERS = {"device": _device, "game": _game, "slot": _slot, "selftest": _selftest, "rounds": _rounds}


def _section(record: dict, figure) -> str:
    head = (f'<h2 id="{_anchor(record["key"])}">{escape(record["title"])} {_verdict(record["verdict"])}</h2>'
            f'<p class="note">{escape(record["key"])}: {escape(record["reason"])}</p>')
    prov = record.get("provenance")
    if prov:
        head += (f'<p class="note">generator: {escape(prov["engine"])} {escape(prov["mode"])}, seed fingerprint '
                 f'{escape(str(prov.get("seed_fingerprint")))}, stream {prov.get("stream")}, '
                 f'position {prov.get("position"):,} bytes</p>')
    if record["result"] is None:
        return head
    return head + RENDERERS[record["kind"]](record, figure)


class _Figure:
    """Draws one figure with ``figures`` and wraps it as ``<figure data-plot=KIND>`` with its caption."""

    def __init__(self, figures: Renderer):
        self.module = figures.module

    def __call__(self, kind: str, title: str, *args) -> str:
        assert kind in KINDS, kind
        drawn = getattr(self.module, kind)(title, *args)
        return f'<figure data-plot="{kind}"><figcaption>{escape(title)}</figcaption>{drawn}</figure>'


def render(report: dict, figures: Renderer | None = None) -> str:
    """The page for ``report`` (a ``report.json`` document), its figures drawn by ``figures``
    (default :func:`harness.certify.figures.renderer`: matplotlib when installed)."""
    figures = renderer() if figures is None else figures
    figure = _Figure(figures)
    title = report["plan"]["title"]
    return "".join([
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>",
        '<meta name=viewport content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(title)} {_verdict(report['verdict'])}</h1>",
        f"<p>{escape(report['reason'])}. Plan {escape(report['plan']['file'])}, SHA-256 "
        f"<span class=exact>{report['plan']['sha256']}</span>; report schema "
        f"<code>{escape(report['$schema'])}</code>.</p>",
        _summary(report), _provenance(report, figures),
        "".join(_section(record, figure) for record in report["sections"]),
        "</body></html>\n",
    ])


__all__ = ["render"]
