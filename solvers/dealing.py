"""Chance deals a game from a seed, by the spec's `dealing` section (zoospec/front/dealing.py).

From the start state chance takes one legal move of the dealing actions at a time — each as
likely as its action's `weight` makes it against the others' (1 without one), listed in action
and domain order so a seed always deals the same — until none is legal. While they deal, the
section's switch is on: what only the dealing reads (how far it has got) lives in maps over a
domain that switch fills, and is left out of the dealt state. A dealt state is judged by the
spec's own invariants in the Python back end: dealing actions that drift from the rules are the
spec's error (exit 2), never a state the rules forbid handed to a player or a solver.
"""
from __future__ import annotations

import random
import weakref

from zoospec.errors import StateError, Undefined
from zoospec.suggest import suggest

from .moves import legal_moves
from .symbolic import broken_invariants

# a dealing that has not stopped after this many moves is a spec whose dealing actions stay legal
MOST_MOVES = 100_000


def dealt_start(game, seed: int, players: int | None = None, fixed: dict | None = None) -> dict:
    """The start state chance deals from `seed` (for `players`, as `Game.start_state` seats them),
    every invariant of the game kept. `fixed`: state variables the player sets before chance
    deals the rest (Zoo-ography's advanced game: `{"advanced": True}`)."""
    state = deal_state(game, seed, players, fixed)
    broken = broken_invariants(game, state, "")
    if broken:
        raise StateError(f"{game.title}: the state dealt from seed {seed} breaks {', '.join(broken)}: "
                         "the spec's dealing actions and its rules disagree")
    return state


def deals_play(game) -> bool:
    """Whether `play` (given no state) starts from a dealt state: the section's `play_when`
    holds under the switches that are on."""
    d = game.dealing
    return d is not None and d.play_when is not None and game.evaluate(d.play_when, game.start_state()) is True


# game -> the same game under its dealing's switch, loaded once: a sweep deals seed after seed
# from one game, and loading the spec again was most of a deal's time (0.13 of 0.16 s)
_DEALERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _dealer(game):
    if not game.dealing.switch:
        return game
    if game not in _DEALERS:
        _DEALERS[game] = game.with_readings({}, {game.dealing.switch: True})
    return _DEALERS[game]


def deal_state(game, seed: int, players: int | None = None, fixed: dict | None = None) -> dict:
    """Play the dealing actions from the start state (`fixed` set first) under the dealing's
    switch; the state they leave, in `game`'s terms (the dealing's own progress left out)."""
    if game.dealing is None:
        raise StateError(f"{game.title} says no way to deal from a seed (no `dealing` section): give a state or deal file instead")
    unknown = sorted(set(fixed or {}) - set(game.state_types))
    if unknown:
        raise StateError(f"{unknown[0]}: not a state variable of {game.title}{suggest(unknown[0], game.state_types)}")
    dealer = _dealer(game)
    rng = random.Random(seed)
    actions = [dealer.action(a) for a in game.dealing.by]
    weighed = any(a.weight is not None for a in actions)
    state = dealer.start_state(players)
    if fixed:
        state = dealer.state_from_json({**dealer.state_to_json(state), **fixed})
        chosen = {v: state[v] for v in fixed}
    for moves_made in range(MOST_MOVES):
        moves = legal_moves(dealer, state, actions)
        if not moves:
            if not moves_made:
                on = game.switched_on
                raise StateError(f"{game.title} deals nothing from a seed{' with ' + ', '.join(on) + ' on' if on else ''}: "
                                 "no dealing action is legal at the start — give a deal file or a state file instead")
            overwritten = sorted(v for v in (fixed or {}) if state[v] != chosen[v])
            if overwritten:
                raise StateError(f"{', '.join(overwritten)}: the dealing of {game.title} deals it itself; it cannot be set before")
            shown = dealer.state_to_json(state)
            return game.state_from_json({n: v for n, v in shown.items() if not game.always_empty(game.state_types[n])})
        if weighed:
            m = rng.choices(moves, _weights(dealer, state, moves))[0]
        else:  # equally likely: the draw every unweighted seed has always been dealt with
            m = rng.choice(moves)
        state = dealer.apply(state, m.action, m.args)
    raise StateError(f"dealing {game.title} did not stop after {MOST_MOVES} moves of {', '.join(game.dealing.by)}: "
                     f"some dealing action stays legal")


def _weights(game, state, moves) -> list[int]:
    """Each legal move's weight (1 for an action without one); a negative or undefined weight,
    or none above 0, is the spec's error, named with the move."""
    out = []
    for m in moves:
        w = game.action(m.action).weight
        try:
            v = 1 if w is None else game.evaluate(w, state, m.args)
        except Undefined as e:
            raise StateError(f"{m.action} {m.args}: its weight is undefined here ({e})") from None
        if v < 0:
            raise StateError(f"{m.action} {m.args}: its weight is {v}; a weight is never negative")
        out.append(v)
    if not any(out):
        raise StateError(f"every legal dealing move weighs 0 ({', '.join(sorted({m.action for m in moves}))}): chance cannot take one")
    return out
