"""Shared pytest configuration for rngcert's tests.

The tests run against whichever rngcert is importable: an editable install
or a regular one (the README's test command installs into its own venv and
runs with ``PYTHONSAFEPATH=1``, so the checkout's ``rngcore/``, which holds no
compiled extension, cannot shadow the installed package).  The checkout is
appended to ``sys.path``, after the installed packages, only so that the
support modules import as ``tests.<name>``.
"""
import pathlib
import signal
import sys

_CHECKOUT = str(pathlib.Path(__file__).resolve().parent.parent)
if _CHECKOUT not in sys.path:
    sys.path.append(_CHECKOUT)

# A runner started in the background of a non-interactive shell (nohup, `cmd &`)
# inherits SIGINT ignored, and so would every command the tests start: the
# Ctrl-C tests would then test nothing.  Give the run Python's own Ctrl-C.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
