from __future__ import annotations

from typing import Any

from athar.archive.models import Photo
from athar.archive.verify import verify_store
from athar.core.command import AtharCommand, progress_bar


class Command(AtharCommand):
    help = "Re-hash every stored original and derivative and re-check the audit chain; non-zero exit if anything changed."

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        with progress_bar("verify", total=Photo.objects.count()) as advance:
            report = verify_store(progress=advance)
        result = report.as_dict()
        result["_exit_code"] = 0 if report.problems == [] else 3
        return result

    def describe(self, result: dict[str, Any]) -> str:
        head = (f"{result['originals']} originals, {result['derivatives']} derivatives, "
                f"{result['audit_events']} audit events (head {result['audit_head'][:16]}…)")
        if result["ok"]:
            return f"OK: {head} verified"
        return "ALTERED: " + head + "\n" + "\n".join(f"  - {p}" for p in result["problems"])
