"""CLI command modules; each defines ``COMMANDS``, a list of click commands."""
