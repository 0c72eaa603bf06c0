"""Every promise of docs/audit_contract.md names the test that holds it.

A laboratory signs against the contract's sentences, so every sentence of it
is a promise unless this file lists it in INFORMATIVE (by its first words):
each promise ends with a marker ``[test: tests/test_x.py::test_y]`` (several
names may be given, separated by commas), and every test a marker names must
exist: pytest collects them all.  Tables are held by the marker of the
sentence that introduces them; code blocks are examples whose output the
worked-example test checks.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "docs" / "audit_contract.md"

# The sentences that promise nothing: introductions and signposts.  A new
# sentence in the contract is a promise until it is added here.
INFORMATIVE = (
    "This is what rngcert promises",
    "Code: ",
    "This is D. J. Bernstein's original layout",
    "Not reproducible by design",
    "Then `g = rngcore.Generator(bytes(range(32)), 1)` and:",
    "The same in Python with the independent OpenSSL implementation:",
    "In other APIs:",
    "That is what replay means",
    "A replay seed is the key of every outcome it produced",
    "What follows from this, and what does not",
)
MARKER = re.compile(r"\[test: ([^\]]+)\]")
CODE = re.compile(r"`[^`]*`")  # inline code: may show a marker without being one
# A sentence ends at . ! or ? (then any markers) before whitespace and a
# capital, a bracket, a backtick or an emphasis mark, or at the end of its
# block; an initial ("D. J.") ends none.
BOUNDARY = re.compile(r"(?<![ (][A-Z])[.!?](?:\s*\[test: [^\]]+\])*(?=\s+(?!\[test:)[A-Z*(\[`])")


def _blocks(text: str) -> list[str]:
    """Paragraphs and list items as single strings, without code, tables or headings."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    blocks, current = [], []
    for line in text.splitlines() + [""]:
        stripped = line.strip()
        starts_item = re.match(r"([*-]|\d+\.)\s", stripped)
        if not stripped or stripped.startswith(("#", "|")) or starts_item:
            if current:
                blocks.append(" ".join(current))
            current = [re.sub(r"^([*-]|\d+\.)\s+", "", stripped)] if starts_item else []
            continue
        current.append(stripped)
    return [b for b in blocks if b]


def _sentences(block: str) -> list[str]:
    # Inline code may hold dots (file names, decimals): hide it while splitting.
    hidden = CODE.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", block)
    out, start = [], 0
    for match in BOUNDARY.finditer(hidden):
        out.append(block[start:match.end()].strip())
        start = match.end()
    out.append(block[start:].strip())
    return [s for s in out if s]


def _promises() -> list[tuple[str, list[str]]]:
    """(sentence, the tests its markers name) for every promise sentence."""
    out = []
    for block in _blocks(CONTRACT.read_text()):
        for sentence in _sentences(block):
            if not sentence.startswith(INFORMATIVE):
                markers = MARKER.findall(CODE.sub("", sentence))
                names = [n.strip() for marker in markers for n in marker.split(",")]
                out.append((sentence, names))
    return out


def test_every_promise_names_a_test():
    promises = _promises()
    assert len(promises) >= 40, "the contract parser found too few promises"
    missing = [sentence for sentence, names in promises if not names]
    assert not missing, "promises without a [test: ...] marker:\n" + "\n".join(missing)


def test_markers_name_real_tests_that_pytest_collects():
    names = sorted({n for _, tests in _promises() for n in tests})
    bad = [n for n in names if not re.fullmatch(r"tests/test_\w+\.py::test_\w+", n)]
    assert not bad, f"malformed test names in markers: {bad}"
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-m", "", *names], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    collected = {line.split("[")[0] for line in proc.stdout.splitlines() if "::" in line}
    assert set(names) <= collected, set(names) - collected


def test_every_marker_sits_on_a_sentence():
    # A marker outside any sentence (say, after a table) would hold nothing.
    text = re.sub(r"```.*?```", "", CONTRACT.read_text(), flags=re.S)
    in_sentences = sum(len(MARKER.findall(CODE.sub("", s))) for b in _blocks(text) for s in _sentences(b))
    assert in_sentences == len(MARKER.findall(CODE.sub("", text)))


def test_the_parser_finds_a_missing_marker(tmp_path, monkeypatch):
    fake = tmp_path / "contract.md"
    fake.write_text("# C\n\nOutput is never reused. [test: tests/test_x.py::test_y] Code: `a.c`.\n\n"
                    "| a | b |\n|---|---|\n\n* A draw refuses `f.x()` after a failure\n\n```\nno = 1.\n```\n")
    monkeypatch.setattr(sys.modules[__name__], "CONTRACT", fake)
    assert _promises() == [("Output is never reused. [test: tests/test_x.py::test_y]", ["tests/test_x.py::test_y"]),
                           ("A draw refuses `f.x()` after a failure", [])]
