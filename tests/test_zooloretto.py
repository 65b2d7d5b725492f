"""Zooloretto end to end: seeded games for every player count play to the end with every move
legal under both back ends; every rule has a case where it holds and one where it does not."""
import pytest
from conftest import ROOT, game
from test_whole_games import assert_legal_under_both_back_ends

from zoospec.solvers.play import playout as play

SPEC = str(ROOT / "spec" / "zooloretto.yaml")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_seeded_game_ends_by_the_rules_with_every_move_legal_under_both_back_ends(players):
    g = game(SPEC)
    result = play.play(g, g.start_state(players), seed=players, max_steps=3000)
    final = result.trace.states[-1]
    assert result.ended_by == "an end rule holds" and final["phase"] == "over"
    assert len(final["removed"]) == {2: 3, 3: 2, 4: 1, 5: 0}[players]
    assert all(final["herd"][z][p][s] == 0 for z in range(players + 1, 6) for p in final["herd"][z] for s in final["herd"][z][p])
    assert final["pile_started"] and sum(final["bag"].values()) < 15       # the last round used the pile
    assert_legal_under_both_back_ends(result.trace)
    scores = play.final_scores(g, final)
    assert [r["args"]["z"] for r in scores] == list(range(1, players + 1))


def test_the_score_claims_and_progress_get_their_verdicts_with_checked_witnesses():
    from zoospec.solvers.analysis import claims
    g = game(SPEC)
    only = ["zlr.claim.score-at-most-49", "zlr.claim.49-is-reached", "zlr.claim.score-at-most-40-with-more-players",
            "zlr.claim.40-is-reached-with-more-players", "zlr.claim.one-line-per-pen", "zlr.claim.always-a-move"]
    got = {v.claim: v for v in claims.check_all(g, 240, only=only)}
    assert {k: v.verdict for k, v in got.items()} == {
        "zlr.claim.score-at-most-49": "holds", "zlr.claim.49-is-reached": "fails",
        "zlr.claim.score-at-most-40-with-more-players": "holds", "zlr.claim.40-is-reached-with-more-players": "fails",
        "zlr.claim.one-line-per-pen": "holds", "zlr.claim.always-a-move": "holds"}
    assert all(v.as_expected for v in got.values())
    total = g.rule("zlr.score.total").body
    best = got["zlr.claim.49-is-reached"].trace
    assert g.evaluate(total, best.states[0], best.params) == 49       # the highest score, in Python
    best3 = got["zlr.claim.40-is-reached-with-more-players"].trace
    assert g.evaluate(total, best3.states[0], best3.params) == 40 and best3.states[0]["players"] >= 3


def test_a_reading_that_changes_the_last_round_is_found_with_a_witness():
    from zoospec.solvers.analysis import ambiguity
    g = game(SPEC)
    found = ambiguity.readings(g, "last_round", 120)
    differ = [f for f in found if f.kind == "readings-differ" and "zlr.end-unloading" in f.message]
    assert differ, [f.message for f in found]
    (f,) = differ
    state = f.trace.states[0]
    pile, bag = g.with_readings({"last_round": "pile_used"}), g.with_readings({"last_round": "bag_emptied"})
    after = [x.apply(state, "zlr.end-unloading", {}) for x in (pile, bag)]
    assert {a["phase"] for a in after} == {"over", "turns"}              # one reading ends the game, the other not


def test_the_pruned_move_listing_is_exactly_every_legal_move():
    """solvers/moves.py against trying every action with every argument through Game.legal."""
    from zoospec.errors import Undefined
    from zoospec.solvers import moves
    from zoospec.solvers.symbolic import param_values
    g = game(SPEC)
    states = play.play(g, g.start_state(2), seed=4, max_steps=150).trace.states[::15]

    def brute(state):
        out = []
        for a in g.actions.values():
            for args in param_values(g, a.params):
                try:
                    if g.legal(state, a.id, args):
                        out.append((a.id, tuple(sorted(args.items()))))
                except Undefined:
                    pass
        return sorted(out)

    for s in states:
        assert sorted((m.action, tuple(sorted(m.args.items()))) for m in moves.legal_moves(g, s)) == brute(s)


def test_a_move_claim_out_of_time_is_unknown_and_says_which_actions_were_not_settled():
    """A spent deadline is reported as unknown — never as holds — naming every action left open."""
    import dataclasses

    from zoospec.solvers.analysis import claims
    g = game(SPEC)
    c = dataclasses.replace(g.claims["zlr.claim.round-ends"], actions=("zlr.exchange", "zlr.draw"))
    v = claims.check(g, c, timeout=0.0001)
    assert v.verdict == "unknown" and v.as_expected
    assert "zlr.exchange" in v.detail and "zlr.draw" in v.detail and "0 of 2 actions" in v.detail
