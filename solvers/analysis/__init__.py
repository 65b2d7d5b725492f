"""What the rules say about themselves: claims proved or refuted, readings that disagree, gaps and
dead ends, boundary fixtures, rulebook coverage, independence, and shrinking counterexamples."""
