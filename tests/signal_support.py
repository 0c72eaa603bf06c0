"""A real signal to a running ``rngcert`` command, sent once the command is inside its work."""
from __future__ import annotations

import os
import select
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def signal_when_entered(target: str, args: list[str], signum: int, *, call: int = 1,
                        timeout: float = 120, start_timeout: float = 300) -> tuple[int, str, str]:
    """Run ``rngcert ARGS`` in a subprocess and send it ``signum`` on the ``call``-th entry of ``target``.

    ``target`` is ``"module:function"``; the wrapped function says ``started`` on
    stderr as it is entered for the ``call``-th time, so the signal lands inside
    the work, not during start-up.  SIGINT is made Ctrl-C even when the test
    runner started the process with it ignored.  The wait for ``started`` is
    bounded by ``start_timeout`` seconds, the wait for the exit after the signal
    by ``timeout``.  Returns the exit status, stdout and the rest of stderr.
    """
    module, function = target.split(":")
    script = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with SIGINT ignored\n"
        f"import {module} as target\n"
        f"real = target.{function}\n"
        "calls = []\n"
        "def announced(*args, **kwargs):\n"
        "    calls.append(1)\n"
        f"    if len(calls) == {call}:\n"
        "        sys.stderr.write('started\\n'); sys.stderr.flush()\n"
        "    return real(*args, **kwargs)\n"
        f"target.{function} = announced\n"
        "from harness.cli import main\n"
        f"main({list(args)!r})\n")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=ROOT, text=True)
    # Wait for the word, however loaded the machine, but not for ever: a process that never gets
    # there (hung, or dead with a traceback) fails the test with what it said.
    ready, _, _ = select.select([process.stderr], [], [], start_timeout)
    line = process.stderr.readline() if ready else ""
    if line != "started\n":
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"{target} was not entered {call} time(s) within {start_timeout} s: "
                             f"{(line + err)[-2000:]!r}")
    process.send_signal(signum)
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err
