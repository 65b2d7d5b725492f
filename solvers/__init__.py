"""Solvers built on the compiled rules (installed as `zoospec.solvers`): packing, claims,
ambiguities, fixtures, solo puzzles. Each returns Sat(witness) | Unsat | Unknown(reason), and every
witness is re-checked by the Python back end before it is returned."""
