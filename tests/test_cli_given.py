"""One test of "did the user set this option" for every command (``harness.commands._options.given``):
``--engine`` beside ``--input``, the suite's options without ``--suite sp800-22`` and ``--workers``
are all judged by it."""
import click
import pytest
from click.testing import CliRunner

from harness.commands import _options, battery, sp800_22


def test_the_commands_share_one_given():
    assert battery.given is _options.given and sp800_22.given is _options.given


@click.command()
@click.option("--workers", default=1, envvar="RNGCERT_TEST_WORKERS")
@click.pass_context
def _probe(ctx, workers):
    click.echo(_options.given(ctx, "workers"))


@pytest.mark.parametrize("args, env, default_map, expected", [
    ([], {}, None, "False"),                             # the option's default
    (["--workers", "1"], {}, None, "True"),              # the command line, even with the default's value
    ([], {"RNGCERT_TEST_WORKERS": "2"}, None, "True"),   # its environment variable
    ([], {}, {"workers": 3}, "False"),                   # a context's default_map is a default too
])
def test_given_is_what_the_user_set_not_a_default(args, env, default_map, expected):
    result = CliRunner().invoke(_probe, args, env=env, default_map=default_map, catch_exceptions=False)
    assert result.output.strip() == expected
