"""Built-ins against independent known answers (the Python/Z3 agreement is in test_agreement)."""
import itertools

from conftest import ROOT, game
from hypothesis import given, strategies as st

from zoospec.builtins.connectivity import component_py
from zoospec.builtins.polyomino import Shape, orientations, placements
from zoospec.ir.domains import GridDomain
from zoospec.runtime.agreement import Compiled, Item, forward


def polyominoes(n):
    """Free polyominoes of n cells, by growing and deduplicating up to rotation and mirror."""
    shapes = {Shape.of([(0, 0)])}
    for _ in range(n - 1):
        grown = set()
        for s in shapes:
            for r, c in s.cells:
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                    cell = (r + dr, c + dc)
                    if cell not in s.cells:
                        grown.add(min(orientations(Shape.of(s.cells + (cell,)))))
        shapes = grown
    return shapes


def test_known_polyomino_counts():
    # free / fixed (all orientations distinct) counts from the literature (OEIS A000105, A001168)
    for n, free, fixed in ((3, 2, 6), (4, 5, 19), (5, 12, 63), (6, 35, 216)):
        ps = polyominoes(n)
        assert len(ps) == free
        assert sum(len(orientations(p)) for p in ps) == fixed


def test_one_sided_counts():
    # one-sided polyominoes (A000988): 2, 7, 18, 60 for n = 3..6
    for n, one_sided in ((3, 2), (4, 7), (5, 18), (6, 60)):
        classes = {frozenset(orientations(p, mirror=False)) for p in polyominoes(n) for p in orientations(p)}
        assert len(classes) == one_sided


def grid(w, h):
    return GridDomain("g", [(r, c) for r in range(h) for c in range(w)])


def test_placement_counts_by_hand():
    g = grid(3, 3)
    mask = {g.pos[a]: a for a in g.atoms}
    assert len(placements(Shape.from_rows(["##"]), mask)) == 12  # 6 horizontal + 6 vertical
    assert len(placements(Shape.from_rows(["###"]), mask)) == 6
    assert len(placements(Shape.from_rows(["##", "##"]), mask)) == 4
    assert len(placements(Shape.from_rows(["#.", "##"]), mask)) == 16  # 4 orientations x 4 offsets
    assert len(placements(Shape.from_rows(["#.", "#.", "##"]), mask)) == 16  # 8 orientations x 2 offsets
    assert len(placements(Shape.from_rows(["#.", "#.", "##"]), mask, mirror=False)) == 8


def brute_components(cells, w, h):
    parent = {c: c for c in cells}

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x
    for (r, c) in cells:
        for nb in ((r + 1, c), (r, c + 1)):
            if nb in parent:
                parent[find(nb)] = find((r, c))
    return len({find(c) for c in cells})


@given(st.frozensets(st.tuples(st.integers(0, 3), st.integers(0, 3))))
def test_component_matches_union_find(cells):
    g = grid(4, 4)
    atoms = frozenset(g.at[rc] for rc in cells)
    comps = set()
    for a in atoms:
        comps.add(component_py(g, a, atoms))
    assert len(comps) == brute_components(cells, 4, 4)
    assert set().union(*comps) == set(atoms) if comps else not atoms


@given(st.frozensets(st.sampled_from(["0,0", "0,1", "0,2", "0,3", "1,0", "1,1", "1,2", "2,0", "2,1", "2,2", "2,3"])))
def test_connected_rule_matches_union_find_in_both_back_ends(occupied):
    g = game(str(ROOT / "tests" / "specs" / "grid.yaml"))
    r = g.rule("grid.connected")
    c = _compiled(g, r)
    state = {"occupied": occupied, "mark": "0,0", "other": "0,0", "used": {"domino": False, "ell": False, "tee": False}}
    py, zv = forward(c, state, {})
    expected = brute_components({tuple(map(int, a.split(","))) for a in occupied}, 4, 3) <= 1
    assert py == zv == expected


def brute_first_cell(cells, start):
    """The row-major first cell of start's component, by flooding; start itself outside cells."""
    if start not in cells:
        return start
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return min(seen)


GRID_CELLS = ["0,0", "0,1", "0,2", "0,3", "1,0", "1,1", "1,2", "2,0", "2,1", "2,2", "2,3"]


@given(st.frozensets(st.sampled_from(GRID_CELLS)), st.sampled_from(GRID_CELLS), st.sampled_from(GRID_CELLS))
def test_region_labels_and_reach_match_a_flood_fill_in_both_back_ends(occupied, mark, other):
    g = game(str(ROOT / "tests" / "specs" / "grid.yaml"))
    state = {"occupied": occupied, "mark": mark, "other": other, "used": {"domino": False, "ell": False, "tee": False}}
    cells = {tuple(map(int, a.split(","))) for a in occupied}
    first = [brute_first_cell(cells, tuple(map(int, a.split(",")))) for a in (mark, other, "1,1")]
    py, zv = forward(_compiled(g, g.rule("grid.region")), state, {})
    assert py == zv == (first[0] == first[1])
    py, zv = forward(_compiled(g, g.rule("grid.region-first")), state, {})
    assert py == zv == first[0][0] * 10 + first[2][1]

    reach = set()
    for a in (mark, other):
        if tuple(map(int, a.split(","))) in cells:
            reach |= {c for c in cells if brute_first_cell(cells, c) == first[(mark, other).index(a)]}
    alone = {c for c in cells if tuple(map(int, mark.split(","))) in cells and brute_first_cell(cells, c) == first[0]}
    py, zv = forward(_compiled(g, g.rule("grid.reached")), state, {})
    assert py == zv == len(reach) * 100 + len(alone)


_cache = {}


def _compiled(g, r):
    if r.id not in _cache:
        _cache[r.id] = Compiled(g, Item(r.id, r.params, r.body))
    return _cache[r.id]


def test_brute_force_helper_is_sane():
    assert brute_components({(0, 0), (0, 1), (2, 2)}, 3, 3) == 2
    assert list(itertools.islice(polyominoes(2), 5)) == [Shape(((0, 0), (0, 1)))]


def test_cells_at_enumerates_exactly_the_placements():
    """Every orientation number at every position, kept where the whole shape lies on the board,
    gives the same placements as `placements` — the two built-ins describe one geometry."""
    from zoospec.backends.python import CallCtx
    from zoospec.builtins.base import REGISTRY
    from zoospec.ir.domains import Domains, GridDomain

    doms = Domains()
    g = doms.add(GridDomain("cell", [(r, c) for r in range(4) for c in range(5)]))
    board = {pos: a for a, pos in g.pos.items() if pos != (0, 0)}
    ctx = CallCtx(doms, [], None)
    for rows in (["##", "#."], ["###", ".#."], ["##.", ".##"], ["#"], ["####"]):
        s = Shape.from_rows(rows)
        for mirror in (True, False):
            got = set()
            for o in range(9):
                for r in range(-1, 5):
                    for c in range(-1, 6):
                        cells = REGISTRY["cells_at"].py([s, o, r, c], {"grid": "cell", "mirror": mirror}, ctx)
                        if len(cells) == s.size and all(g.pos[x] in board for x in cells):
                            got.add(frozenset(cells))
            assert got == set(placements(s, board, mirror)), rows
