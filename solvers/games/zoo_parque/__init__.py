"""Zoo Parque's domino sets drawn from a seed."""
