"""How large a slot model may be, and what its exact analysis will cost.

Every limit is documented in ``docs/slot_model.md`` ("Limits").  The loader
refuses a model beyond a size limit with a located
:class:`~harness.slot.errors.ModelError`; :func:`check_cost` refuses, before
any table is built, an analysis whose estimated work or memory is beyond
what this tool does in about ten seconds.

What the cost grows with.  The joint programme (:mod:`harness.slot.joint`)
groups the stops of every reel by what they show in every subset of the
window's rows: ``stops x 2**rows`` table entries per reel and stage (base
game, free spins), each a few Python objects while the tables are built.
That is the part that grows with the size of the model (a reel of 10**8
stops alone needs gigabytes), so it is what :func:`estimate` counts.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot.errors import BeyondExact

MAX_MODEL_BYTES = 16 * 2**20  # a model file: 16 MiB of TOML
MAX_ROWS = 8  # the exact analysis groups reel stops by subsets of rows (2**rows of them)
MAX_REELS = 64
MAX_SYMBOLS = 255  # strips are stored one byte per stop
MAX_SCATTER_CELLS = 4096  # joint scatter counts of all scatter symbols (ScatterCode cells); 16 bits in C
MAX_NAME = 64  # characters of a symbol name
MAX_PAYLINES = 65_535  # the C kernels count paylines in 16 bits
MAX_HEIGHT_WAYS = 2**24  # ways of a reel-heights game (7^6 = 117,649 fit; 8 rows x 8 reels): never read one by one
MAX_REEL_STOPS = 100_000  # stops of one reel strip
MAX_DIGITS = 50  # digits of an exact share ("0.015", "3/200")
MAX_PLAY_WIN = 2**36  # credits: largest win of one play; x 2^20 plays per simulation chunk < 2^56
MAX_FREE_SPINS = 100_000_000  # a feature longer than this is refused by the simulation (runaway guard)
MAX_SIMULATED_PLAYS = 2**64 - 1  # --simulate: what the C kernel's 64-bit play counter holds
MAX_TABLE_ENTRIES = 4_000_000  # stops x 2**rows over every reel of every stage (~10 s, < 1 GiB)
BYTES_PER_ENTRY = 160  # at most: a group tuple and its list slot while the tables are built (CPython, 64-bit)
MAX_CASCADE_STATES = 1_000  # windows x ladder rungs a cascade chain reaches (exact elimination per component)
MAX_CASCADE_BOUND_STATES = 100_000  # beyond MAX_CASCADE_STATES: every state still followed, figures bounded
MAX_START_WINDOWS = 200_000  # distinct paid-spin windows of a cascade model (column contents over the reels)
MAX_TRANSITIONS = 2_000_000  # refill outcomes a cascade chain follows, over all its states
MAX_LADDER = 100  # rungs of a cascade's multiplier ladder
MAX_BOTH_WAYS_READS = 20_000_000  # both-ways pays: distinct windows x paylines x 2 directions read (~ a minute)
MAX_KERNEL_HEIGHT_STOPS = 2**20  # --simulate in C, reel heights: one reel's (height draw, stop) pairs (rows bytes each)
MAX_HEIGHT_WINDOWS = 2_000_000  # reel heights per spin, read window by window: distinct windows over every height combination
MAX_BOTH_WAYS_TABLE = 1_000_000  # both-ways ways: truth-table entries over the paying symbols (3^reels each at most; ~3 s)
MAX_WAYS_STATES = 500_000  # the ways programme (harness.slot.ways): states, state pairs or state sets at one reel
MAX_STICKY_READS = 10_000_000  # sticky wilds: sticky sets x feature-strip windows x paylines read (~ a minute)
MAX_CAP_WORK = 5_000_000  # the award cap with free spins: (state, free-spin outcome) steps of the capped walk (~10 s)
MAX_CAP_GAP = Fraction(1, 10**12)  # ... followed until its RTP bounds are this close (retriggers), in total bets
MAX_STICKY_STATES = 200_000  # sticky wilds: (sticky set, spins left, spins awarded) states of the session chain


@dataclasses.dataclass(frozen=True)
class Cost:
    """The estimated cost of a model's exact analysis.

    Attributes
    ----------
    table_entries : int
        ``sum of stops x 2**rows`` over the reels of every stage analysed.
    memory_bytes : int
        Peak memory of the stop-group tables (an estimate).
    """

    table_entries: int
    memory_bytes: int

    @property
    def within_limits(self) -> bool:
        return self.table_entries <= MAX_TABLE_ENTRIES


def estimate(model) -> Cost:
    """The cost of analysing ``model`` exactly (see the module docstring)."""
    stops = list(model.stop_totals())  # a weighted reel is analysed as its virtual reel
    if model.free_spins is not None:
        stops += model.stop_totals(feature=True)
    entries = sum(stops) << model.rows
    return Cost(table_entries=entries, memory_bytes=entries * BYTES_PER_ENTRY)


def check_cost(model) -> Cost:
    """Refuse, before it starts, an analysis beyond :data:`MAX_TABLE_ENTRIES`.

    Raises
    ------
    BeyondExact
        Naming the estimated work and memory, the limit and what to change (``--simulate N``
        then reports a stated-precision simulation: :mod:`harness.slot.estimate`).
    """
    cost = estimate(model)
    if not cost.within_limits:
        stages = "base and feature strips" if model.free_spins is not None else "base strips"
        raise BeyondExact(
            "reels",
            f"too large to analyse exactly: the {stages} have {cost.table_entries >> model.rows:,} stops, "
            f"grouped by each of the 2**{model.rows} subsets of rows = {cost.table_entries:,} table entries "
            f"(about {cost.memory_bytes / 2**30:.1f} GiB), beyond the limit of {MAX_TABLE_ENTRIES:,} "
            "(docs/slot_model.md, Limits); shorten the strips or use fewer rows",
            model.source,
        )
    return cost
