"""Zoo-ography's multiplayer draft: one seat's deal from a played draft, and a draft's result."""
