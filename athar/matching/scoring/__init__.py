"""Candidate ranking: plain Python (no Django). See docs/identification.md.

    from athar.matching.scoring import CaseRecord, CaseTable, PersonFacts, load_algorithm
    ranking = load_algorithm().rank(person, CaseTable.build(records), face=similarities)
"""

from athar.matching.scoring.algorithm import (
    DEFAULT_ALGORITHM,
    Algorithm,
    Candidate,
    Ranking,
    Reason,
    load_algorithm,
)
from athar.matching.scoring.facts import (
    CaseRecord,
    CaseTable,
    PersonFacts,
    month_number,
)
from athar.matching.scoring.features import FEATURES, Feature
from athar.matching.scoring.marks import Mark, parse_marks

__all__ = [
    "DEFAULT_ALGORITHM", "Algorithm", "Candidate", "CaseRecord", "CaseTable", "FEATURES", "Feature", "Mark",
    "PersonFacts", "Ranking", "Reason", "load_algorithm", "month_number", "parse_marks",
]
