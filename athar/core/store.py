"""The data store athar runs on: its folders (private) and its schema (migrated on first use)."""

from __future__ import annotations

import sys
from io import StringIO

from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def ensure_store() -> None:
    """Create the data directory and apply pending migrations (quietly, to standard error).

    Every ``athar`` command works on an empty or missing ``ATHAR_HOME``; so do the evaluations that
    build a scratch store of their own."""
    # private: 0700 (files 0600, umask below); the evidence store and the family uploads store apart
    for folder in (settings.ATHAR_HOME, settings.MEDIA_ROOT, settings.UPLOADS_ROOT):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        sys.stderr.write("athar: preparing the data store (migrations)…\n")
        call_command("migrate", interactive=False, verbosity=0, stdout=StringIO(), stderr=sys.stderr)
