"""Reading captured outcomes of any device: CSV/text, .npy and raw binary.

This is how a laboratory tests a device we did not build: export the
outcomes, declare the device, and the reader turns them into label indices
or says exactly what is wrong and where (:class:`CaptureError`, a
ValueError whose message names the file and the line, outcome or byte).
It reads any file, however malformed, into either a valid capture or that
error, and streams every format: memory does not grow with the file.

Formats
-------
Text (``.csv``, ``.txt``, ``.tsv``, or any file that is text)
    One outcome per line: a wheel's label or index on each line; a dice roll
    as N values on one line; a shuffle as W values on one line (one shoe per
    row).  Values are separated by commas, semicolons, tabs or spaces; blank
    lines and lines starting with ``#`` are ignored.  Values are labels as
    printed on the equipment (``00``, ``$20``, ``AS``, ``10H``; card labels
    are also accepted in lower case) or label indices 0..L-1.  A value is at
    most :data:`MAX_TOKEN` characters, a line at most :data:`MAX_LINE`.
    Read twice, streaming: a checking pass at open (the reading, the count,
    a resume point every :data:`RESUME_ROWS` rows), then chunk by chunk.
NumPy ``.npy``
    Integer label indices (what ``rngcert draw --format npy`` writes), or
    integers that are labels as printed (``format="labels"``: roulette
    pocket numbers, die faces 1..6), shape (n,) for wheels or (n, width);
    or an array of label strings.  Read memory-mapped, so files larger than
    memory stream.
Raw binary (``.bin``, ``.raw``, ``.dat``, or any other non-text file)
    One byte per value (uint8 label index), ``width`` bytes per outcome,
    little-endian uint16 if the device has more than 256 labels.

Labels or indices
-----------------
The reader never guesses.  For a device whose labels are numbers other than
their indices (roulette pocket numbers in wheel order, die faces 1..6,
k-of-n balls 1..N) a value such as ``32`` is a pocket number *and* a
wheel-order index, and the two readings give different verdicts.  So the
reading comes from, in this order:

1. ``format="labels"`` or ``format="indices"`` (``rngcert test --format``);
2. a declaration among a text file's comment lines before its first outcome:
   ``# format: labels`` or ``# format: indices`` (it must agree with an
   explicit ``format``);
3. with ``format="auto"``, the values themselves, only where they prove it:
   a text file is read as labels when some value is a label and no index
   (``00``, ``$20``, ``AS``, a die's ``6``), as indices when some value is an
   index and no label (a die's ``0``); a file whose every value reads both
   ways is refused (:class:`CaptureError` naming the two readings), and so is
   an integer ``.npy`` of such a device.

Label strings (``.npy`` of strings, card labels) and raw binary (indices)
leave no choice.  How the file was read is :attr:`Capture.reading`, and why
:attr:`Capture.basis`; every report shows both.
"""
from __future__ import annotations

import ast
import codecs
import contextlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from stats import _text_scan
from stats._text_scan import Vocabulary, scan
from stats._validate import check_choice
from stats.kinds import kind_of

FORMATS = ("auto", "labels", "indices")
_SEPARATORS = re.compile(r"[,;\s]+")
_TEXT_SUFFIXES = {".csv", ".txt", ".tsv", ".text"}
_BINARY_SUFFIXES = {".bin", ".raw", ".dat"}
#: A text capture's declaration of its reading: ``# format: labels`` (before the first outcome).
_DECLARATION = re.compile(r"#\s*format\s*[:=]\s*(\S*)\s*", re.IGNORECASE)
#: Longest value in a text capture: far beyond any label, so a longer one is a malformed file.
MAX_TOKEN = 64
#: Longest line of a text capture (a 12-deck shoe is about 2,500 characters).
MAX_LINE = 1 << 20
#: Progress is reported after every this many characters of a text capture (about 1 MiB).
PROGRESS_CHUNK = 1 << 20
#: Bytes beyond which a line is too long whatever its characters (UTF-8: at most 4 bytes each).
_LONGEST_LINE_BYTES = 4 * MAX_LINE + 4
#: Outcome rows between two resume points of a text capture (where reading a chunk, or finding a row's
#: line, starts again after the checking pass).
RESUME_ROWS = 1 << 16
#: Longest .npy header read (numpy's own default limit).
MAX_NPY_HEADER = 10_000


class CaptureError(ValueError):
    """A capture file that cannot be read as outcomes of the declared device (the message says where)."""


class CaptureInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, where the caller makes it one) while a text capture was being checked.

    Attributes
    ----------
    path : pathlib.Path
    checked : int
        Outcome rows checked so far (at least; counted in batches of :data:`RESUME_ROWS`).
    read, total : int
        Bytes of the file read so far, and its size.
    """

    def __init__(self, path: Path, *, checked: int, read: int, total: int):
        super().__init__(f"{path.name}: interrupted after {read:,} of {total:,} bytes")
        self.path, self.checked, self.read, self.total = path, checked, read, total


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
    basis : str
        Why it was read that way, for the report (``"as asked"``, ``"as line 1
        declares"``, ``"line 3's '00' is a label only"``, ...).
    """

    spec: object
    path: Path
    n: int
    reading: str
    container: str
    _get: Callable[[int, int], np.ndarray]
    _locate: Callable[[int], str]
    basis: str = ""

    def chunks(self, size: int = 1 << 20) -> Iterator[np.ndarray]:
        """Validated outcome arrays of at most ``size`` rows, in file order."""
        for start in range(0, self.n, size):
            yield self._get(start, min(self.n, start + size))

    def rows(self, start: int, end: int) -> np.ndarray:
        """Validated outcome rows ``start`` to ``end - 1`` (any range: text resumes from its nearest point)."""
        return self._get(int(start), int(end))

    def array(self) -> np.ndarray:
        """All outcomes at once (shape (n,) for wheels, (n, width) otherwise)."""
        return self._get(0, self.n)

    def locate(self, row: int) -> str:
        """Where outcome row ``row`` (0-based) is in the file: ``"spins.csv, line 500"``."""
        return f"{self.path.name}, {self._locate(int(row))}"


def _fail(path: Path, message: str) -> CaptureError:
    return CaptureError(f"{path.name}: {message}")


def _check_range(kind, values: np.ndarray, where: Callable[[int], str]) -> np.ndarray:
    """Raise CaptureError naming the first value outside [0, L)."""
    labels = len(kind.labels)
    flat = values.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= labels):
        bad = int(np.flatnonzero((flat < 0) | (flat >= labels))[0])
        raise CaptureError(f"{where(bad)}: value {int(flat[bad])} is outside the label indices 0..{labels - 1} "
                           f"of {kind.name}")
    return values


def _numeric_labels(kind) -> bool:
    """True when the labels are numbers that differ from the indices (an integer could be either)."""
    numbers = [kind.codec.as_index(label) is not None or label.isdigit() for label in kind.labels]
    return all(numbers) and any(label != str(i) for i, label in enumerate(kind.labels))


# -- text ---------------------------------------------------------------------------------------

def _declared_reading(path: Path, number: int, text: str, fmt: str):
    """The reading a ``# format: ...`` comment declares (None for any other comment)."""
    match = _DECLARATION.fullmatch(text)
    if match is None:
        return None
    declared = match.group(1).lower()
    if declared not in ("labels", "indices"):
        raise _fail(path, f"line {number}: {text[:MAX_TOKEN]!r} declares no reading; write '# format: labels' "
                          "or '# format: indices'")
    if fmt not in ("auto", declared):
        raise _fail(path, f"line {number} declares format {declared}, but format {fmt} was asked for")
    return declared


class _TextReading:
    """One text capture's spellings and how they read: what the checking pass learns.

    Every line the C kernel does not read (a first spelling, a non-ASCII
    line, any error) comes here, in :meth:`line`; so does the comment header
    before the first outcome, where the reading may be declared.
    """

    def __init__(self, path: Path, kind, fmt: str):
        self.path, self.kind, self.fmt = path, kind, fmt
        self.basis = "as asked" if fmt != "auto" else ""
        self.ids: dict[str, int] = {}   # distinct spellings (bounded: each one is a label or an index)
        self.meaning: list[tuple] = []  # (as label, as index) of each distinct spelling
        self.label_only = self.index_only = None  # first (line, token) readable one way only
        self.vocabulary = Vocabulary()

    def reject(self, number, token, reason):
        shown = token if len(token) <= MAX_TOKEN else f"{token[:20]}... ({len(token):,} characters)"
        raise _fail(self.path, f"line {number}: {shown!r} is {reason}")

    def line(self, number: int, raw: bytes, terminated: bool, offset: int, rows: int):
        """The spelling ids of line ``number`` (None for a blank or comment line); CaptureError if it is wrong."""
        path, kind = self.path, self.kind
        if len(raw) > _LONGEST_LINE_BYTES:
            raise _fail(path, f"line {number} is longer than {MAX_LINE:,} characters; not a capture of outcomes")
        if offset == 0 and raw.startswith(codecs.BOM_UTF8):
            raw, offset = raw[len(codecs.BOM_UTF8):], len(codecs.BOM_UTF8)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _fail(path, f"not valid UTF-8 text (byte {offset + exc.start}); use .bin for raw binary "
                              "captures") from None
        if len(text) + terminated > MAX_LINE:
            raise _fail(path, f"line {number} is longer than {MAX_LINE:,} characters; not a capture of outcomes")
        text = text.strip()
        if not text:
            return None
        if text.startswith("#"):
            declared = None if rows else _declared_reading(path, number, text, self.fmt)
            if declared is not None:
                self.fmt, self.basis = declared, f"as line {number} declares"
            return None
        width = int(kind.width)
        row = [v.strip().strip('"').strip("'") for v in _SEPARATORS.split(text) if v.strip()]
        if len(row) != width:
            what = "1 value per line" if width == 1 else \
                f"{width} values per line (one {kind.unit_singular} per row)"
            raise _fail(path, f"line {number}: expected {what} for {kind.name}, got {len(row)}")
        return [self.ids[token] if token in self.ids else self._learn(number, token) for token in row]

    def body_line(self, number: int, raw: bytes, terminated: bool, offset: int, rows: int):
        """:meth:`line` for a line after the first outcome (a comment there declares nothing)."""
        return self.line(number, raw, terminated, offset, max(rows, 1))

    def _learn(self, number: int, token: str) -> int:
        """The id of a spelling met for the first time at line ``number``, once it is shown to be usable."""
        kind, codec, labels, fmt = self.kind, self.kind.codec, len(self.kind.labels), self.fmt
        if len(token) > MAX_TOKEN:
            self.reject(number, token, f"longer than any label or index of {kind.name}")
        as_label, as_index = codec.index(token), codec.as_index(token)
        usable = {"labels": as_label, "indices": as_index}.get(fmt, as_label if as_label is not None else as_index)
        if usable is None:
            reason = (f"not a label index 0..{labels - 1}" if fmt == "indices" else
                      f"not a label of {kind.name} (valid: {codec.describe()})" if fmt == "labels" else
                      f"neither a label of {kind.name} (valid: {codec.describe()}) "
                      f"nor an index 0..{labels - 1}")
            self.reject(number, token, reason)
        if len(self.meaning) > np.iinfo(np.uint16).max:
            raise _fail(self.path, f"line {number}: more than {len(self.meaning):,} distinct spellings of values")
        if as_index is None and self.label_only is None:
            self.label_only = (number, token)
        if as_label is None and self.index_only is None:
            self.index_only = (number, token)
        found = self.ids[token] = len(self.meaning)
        self.meaning.append((as_label, as_index))
        self.vocabulary.add(token, found)
        return found


def _open_text(path: Path, kind, fmt: str, progress=None) -> Capture:
    """Check a text capture in one streaming pass; its values are read again, chunk by chunk, when asked for.

    The pass learns every spelling (and so the reading), counts the rows and
    keeps a resume point (byte offset, line) every :data:`RESUME_ROWS` rows:
    memory is bounded by the spellings and n / RESUME_ROWS, never by n.
    """
    reading = _TextReading(path, kind, fmt)
    width = int(kind.width)
    total = path.stat().st_size
    resume = []  # (byte offset, lines before) of rows 0, RESUME_ROWS, 2 * RESUME_ROWS, ...
    first = []

    def line(number, raw, terminated, offset, rows):
        ids = reading.line(number, raw, terminated, offset, rows)
        if ids is not None and rows == 0:
            first.append((offset, number - 1))  # where row 0 starts: the resume point after the header
        return ids

    read = [0]

    def report(done):
        read[0] = min(done, total)
        if progress is not None:
            progress(read[0], total)

    n = 0
    try:
        for _, rows, offset, after in scan(path, 0, 0, width, reading.vocabulary, RESUME_ROWS, line,
                                           max_line=MAX_LINE, longest=_LONGEST_LINE_BYTES, python_first=True,
                                           block=PROGRESS_CHUNK, progress=report):
            resume.append((offset, after))  # where row n + rows starts
            n += rows
    except KeyboardInterrupt:
        raise CaptureInterrupted(path, checked=n, read=read[0], total=total) from None
    if progress is not None:
        progress(total, total)
    if not n:
        raise _fail(path, "no outcomes found")
    resume = first + resume
    fmt, basis = reading.fmt, reading.basis
    if fmt == "auto":
        fmt, basis = _proven_reading(path, kind, reading.meaning, reading.label_only, reading.index_only)
    column = 0 if fmt == "labels" else 1
    table = np.array([m[column] for m in reading.meaning], dtype=np.uint16 if len(kind.labels) > 255 else np.uint8)
    # The reading known, the kernel makes label indices itself: each spelling is taught again with
    # its index for an id (mapping the ids afterwards cost about a third of the reading pass).
    indices = Vocabulary()
    for token, id in reading.ids.items():
        indices.add(token, int(table[id]))

    def body_line(number, raw, terminated, offset, rows):
        ids = reading.body_line(number, raw, terminated, offset, rows)
        return None if ids is None else [int(table[i]) for i in ids]

    def rows_from(a: int, batch: int, b: int | None = None):
        """Batches of ids from the resume point at or before row ``a``, and the row that point is;
        ``b``: rows up to ``b`` are wanted, so the file is read in blocks of the bytes they span
        (a block of the default size read for a short chunk was mostly read in vain)."""
        offset, lines = resume[a // RESUME_ROWS]
        block = None
        if b is not None:
            after = -(-b // RESUME_ROWS)
            end = resume[after][0] if after < len(resume) else total
            block = min(_text_scan.BLOCK, max(1 << 12, end - offset + 2))  # (+2: the last terminator, "\r\n")
        return scan(path, offset, lines, width, indices, batch, body_line,
                    max_line=MAX_LINE, longest=_LONGEST_LINE_BYTES, block=block), a - a % RESUME_ROWS

    def get(a: int, b: int) -> np.ndarray:
        batches, row = rows_from(a, b - a + a % RESUME_ROWS, b)  # one batch: the rows wanted, from the resume point
        parts = []
        with contextlib.closing(batches):
            for ids, rows, _, _ in batches:
                if row + rows > a:
                    parts.append(ids[max(0, a - row) * width:(min(b, row + rows) - row) * width])
                row += rows
                if row >= b:
                    break
        out = parts[0] if len(parts) == 1 else np.concatenate(parts or [np.empty(0, dtype=np.uint16)])
        if out.size != (b - a) * width:
            raise _fail(path, f"holds fewer outcomes than the {n:,} it held when opened (changed while read?)")
        return kind.rows_from_values(out.astype(table.dtype, copy=False))

    def locate(row: int) -> str:
        batches, start = rows_from(row, 1)
        with contextlib.closing(batches):
            for _, _, _, line_of in batches:  # one row per batch: the line of the row just read
                if start == row:
                    return f"line {line_of}"
                start += 1
        return f"outcome {row}"

    return Capture(kind, path, n, fmt, "text", get, locate, basis)


def _proven_reading(path: Path, kind, meaning, label_only, index_only) -> tuple[str, str]:
    """(reading, basis) that a text file's own values prove; CaptureError when they prove none."""
    if label_only is not None and index_only is not None:
        (l1, t1), (l2, t2) = label_only, index_only
        raise _fail(path, f"values mix labels (line {l1}: {t1!r}) and indices (line {l2}: {t2!r}); "
                          "pass format 'labels' or 'indices'")
    if label_only is not None:
        return "labels", f"line {label_only[0]}'s {label_only[1]!r} is a label only"
    if index_only is not None:
        return "indices", f"line {index_only[0]}'s {index_only[1]!r} is an index only"
    if all(as_label == as_index for as_label, as_index in meaning):
        return "labels", "every value is a label and the index of that label"
    raise _fail(path, f"every value is both a label of {kind.name} and a label index 0..{len(kind.labels) - 1}, "
                      f"and the two readings differ ({_differing(kind, meaning)}); pass format 'labels' "
                      "(values as printed on the equipment) or 'indices', or declare it in a comment before "
                      "the first outcome: '# format: labels' or '# format: indices'")


def _differing(kind, meaning) -> str:
    """A value the two readings take apart, in words (the first one found)."""
    as_label, as_index = next(m for m in meaning if m[0] != m[1])
    return f"{kind.labels[as_label]!r} as a label is {kind.labels[as_label]}, as an index it is {kind.labels[as_index]}"


# -- .npy ----------------------------------------------------------------------------------------

def _npy_header(path: Path, handle):
    """(shape, fortran_order, dtype, data offset) of a .npy file; CaptureError for anything malformed."""
    head = handle.read(6)
    if head[:4] == b"PK\x03\x04":
        raise _fail(path, "is a zip archive (an .npz?), not a .npy array; save one array with numpy.save")
    if head != np.lib.format.MAGIC_PREFIX:
        raise _fail(path, "does not start with the .npy magic bytes (\\x93NUMPY)" if head else "file is empty")
    version = handle.read(2)
    if len(version) < 2 or version[0] not in (1, 2, 3):
        raise _fail(path, f"unknown .npy format version {tuple(version)}")
    size_bytes = 2 if version[0] == 1 else 4
    raw = handle.read(size_bytes)
    if len(raw) < size_bytes:
        raise _fail(path, "truncated .npy header")
    length = int.from_bytes(raw, "little")
    if length > MAX_NPY_HEADER:
        raise _fail(path, f".npy header of {length:,} bytes is longer than {MAX_NPY_HEADER:,}")
    text = handle.read(length)
    if len(text) < length:
        raise _fail(path, f"truncated .npy header ({len(text)} of {length} bytes)")
    try:
        header = ast.literal_eval(text.decode("utf-8" if version[0] == 3 else "latin1"))
    except (ValueError, SyntaxError, MemoryError, RecursionError, UnicodeDecodeError) as exc:
        raise _fail(path, f"malformed .npy header ({type(exc).__name__})") from None
    if not isinstance(header, dict) or set(header) != {"descr", "fortran_order", "shape"}:
        raise _fail(path, "malformed .npy header (needs exactly descr, fortran_order and shape)")
    shape, fortran = header["shape"], header["fortran_order"]
    if not (isinstance(shape, tuple) and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                             for d in shape)) or not isinstance(fortran, bool):
        raise _fail(path, f"malformed .npy header: shape {shape!r}, fortran_order {fortran!r}")
    try:
        dtype = np.lib.format.descr_to_dtype(header["descr"])
    except (ValueError, TypeError, KeyError, OverflowError) as exc:
        raise _fail(path, f".npy dtype {header['descr']!r} is not readable: {exc}") from None
    return shape, fortran, dtype, 6 + 2 + size_bytes + length


def _open_npy(path: Path, kind, fmt: str) -> Capture:
    with open(path, "rb") as handle:
        shape, fortran, dtype, offset = _npy_header(path, handle)
    if dtype.hasobject or dtype.kind not in "iuUS" or dtype.fields is not None or dtype.subdtype is not None:
        raise _fail(path, f".npy must hold integer label indices or label strings, got {dtype}")
    if len(shape) == 0:
        raise _fail(path, "holds a single value (a 0-d array), not a sequence of outcomes")
    width = int(kind.width)
    if len(shape) == 2 and width == 1 and shape[1] == 1 and not kind.row_shaped:
        shape = shape[:1]
    expected = kind.shape(shape[0])[1:]
    if tuple(shape[1:]) != expected:
        want = "(n,)" if not expected else f"(n, {width})"
        raise _fail(path, f"shape {shape} does not fit {kind.name}; expected {want}")
    count = 1
    for d in shape:
        count *= d
    have = path.stat().st_size - offset
    if count * dtype.itemsize != have:  # checked before any array is made: no huge allocation
        raise _fail(path, f"the header announces {count:,} values ({count * dtype.itemsize:,} bytes) but the "
                          f"file holds {max(have, 0):,} bytes of data (truncated or padded)")
    if count == 0:
        raise _fail(path, "holds no outcomes")
    data = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape, order="F" if fortran else "C")
    unit = kind.unit_singular

    def where(a):
        return lambda i: f"{path.name}: {unit} {a + i // width}"

    if dtype.kind in "US":
        reading, convert, basis = "labels", _string_labels(path, kind), "the values are label strings"
    elif fmt == "labels":
        reading, convert, basis = "labels", _numbered_labels(path, kind), "as asked"
    elif fmt == "indices" or not _numeric_labels(kind):
        reading, convert = "indices", lambda part, a: _check_range(kind, part, where(a))
        basis = "as asked" if fmt == "indices" else f"integers, and {kind.name}'s labels are not numbers"
    else:
        raise _fail(path, f"holds integers, and {kind.name}'s labels are numbers too: pass format 'indices' "
                          f"(values are label indices 0..{len(kind.labels) - 1}, as rngcert draw writes) or "
                          f"'labels' (values are the numbers printed on the equipment)")

    def get(a, b):
        return convert(np.asarray(data[a:b]), a)

    return Capture(kind, path, int(shape[0]), reading, "npy", get, lambda row: f"{unit} {row}", basis)


def _string_labels(path: Path, kind):
    codec = kind.codec
    small = np.uint16 if len(kind.labels) > 255 else np.uint8

    def convert(part, a):
        if part.dtype.kind == "U":  # UCS-4 code units numpy cannot turn into str (past U+10FFFF)
            codes = part.view(part.dtype.byteorder.replace("|", "=") + "u4")
            if codes.size and int(codes.max()) > 0x10FFFF:
                raise _fail(path, f"{kind.unit_singular}s from {a}: not valid Unicode text")
        try:
            flat = part.astype(str).reshape(-1)
        except (UnicodeDecodeError, ValueError, SystemError):
            raise _fail(path, f"{kind.unit_singular}s from {a}: label strings are not valid ASCII text") from None
        unique, inverse = np.unique(flat, return_inverse=True)
        mapped = []
        for tok in unique:
            v = codec.index(str(tok))
            if v is None:
                first = int(np.flatnonzero(flat == tok)[0])
                shown = tok if len(tok) <= MAX_TOKEN else f"{tok[:20]}..."
                raise _fail(path, f"{kind.unit_singular} {a + first // kind.width} ({shown!r}) is not a label "
                                  f"of {kind.name}")
            mapped.append(v)
        return np.array(mapped, dtype=small)[inverse].reshape(part.shape)

    return convert


def _numbered_labels(path: Path, kind):
    """Integers read as the numbers printed on the equipment (labels that are decimal numbers)."""
    numbers = {}
    for i, label in enumerate(kind.labels):
        if label.isdigit() and str(int(label)) == label:
            numbers[int(label)] = i
    if not numbers:
        raise _fail(path, f"holds integers, but no label of {kind.name} is a number; pass format 'indices'")
    lut = np.full(max(numbers) + 1, -1, dtype=np.int32)
    for number, i in numbers.items():
        lut[number] = i
    small = np.uint16 if len(kind.labels) > 255 else np.uint8

    def convert(part, a):
        flat = part.reshape(-1).astype(np.int64)
        bad = (flat < 0) | (flat >= lut.size)
        mapped = np.where(bad, -1, lut[np.clip(flat, 0, lut.size - 1)])
        if (mapped < 0).any():
            i = int(np.flatnonzero(mapped < 0)[0])
            raise _fail(path, f"{kind.unit_singular} {a + i // kind.width}: {int(flat[i])} is not a label of "
                              f"{kind.name} (valid: {kind.codec.describe()})")
        return mapped.astype(small).reshape(part.shape)

    return convert


# -- raw binary ----------------------------------------------------------------------------------

def _open_binary(path: Path, kind) -> Capture:
    labels = len(kind.labels)
    dtype = np.dtype("<u2") if labels > 256 else np.dtype(np.uint8)
    size = path.stat().st_size
    width = int(kind.width)
    per_row = width * dtype.itemsize
    unit = kind.unit_singular
    if size == 0:
        raise _fail(path, "file is empty")
    if size % per_row:
        raise _fail(path, f"{size} bytes is not a whole number of {unit}s ({per_row} bytes each for {kind.name})")
    data = np.memmap(path, dtype=dtype, mode="r")

    def get(a, b):
        part = np.asarray(data[a * width: b * width])
        part = _check_range(kind, part, lambda i: f"{path.name}: {unit} {a + i // width} "
                                                  f"(byte offset {(a * width + i) * dtype.itemsize})")
        return kind.rows_from_values(part)

    return Capture(kind, path, size // per_row, "indices", "binary", get,
                   lambda row: f"{unit} {row} (byte offset {row * per_row})", "raw binary holds label indices")


def _is_text(path: Path) -> bool:
    with open(path, "rb") as handle:
        head = handle.read(4096)
    if head.startswith(b"\x93NUMPY") or head.startswith(b"PK\x03\x04"):
        return False
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:  # not just a character cut at the 4096-byte boundary
            return False
        text = head[:exc.start].decode("utf-8")
    return all(ch.isprintable() or ch in "\r\n\t" for ch in text)


def open_capture(path, spec, *, format: str = "auto",
                 progress: Callable[[int, int], None] | None = None) -> Capture:
    """Open a capture file for a declared device.

    Parameters
    ----------
    path : str or pathlib.Path
    spec : DeviceSpec-like or DeviceKind
        The declared device (``rngcore.devices.device_spec(name)``, or a kind
        from :mod:`stats.kinds`).
    format : {"auto", "labels", "indices"}, optional
        How values are read (see module doc); binary files always hold indices.
    progress : callable, optional
        ``progress(done, total)``: bytes of the file read so far, called chunk
        by chunk while a text file is checked (here, at open).  A ``.npy`` or
        binary file is only looked at here (its header, its size); the values
        of every format are read later, chunk by chunk, by :meth:`Capture.chunks`.

    Returns
    -------
    Capture

    Raises
    ------
    CaptureInterrupted
        (a KeyboardInterrupt) Ctrl-C while a text file was checked, with how far it got.
    CaptureError
        (a ValueError) Malformed file (with the line number), a value that
        is not a label or index of the device (naming it), or a file
        size/shape that does not fit the device.  The message starts with
        the file's name.
    """
    check_choice("format", format, FORMATS)
    kind = kind_of(spec)
    path = Path(path)
    if not path.is_file():
        raise CaptureError(f"{path}: no such file")
    try:
        suffix = path.suffix.lower()
        if suffix == ".npy":
            return _open_npy(path, kind, format)
        if suffix in _TEXT_SUFFIXES or (suffix not in _BINARY_SUFFIXES and _is_text(path)):
            try:
                return _open_text(path, kind, format, progress)
            except UnicodeDecodeError as exc:
                raise _fail(path, f"not valid UTF-8 text (byte {exc.start}); use .bin for raw binary captures") \
                    from None
        if format == "labels":
            raise _fail(path, "binary files hold label indices, not labels")
        return _open_binary(path, kind)
    except OSError as exc:
        raise _fail(path, f"cannot be read: {exc.strerror or exc}") from None


def read_capture(path, spec, *, format: str = "auto") -> np.ndarray:
    """All outcomes of a capture file as label indices (see :func:`open_capture`)."""
    return open_capture(path, spec, format=format).array()


__all__ = ["open_capture", "read_capture", "Capture", "CaptureError", "CaptureInterrupted", "FORMATS", "MAX_TOKEN",
           "MAX_LINE", "RESUME_ROWS"]
