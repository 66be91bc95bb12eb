"""The ``memquill`` command line: parse → call ``Memory`` → render. No business logic here.

Every command takes ``--db PATH`` (default: ``MEMQUILL_DB``, else a per-user data file) and,
where its output is data, ``--json`` (machine-readable JSON only on stdout). Errors from
memquill print as one red ``error: …`` line on stderr and exit with code 2.

Commands live in one module per group and register themselves on the single ``app`` when
listed in ``COMMAND_GROUPS``; a new group is one more name there.
"""

from __future__ import annotations

import importlib
import sys

from memquill.errors import MemquillError
from memquill.interfaces import cli_policy, cli_server
from memquill.interfaces.cli.common import INGEST_KEYS, SCOPE_KEYS, app, db_path
from memquill.interfaces.cli.common import _print_error as print_error
from memquill.interfaces.cli.events import parse_line

__all__ = ["INGEST_KEYS", "SCOPE_KEYS", "app", "db_path", "main", "parse_line"]

# Command groups, in help order; importing one registers its commands on ``app``.
COMMAND_GROUPS = ("events", "reads", "review", "worker", "export")
for _group in COMMAND_GROUPS:
    importlib.import_module(f"{__name__}.{_group}")
cli_policy.register(app)  # policy, replay, shadow
cli_server.register(app)  # serve, keys, mcp


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except MemquillError as exc:  # raised outside a command body (e.g. while parsing)
        print_error(str(exc))
        sys.exit(2)
