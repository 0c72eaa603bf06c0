"""The one option set of every command that draws: ``--engine``, ``--seed``,
``--stream`` (and ``--show-seed`` where the command prints a report).

Decorate a command with :func:`generator_options`; it receives one
``rng`` argument, a :class:`GeneratorOptions`, and builds its generator
with ``rng.build()`` when it needs one.  The decorator also runs the
command inside the generator's error handling: a generator that refuses
output (the OS cannot supply entropy, the power-on self-test failed) ends
the command with one line on stderr and exit code 1, whether it happens
while the generator is built or while it draws, never with a traceback.

Seed policy (docs/audit_contract.md, "Seeds in reports"): reports name the
generator by its provenance, with the replay seed's fingerprint; the seed
itself only with ``--show-seed``.  A trivial replay seed warns once, on one
line of stderr.
"""
from __future__ import annotations

import dataclasses
import functools
import sys
import warnings

import click

__all__ = ["EngineChoice", "GeneratorOptions", "generator_options"]

EXIT_GENERATOR_FAILED = 1  # fail closed: the generator's own checks failed

_python_formatwarning = warnings.formatwarning


def _formatwarning(message, category, filename, lineno, line=None):
    """A trivial-seed warning is one line naming rngcert, not a source location."""
    # Only rngcore.engine raises it, so it is loaded by then; importing it here
    # would load the C core (and numpy) for every command, even ``--help``.
    engine = sys.modules.get("rngcore.engine")
    if engine is not None and issubclass(category, engine.TrivialSeedWarning):
        return f"rngcert: warning: {message}\n"
    return _python_formatwarning(message, category, filename, lineno, line)


warnings.formatwarning = _formatwarning


class EngineChoice(click.Choice):
    """``--engine``: the names in the engine registry, read when first needed."""

    name = "engine"

    def __init__(self):
        super().__init__(())

    @property
    def choices(self):
        from rngcore.engines import engines

        return tuple(engines())

    @choices.setter
    def choices(self, value):  # click.Choice.__init__ assigns it; the registry decides
        pass


@dataclasses.dataclass(frozen=True)
class GeneratorOptions:
    """What ``--engine``, ``--seed``, ``--stream`` and ``--show-seed`` asked for."""

    engine: str
    seed: bytes | None
    stream: int | None
    show_seed: bool = False
    engine_given: bool = False  # --engine on the command line, not its default

    @property
    def replay(self) -> bool:
        return self.seed is not None

    def refuse_drawing(self, what: str) -> None:
        """Refuse ``--engine``/``--seed``/``--stream`` where nothing is drawn
        (``what`` says why, e.g. that the data come from ``--input``): an
        option that would be silently ignored is bad input, not a no-op."""
        given = [name for name, on in (("--engine", self.engine_given), ("--seed", self.seed is not None),
                                       ("--stream", self.stream is not None)) if on]
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise click.UsageError(f"{'/'.join(given)} {verb} only when {what}")

    def build(self):
        """A new :class:`rngcore.Generator` on the chosen engine (replay mode
        when ``--seed`` was given), whose reports show the seed itself only
        under ``--show-seed``."""
        import rngcore
        from rngcore.engines import create

        try:
            bits = create(self.engine, self.seed, self.stream)
        except ValueError as exc:  # e.g. production mode asked of a replay-only engine
            raise click.UsageError(str(exc)) from None
        bits.show_seed = self.show_seed
        generator = rngcore.Generator(bits)
        object.__setattr__(self, "_built", generator)
        return generator

    def provenance(self) -> dict | None:
        """The JSON ``"provenance"`` of the generator :meth:`build` made, as it
        is now (its position counts what the run consumed); None if the
        command built none (e.g. it read a capture file)."""
        generator = getattr(self, "_built", None)
        return None if generator is None else generator.provenance().as_dict()


def provenance_block(provenance: dict | None, build: dict | None = None) -> dict:
    """The two keys every command's JSON report carries about what produced it.

    ``build`` names the code (version, the C layers' source hashes, the
    dispatched keystream path: :func:`harness.build.build_info`);
    ``provenance`` the generator that drew the data (``None`` where no
    generator of the caller's drew it: a capture file, the self-test, the
    benchmarks).  One function, so ``test``, ``game``, ``slot``, ``selftest``
    and ``bench`` write the same block.  A caller that already holds the
    ``build`` dict (the self-test prints it) passes it rather than hashing
    the C sources twice.
    """
    if build is None:
        from harness.build import build_info

        build = build_info()
    return {"build": build, "provenance": provenance}


def _parse(ctx, engine: str, seed: str | None, stream: int | None, show_seed: bool) -> GeneratorOptions:
    from rngcore.engines import engine_class

    cls = engine_class(engine)
    if stream is not None and seed is None:
        raise click.UsageError("--stream selects a replay stream and needs --seed", ctx=ctx)
    if stream is not None and not cls.has_streams:
        raise click.BadParameter(f"the {engine} engine has no stream ids", ctx=ctx, param_hint="'--stream'")
    raw = None
    if seed is not None:
        try:
            raw = cls.parse_seed(seed)
        except (ValueError, TypeError) as exc:
            raise click.BadParameter(f"{engine}: {exc}", ctx=ctx, param_hint="'--seed'") from None
    from harness.commands._options import given

    return GeneratorOptions(engine, raw, stream, show_seed, given(ctx, "engine"))


def generator_options(report: bool = True):
    """Add ``--engine``, ``--seed``, ``--stream`` (and ``--show-seed`` when
    ``report``) to a click command; it is called with ``rng=GeneratorOptions``.

    The command runs inside the generator's error handling (module docstring).
    """
    def decorate(command):
        @functools.wraps(command)
        def run(*args, engine, seed, stream_id, show_seed=False, **kwargs):
            ctx = click.get_current_context()
            rng = _parse(ctx, engine, seed, stream_id, show_seed)
            from rngcore.errors import RNGError

            try:
                return command(*args, rng=rng, **kwargs)
            except RNGError as exc:  # fail closed: say why, produce nothing more
                raise _GeneratorFailed(f"{ctx.command_path}: {exc}") from None

        options = [
            click.option("--engine", type=EngineChoice(), default="chacha20", show_default=True,
                         help="Engine that supplies the bits (the registered engines; "
                              "`rngcert selftest` lists and tests each)."),
            click.option("--seed", metavar="HEX", default=None,
                         help="Replay mode: the engine's seed (chacha20: 64 hex digits, the 32-byte key). "
                              "Without it, production mode (OS entropy)."),
            click.option("--stream", "stream_id", type=click.IntRange(0, 2**64 - 1), default=None, metavar="N",
                         help="Replay stream id in [0, 2**64) (needs --seed). Default 0."),
        ]
        if report:
            options.append(click.option(
                "--show-seed", is_flag=True,
                help="Print the replay seed itself in the report (default: its SHA-256 fingerprint only)."))
        for option in reversed(options):
            run = option(run)
        return run

    return decorate


class _GeneratorFailed(click.ClickException):
    exit_code = EXIT_GENERATOR_FAILED
