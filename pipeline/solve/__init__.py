"""Solving through SAT: CNF encoding, solver backends, verdicts and independent checking."""
