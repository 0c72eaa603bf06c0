"""Accumulator state as JSON: a checkpoint that is data only, never code.

:meth:`stats.battery.Battery.state` writes the accumulators' attributes as a
JSON tree, and :meth:`~stats.battery.Battery.restore` writes them back into
the accumulators of a battery planned alike.  Numbers stay exact (integers of
any size, floats by their shortest repr, fractions as ``"n/d"``, arrays as
their raw bytes in base64 with dtype and shape).  What an accumulator holds
that is not data (a class, a function bound at construction) is not written:
the freshly planned accumulator already holds it, and restoring keeps it
(its name is written and checked).  Objects inside an accumulator are
restored only as instances of classes of the ``stats`` package, looked up
by name; nothing else named in a file is ever imported or called.
"""
from __future__ import annotations

import base64
import importlib
import json
from fractions import Fraction

import numpy as np

FORMAT = "rngcert-accumulators/1"
_BUILTIN_TYPES = {t.__name__: t for t in (int, float, bool, str, complex, tuple, list, dict)}


def _name(value) -> str:
    owner = value if isinstance(value, type) else type(value)
    return f"{owner.__module__}:{getattr(value, '__qualname__', owner.__qualname__)}"


def encode(value):
    """``value`` as a JSON-able tree (see the module docstring)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, np.integer):
        return value
    if isinstance(value, float) and not isinstance(value, np.floating):
        return {"float": repr(value)}  # shortest repr: exact, and nan/inf survive strict JSON
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            return {"list_array": [encode(v) for v in value.ravel().tolist()], "shape": list(value.shape)}
        data = value.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
        return {"array": base64.b64encode(data.tobytes()).decode("ascii"), "dtype": data.dtype.str,
                "shape": list(data.shape)}
    if isinstance(value, np.generic):
        return {"scalar": encode(np.asarray(value)), "dtype": value.dtype.str}
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {"set": sorted((encode(v) for v in value), key=json.dumps), "frozen": isinstance(value, frozenset)}
    if isinstance(value, type) and issubclass(value, np.generic):
        return {"numpy_type": np.dtype(value).str}
    if isinstance(value, type) and value in _BUILTIN_TYPES.values():
        return {"builtin_type": value.__name__}
    if callable(value) or isinstance(value, type):
        return {"static": _name(value)}
    module = type(value).__module__
    if module == "stats" or module.startswith("stats."):
        return {"object": _name(value), "state": {k: encode(v) for k, v in vars(value).items()}}
    raise TypeError(f"cannot checkpoint a {type(value).__name__} ({module}) held by an accumulator")


def _class(name: str) -> type:
    module, _, qualname = name.partition(":")
    if not (module == "stats" or module.startswith("stats.")):
        raise ValueError(f"the checkpoint names {name}, not a class of the statistics package")
    owner = importlib.import_module(module)
    for part in qualname.split("."):
        owner = getattr(owner, part)
    if not isinstance(owner, type):
        raise ValueError(f"the checkpoint names {name}, which is not a class")
    return owner


def decode(tree, fresh=None):
    """The value ``tree`` encodes; ``fresh`` is the value a freshly planned accumulator holds there
    (what a ``static`` entry keeps, and the object an ``object`` entry is restored into)."""
    if tree is None or isinstance(tree, (bool, str, int)):
        return tree
    if isinstance(tree, list):
        return [decode(v) for v in tree]
    if "float" in tree:
        return float(tree["float"])
    if "fraction" in tree:
        return Fraction(tree["fraction"])
    if "array" in tree:
        data = np.frombuffer(base64.b64decode(tree["array"]), dtype=np.dtype(tree["dtype"]))
        return data.reshape(tree["shape"]).copy()
    if "list_array" in tree:
        out = np.empty(len(tree["list_array"]), dtype=object)
        out[:] = [decode(v) for v in tree["list_array"]]
        return out.reshape(tree["shape"])
    if "scalar" in tree:
        return decode(tree["scalar"]).astype(np.dtype(tree["dtype"]))[()]
    if "tuple" in tree:
        return tuple(decode(v) for v in tree["tuple"])
    if "dict" in tree:
        return {_key(decode(k)): decode(v) for k, v in tree["dict"]}
    if "set" in tree:
        items = [decode(v) for v in tree["set"]]
        return frozenset(items) if tree["frozen"] else set(items)
    if "numpy_type" in tree:
        return np.dtype(tree["numpy_type"]).type
    if "builtin_type" in tree:
        return _BUILTIN_TYPES[tree["builtin_type"]]
    if "static" in tree:
        if fresh is None or _name(fresh) != tree["static"]:
            raise ValueError(f"the checkpoint expects {tree['static']} where the planned battery has "
                             f"{'nothing' if fresh is None else _name(fresh)}: another battery plan")
        return fresh
    if "object" in tree:
        cls = _class(tree["object"])
        target = fresh if type(fresh) is cls else cls.__new__(cls)
        restore_into(target, tree["state"])
        return target
    raise ValueError(f"not an accumulator checkpoint entry: {sorted(tree)}")


def _key(value):
    return tuple(value) if isinstance(value, list) else value


def restore_into(target, state: dict) -> None:
    """Set every attribute of ``target`` that ``state`` (an encoded ``vars()``) holds."""
    current = vars(target)
    for name, tree in state.items():
        setattr(target, name, decode(tree, current.get(name)))


def dumps(n: int, accumulators) -> bytes:
    """A battery checkpoint: ``n`` and every accumulator's attributes."""
    return json.dumps({"format": FORMAT, "n": int(n),
                       "accumulators": [{k: encode(v) for k, v in vars(acc).items()} for acc in accumulators]}
                      ).encode("utf-8")


def loads(data: bytes, accumulators) -> int:
    """Write a checkpoint of :func:`dumps` back into ``accumulators`` (planned alike); returns n."""
    try:
        saved = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ValueError("not a battery checkpoint (JSON expected)") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise ValueError("not a battery checkpoint of this version")
    if len(saved["accumulators"]) != len(accumulators):
        raise ValueError("the checkpoint is of another battery plan")
    for acc, state in zip(accumulators, saved["accumulators"]):
        restore_into(acc, state)
    return int(saved["n"])


__all__ = ["dumps", "loads", "encode", "decode"]
