"""A seeded mutational corpus of slot models, for the loader's fuzz tests.

The seeds are the shipped examples, the annotated model of
docs/slot_model.md and the tests' fixtures.  Each case applies one to three
mutations drawn from a ``random.Random`` seeded by the case number, so every
case can be regenerated alone: ``case(n)``.  The mutations aim where
loaders break: values of the wrong type or shape, numbers far out of range or
written with other scripts' digits, long and deeply nested values, broken
TOML, and plain byte damage.
"""
from __future__ import annotations

import functools
import pathlib
import random
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent

_VALUE = re.compile(r"(?m)(=\s*)(\"[^\"\n]*\"|-?[0-9][0-9_.]*|true|false|\[[^\[\]\n]*\]|\{[^{}\n]*\})")
_NUMBER = re.compile(r"(?<![A-Za-z_])[0-9]+")
_NAME = re.compile(r"\b[A-Z][A-Z0-9_]*\b")

ODD_VALUES = [
    "0", "-1", "1.5", "nan", "inf", "-0", "1e400", "true", '""', '" "', "[]", "{}", "[[]]", "[{}]",
    "{ a = 1 }", '["A", 1]', "[1, [2, [3]]]", "1979-05-27", "0x10", "0o7", "0b1", "1_000",
    '"1/²"', '"٣"', '"3/0"', '"0.5/2"', '"1e-3"', '"-0.01"', '" 3 / 200 "', '"0.' + "9" * 60 + '"',
    "99999999999999999999999999", str(2**63), str(2**64), str(2**36 + 1), "4294967296", "255", "256",
    '"\\u0000"', '"\\n"', '"A\\nB"', '"all"', '["all"]', '"SCATTER"', '"WILD"',
]


@functools.lru_cache(maxsize=None)
def seeds() -> tuple[str, ...]:
    """The corpus seeds (every one a valid model)."""
    import slot_support as sup
    import test_slot_cli

    # the Megaways examples joined later: kept out so the corpus (and the default run's time) stays as it was
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("slot_*.toml"))
             if not p.name.startswith("slot_megaways")]
    doc = (ROOT / "docs" / "slot_model.md").read_text(encoding="utf-8")
    texts += re.findall(r"```toml\n(.*?)```", doc, re.S)
    fixtures = [v for k, v in vars(sup).items() if k.isupper() and isinstance(v, str) and "[window]" in v]
    import textwrap

    texts += [textwrap.dedent(t) for t in fixtures] + [test_slot_cli.GAME]
    return tuple(texts)


def _replace_value(rng: random.Random, text: str) -> str:
    matches = list(_VALUE.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    choice = rng.random()
    if choice < 0.5:
        new = rng.choice(ODD_VALUES)
    elif choice < 0.65:
        new = "[" + m.group(2) + "]"
    elif choice < 0.8:
        new = "{ x = " + m.group(2) + " }"
    else:
        new = m.group(2) * (rng.randint(2, 50) if len(m.group(2)) < 100 else 2)
    return text[: m.start(2)] + new + text[m.end(2):]


def _replace_number(rng: random.Random, text: str) -> str:
    matches = list(_NUMBER.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    new = rng.choice(["0", "1", "9" * rng.randint(5, 60), "1" * 4400, "٣", "²", "-" + m.group(), m.group() * 3])
    return text[: m.start()] + new + text[m.end():]


def _rename_symbol(rng: random.Random, text: str) -> str:
    names = sorted(set(_NAME.findall(text)))
    if not names:
        return text
    old = rng.choice(names)
    new = rng.choice(["", "X Y", "A" * 70_000, "é", "WILD", "SCATTER", old.lower(), old + old, "{ x = 1 }", "1"])
    count = 1 if len(new) > 100 else rng.choice([1, 0])  # one occurrence, or every one (short names)
    return re.sub(rf"\b{re.escape(old)}\b", lambda _: new, text, count=count)


def _nest(rng: random.Random, text: str) -> str:
    depth = rng.choice([5, 50, 400, 3000])
    open_, close = rng.choice([("[", "]"), ("{ a = ", " }")])
    value = open_ * depth + "1" + close * depth
    lines = text.split("\n")
    at = rng.randrange(len(lines) + 1)
    return "\n".join(lines[:at] + [f"nested = {value}"] + lines[at:])


def _lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[j])
    elif op == 2:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines = lines[: max(i, 1)]
    return "\n".join(lines)


def _bytes(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        if not chars:
            break
        i = rng.randrange(len(chars))
        op = rng.randrange(3)
        if op == 0:
            del chars[i]
        elif op == 1:
            chars.insert(i, rng.choice('[]{}=",.#\n\t\\\'0123456789ABCSW \x00\u00b2\u0663'))
        else:
            chars[i] = rng.choice('[]{}=",.#\n0123456789 ')
    return "".join(chars)


MUTATIONS = (_replace_value, _replace_value, _replace_number, _rename_symbol, _nest, _lines, _bytes)


def case(n: int) -> str:
    """Case ``n`` of the corpus: a seed with one to three mutations (deterministic in ``n``)."""
    rng = random.Random(f"slot-fuzz-{n}")
    text = rng.choice(seeds())
    for _ in range(rng.choice([1, 1, 2, 3])):
        text = rng.choice(MUTATIONS)(rng, text)
    return text
