"""Poker tournaments (000 別表第1 第3 11): entry stakes pooled, games of Omaha or
Texas Hold'em played for tournament chips until one entrant holds them all, a
prize pool of the pooled stakes x r paid to the best-ranked entrants.

Source: ``000_d4cd2a3cb5c95429.txt`` L1883-1925 (digest ``rules/poker.md``
§10; the original wins).

* 11-2-イ: each entrant deposits the entry stake before the games start
  or, after they start, up to the deadline the Commission approves
  (before the places are decided, 4-ロ); 11-2-ロ: the operator pools them.
* 11-3-イ, ロ: every entrant gets the same tournament chips and the games
  (9 or 10) are played for points instead of money; 11-3-ハ, ニ: without
  the house's share (9-9-イ, 13-イ excluded), the odd points to the nearest
  winner as 9-9-ロ / 13-ロ say, "1 yen" read as the smallest chip
  (``--option smallest-chip``, 1 point unless set).
* 11-4: the entrants are ranked by a method the Commission approves; those
  above an approved place win (11-4-ロ).
* 11-5: the prize pool is the pooled stakes x r, 0.70 <= r < 1, paid in
  approved proportions.

Readings, since the approved items are the operator's (each an option
here): the ranking is by the order of elimination (the last entrant left
first; entrants eliminated in the same game by their chips when it
started, larger first, then equal); the blinds follow a schedule of levels
(:data:`BLIND_SCHEDULES`, 9-2-ロ sets no amount: the operator's), each
level lasting a fixed number of games, the last level kept; late entrants
(11-2-イ) take a seat at the table's end with the same points (11-3-イ),
spread evenly over the games up to the deadline, the last at it, and one
who would arrive once a single entrant holds every point is not accepted
(the places are decided, 4-ロ); a tournament stops after ``MAX_GAMES``
games if no entrant holds every chip, the rest ranked by chips held; the
prize pool is exact in fractions of a yen (11-5 states no rounding) and
counts every stake taken, late ones included.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Sequence

from harness.games import poker_pots as pots
from harness.games import poker_table as pt
from harness.games._deck_game import run_whole_chunks
from harness.games._pvp_game import IRREGULARITIES, IRREGULARITY_OPTION, STRATEGIES, BoardTally
from harness.games.base import Analysis, Game, GameOption, OptionError, _replay
from harness.games.simulate import Simulation

SOURCE = "000 別表第1 第3 11"
MAX_GAMES = 2000

# variant -> the games played (11-3-ハ: Omaha, 9; 11-3-ニ: Texas Hold'em, 10)
TABLES = {
    "texas-holdem": (2, "best5", False, f"{SOURCE}-3-ニ (第3 10)"),
    "omaha": (4, "omaha-hi", False, f"{SOURCE}-3-ハ (第3 9)"),
    "omaha-hi-lo": (4, "omaha-hi", True, f"{SOURCE}-3-ハ (第3 9-10 .. 9-13)"),
}
# The operator's approved proportions of the prize pool by place (11-5): a choice here.
PAYOUTS = {"50-30-20": (50, 30, 20), "65-35": (65, 35), "100": (100,)}
# 11-4-ロ, 11-5: the places paid "according to the number of entrants": (fewest entrants, proportions)
# rows, the last row whose fewest is reached applies (the operator's approved table; one here).
PAYOUTS_BY_ENTRANTS = {"by-entrants": ((2, (100,)), (4, (65, 35)), (7, (50, 30, 20)))}


def payout_shares(name: str, entrants: int) -> tuple[int, ...]:
    """The proportions by place of payout ``name`` for ``entrants`` entrants (11-4-ロ, 11-5)."""
    if name in PAYOUTS:
        return PAYOUTS[name]
    return [shares for fewest, shares in PAYOUTS_BY_ENTRANTS[name] if fewest <= entrants][-1]
# Blind levels (the operator's: 9-2-ロ, applied by 11-3-ハ, ニ, sets no amount): the small blind of
# each level as a multiple of --blind, the big blind twice it; the last level stays.
BLIND_SCHEDULES = {
    "flat": ((1,), "the small blind --blind all tournament"),
    "doubling": ((1, 2, 4, 8, 16, 32, 64, 128, 256), "doubled at each level"),
    "stepped": ((1, 2, 3, 5, 8, 10, 15, 20, 30, 40, 60, 80, 100), "raised by about half at each level"),
}


def blind_levels(blind: int, schedule: str) -> tuple[int, ...]:
    """The small blind of each level of ``schedule`` (:data:`BLIND_SCHEDULES`) from ``blind``."""
    return tuple(blind * m for m in BLIND_SCHEDULES[schedule][0])


def blind_of_game(levels: Sequence[int], level_games: int, game: int) -> int:
    """The small blind of game ``game`` (0 the first): level ``game // level_games``, the last kept."""
    return levels[min(game // level_games, len(levels) - 1)]


def arrivals(late: int, deadline: int) -> tuple[int, ...]:
    """11-2-イ: after how many games each of ``late`` late entrants takes a seat, spread
    evenly up to the ``deadline`` (in games), the last at it (a reading: the approved
    deadline is the operator's)."""
    if late and deadline < 1:
        raise ValueError(f"late entry needs a deadline of at least 1 game (11-2-イ), got {deadline}")
    return tuple(-(-k * deadline // late) for k in range(1, late + 1))


def prize_pool(entrants: int, entry: int, r: Fraction) -> Fraction:
    """11-5: the pooled entry stakes x r (0.70 <= r < 1), exact."""
    return entrants * entry * pots.check_share(r, pots.TOURNAMENT_SHARE)


def prizes(entrants: int, entry: int, r: Fraction, payout: Sequence[int]) -> tuple[Fraction, ...]:
    """The prize of each paid place (11-4-ロ, 11-5): the pool in the approved proportions
    (places beyond the entrants unpaid, their share spread over the paid ones)."""
    paid = payout[:entrants]
    pool = prize_pool(entrants, entry, r)
    return tuple(pool * p / sum(paid) for p in paid)


@dataclasses.dataclass(frozen=True)
class Tournament:
    """One played tournament: the entrants' places (best first; those who took part,
    late entrants included) and the games, each with its small blind."""

    places: tuple[int, ...]
    games: tuple[pt.Round, ...]
    chips_conserved: bool
    blinds: tuple[int, ...] = ()

    @property
    def entrants(self) -> int:
        """The stakes taken (11-2): everyone who took part."""
        return len(self.places)


def play_tournament(rules: pt.TableRules, entrants: int, chips: int, decks, policy, *,
                    levels: Sequence[int] | None = None, level_games: int = 1,
                    late: Sequence[int] = (), irregularity=None) -> Tournament:
    """Play games (one shuffled deck each, from the iterator ``decks``) until one entrant
    holds every chip or :data:`MAX_GAMES` are played; the places by elimination.

    ``levels``: the small blind of each blind level (default: ``rules.blind`` only),
    each lasting ``level_games`` games; ``late``: after how many games each late
    entrant (seats ``entrants``, ``entrants + 1``, ...) takes a seat with ``chips``
    (11-2-イ, 11-3-イ), refused once one entrant holds every chip (4-ロ);
    ``irregularity``: a :class:`harness.games.poker_irregular.Irregularity` in every game,
    its measure of 9-14-イ applied (11-3-ハ, ニ keep 9-14-イ; a void game moves no point).
    """
    levels = tuple(levels) if levels else (rules.blind,)
    held = [chips] * entrants
    pending = sorted(late)
    out: list[list[int]] = []        # eliminated groups, first eliminated first
    games: list[pt.Round] = []
    blinds: list[int] = []
    conserved = True
    button = 0                       # the entrant in (or next clockwise to) the small blind's seat
    while len(games) < MAX_GAMES:
        if sum(1 for h in held if h) < 2:
            break                    # the places are decided (4-ロ): no later entry
        while pending and pending[0] <= len(games):
            pending.pop(0)
            held.append(chips)       # 11-2-イ late entry, the same points (11-3-イ)
        seats = [i for i in range(len(held)) if held[i]]
        sb = next((k for k, i in enumerate(seats) if i >= button), 0)
        blind = blind_of_game(levels, level_games, len(games))
        game_rules = rules if blind == rules.blind else dataclasses.replace(rules, blind=blind)
        r = pt.play_round(game_rules, [held[i] for i in seats], sb, next(decks), policy, irregularity)
        before = {i: held[i] for i in seats}
        for k, i in enumerate(seats):
            held[i] += r.paid.get(k, 0) - r.staked[k]
        conserved &= r.chips_conserved() and sum(held) == len(held) * chips
        gone = sorted((i for i in seats if not held[i]), key=lambda i: before[i])
        if gone:
            out.append(gone)
        games.append(r)
        blinds.append(blind)
        button = (seats[sb] + 1) % len(held)
    standing = sorted((i for i in range(len(held)) if held[i]), key=lambda i: -held[i])
    places = standing + [i for group in reversed(out) for i in reversed(group)]
    return Tournament(tuple(places), tuple(games), conserved, tuple(blinds))


OPTIONS = (
    GameOption("entrants", "N", "entrants (11-2)", 2, 10, 6),
    GameOption("entry", "YEN", "each entrant's entry stake, pooled by the operator (11-2-ロ)", 1, 10**9, 10_000),
    GameOption("points", "N", "the tournament chips (points) every entrant receives (11-3-イ)", 2, 10**9, 1000),
    GameOption("blind", "YEN", "the small blind in points, the big blind twice it (9-2-ロ applied by 11-3)", 1,
               10**6, 10),
    GameOption("pool-share", "BP", "the approved r of 11-5 in hundredths of a percent: the prize pool is the "
               "pooled stakes x r, 0.70 <= r < 1", 7000, 9999, 9000),
    GameOption.choice("payout", "the approved shares of the prize pool by place, in percent (11-5); by-entrants: "
                      "100 with 2-3 entrants, 65-35 with 4-6, 50-30-20 with 7 or more (11-4-ロ)",
                      (*PAYOUTS, *PAYOUTS_BY_ENTRANTS)),
    GameOption.choice("blinds", "the blind levels, each a multiple of --blind: "
                      + "; ".join(f"{k}: {v[1]}" for k, v in BLIND_SCHEDULES.items())
                      + " (the operator's: 9-2-ロ sets no amount)", tuple(BLIND_SCHEDULES)),
    GameOption("level-games", "N", "games played at each blind level (with --option blinds=doubling|stepped)",
               1, 10**6, 10),
    GameOption("late-entrants", "N", "entrants who deposit their stake after the games start, each taking a seat "
               "with the same points before the approved deadline (11-2-イ)", 0, 10, 0),
    GameOption("entry-deadline", "N", "the approved deadline of late entry, in games played (11-2-イ)", 1, 10**6, 10),
    GameOption("smallest-chip", "N", "the points of the smallest tournament chip: shares of a pot are truncated to "
               "whole chips, the rest to the winner 9-9-ロ / 13-ロ names (11-3-ハ); --blind and --points must be "
               "whole chips", 1, 10**6, 1),
    IRREGULARITY_OPTION,
)


def _check_chips(points: int, blind: int, chip: int) -> None:
    """The stacks and the blinds are whole tournament chips (11-3-イ: chips of equal points)."""
    if points % chip or blind % chip:
        raise OptionError.naming(lambda flag: f"poker-tournament: {flag('points')} ({points}) and {flag('blind')} "
                                              f"({blind}) must be whole chips of {flag('smallest-chip')} "
                                              f"({chip} points)")


class PokerTournamentGame(Game):
    name = "poker-tournament"
    summary = ("poker tournaments: entry stakes pooled, Omaha or Texas Hold'em for tournament chips, the prize "
               "pool (pooled stakes x r) to the best places")
    rules = f"{SOURCE} (seed L1883-1925)"
    variants = tuple(TABLES)
    variants_help = "the game played: texas-holdem (11-3-ニ), omaha or omaha-hi-lo (11-3-ハ)"
    devices = "deck"
    chunk = 1
    options = OPTIONS
    strategies = STRATEGIES

    @staticmethod
    def table(variant: str, blind: int, chip: int = 1) -> pt.TableRules:
        hole, hand, hilo, _ = TABLES[variant]
        return pt.TableRules(hole, hand, hilo, blind, share=None, chip=chip)

    def _analyse(self, variant, *, strategy, entrants, entry, points, blind, pool_share, payout, blinds,
                 level_games, late_entrants, entry_deadline, smallest_chip, irregularity) -> Analysis:
        _check_chips(points, blind, smallest_chip)
        r = Fraction(pool_share, 10_000)
        each = prizes(entrants, entry, r, payout_shares(payout, entrants))
        pool = prize_pool(entrants, entry, r)
        text = lambda x: f"{x.numerator}/{x.denominator}" if x.denominator > 1 else str(x.numerator)
        parameters = {
            "entrants": entrants, "entry": entry, "pooled": entrants * entry, "pool_share_r": text(r),
            "prize_pool": text(pool), "prizes_by_place": [text(x) for x in each], "points": points,
            "house_keeps": text(entrants * entry - pool), "games": TABLES[variant][3]}
        if blinds != "flat":
            parameters.update(blind_levels=list(blind_levels(blind, blinds)), level_games=level_games)
        if smallest_chip != 1:
            parameters.update(smallest_chip=smallest_chip)
        if late_entrants:
            most = entrants + late_entrants
            all_late = prizes(most, entry, r, payout_shares(payout, most))
            parameters.update(late_entrants=late_entrants, entry_deadline_games=entry_deadline,
                              late_arrivals_after_games=list(arrivals(late_entrants, entry_deadline)),
                              prize_pool_all_late=text(prize_pool(most, entry, r)),
                              prizes_by_place_all_late=[text(x) for x in all_late])
        paid = (f"{payout} % by place" if payout in PAYOUTS
                else f"by place in the shares for the number of entrants ({SOURCE}-4-ロ)")
        late = f"; late entrants' stakes ({SOURCE}-2-イ) join the pool" if late_entrants else ""
        return Analysis(self.name, variant, parameters, (),
                        note=(f"the entrants play one another for points (no house share in the games, {SOURCE}-3-ハ); "
                              f"the prize pool is the pooled stakes x r, 0.70 <= r < 1 ({SOURCE}-5), paid {paid}"
                              + late))

    def _simulate(self, rounds, generator, variant, progress, *, strategy, entrants, entry, points, blind,
                  pool_share, payout, blinds, level_games, late_entrants, entry_deadline, smallest_chip,
                  irregularity):
        from rngcore.devices import device_spec

        _check_chips(points, blind, smallest_chip)
        rules = self.table(variant, blind, smallest_chip)
        policy = pt.call_down if strategy == "call-down" else pt.random_policy(generator, smallest_chip)
        r = Fraction(pool_share, 10_000)
        levels = blind_levels(blind, blinds)
        late = arrivals(late_entrants, entry_deadline)
        boards = BoardTally()
        tally = {"tournaments": 0, "games": 0, "not_conserved": 0, "capped": 0, "late": 0, "pooled": 0, "void": 0}
        event = IRREGULARITIES[irregularity]
        won = [Fraction(0)] * (entrants + late_entrants)

        def decks():
            while True:
                yield device_spec("deck").draw(generator, 1)[0]

        def step(n: int) -> None:
            dealt = []
            for _ in range(n):
                t = play_tournament(rules, entrants, points, decks(), policy, levels=levels,
                                    level_games=level_games, late=late, irregularity=event)
                each = prizes(t.entrants, entry, r, payout_shares(payout, t.entrants))
                for place, seat in enumerate(t.places[:len(each)]):
                    won[seat] += each[place]
                tally["late"] += t.entrants - entrants
                tally["pooled"] += t.entrants * entry
                for g in t.games:
                    tally["void"] += g.void is not None
                    if g.void is None:
                        dealt.append(g.board)
                tally["tournaments"] += 1
                tally["games"] += len(t.games)
                tally["not_conserved"] += not t.chips_conserved
                tally["capped"] += len(t.games) == MAX_GAMES
            boards.count(dealt)

        played, interrupted, seconds = run_whole_chunks(rounds, self.chunk, step, lambda: tally["tournaments"],
                                                        progress)
        fit = boards.fit(tally["not_conserved"])
        late_note = f"; {tally['late']:,} late entrants took a seat ({SOURCE}-2-イ)" if late_entrants else ""
        if event is not None:
            late_note += f"; irregularity {irregularity} in every game, {tally['void']:,} games void (9-14-イ)"
        note = (f"outcome chi-square: the board's category (3-1) of every game vs its exact probability; "
                f"{tally['games']:,} games in {played:,} tournaments ({tally['capped']} stopped at {MAX_GAMES} "
                f"games){late_note}; prizes paid {float(sum(won)):,.0f} yen of {tally['pooled']:,} pooled; "
                f"tournaments whose points were not conserved: {tally['not_conserved']}")
        return Simulation(self.name, variant, "deck", played, rounds, seconds, fit, (),
                          procedure="one fresh 52-card shuffle per game, dealt as the variant's game; the small "
                                    "blind moves one entrant left each game"
                                    + (f", rising a level every {level_games} games ({blinds})" if blinds != "flat"
                                       else "") + "; the eliminated leave the table"
                                    + ("; late entrants sit down at the table's end" if late_entrants else ""),
                          interrupted=interrupted, replay=_replay(generator), note=note)


GAMES = (PokerTournamentGame(),)
