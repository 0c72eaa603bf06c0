"""``rngcert play`` and ``rngcert journal``: electronic table-game rounds with a durable journal.

``play`` runs scripted rounds through the round state machine
(:mod:`harness.rounds`), journaling every event, and can inject a fault at a
named state or stop the process there (SIGKILL) so a lab can test recovery
against the command line.  ``journal`` verifies the hash chain, recalls the
last rounds, re-derives a replay-mode round and finishes rounds a stopped
process left open.
"""
from __future__ import annotations

import json
import os
import pathlib
import signal

import click

from harness.commands._generator import generator_options, provenance_block
from harness.commands._options import emit, option_flag, output_option, parse_option_pairs
from harness.verdict import Outcome

STATES = ("BETTING_OPEN", "BETTING_CLOSED", "OUTCOME_GENERATION", "OUTCOME_DETERMINED", "SETTLEMENT")
KILL_STATES = STATES + ("DONE",)
CHUNK = 4096  # rounds drawn per batch-table call (bounds memory; an interrupt waits for at most one)

journal_option = click.option("--journal", "journal_path", required=True, metavar="FILE",
                              type=click.Path(dir_okay=False, path_type=pathlib.Path),
                              help="The SQLite round journal (created if missing).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")


def _open(path: pathlib.Path, batch: str = "event", window: int = 1024, must_exist: bool = False):
    from harness.rounds.journal import Journal, JournalError

    if must_exist and not path.is_file():
        raise click.UsageError(f"--journal {path}: no such journal file")
    if not path.parent.is_dir():
        raise click.UsageError(f"--journal {path}: no such directory {str(path.parent)!r}")
    try:
        return Journal(path, batch=batch, window=window)
    except JournalError as exc:
        raise click.UsageError(str(exc)) from None


def _bad(exc) -> click.UsageError:
    return click.UsageError(str(exc))


def _round_lines(s: dict) -> list[str]:
    """One round of a recall or a play report, as text."""
    lines = [f"round {s['round']}: {s['game']} ({s['variant']}) {s['state']}"]
    for d in s.get("decisions", ()):
        who = f"{d['customer']} " if d.get("customer") else ""  # a seat's customer, where seats are two customers'
        lines.append(f"  decision: {who}{d.get('decision')} ({d.get('clause')})")
    if s["outcome"] is not None:
        p = s["outcome"]["provenance"] or {}
        where = (f"{p.get('engine')} replay, seed fingerprint {p.get('seed_fingerprint')}, stream {p.get('stream')}, "
                 f"bytes {p.get('start')}..{p.get('end')}") if p.get("mode") == "replay" else \
            (f"{p.get('engine')} production, key epoch {p.get('epoch')}, bytes {p.get('epoch_start')}.."
             f"{p.get('epoch_end')} of it" if p else "no provenance")
        lines.append(f"  outcome: {s['outcome']['shown']}  [{where}]")
    if s["fault"] is not None:
        f = s["fault"]
        lines.append(f"  fault at {f['at']}: {f['reason']} -> {f['resolution']} ({f['clause']})")
    for m in s.get("meters", ()):
        won = f", awarded {m['awarded']}" if m["awarded"] else ""
        lines.append(f"  meter {m['meter']}: {m['before']} + {m['contributed']}{won} -> {m['after']}")
    for m in s["settlements"]:
        on = f" {m['on']}" if m.get("on") else ""
        tag = "UNSETTLED, recorded: " if m["kind"] == "unsettled" else ""
        jackpot = f" (meters {m['jackpot']})" if m.get("jackpot") else ""
        lines.append(f"  {tag}{m['customer']} {m['bet']}{on} {m['stake']}: {m['result']}, returned {m['returned']}, "
                     f"collected {m['collected']}, paid {m['paid']}{jackpot}")
    return lines


def _totals(summaries: list[dict]) -> dict:
    out = {"rounds": len(summaries), "staked": 0, "returned": 0, "collected": 0, "paid": 0, "unsettled": 0}
    metered = [m for s in summaries for m in s.get("meters", ())]
    if metered:  # a game with meters: what the rounds put on them, and what they paid (part of paid) and reset
        out["meters"] = {key: sum(m[key] for m in metered) for key in ("contributed", "awarded", "seeded")}
    for s in summaries:
        out["staked"] += sum(b["stake"] for b in s["bets"])
        for m in s["settlements"]:
            if m["kind"] == "unsettled":
                out["unsettled"] += 1
            for key in ("returned", "collected", "paid"):
                out[key] += m[key]
    return out


@click.command("play")
@click.argument("game")
@journal_option
@click.option("--bets", "script_path", required=True, metavar="SCRIPT",
              type=click.Path(dir_okay=False, path_type=pathlib.Path),
              help="The bet script (TOML or JSON): the bets every round places and, for a game whose "
                   "customers decide mid-round, their actions (docs/rounds.md).")
@click.option("--rounds", type=click.IntRange(1, 10**9), default=None, metavar="N",
              help="Rounds to play (default: the script's 'rounds', else 1).")
@click.option("--variant", default=None, help="The game's e-table variant (default: its first).")
@click.option("--option", "option_texts", multiple=True, metavar="NAME=VALUE",
              help="Set one of the round options the game's round engine declares (repeatable; docs/rounds.md "
                   "lists them per game); journaled with each round.")
@click.option("--fault-at", type=click.Choice(STATES), default=None,
              help="Inject a fault when the last round reaches this state: void before the game's "
                   "determination point, settle after it.")
@click.option("--kill-at", type=click.Choice(KILL_STATES), default=None,
              help="Stop this process (SIGKILL) once the last round's state is journaled; a restart "
                   "(play or journal recover) finishes the round by the fault rule.")
@click.option("--unreachable", multiple=True, metavar="CUSTOMER",
              help="A customer who cannot be identified at settlement: the bet is recorded unsettled "
                   "(repeatable).")
@click.option("--batch", type=click.Choice(["event", "round", "group"]), default="event", show_default=True,
              help="Commit the journal after every event, once per round, or once per --window rounds "
                   "(group commit; docs/rounds.md says what each guarantees).")
@click.option("--window", type=click.IntRange(1, 10**6), default=1024, show_default=True, metavar="N",
              help="With --batch group: rounds per commit (or a quarter second, whichever comes first).")
@generator_options()
@json_option
@output_option
@click.pass_context
def play_command(ctx, game, journal_path, script_path, rounds, variant, option_texts, fault_at, kill_at, unreachable,
                 batch, window, rng, as_json, output):
    """Play scripted rounds of an electronic table game GAME, journaling every event.

    GAME is a game with an e-table mode (docs/rounds.md lists them), or
    slot:MODEL for plays of the slot model file MODEL (000 第10; docs/rounds.md).

    Rounds open, take the script's bets (only the bets the game's mode-B
    item permits), close, draw the outcome through the game's devices and
    settle in whole yen.  Rounds a stopped process left open in the journal
    are finished first, by the fault rule.  Exit status: 0 every round
    finished DONE or VOID, 2 bad input (an unknown or unlisted bet, a
    stake that is not whole positive yen, a bet after betting closed, a
    journal of a newer schema or not a journal), 130 interrupted (the round
    in flight is finished by the fault rule; the report says INCOMPLETE).

    \b
    Examples:
      rngcert play baccarat --journal rounds.sqlite --bets examples/bets_baccarat.toml --rounds 3 --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
      rngcert play casino-war --journal war.sqlite --bets examples/bets_casino_war_surrender.toml --option strategy=surrender --rounds 5 --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
      rngcert play blackjack --journal bj.sqlite --bets examples/bets_blackjack.toml --rounds 5 --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
      rngcert play texas-holdem-bonus --journal holdem.sqlite --bets examples/bets_texas_holdem_bonus.toml --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
      rngcert play slot:examples/slot_two_scatters.toml --journal slot.sqlite --bets examples/bets_slot.toml --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
    """
    from harness.rounds import RoundError, recall, script
    from harness.rounds.batch import Table
    from harness.rounds.journal import JournalError
    from harness.rounds.table import rules_for

    try:
        rules = rules_for(game, variant)  # read once: every round of the session plays by it
        options = rules.check_options(parse_option_pairs(f"{game} rounds", rules.options, option_texts),
                                      flag=option_flag)
        parsed = script.parse(script_path, rules, options=options)
    except RoundError as exc:
        raise _bad(exc) from None
    rules.prepare(options)  # the input is good: the work every round's deal shares, before any round
    count = rounds or parsed.rounds or 1
    generator = rng.build()  # before the journal exists: a generator that fails closed leaves no file
    journal = _open(journal_path, batch, window)
    played, recovered, interrupted = [], [], False
    # rounds without a fault or an unsettleable customer go through a batch table; the last round
    # of a --fault-at / --kill-at session is one Round, stepped by hand
    # (a round with the customer's decisions, twenty-one's, is one Round: its scripted actions are its own)
    table = None if unreachable or getattr(rules.engine, "takes_actions", False) else \
        Table(rules, parsed.bets, options, journal=journal)
    batched = 0 if table is None else count - (fault_at is not None or kill_at is not None)
    try:
        _play_session(journal, table, rules, parsed, options, generator, count, batched, fault_at, kill_at,
                      unreachable, played, recovered)
    except KeyboardInterrupt:
        interrupted = True
    except RoundError as exc:
        raise _bad(f"{script_path}: {exc}" if getattr(exc, "scripted", False) else exc) from None
    except JournalError as exc:  # the disk failed under the journal: what was committed is all there is
        raise click.ClickException(f"{exc}; rounds after the last commit are not durable (rngcert journal "
                                   "recover finishes what the file holds)") from None
    finally:
        try:
            journal.close()
        except JournalError:
            pass  # the failure is the one reported above (or by the session's last commit)
    if interrupted:  # whatever the interrupt cut short is finished from what is durable
        with _open(journal_path) as again:
            recovered += recall.recover(again)
    with _open(journal_path, must_exist=True) as done:
        events = done.events()
        summaries = [recall.summary(events[i]) for i in played if i in events]
    outcome = Outcome.judge(all(s["state"] in ("DONE", "VOID") for s in summaries), interrupted=interrupted,
                            reason=f"{len(summaries)} of {count} rounds played" if interrupted else
                            "every round finished DONE or VOID")
    report = {"game": game, "journal": str(journal_path), "rounds": summaries, "totals": _totals(summaries),
              "recovered": [{"round": r, "stopped_in": s, "finished": f} for r, s, f in recovered],
              **provenance_block(rng.provenance())}
    if as_json:
        emit(json.dumps(outcome.report(report), indent=2, ensure_ascii=False), output)
    else:
        lines = [f"recovered round {r}: stopped in {s}, finished {f}" for r, s, f in recovered]
        for s in summaries:
            lines += _round_lines(s)
        t = report["totals"]
        meters = t.get("meters")
        lines.append(f"{t['rounds']} rounds: staked {t['staked']}, returned {t['returned']}, collected "
                     f"{t['collected']}, paid {t['paid']}, unsettled bets {t['unsettled']}" + (
                         "" if meters is None else f"; meters: contributed {meters['contributed']}, awarded "
                         f"{meters['awarded']} (in paid), reset {meters['seeded']}"))
        lines.append(outcome.line())
        emit("\n".join(lines), output)
    ctx.exit(outcome.exit_code)


def _play_session(journal, table, rules, parsed, options, generator, count, batched, fault_at, kill_at, unreachable,
                  played: list, recovered: list) -> None:
    """Recover the rounds a stopped process left open, then play ``count`` rounds: ``batched`` through the
    batch table, the rest (a faulted or killed last round) one Round each; ``played`` and ``recovered``
    grow as it goes (an interrupt leaves them saying how far it got)."""
    from harness.rounds import Round, recall
    from harness.rounds.meters import bank_of

    recovered.extend(recall.recover(journal))
    meters = bank_of(rules, journal, options)  # the game's meters as the journal's rounds left them
    if table is not None:  # the recovery may have settled a metered round since the table read them
        table.meters = meters
    while len(played) < batched:
        n = min(CHUNK, batched - len(played))
        first = journal.next_round_id()
        played.extend(range(first, first + n))
        table.play(generator, n, first)
    for n in range(len(played), count):
        last = n == count - 1
        kill = kill_at if last else None
        sink = journal.append if kill is None else _killing_sink(journal, kill)
        r = Round(rules, journal.next_round_id(), sink=sink, options=options, actions=parsed.actions_of(n),
                  meters=meters)
        played.append(r.round_id)
        _play_one(r, parsed.bets, generator, fault_at if last else None, unreachable)
    journal.commit()


def _killing_sink(journal, state: str):
    """Append, and stop the process for good once ``state`` is journaled (fault tests of a lab)."""
    def sink(event):
        journal.append(event)
        if event.get("state") == state:
            journal.commit()
            os.kill(os.getpid(), signal.SIGKILL)
    return sink


def _play_one(r, bets, generator, fault_at: str | None, unreachable) -> None:
    """One round through every state, faulting on reaching ``fault_at``."""
    steps = [("BETTING_CLOSED", r.close), ("OUTCOME_GENERATION", lambda: r.generate(generator)),
             ("OUTCOME_DETERMINED", r.determine)]
    for bet in bets:
        r.place(bet)
    if fault_at == "BETTING_OPEN":
        return r.fault("fault injected at BETTING_OPEN", unreachable)
    for state, step in steps:
        step()
        if state == fault_at:
            return r.fault(f"fault injected at {state}", unreachable)
    if fault_at == "SETTLEMENT":
        r.start_settlement()
        return r.fault("fault injected at SETTLEMENT", unreachable)
    r.settle(unreachable)


@click.group("journal")
def journal_group():
    """Read a round journal: verify its hash chain, recall rounds, replay one, recover open rounds.

    \b
    Examples:
      rngcert play sic-bo --journal rounds.sqlite --bets examples/bets_sic_bo.json --rounds 10 --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f && rngcert journal verify --journal rounds.sqlite && rngcert journal recall --journal rounds.sqlite --last 10
    """


@journal_group.command("verify")
@journal_option
@click.option("--tip", "tip_seen", default=None, metavar="HASH",
              help="A tip hash an earlier verify printed: the journal must still hold that record "
                   "(catches records cut from the end).")
@json_option
@output_option
@click.pass_context
def verify_command(ctx, journal_path, tip_seen, as_json, output):
    """Check the hash chain: exit 0 intact, 1 broken (the first bad record is named), 2 not a journal."""
    if tip_seen is not None and (len(tip_seen) != 64 or any(c not in "0123456789abcdef" for c in tip_seen)):
        raise click.BadParameter(f"a tip is 64 lowercase hex digits, got {tip_seen[:70]!r}", param_hint="'--tip'")
    with _open(journal_path, must_exist=True) as j:
        v = j.verify(tip_seen)
    outcome = Outcome.judge(v.ok, reason="the hash chain is intact" if v.ok else v.reason)
    if as_json:
        emit(json.dumps(outcome.report({"records": v.records, "first_bad": v.first_bad, "reason": v.reason,
                                        "tip": v.tip}), indent=2), output)
    else:
        head = f"{v.records} records, tip {v.tip}" if v.ok else f"the chain breaks at record {v.first_bad}: {v.reason}"
        emit(f"{journal_path}: {head}\n{outcome.line()}", output)
    ctx.exit(outcome.exit_code)


@journal_group.command("recall")
@journal_option
@click.option("--last", type=click.IntRange(1, 10**6), default=10, show_default=True, metavar="N",
              help="Rounds to show: the last game and N-1 prior (AGCO asks for 10).")
@json_option
@output_option
def recall_command(journal_path, last, as_json, output):
    """The last N rounds with bets, outcome, settlement and the generator provenance of each."""
    from harness.rounds import RoundError, recall

    with _open(journal_path, must_exist=True) as j:
        try:
            shown = recall.recall(j, last)
        except (RoundError, ValueError) as exc:
            raise _bad(exc) from None
    outcome = Outcome.judge(True, reason=f"{len(shown)} rounds recalled")
    if as_json:
        emit(json.dumps(outcome.report({"rounds": shown}), indent=2, ensure_ascii=False), output)
    else:
        lines = [line for s in shown for line in _round_lines(s)] or ["the journal holds no rounds"]
        emit("\n".join(lines + [outcome.line()]), output)


@journal_group.command("replay")
@click.argument("round_id", metavar="ROUND", type=click.IntRange(1))
@journal_option
@click.option("--seed", "seed_hex", required=True, metavar="HEX",
              help="The replay seed the round was drawn with (checked against the journal's fingerprint).")
@json_option
@output_option
@click.pass_context
def replay_command(ctx, round_id, journal_path, seed_hex, as_json, output):
    """Re-derive replay-mode ROUND from its seed, stream and position: exit 0 it equals the journal, 1 not."""
    from harness.rounds import RoundError, recall

    with _open(journal_path, must_exist=True) as j:
        try:
            result = recall.replay(j, round_id, seed_hex)
        except (RoundError, ValueError, TypeError) as exc:
            raise _bad(exc) from None
    outcome = Outcome.judge(result.equal, reason="the re-derived outcome equals the journal's" if result.equal
                            else "the re-derived outcome differs from the journal's")
    if as_json:
        emit(json.dumps(outcome.report({"round": round_id, "journaled": result.journaled,
                                        "derived": result.derived}), indent=2), output)
    else:
        emit(f"round {round_id}: journaled {json.dumps(result.journaled)}\n"
             f"round {round_id}: re-derived {json.dumps(result.derived)}\n{outcome.line()}", output)
    ctx.exit(outcome.exit_code)


@journal_group.command("recover")
@journal_option
@json_option
@output_option
def recover_command(journal_path, as_json, output):
    """Finish every round a stopped process left open: void before its determination point, settle after."""
    from harness.rounds import RoundError, recall

    with _open(journal_path, must_exist=True) as j:
        try:
            finished = recall.recover(j)
        except RoundError as exc:
            raise _bad(exc) from None
    outcome = Outcome.judge(True, reason=f"{len(finished)} open rounds finished")
    if as_json:
        emit(json.dumps(outcome.report({"recovered": [{"round": r, "stopped_in": s, "finished": f}
                                                      for r, s, f in finished]}), indent=2), output)
    else:
        lines = [f"round {r}: stopped in {s}, finished {f}" for r, s, f in finished] or ["no open rounds"]
        emit("\n".join(lines + [outcome.line()]), output)


COMMANDS = [play_command, journal_group]
