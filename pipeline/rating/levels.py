"""Named levels over the SE scale, for a publisher to map onto its own labels.

The bounds follow what each band needs (SE difficulties of the techniques):

| level | SE score | needs at most |
|---|---|---|
| easy | <= 1.5 | hidden singles |
| medium | <= 2.5 | naked singles, the "direct" locked candidates and hidden pairs/triples |
| hard | <= 4.4 | locked candidates, subsets, X-wing, swordfish, skyscraper & co, XY-/XYZ-wing |
| fiendish | <= 6.4 | unique rectangles/loops, quads, jellyfish, 3 strong links, WXYZ-wing, BUG |
| diabolical | <= 8.4 | X-/Y-/XY-chains, Nishio, static multiple forcing chains |
| extreme | > 8.4 | dynamic forcing chains and beyond |
"""

from __future__ import annotations

LEVELS: tuple[tuple[str, float], ...] = (
    ("easy", 1.5),
    ("medium", 2.5),
    ("hard", 4.4),
    ("fiendish", 6.4),
    ("diabolical", 8.4),
    ("extreme", float("inf")),
)
UNRATED = "unrated"


def level_of(score: float | None) -> str:
    if score is None:
        return UNRATED
    for name, upper in LEVELS:
        if score <= upper + 1e-9:
            return name
    return LEVELS[-1][0]
