"""The worked examples of Papineni et al. (2002), Section 2, shared by the BLEU tests and the
``explain`` command's tests."""

from __future__ import annotations

# Example 1 (Section 2): two candidates for the same Chinese source, three references.
CANDIDATE_1 = "It is a guide to action which ensures that the military always obeys the commands of the party."
CANDIDATE_2 = "It is to insure the troops forever hearing the activity guidebook that party direct."
REFERENCES_1 = [
    "It is a guide to action that ensures that the military will forever heed Party commands.",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
    "It is the practical guide for the army always to heed the directions of the party.",
]

# Example 2 (Section 2.1): the over-generating candidate.
CANDIDATE_THE = "the the the the the the the"
REFERENCES_2 = ["The cat is on the mat.", "There is a cat on the mat."]


def words(sentence: str) -> str:
    """The sentence as the paper counts it: without its final period."""
    return sentence.removesuffix(".")
