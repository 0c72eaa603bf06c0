"""The extension names the code that produced it, and refuses to be stale."""
import importlib.util
import pathlib
import re

import rngcore

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _build_script():
    spec = importlib.util.spec_from_file_location("build_cffi", ROOT / "csrc" / "build_cffi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_build_info_matches_sources():
    assert rngcore.BUILD_INFO.version == rngcore.__version__
    assert re.fullmatch(r"[0-9a-f]{64}", rngcore.BUILD_INFO.csrc_sha256)
    assert rngcore.BUILD_INFO.csrc_sha256 == _build_script().csrc_sha256()
