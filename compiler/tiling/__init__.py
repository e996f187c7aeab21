"""Cutting compute blocks into pieces: the split algorithm (`split`) and the policy that
splits until every piece fits a core (`fit`)."""
