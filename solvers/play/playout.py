"""Playing a game by its rules: list every legal move of a state, pick one (at random with a seed,
or by asking), apply it, until an end rule holds, no move is legal, or a step limit.

Nothing here knows a game: legality and effects come from the compiled spec, moves are every
action with every combination of argument values, in domain order.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..moves import legal_moves
from ..symbolic import param_values, py_ended, py_value, rule_instances
from ..traces import Trace


@dataclass
class PlayResult:
    trace: Trace
    ended_by: str
    moves_considered: list[int] = field(default_factory=list)
    end_rules: list[str] = field(default_factory=list)  # the end rules that hold at the end (ids)


def play(game, start: dict, seed: int = 0, max_steps: int = 200, choose=None, on_step=None) -> PlayResult:
    """Play from `start`. `choose(state, moves) -> index` picks a move (default: random with
    `seed`), or None to stop the game there (a player who quits); `on_step(i, step, state)` sees
    every state reached."""
    rng = random.Random(seed)
    states, steps, considered = [start], [], []
    while True:
        s = states[-1]
        if py_ended(game, s):
            ended = "an end rule holds"
            break
        if len(steps) >= max_steps:
            ended = f"the step limit ({max_steps})"
            break
        moves = legal_moves(game, s)
        considered.append(len(moves))
        if not moves:
            ended = "no legal move"
            break
        k = choose(s, moves) if choose else rng.randrange(len(moves))
        if k is None:
            ended = "the player stopped"
            break
        st = moves[k]
        nxt = game.apply(s, st.action, st.args)
        steps.append(st)
        states.append(nxt)
        if on_step:
            on_step(len(steps), st, nxt)
    holding = [r.id for r, a in rule_instances(game, "end") if py_value(game, r.body, states[-1], a) is True]
    return PlayResult(Trace(game, states, steps, {}, {"finding": f"a game played with seed {seed}", "ended_by": ended}),
                      ended, considered, list(dict.fromkeys(holding)))


def final_scores(game, state) -> list[dict]:
    """What decides the game on this final state (`game.final_scores`): each entry whose `when`
    holds, its rule for every argument its `given` admits (a rule without parameters, once)."""
    return [{"rule": fs.rule, "args": args, "points": py_value(game, game.rules[fs.rule].body, state, args)}
            for fs in applying_final_scores(game, state)
            for args in param_values(game, game.rules[fs.rule].params)
            if fs.given is None or py_value(game, fs.given, state, args) is True]


def applying_final_scores(game, state) -> list:
    """The spec's `final_score` entries whose `when` holds on the state."""
    return [fs for fs in game.final_scores if fs.when is None or py_value(game, fs.when, state, {}) is True]
