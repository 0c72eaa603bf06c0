"""A Pontoon strategy chart as the player gives it: the CSV of ``rngcert game pontoon --chart csv``
read back as a strategy (``--strategy FILE``), and the rows that make the printed chart complete.

The layout (:func:`harness.games.twentyone_pontoon.chart`): the family's two-card rows (``hard
5`` .. ``hard 19``, ``soft 13`` .. ``soft 20``, ``pair 2`` .. ``pair A``), the 6-7-8 candidates
(``6-7``, ``6-8``, ``7-8``), the hands of 3, 4, 5, 6 and 7+ cards by total (``hard 12 x3`` ..
``soft 20 x7+``) and the rescue of a doubled total (``doubled 12`` .. ``doubled 20``), one code
per upcard 2..10, A.  Two kinds of row are optional, printed only where the computed strategy
needs them:

* ``hard T xN`` for T of 11 or less (a hand of 3+ cards that is not in a row hits; a row says
  where it doubles, ``double-cards=any``);
* ``split ROW``: the play of a split hand where it is not the row's (a split hand is played by
  its row, D and R falling back to their second letter where not allowed); ``split pair X`` is a
  split pair's play when it is not split again.

Codes: H hit, S stand, D double (else hit), Ds double (else stand), P split, R surrender (else
hit), Rs surrender (else stand); in ``doubled`` rows S keep and W rescue (000 第2 3-7-ホ).  A
doubled total of 12 or less is played by ``doubled 12``: a doubled total of 16 or less wins only
on a dealer bust, so they settle alike.

Refused, naming the file, line and cell: a missing row or cell, an unknown row or code, P on a
row that is not a pair, a surrender Pontoon does not offer (only on the first two cards, only
against an A, K, Q or J: 3-7-ハ), a double on 3+ cards unless the operator allows it
(``double-cards=any``, 3-7-ト-(2)-(一)), a code other than S or W in a ``doubled`` row.
"""
from __future__ import annotations

from harness.games import twentyone as tw
from harness.games import twentyone_pontoon as pt
from harness.games.twentyone import DOUBLE, HIT, RESCUE, SPLIT, STAND, SURRENDER, Context, cards, hard_total, total

CODES = {**tw.CODES, "W": (RESCUE, STAND)}
UPCARDS = tw.CHART_UPCARDS
CANDIDATES = ("6-7", "6-8", "7-8")
COUNTS = (3, 4, 5, 6, 7)


def count_name(n: int) -> str:
    return f"x{n}{'+' if n == 7 else ''}"


def lowest(n: int, soft: bool) -> int:
    """The lowest total a hand of ``n`` cards can have (soft: aces; hard: 2s)."""
    return 10 + n if soft else 2 * n


def required_rows() -> list[str]:
    """The rows every Pontoon chart has (module doc)."""
    names = ([f"hard {t}" for t in range(5, 20)] + [f"soft {t}" for t in range(13, 21)]
             + [f"pair {x}" for x in list(range(2, 11)) + ["A"]] + list(CANDIDATES))
    for n in COUNTS:
        names += [f"hard {t} {count_name(n)}" for t in range(12, 21)]
        names += [f"soft {t} {count_name(n)}" for t in range(max(13, lowest(n, True)), 21)]
    return names + [f"doubled {t}" for t in range(12, 21)]


def optional_rows() -> list[str]:
    """The 3+-card hard rows below 12 (module doc); ``split`` rows are any row's name prefixed."""
    return [f"hard {t} {count_name(n)}" for n in COUNTS for t in range(lowest(n, False), 12)]


def row_of(hand: tuple, ctx: Context) -> str | None:
    """The chart row that plays ``hand`` (None: no row, the obvious play)."""
    t, soft = total(hand)
    if ctx.doubled:
        return f"doubled {max(12, hard_total(hand))}" if hard_total(hand) <= 20 else None
    if t >= 21:
        return None
    n = cards(hand)
    if n == 2:
        x = tw.pair_value(hand)
        if x is not None:
            return f"pair {'A' if x == tw.ACE else x}"
        tag = pt.bonus_tag(hand)
        if tag is not None:
            return "-".join(str(v) for v in range(1, 11) for _ in range(tag[v - 1]))
        return f"{'soft' if soft else 'hard'} {t}"
    return f"{'soft' if soft else 'hard'} {t} {count_name(min(n, 7))}"


class PontoonChart(tw.ChartCells):
    """A Pontoon strategy read from a chart (module doc): callable as an evaluator's strategy."""

    def _code(self, name: str | None, up: int, ctx: Context) -> str | None:
        if name is None:
            return None
        row = self.rows.get(f"split {name}") if ctx.split else None
        row = row or self.rows.get(name)
        return None if row is None else row[up]

    def __call__(self, hand: tuple, up: int, ctx: Context, allowed: tuple[str, ...]) -> str:
        name = row_of(hand, ctx)
        pair = tw.pair_value(hand) is not None and not ctx.doubled
        # whether to split is the pair row's (a split row plays a pair that is not split)
        code = self.rows[name][up] if pair else self._code(name, up, ctx)
        if pair and CODES[code][0] == SPLIT and SPLIT in allowed:
            return SPLIT
        if pair and (CODES[code][0] == SPLIT or ctx.split):
            # a pair not split (again): its split row, else the row of its total
            t, soft = total(hand)
            split_row = (self.rows.get(f"split {name}") or {}).get(up) if ctx.split else None
            if split_row is not None:
                code = split_row
            elif CODES[code][0] == SPLIT:
                code = self._code(None if t >= 21 else f"{'soft' if soft else 'hard'} {t}", up, ctx)
        if code is None:
            act, fallback = (STAND, STAND) if ctx.doubled or total(hand)[0] >= 20 else (HIT, HIT)
        else:
            act, fallback = CODES[code]
        if act in allowed:
            return act
        return fallback if fallback in allowed else STAND


def _refuse(where: str, no: int, what: str) -> None:
    raise ValueError(f"{where} line {no}: {what}")


def read_chart(text: str, where: str, rules: tw.Rules) -> PontoonChart:
    """A :class:`PontoonChart` from CSV text; ValueError naming ``where``, the line and the cell
    for anything the module doc refuses."""
    required = required_rows()
    known = set(required) | set(optional_rows())

    def base_of(name: str) -> str:  # a split row is played as the row it names
        return name[len("split "):] if name.startswith("split ") else name

    def check_cell(no: int, name: str, cell: str, code: str, up: int) -> None:
        _check_cell(where, no, base_of(name), name, cell, code, up, rules)

    return PontoonChart(tw.read_chart_rows(
        text, where, CODES, lambda name: base_of(name) in known,
        "rows: those of rngcert game pontoon --chart csv, any prefixed 'split ' for split hands", required, check_cell))


def _check_cell(where, no, base: str, name: str, cell: str, code: str, up: int, rules: tw.Rules) -> None:
    act = CODES[code][0]
    doubled, longer = base.startswith("doubled"), " x" in base
    if doubled != (act == RESCUE) and not (doubled and act == STAND):
        _refuse(where, no, f"{code!r} in {cell}: a doubled row keeps (S) or rescues (W), 000 第2 3-7-ホ; W is "
                           "only for doubled rows")
    if act == SPLIT and not base.startswith("pair"):
        _refuse(where, no, f"split (P) on {name!r} against {cell.rsplit(' ', 1)[1]}, which is not a pair")
    if act == SPLIT and name.startswith("split "):
        _refuse(where, no, f"split (P) in {cell}: a split row plays the hand when it is not split "
                           "(the pair row says whether to split)")
    if act == SURRENDER and (longer or name.startswith("split ")):
        _refuse(where, no, f"surrender ({code}) in {cell}: only on the first two cards (000 第2 3-7-ハ)")
    if act == SURRENDER and not rules.may_surrender(up):
        _refuse(where, no, f"surrender ({code}) in {cell}: only against an A, K, Q or J (000 第2 3-7-ハ)")
    if act == DOUBLE and longer and not rules.double_any_cards:
        _refuse(where, no, f"double ({code}) in {cell}: a double on 3+ cards needs --option double-cards=any "
                           "(000 第2 3-7-ト-(2)-(一))")


# ---------------------------------------------------- the printed chart --

def _questions(rules: tw.Rules):
    """Every (hand, up, ctx, allowed) a split hand's round can put (the C table's questions)."""
    from harness.games.twentyone_table import CONTEXTS, RESCUE_CONTEXTS, _doubled_hand, hand_keys
    for ctx in CONTEXTS[1:]:
        for up in tw.VALUES:
            for can in (False, True):
                for _, hand in hand_keys(True):
                    yield hand, up, ctx, tw.allowed_actions(rules, up, hand, ctx, can)
    for up in tw.VALUES if rules.double_after_split else ():
        for t in range(12, 21):
            yield _doubled_hand(t), up, RESCUE_CONTEXTS[1], (STAND, RESCUE)


def chart(rules: tw.Rules, strategy: pt.PontoonStrategy) -> dict:
    """The computed strategy's chart (:func:`harness.games.twentyone_pontoon.chart`) with the
    optional rows it needs (module doc), so that read back it plays as the strategy."""
    table = pt.chart(strategy)
    rows = table["rows"]
    for name in optional_rows():
        t, n = int(name.split()[1]), int(name.split()[2][1])
        cell = [strategy.cells.get((up, t, False, n, None, Context())) for up in UPCARDS]
        if all(cell) and set(cell) != {HIT}:
            rows[name] = cell
    read = PontoonChart({n: dict(zip(UPCARDS, r)) for n, r in rows.items()})
    wrong: dict[str, tuple] = {}
    for hand, up, ctx, allowed in _questions(rules):
        try:
            want = strategy(hand, up, ctx, allowed)
        except ValueError:
            continue     # a question the computed play never reaches
        name = row_of(hand, ctx)
        if name is not None and read(hand, up, ctx, allowed) != want:
            wrong.setdefault(name, (hand, ctx))
    for name, (hand, ctx) in wrong.items():
        row = []
        for up in UPCARDS:
            allowed = tw.allowed_actions(rules, up, hand, ctx, False) if not ctx.doubled else (STAND, RESCUE)
            try:
                row.append(strategy(hand, up, ctx, allowed))
            except ValueError:
                row.append(read(hand, up, ctx, allowed))
        rows[f"split {name}"] = row
    return table
