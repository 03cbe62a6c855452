"""The identification lifecycle, written down once: every state of claims, identifications,
conflicts, challenges and publication, and every transition with the action that takes it and who
may take it (docs/identification.md draws it).

Every change of an identification's status goes through ``claims._set_status``, which asks
``check`` here: a move the table does not hold is a bug (``IllegalTransition``), never a silent
change. The rule that matters most to families: a *decided* identification (verified or published)
never moves back as a side effect of something else; only a reviewer's explicit, reasoned decision
(``DECIDED_BACKWARDS``) takes it back, and the families already told are told again (a task).
"""

from __future__ import annotations

from dataclasses import dataclass

# ---- states ------------------------------------------------------------------------------------

IDENTIFICATION_STATES = ("under_review", "verified", "published", "rejected", "withdrawn", "set_aside")
DECIDED = ("verified", "published")
CLAIM_STATES = ("active", "withdrawn", "set_aside")  # a claim set aside may also be withdrawn later
CONFLICT_STATES = ("open", "resolved")
CHALLENGE_STATES = ("open", "upheld", "dismissed")
PUBLICATION_STATES = ("not_published", "published")  # an identification's publication, and its case's

# Who: role names as accounts.models.Role spells them; "claimant" = the claim's author; "family's
# caseworker" = a caseworker of a report whose own evidence led to the identification.
REVIEWER = "reviewer or administrator"
CLAIMANT = "family (own report) or its caseworker"
FAMILY_CASEWORKER = "the family's caseworker or an administrator"


@dataclass(frozen=True)
class Transition:
    """One row of the table: ``obj`` moves ``source`` → ``target`` by ``action``, taken by ``who``."""

    obj: str
    source: str
    target: str
    action: str
    who: str
    note: str = ""


def allowed_in(table: tuple[Transition, ...], obj: str, source: str, target: str, action: str) -> bool:
    return any(t.obj == obj and t.source == source and t.target == target and t.action == action for t in table)


TABLE: tuple[Transition, ...] = (
    # claims
    Transition("claim", "-", "active", "claim", CLAIMANT, "a positive claim opens an identification"),
    Transition("claim", "-", "set_aside", "claim_held", CLAIMANT,
               "a family whose claim on this case was set aside says yes again: kept, set aside on arrival; "
               "nothing new opens (its caseworker may ask for a challenge)"),
    Transition("claim", "active", "withdrawn", "withdraw_claim", "the claimant, a caseworker or a reviewer"),
    Transition("claim", "active", "set_aside", "resolve_conflict", REVIEWER, "the family's caseworker is told"),
    Transition("claim", "active", "set_aside", "dismiss_challenge", REVIEWER, "the family's caseworker is told"),
    Transition("claim", "set_aside", "active", "reopen_conflict", REVIEWER),
    # identifications
    Transition("identification", "-", "under_review", "claim", CLAIMANT),
    Transition("identification", "-", "under_review", "forensic", "reviewer, caseworker or administrator"),
    Transition("identification", "withdrawn", "under_review", "claim", CLAIMANT),
    Transition("identification", "rejected", "under_review", "claim", CLAIMANT),
    Transition("identification", "under_review", "verified", "review", REVIEWER,
               "the second independent approval, no open conflict; the family's caseworker gets an 'inform' task"),
    Transition("identification", "under_review", "verified", "resolve_conflict", REVIEWER,
               "two approvals were waiting on the conflict"),
    Transition("identification", "under_review", "rejected", "review", REVIEWER),
    Transition("identification", "rejected", "under_review", "reverse_review", REVIEWER),
    Transition("identification", "rejected", "verified", "reverse_review", REVIEWER),
    Transition("identification", "under_review", "verified", "reverse_review", REVIEWER,
               "the rejection that held it was reversed"),
    Transition("identification", "under_review", "withdrawn", "withdraw_claim", "the claimant, a caseworker or a reviewer",
               "its last positive claim was withdrawn (not decided yet)"),
    Transition("identification", "rejected", "withdrawn", "withdraw_claim", "the claimant, a caseworker or a reviewer"),
    Transition("identification", "withdrawn", "under_review", "forensic", "reviewer, caseworker or administrator"),
    Transition("identification", "rejected", "under_review", "forensic", "reviewer, caseworker or administrator"),
    Transition("identification", "-", "under_review", "uphold_challenge", REVIEWER,
               "the challenge's claim, or forensic match, of another pair opens its own identification"),
    Transition("identification", "set_aside", "under_review", "uphold_challenge", REVIEWER,
               "an upheld forensic match of its pair outweighs the conflict that set it aside"),
    Transition("identification", "withdrawn", "under_review", "uphold_challenge", REVIEWER,
               "a challenger's claim stands again"),
    Transition("identification", "rejected", "under_review", "uphold_challenge", REVIEWER),
    Transition("identification", "under_review", "withdrawn", "uphold_challenge", REVIEWER,
               "upheld, and no positive claim is left"),
    Transition("identification", "under_review", "set_aside", "dismiss_challenge", REVIEWER),
    Transition("identification", "rejected", "set_aside", "dismiss_challenge", REVIEWER),
    Transition("identification", "under_review", "set_aside", "resolve_conflict", REVIEWER),
    Transition("identification", "rejected", "set_aside", "resolve_conflict", REVIEWER),
    Transition("identification", "set_aside", "under_review", "reopen_conflict", REVIEWER),
    Transition("identification", "verified", "published", "publish", FAMILY_CASEWORKER,
               "every family whose own claim or ranking led to it was told and consented"),
    Transition("identification", "published", "verified", "unpublish", REVIEWER, "decided: families told again"),
    # decided → back: only explicit, reasoned reviewer decisions
    Transition("identification", "verified", "under_review", "uphold_challenge", REVIEWER, "a reversal"),
    Transition("identification", "published", "under_review", "uphold_challenge", REVIEWER, "a reversal"),
    Transition("identification", "verified", "under_review", "reverse_review", REVIEWER, "a reversal"),
    Transition("identification", "published", "under_review", "reverse_review", REVIEWER, "a reversal"),
    Transition("identification", "verified", "under_review", "reopen_conflict", REVIEWER, "a reversal"),
    Transition("identification", "published", "under_review", "reopen_conflict", REVIEWER, "a reversal"),
    *(Transition("identification", s, "withdrawn", "withdraw_identification", REVIEWER)
      for s in ("under_review", "rejected", "verified", "published")),
    # conflicts
    Transition("conflict", "-", "open", "claim", "(a claim that contradicts another, not against a decided identification)"),
    Transition("conflict", "open", "resolved", "resolve_conflict", REVIEWER, "names the claim that stands, or none"),
    Transition("conflict", "resolved", "open", "reopen_conflict", REVIEWER),
    # challenges (while the decision stands)
    Transition("challenge", "-", "open", "claim", CLAIMANT, "a new claim against a decided identification"),
    Transition("challenge", "-", "open", "withdraw_claim", "the claimant, a caseworker or a reviewer",
               "the last claim on a decided identification was withdrawn"),
    Transition("challenge", "-", "open", "forensic", "reviewer, caseworker or administrator",
               "an exclusion of its pair, or a match of its case with another person (or its person with another case)"),
    Transition("challenge", "-", "open", "request_challenge", FAMILY_CASEWORKER + " (of a set-aside family too)",
               "with a reason"),
    Transition("challenge", "open", "upheld", "uphold_challenge", REVIEWER, "the identification goes back to review"),
    Transition("challenge", "open", "dismissed", "dismiss_challenge", REVIEWER, "the decision stands"),
)

# An undecided identification follows the reviews and claims in force (``claims._refresh_one``),
# whichever action changed them: a live rejection holds it rejected when a claim brings it back
# from withdrawn; the last claim withdrawn by a reopened conflict withdraws it. Never a decided one.
FOLLOWS_THE_EVIDENCE = (("under_review", "rejected"), ("rejected", "under_review"),
                        ("under_review", "withdrawn"), ("rejected", "withdrawn"))
REFRESHING_ACTIONS = ("claim", "withdraw_claim", "forensic", "review", "reverse_review", "resolve_conflict",
                      "reopen_conflict", "uphold_challenge", "dismiss_challenge")
TABLE = TABLE + tuple(
    Transition("identification", source, target, action, "(the reviews and claims in force)", "follows the evidence")
    for source, target in FOLLOWS_THE_EVIDENCE for action in REFRESHING_ACTIONS
    if not allowed_in(TABLE, "identification", source, target, action))

# Actions that are a reviewer's explicit, reasoned decision on one identification.
DECIDED_BACKWARDS = {"uphold_challenge", "reverse_review", "reopen_conflict", "unpublish", "withdraw_identification"}


class IllegalTransition(RuntimeError):
    """A status change the table does not hold: a bug in athar, not a user's mistake."""


def allowed(obj: str, source: str, target: str, action: str) -> bool:
    return allowed_in(TABLE, obj, source, target, action)


def check(obj: str, source: str, target: str, action: str) -> None:
    """Refuse (loudly) any move the table does not hold."""
    if not allowed(obj, source, target, action):
        raise IllegalTransition(f"{obj}: {source} -> {target} by {action!r} is not in the lifecycle table")


def rows(obj: str | None = None) -> list[Transition]:
    return [t for t in TABLE if obj is None or t.obj == obj]
