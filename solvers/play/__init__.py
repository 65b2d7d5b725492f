"""Playing games with legal moves only, and drawing their states the way players see them."""
