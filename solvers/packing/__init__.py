"""Filling a board with polyominoes: placements, the exact-cover matrix and its search (C, with a
pure-Python twin), symmetry, bounds, Z3 and the certificate checked against the packing rules."""
