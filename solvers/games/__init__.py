"""The pieces of solving that are still one game's Python, each under the game's own folder
(issue 45: they are to become spec data)."""
