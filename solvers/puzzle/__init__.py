"""Solo puzzles: is a deal's target reachable? The whole-record and layout-first searches, a
portfolio of both, seeded deals and sweeps over many of them."""
