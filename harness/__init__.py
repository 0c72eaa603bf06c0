"""harness: game math, device drivers and the ``rngcert`` command line."""
