"""The packing engine: published counts, brute force, the two engines against each other, the
refutations, the certificate, deadlines."""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings, strategies as st

from zoospec.builtins.polyomino import Shape, orientations
from zoospec.errors import InternalError
from zoospec.solvers.packing import search as pack_search, xcover
from zoospec.solvers.packing.bounds import refute
from zoospec.solvers.packing.model import Board, Options, Piece, Problem
from zoospec.solvers.packing.pieces import pieces_arg
from zoospec.solvers.packing.solve import PackingError, solve
from zoospec.solvers.results import Count, Sat, Unsat

PENTOMINOES = pieces_arg("pentominoes")


def rect(h, w):
    return Board.rectangle(h, w)


# ------------------------------------------------------------------ known answers

@pytest.mark.parametrize("h,w,count", [(3, 20, 2), (4, 15, 368), (5, 12, 1010), (6, 10, 2339)])
def test_pentomino_rectangles_match_published_counts(h, w, count):
    res = solve(rect(h, w), PENTOMINOES, mode="count", up_to_symmetry=True)
    assert isinstance(res, Count) and res.exact and res.count == count


def test_raw_count_is_four_times_the_symmetry_classes_on_a_rectangle():
    res = solve(rect(4, 15), PENTOMINOES, mode="count")
    assert res.exact and res.count == 4 * 368


def test_square_with_a_hole_needs_the_stabiliser_recursion():
    # Scott's 8x8 board with the centre 2x2 removed: 65 solutions up to the 8 symmetries; the X
    # pentomino can sit on a diagonal, where a reflection fixes it.
    cells = frozenset((r, c) for r in range(8) for c in range(8) if not (3 <= r <= 4 and 3 <= c <= 4))
    res = solve(Board(cells), PENTOMINOES, mode="count", up_to_symmetry=True)
    assert res.exact and res.count == 65 and res.stats["symmetries"] == 8


def test_one_sided_pieces_cannot_tile_the_long_strip():
    assert solve(rect(3, 20), PENTOMINOES, mirror=False, mode="count").count == 0
    assert isinstance(solve(rect(3, 20), PENTOMINOES, mirror=False), Unsat)


def test_a_search_proves_an_impossible_board():
    cells = (rect(3, 20).cells - {(0, 0)}) | {(3, 0)}
    res = solve(Board(cells), PENTOMINOES)
    assert isinstance(res, Unsat) and "exhaustive search" in res.reason


# ------------------------------------------------------------------ an independent brute force

def brute_solutions(board: Board, pieces: list[Piece], mirror=True):
    """Every exact cover, by filling the first empty cell in reading order (no dancing links)."""
    order = sorted(board.cells)
    orients = [[sorted(o.cells) for o in orientations(p.shape, mirror)] for p in pieces]
    out = []

    def go(free: set, left: list[int], chosen: list):
        if not free:
            out.append(frozenset(chosen))
            return
        r0, c0 = min(free)
        for i, p in enumerate(pieces):
            if not left[i]:
                continue
            for cells in orients[i]:
                ar, ac = cells[0]
                cov = frozenset((r - ar + r0, c - ac + c0) for r, c in cells)
                if cov <= free:
                    left[i] -= 1
                    chosen.append((i, cov))
                    go(free - cov, left, chosen)
                    chosen.pop()
                    left[i] += 1

    go(set(order), [p.count for p in pieces], [])
    return out


def orbit_count(board: Board, sols) -> int:
    """Solutions up to the board's symmetries, by brute force over the 8 grid maps."""
    maps = [lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
            lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (c, r), lambda r, c: (-c, -r)]
    syms = []
    for f in maps:
        img = [f(r, c) for r, c in board.cells]
        dr = min(r for r, _ in board.cells) - min(r for r, _ in img)
        dc = min(c for _, c in board.cells) - min(c for _, c in img)
        g = {cell: (r + dr, c + dc) for cell, (r, c) in zip(board.cells, img)}
        if set(g.values()) == set(board.cells):
            syms.append(g)
    seen = set()
    n = 0
    for s in sols:
        if s in seen:
            continue
        n += 1
        for g in syms:
            seen.add(frozenset((i, frozenset(g[c] for c in cov)) for i, cov in s))
    return n


SMALL_SHAPES = [Shape.from_rows(r) for r in (["#"], ["##"], ["###"], ["##", "#."], ["##", "##"], ["###", ".#."],
                                             ["###", "#.."], ["##.", ".##"], ["####"])]


@st.composite
def small_problems(draw):
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    if draw(st.booleans()):  # whole rectangles: boards with symmetries, where orbit counting matters
        cells = {(r, c) for r in range(h) for c in range(w)}
    else:
        cells = draw(st.sets(st.tuples(st.integers(0, h - 1), st.integers(0, w - 1)), min_size=1, max_size=h * w))
    idx = draw(st.lists(st.integers(0, len(SMALL_SHAPES) - 1), min_size=1, max_size=4, unique=True))
    pieces = [Piece(f"P{i}", SMALL_SHAPES[i], draw(st.sampled_from([1, 1, 2, 3]))) for i in idx]
    return Board(frozenset(cells)), pieces


@settings(max_examples=60)
@given(small_problems(), st.booleans())
def test_counts_agree_with_brute_force(prob, mirror):
    board, pieces = prob
    brute = brute_solutions(board, pieces, mirror)
    res = solve(board, pieces, mode="count", mirror=mirror)
    assert res.exact and res.count == len(brute)
    one = solve(board, pieces, mirror=mirror)
    assert isinstance(one, Sat) == bool(brute)
    assert isinstance(one, (Sat, Unsat))


@settings(max_examples=40)
@given(small_problems())
@example((rect(1, 2), [Piece("M", SMALL_SHAPES[0], 1), Piece("D", SMALL_SHAPES[1], 1)]))  # M optional
def test_symmetry_classes_agree_with_brute_force(prob):
    board, pieces = prob
    brute = brute_solutions(board, pieces)
    res = solve(board, pieces, mode="count", up_to_symmetry=True)
    assert res.exact and res.count == orbit_count(board, brute)


@settings(max_examples=40)
@given(small_problems())
def test_refutations_are_sound(prob):
    board, pieces = prob
    for opts in (Options(), Options(use_all=True)):
        if refute(Problem(board, pieces, opts)) is not None:
            sols = brute_solutions(board, pieces)
            if opts.use_all:
                sols = [s for s in sols if len(s) == sum(p.count for p in pieces)]
            assert not sols


# ------------------------------------------------------------------ the two engines

@settings(max_examples=25, deadline=None)
@given(small_problems())
def test_z3_and_exact_cover_agree(prob):
    board, pieces = prob
    for kw in ({}, {"use_all": True}):
        a = solve(board, pieces, mode="count", **kw)
        b = solve(board, pieces, mode="count", engine="z3", **kw)
        assert a.exact and b.exact and a.count == b.count
    a = solve(board, pieces, exact=False)
    b = solve(board, pieces, exact=False, engine="z3")
    assert isinstance(a, Sat) and isinstance(b, Sat)
    assert a.witness.covered == b.witness.covered  # both maximal


@settings(max_examples=50)
@given(st.data())
def test_compiled_and_python_dancing_links_agree(data):
    if not xcover.COMPILED:
        pytest.skip("the C extension was not built here")
    n_items = data.draw(st.integers(1, 7))
    n_primary = data.draw(st.integers(0, n_items))
    caps = [1] * n_primary + [data.draw(st.integers(1, 3)) for _ in range(n_items - n_primary)]
    rows = data.draw(st.lists(st.sets(st.integers(0, n_items - 1), min_size=1), max_size=12))
    rows = [tuple(sorted(r)) for r in rows]
    results = []
    for cls in (xcover.CSearch, xcover.PySearch):
        s = cls(n_primary, caps, rows)
        sols = []
        while True:  # tiny budgets: exercise pausing and resuming too
            done, found = s.run(3, keep=1000)
            sols += [tuple(sorted(x)) for x in found]
            if done:
                break
        results.append((s.solutions, sorted(sols)))
    assert results[0] == results[1]


def test_both_dancing_links_reject_malformed_input():
    impls = [xcover.PySearch] + ([xcover.CSearch] if xcover.COMPILED else [])
    for cls in impls:
        with pytest.raises(ValueError):
            cls(1, [1], [(0, 0)])
        with pytest.raises(ValueError):
            cls(1, [1], [(1,)])
        with pytest.raises(ValueError):
            cls(1, [2], [(0,)])


# ------------------------------------------------------------------ modes and honesty

def test_gaps_mode_reports_the_fullest_packing_and_proves_it():
    res = solve(rect(3, 3), [Piece("L", Shape.from_rows(["##", "#."]), 2)], exact=False)
    assert isinstance(res, Sat) and res.optimal and res.witness.covered == 6
    assert res.stats["empty_cells"] == 3


def test_use_all_with_gaps_places_every_piece():
    pieces = [Piece("I", Shape.from_rows(["###"]), 2)]
    res = solve(rect(3, 3), pieces, exact=False, use_all=True)
    assert isinstance(res, Sat) and len(res.witness.placed) == 2
    assert isinstance(solve(rect(2, 2), pieces, exact=False, use_all=True), Unsat)


def test_listing_says_whether_more_exist():
    few = solve(rect(3, 20), PENTOMINOES, mode="all", limit=5, up_to_symmetry=True)
    assert few.count == 2 and few.more is False
    many = solve(rect(6, 10), PENTOMINOES, mode="all", limit=3)
    assert many.count == 3 and many.more is True and len({w.placed for w in many.witnesses}) == 3


def test_a_deadline_gives_unknown_never_a_verdict():
    res = solve(rect(6, 10), PENTOMINOES, mode="count", timeout=1e-6)
    assert isinstance(res, Count) and not res.exact and res.verdict == "unknown"
    assert res.count < 9356


def test_progress_is_reported_on_long_searches(monkeypatch):
    monkeypatch.setattr(pack_search, "CHUNK", 1000)  # many chunk boundaries; the first one reports
    seen = []
    solve(rect(4, 15), PENTOMINOES, mode="count", progress=seen.append)
    assert seen and seen[0]["nodes"] >= 1000


def test_refusals_name_their_argument():
    tet = pieces_arg("tetrominoes")
    res = solve(rect(4, 5), tet)
    assert isinstance(res, Unsat) and res.reason.startswith("colouring") and res.stats["nodes"] == 0
    assert solve(rect(5, 5), [Piece("I", Shape.from_rows(["##"]), 20)]).reason.startswith("colouring")
    assert solve(rect(2, 2), [Piece("I", Shape.from_rows(["###"]), 3)]).reason.startswith("reach")
    assert solve(rect(3, 3), [Piece("I", Shape.from_rows(["###"]), 2)]).reason.startswith("area")


def test_bad_questions_are_refused():
    with pytest.raises(PackingError):
        solve(rect(2, 2), PENTOMINOES, mode="some")
    with pytest.raises(PackingError):
        solve(rect(2, 2), PENTOMINOES, up_to_symmetry=True, engine="z3")


# ------------------------------------------------------------------ the certificate

def test_a_wrong_engine_answer_is_caught_not_printed(monkeypatch):
    real = pack_search.run

    def broken(m, budget, keep=0, stop_at=0):
        out = real(m, budget, keep, stop_at)
        out.solutions = [sol[:-1] for sol in out.solutions]  # drop a piece: a cell stays empty
        return out

    monkeypatch.setattr("zoospec.solvers.packing.solve.run", broken)
    with pytest.raises(InternalError, match="pack.exact-cover"):
        solve(rect(6, 10), PENTOMINOES)


def test_certificate_rejects_a_mislabelled_piece():
    from zoospec.solvers.packing.certify import vocabulary, violations
    from zoospec.solvers.packing.model import Packing, Placement

    problem = Problem(rect(6, 10), PENTOMINOES)
    good = solve(rect(6, 10), PENTOMINOES).witness
    vocab = vocabulary(problem)
    assert violations(vocab, good) == []
    first, second = good.placed[0], good.placed[1]
    swapped = (Placement(second.piece, first.cells), Placement(first.piece, second.cells)) + good.placed[2:]
    assert "pack.part-is-shape" in violations(vocab, Packing(problem, swapped))
    twice = good.placed + (good.placed[0],)
    with pytest.raises(InternalError, match="covered twice"):
        violations(vocab, Packing(problem, twice))


def test_the_python_twin_serves_when_the_extension_is_missing(monkeypatch):
    monkeypatch.setattr(xcover, "Search", xcover.PySearch)
    res = solve(rect(3, 20), PENTOMINOES, mode="count", up_to_symmetry=True)
    assert res.exact and res.count == 2 and res.stats["engine"] == "dlx-python"
    assert isinstance(solve(rect(5, 6), [p for p in PENTOMINOES if p.name in "FILNPT"]), (Sat, Unsat))
