"""Slot-style electronic games: exact analysis of a game model (its PAR
sheet), regulatory profiles, and a simulation cross-check through rngcore.

Modules, one job each:

* :mod:`~harness.slot.model`: read and validate the TOML model (docs/slot_model.md),
  and the award tables every other module reads (``SlotModel.scatter_awards``);
* :mod:`~harness.slot.lines`: the payline rule as an automaton;
* :mod:`~harness.slot.ways_rule`: the ways rule (how a ways window pays), read by every ways reader;
* :mod:`~harness.slot.ways`: a ways game's exact figures, a programme over the reels;
* :mod:`~harness.slot.reelset`: reel strips as arrays, scatter counts by convolution;
* :mod:`~harness.slot.joint`: exact joint figures of all paylines (dynamic programme),
  run by the C kernel through :mod:`~harness.slot.native` or in Python;
* :mod:`~harness.slot.stage`: one kind of spin (paid or free) and its exact figures;
* :mod:`~harness.slot.feature`: free spins with retriggers as a branching process;
* :mod:`~harness.slot.hold_spin`: the hold-and-spin feature as an absorbing Markov chain;
* :mod:`~harness.slot.bonus`: bonus wheels and pick bonuses, their exact win distribution;
* :mod:`~harness.slot.cascade`: cascades (tumbles) as a Markov chain over windows;
* :mod:`~harness.slot.chain`: a Markov chain's reward equations solved exactly (strongly connected components);
* :mod:`~harness.slot.sticky`: sticky wilds, each free-spin session a Markov chain on the sticky positions;
* :mod:`~harness.slot.jackpot`: progressive levels won by counts of one symbol;
* :mod:`~harness.slot.both_ways`: both-ways pays (paylines: every distinct window read);
* :mod:`~harness.slot.heights`: reel heights drawn per spin (Megaways-style);
* :mod:`~harness.slot.height_reels`: those reels' (height, stop) draws as virtual stops (free spins, the C kernel);
* :mod:`~harness.slot.window`: whole windows read one at a time (the cascade, sticky and both-ways modules);
* :mod:`~harness.slot.cap`: the award cap, by the joint programme over line-pay distributions;
* :mod:`~harness.slot.cap_free`: the award cap over a play's free spins, a walk below the cap (exact when it ends, bounded from the remaining win's moments when stopped);
* :mod:`~harness.slot.progressive`: the progressive's share and meter;
* :mod:`~harness.slot.outcomes`: the winning outcome classes and their probabilities;
* :mod:`~harness.slot.exact`: the analysis that puts them together;
* :mod:`~harness.slot.profiles`: jurisdictions' rules as data, and the checks;
* :mod:`~harness.slot.simulate`: spins through rngcore (C kernel) or numpy;
* :mod:`~harness.slot.report`: the PAR sheet as text and JSON (bounded figures rounded outward by
  :mod:`~harness.slot.rounding`);
* :mod:`~harness.slot.device`: the ``slot:MODEL`` device, a model's reel stops for capture tests.

Imports run one way, model first and report last; :mod:`~harness.slot.native`
only marshals tables to C, so nothing imports in a circle.

Where a new model feature goes: its data and validation in ``model`` (with
any award table it adds next to ``ScatterAwards``, which every reader
shares) and its size limit in ``limits``; its per-spin figures in a
``Stage`` (a new stage kind for a new kind of spin); its winning classes as
one more builder in ``outcomes``; its share of the moments and the RTP as
one more step of ``exact.analyse``; the players in ``simulate``.
"""
import importlib

#: The package's names and the module that is each one's home.  They load on
#: first use (PEP 562), so a submodule such as :mod:`~harness.slot.limits`
#: imports without the analysis and its numpy tables (``rngcert --help``).
_EXPORTS = {
    "PROFILES": "harness.slot.profiles",
    "PROFILE_NAMES": "harness.slot.profiles",
    "Analysis": "harness.slot.exact",
    "ModelError": "harness.slot.errors",
    "SlotModel": "harness.slot.model",
    "analyse": "harness.slot.exact",
    "check": "harness.slot.profiles",
    "load_model": "harness.slot.model",
    "parse_model": "harness.slot.model",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    home = _EXPORTS.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later lookups skip this hook
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
