"""zoospec: executable, machine-checked rules for zoo board games.

    game = zoospec.load("spec/new-york-zoo.yaml")
    game.rule("nyz.tile.fits").holds(state, **args)
"""
from .errors import InternalError, SpecError, StateError, Undefined
from .front.loader import load, loads
from .runtime.game import Game

__all__ = ["Game", "load", "loads", "SpecError", "StateError", "Undefined", "InternalError"]
__version__ = "0.1.0"
