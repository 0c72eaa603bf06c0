"""Scanning a text capture in blocks: plain lines in C (``csrc/stats/tokenize.h``), the rest in Python.

The kernel turns the values of a plain line (ASCII, all spellings known,
the right width) into spelling ids; at any other line it stops, and the
reader's own Python code reads that one line (:func:`scan`'s ``slow``),
so every decision and message stays in the reader.  Memory is one block of
the file and one batch of ids, whatever the file's size.
"""
from __future__ import annotations

import re
from typing import Callable, Iterator

import numpy as np

from stats._sp800_22_native import _lib

#: Bytes read from the file at a time.
BLOCK = 1 << 23
#: Distinct spellings the kernel knows (the reader goes on in Python past that many).
VOCABULARY = 1 << 14
_LINE_END = re.compile(rb"\r\n|\r|\n")


class Vocabulary:
    """The spellings the kernel reads, each with the reader's id for it."""

    def __init__(self, capacity: int = VOCABULARY):
        ffi, lib = _lib()
        pointer = lib.stat_vocab_new(capacity)
        if pointer == ffi.NULL:
            raise MemoryError("text capture vocabulary: out of memory")
        self._vocab = ffi.gc(pointer, lib.stat_vocab_free)

    def add(self, token: str, id: int) -> None:
        """Teach the kernel ``token`` (plain ASCII spellings only; others stay with Python)."""
        if token.isascii() and len(token.encode()) <= _lib()[1].STAT_VOCAB_TOKEN:
            raw = token.encode()
            _lib()[1].stat_vocab_add(self._vocab, raw, len(raw), id)


def scan(path, offset: int, line: int, width: int, vocabulary: Vocabulary, batch: int,
         slow: Callable[[int, bytes, bool, int, int], list | None], *, max_line: int, longest: int,
         python_first: bool = False, block: int | None = None, progress: Callable[[int], None] | None = None
         ) -> Iterator[tuple[np.ndarray, int, int, int]]:
    """Outcome rows of a text file from byte ``offset`` (after ``line`` lines), ``batch`` rows at a time.

    Parameters
    ----------
    slow : callable
        ``slow(number, raw, terminated, offset, rows)`` reads line ``number``
        (its bytes ``raw`` without the terminator, at file offset ``offset``,
        after ``rows`` rows of this scan): a list of ``width`` ids, None for a
        blank or comment line, or it raises.
    max_line : int
        Longest line the kernel reads (characters, terminator counted).
    longest : int
        Bytes after which a line without a terminator goes to ``slow`` as is
        (it is too long whatever its characters).
    python_first : bool
        Read every line in Python until the first row (a file's comment
        header, where its reading may be declared).
    block : int, optional
        Bytes read at a time (default :data:`BLOCK`).
    progress : callable, optional
        ``progress(offset)`` after each block read.

    Yields
    ------
    (ids, rows, offset, line)
        ``ids`` (uint16, ``rows * width``) of the next rows; every batch but
        the last holds ``batch`` rows; ``offset`` and ``line`` are where the
        scan stands after them.
    """
    ffi, lib = _lib()
    block = BLOCK if block is None else block
    out = np.empty(batch * width, dtype=np.uint16)
    out_pointer = ffi.from_buffer("uint16_t[]", out)
    state = ffi.new("stat_scan *")
    filled = 0
    rows = 0
    with open(path, "rb") as handle:
        handle.seek(offset)
        buf, pos, base, eof = b"", 0, offset, False

        def refill():
            nonlocal buf, pos, base, eof
            more = handle.read(block)
            eof = len(more) < block
            buf, base, pos = buf[pos:] + more, base + pos, 0
            if progress is not None:
                progress(base + len(buf))

        refill()
        while True:
            state.line, state.rows = line, 0
            limit = 0 if python_first and rows == 0 else max_line  # 0: every line goes to Python
            view = ffi.from_buffer("uint8_t[]", buf)
            status = lib.stat_scan_lines(vocabulary._vocab, view + pos, len(buf) - pos, eof, width, batch - filled,
                                         limit, out_pointer + filled * width, state)
            if status < 0:
                raise ValueError(f"text scan: the kernel refused its arguments (status {status})")
            pos, line, filled, rows = pos + state.consumed, state.line, filled + state.rows, rows + state.rows
            if filled == batch:
                yield out.copy(), filled, base + pos, line
                filled = 0
                continue
            if eof and pos >= len(buf):
                if filled:
                    yield out[:filled * width].copy(), filled, base + pos, line
                return
            if status == lib.STAT_SCAN_SLOW or len(buf) - pos > longest:  # (a partial line too long to wait for)
                end = _LINE_END.search(buf, pos)
                if (end is None or (end.group() == b"\r" and end.end() == len(buf))) and not eof \
                        and len(buf) - pos <= longest:
                    refill()
                    continue
                stop, after = (end.start(), end.end()) if end is not None else (len(buf), len(buf))
                ids = slow(line + 1, buf[pos:stop], end is not None, base + pos, rows)
                line, pos = line + 1, after
                if ids is not None:
                    out[filled * width:(filled + 1) * width] = ids
                    filled, rows = filled + 1, rows + 1
                continue
            refill()


__all__ = ["Vocabulary", "scan", "BLOCK"]
