"""The evidence bundle: ``report.json``, its SHA-256, ``report.html`` and a manifest of every file.

``report.json`` follows the shipped JSON Schema (:data:`SCHEMA_FILE`,
``$id`` names its version); ``report.json.sha256`` and ``MANIFEST.sha256``
are in the format of ``sha256sum``, so a lab checks the bundle with
``sha256sum -c MANIFEST.sha256`` run inside the folder.  The manifest lists
every file of the folder (checkpoints included) except itself.
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import platform

from harness.certify.checkpoint import write_json

SCHEMA_VERSION = 1
SCHEMA_ID = f"https://rngcert.invalid/schema/certify-report-{SCHEMA_VERSION}.json"
SCHEMA_FILE = pathlib.Path(__file__).with_name("report.schema.json")
REPORT, DIGEST, HTML, MANIFEST = "report.json", "report.json.sha256", "report.html", "MANIFEST.sha256"


def schema() -> dict:
    """The JSON Schema every ``report.json`` validates against."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def build_provenance(plan, state: dict) -> dict:
    """What produced the report: rngcert's build, the platform, the invocations, the plan and its inputs."""
    from harness import selftest
    from harness.certify.sections import sha256_file

    info = selftest.build_info()
    inputs = [{"role": "plan", "path": plan.path.name, "sha256": plan.sha256}]
    roles = {**{d.input: "capture" for d in plan.devices if d.input is not None},
             **{f: "option file" for g in plan.games for f in g.files()}}
    for path in plan.inputs():
        inputs.append({"role": roles.get(path, "slot model"),
                       "path": str(path.relative_to(plan.path.parent)) if path.is_relative_to(plan.path.parent)
                       else str(path), "sha256": sha256_file(path)})
    return {
        "rngcert_version": info["version"],
        "build": {"core_sha256": info["core_sha256"], "kernels_sha256": info["kernels_sha256"]},
        "cpu_path": {"keystream": info["keystream_path"], "bulk_shuffle": info["bulk_shuffle_kernel"],
                     "cpu_has_avx2": info["cpu_has_avx2"], "force_portable_env": info["force_portable_env"]},
        "platform": {"system": platform.system(), "machine": platform.machine(), "release": platform.release(),
                     "python": platform.python_version()},
        "command": state["runs"][0]["argv"],
        "runs": state["runs"],
        "inputs": inputs,
    }


def sha256_line(path: pathlib.Path, name: str) -> str:
    """One ``sha256sum`` line for the file at ``path`` listed as ``name``."""
    return f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {name}\n"


def write_bundle(out: pathlib.Path, report: dict, html: str, key=None) -> None:
    """Write the report, its digest, its signature (with ``key``, :mod:`harness.certify.sign`), the HTML
    page and the manifest (in that order) into ``out``."""
    write_json(out / REPORT, report)
    (out / DIGEST).write_text(sha256_line(out / REPORT, REPORT), encoding="utf-8")
    if key is not None:
        from harness.certify.sign import sign_report

        sign_report(out, key)
    (out / HTML).write_text(html, encoding="utf-8")
    lines = [sha256_line(path, path.relative_to(out).as_posix())
             for path in sorted(p for p in out.rglob("*") if p.is_file())
             if path.name != MANIFEST and not path.name.endswith(".partial")]
    (out / MANIFEST).write_text("".join(lines), encoding="utf-8")


__all__ = ["SCHEMA_ID", "SCHEMA_FILE", "SCHEMA_VERSION", "schema", "build_provenance", "write_bundle",
           "REPORT", "DIGEST", "HTML", "MANIFEST"]
