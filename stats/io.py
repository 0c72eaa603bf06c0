"""Reading captured outcomes of any device: CSV/text, .npy and raw binary.

This is how a laboratory tests a device we did not build: export the
outcomes, declare the device (``rngcore.devices.device_spec`` name), and the
loader turns them into label indices or says exactly what is wrong and where.

Formats
-------
Text (``.csv``, ``.txt``, ``.tsv``, or any file that is text)
    One outcome per line: a wheel's label or index on each line; a dice roll
    as N values on one line; a shuffle as W values on one line (one shoe per
    row).  Values are separated by commas, semicolons, tabs or spaces; blank
    lines and lines starting with ``#`` are ignored.  Values are labels as
    printed on the equipment (``00``, ``$20``, ``AS``, ``10H``; card labels
    are also accepted in lower case) or label indices 0..L-1.
NumPy ``.npy``
    Integer label indices, shape (n,) for wheels or (n, width); or an array
    of label strings.  Read memory-mapped, so files larger than memory stream.
Raw binary (``.bin``, ``.raw``, ``.dat``, or any other non-text file)
    One byte per value (uint8 label index), ``width`` bytes per outcome,
    little-endian uint16 if the device has more than 256 labels.

Labels or indices
-----------------
``format="auto"`` reads a text file as labels when every value is a label of
the device (so a roulette file of printed numbers is read as pocket numbers),
otherwise as indices when every value is an index; otherwise it stops at the
first value that is neither.  Pass ``format="indices"`` for a text file of
indices of a device whose labels are numbers (roulette, dice).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from stats._validate import check_choice
from stats.kinds import kind_of

FORMATS = ("auto", "labels", "indices")
_SEPARATORS = re.compile(r"[,;\s]+")
_TEXT_SUFFIXES = {".csv", ".txt", ".tsv", ".text"}
_BINARY_SUFFIXES = {".bin", ".raw", ".dat"}


def _unit(spec) -> str:
    return kind_of(spec).unit_singular


@dataclass
class Capture:
    """A capture file opened for a declared device.

    Attributes
    ----------
    spec : DeviceSpec-like
    path : pathlib.Path
    n : int
        Outcomes (rows) in the file.
    reading : str
        How values were read: ``"labels"`` or ``"indices"``.
    container : str
        ``"text"``, ``"npy"`` or ``"binary"``.
    """

    spec: object
    path: Path
    n: int
    reading: str
    container: str
    _get: Callable[[int, int], np.ndarray]

    def chunks(self, size: int = 1 << 20) -> Iterator[np.ndarray]:
        """Validated outcome arrays of at most ``size`` rows, in file order."""
        for start in range(0, self.n, size):
            yield self._get(start, min(self.n, start + size))

    def array(self) -> np.ndarray:
        """All outcomes at once (shape (n,) for wheels, (n, width) otherwise)."""
        return self._get(0, self.n)


def _shape_rows(spec, flat: np.ndarray) -> np.ndarray:
    return kind_of(spec).rows_from_values(flat)


def _check_range(spec, values: np.ndarray, first_row: int, where: Callable[[int], str]) -> np.ndarray:
    """Raise ValueError naming the first value outside [0, L)."""
    labels = len(spec.labels)
    flat = values.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= labels):
        bad = int(np.flatnonzero((flat < 0) | (flat >= labels))[0])
        raise ValueError(f"{where(bad)}: value {int(flat[bad])} is outside the label indices 0..{labels - 1} "
                         f"of {spec.name}")
    return values


def _open_text(path: Path, spec, fmt: str) -> Capture:
    tokens: list[str] = []
    rows_line: list[int] = []
    width = int(spec.width)
    with open(path, "r", encoding="utf-8-sig", errors="strict") as handle:
        for number, line in enumerate(handle, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            values = [v.strip().strip('"').strip("'") for v in _SEPARATORS.split(text) if v.strip()]
            if len(values) != width:
                what = "1 value per line" if width == 1 else f"{width} values per line (one {_unit(spec)} per row)"
                raise ValueError(f"{path.name}, line {number}: expected {what} for {spec.name}, got {len(values)}")
            tokens.extend(values)
            rows_line.append(number)
    if not tokens:
        raise ValueError(f"{path.name}: no outcomes found")
    unique, inverse = np.unique(np.array(tokens, dtype=object).astype(str), return_inverse=True)
    codec = kind_of(spec).codec
    labels = len(spec.labels)
    by_label = [codec.index(t) for t in unique]
    by_index = [codec.as_index(t) for t in unique]
    if fmt == "auto":
        fmt = "labels" if all(v is not None for v in by_label) else \
            "indices" if all(v is not None for v in by_index) else "auto"
    mapped = by_label if fmt == "labels" else by_index if fmt == "indices" else \
        [a if a is not None else b for a, b in zip(by_label, by_index)]
    if any(v is None for v in mapped):
        bad_unique = {i for i, v in enumerate(mapped) if v is None}
        position = next(i for i, u in enumerate(inverse) if u in bad_unique)
        token = tokens[position]
        line = rows_line[position // width]
        shown = ", ".join(spec.labels[:60]) + (" ..." if labels > 60 else "")
        if fmt == "indices":
            reason = f"not a label index 0..{labels - 1}"
        elif fmt == "labels":
            reason = f"not a label of {spec.name} (valid: {shown})"
        else:
            reason = f"neither a label of {spec.name} (valid: {shown}) nor an index 0..{labels - 1}"
        raise ValueError(f"{path.name}, line {line}: {token!r} is {reason}")
    if fmt == "auto":
        raise ValueError(f"{path.name}: values mix labels and indices; pass format='labels' or 'indices'")
    table = np.array(mapped, dtype=np.uint16 if labels > 255 else np.uint8)
    data = _shape_rows(spec, table[inverse])
    return Capture(spec, path, len(data), fmt, "text", lambda a, b: data[a:b])


def _open_npy(path: Path, spec) -> Capture:
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError:
        array = np.load(path, allow_pickle=False)
    width = int(spec.width)
    if array.dtype.kind in "US":
        codec = kind_of(spec).codec
        flat = np.asarray(array).astype(str).reshape(-1)
        unique, inverse = np.unique(flat, return_inverse=True)
        mapped = []
        for tok in unique:
            v = codec.index(tok)
            if v is None:
                first = int(np.flatnonzero(flat == tok)[0])
                raise ValueError(f"{path.name}: value {first // width} ({tok!r}) is not a label of {spec.name}")
            mapped.append(v)
        array = np.array(mapped, dtype=np.uint8)[inverse].reshape(array.shape)
        reading = "labels"
    elif array.dtype.kind in "iu":
        reading = "indices"
    else:
        raise ValueError(f"{path.name}: .npy must hold integer label indices or label strings, got {array.dtype}")
    expected = (width,) if width > 1 else ()
    if array.ndim == 2 and width == 1 and array.shape[1] == 1:
        array = array[:, 0]
    if array.shape[1:] != expected:
        want = "(n,)" if width == 1 else f"(n, {width})"
        raise ValueError(f"{path.name}: shape {array.shape} does not fit {spec.name}; expected {want}")
    unit = _unit(spec)

    def get(a, b):
        part = np.asarray(array[a:b])
        return _check_range(spec, part, a, lambda i: f"{path.name}: {unit} {a + i // width}")
    return Capture(spec, path, int(array.shape[0]), reading, "npy", get)


def _open_binary(path: Path, spec) -> Capture:
    labels = len(spec.labels)
    dtype = np.dtype("<u2") if labels > 256 else np.dtype(np.uint8)
    size = path.stat().st_size
    width = int(spec.width)
    per_row = width * dtype.itemsize
    if size == 0:
        raise ValueError(f"{path.name}: file is empty")
    if size % per_row:
        raise ValueError(f"{path.name}: {size} bytes is not a whole number of {_unit(spec)}s "
                         f"({per_row} bytes each for {spec.name})")
    data = np.memmap(path, dtype=dtype, mode="r")
    unit = _unit(spec)

    def get(a, b):
        part = np.asarray(data[a * width: b * width])
        part = _check_range(spec, part, a, lambda i: f"{path.name}: {unit} {a + i // width} "
                                                     f"(byte offset {(a * width + i) * dtype.itemsize})")
        return _shape_rows(spec, part)
    return Capture(spec, path, size // per_row, "indices", "binary", get)


def _is_text(path: Path) -> bool:
    with open(path, "rb") as handle:
        head = handle.read(4096)
    if head.startswith(b"\x93NUMPY"):
        return False
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return all(ch.isprintable() or ch in "\r\n\t" for ch in text)


def open_capture(path, spec, *, format: str = "auto") -> Capture:
    """Open a capture file for a declared device.

    Parameters
    ----------
    path : str or pathlib.Path
    spec : DeviceSpec-like
        The declared device (``rngcore.devices.device_spec(name)``).
    format : {"auto", "labels", "indices"}, optional
        How text values are read (see module doc); binary files always hold indices.

    Returns
    -------
    Capture

    Raises
    ------
    ValueError
        Malformed file (with the line number), a value that is not a label or
        index of the device (naming it), or a file size/shape that does not
        fit the device.
    """
    check_choice("format", format, FORMATS)
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".npy":
        return _open_npy(path, spec)
    if suffix in _TEXT_SUFFIXES or (suffix not in _BINARY_SUFFIXES and _is_text(path)):
        try:
            return _open_text(path, spec, format)
        except UnicodeDecodeError as exc:
            raise ValueError(f"{path.name}: not valid UTF-8 text (byte {exc.start}); "
                             "use .bin for raw binary captures") from None
    if format == "labels":
        raise ValueError(f"{path.name}: binary files hold label indices, not labels")
    return _open_binary(path, spec)


def read_capture(path, spec, *, format: str = "auto") -> np.ndarray:
    """All outcomes of a capture file as label indices (see :func:`open_capture`)."""
    return open_capture(path, spec, format=format).array()


__all__ = ["open_capture", "read_capture", "Capture", "FORMATS"]
