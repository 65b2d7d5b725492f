"""Where packing questions come from: the ASCII format, game specs, side-constraint files, and
the `zoospec pack` command around them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from zoospec.cli.main import main
from zoospec.errors import SpecError
from zoospec.front.loader import load
from zoospec.solvers.packing import game as pack_game
from zoospec.solvers.packing.model import Board
from zoospec.solvers.packing.pieces import parse, pieces_arg
from zoospec.solvers.packing.solve import solve
from zoospec.solvers.results import Sat, Unsat

ROOT = Path(__file__).resolve().parent.parent
NYZ = ROOT / "spec" / "new-york-zoo.yaml"


# ------------------------------------------------------------------ the text format

def test_format_reads_boards_pieces_counts_and_tags():
    p = parse("; two pieces\nboard room\n###\n#.#\npiece L x2 tags=big,red\n##\n#.\npiece I\n###\n")
    assert p.boards[0].area == 5 and p.boards[0].name == "room"
    assert [(x.name, x.count, x.tags, x.size) for x in p.pieces] == [("L", 2, ("big", "red"), 3), ("I", 1, (), 3)]


@pytest.mark.parametrize("text,line,fragment", [
    ("###\n#x#\n", 2, "expected a row"),
    ("piece 9a\n#\n", 1, "piece header"),
    ("piece A x0\n#\n", 1, "count must be"),
    ("piece A y2\n#\n", 1, "unexpected 'y2'"),
    ("piece A\n#.#\n", 1, "not connected"),
    ("piece A\n#\npiece A\n#\n", 1, "used twice"),
    ("piece A\n", 1, "no rows"),
    ("board b\n...\n", 1, "board has no cells"),  # not "sat" with nothing in it
    ("piece A\n..\n", 1, "piece has no cells"),
])
def test_format_errors_name_file_and_line(text, line, fragment):
    with pytest.raises(SpecError) as e:
        parse(text, "pieces.txt")
    p = e.value.problems[0]
    assert (p.loc.file, p.loc.line) == ("pieces.txt", line) and fragment in p.message


def test_bundled_piece_sets():
    assert [p.name for p in pieces_arg("pentominoes")] == list("FILNPTUVWXYZ")
    assert sum(p.size for p in pieces_arg("tetrominoes")) == 20


# ------------------------------------------------------------------ New York Zoo's boards

def test_every_new_york_zoo_board_is_filled_from_the_game_tiles():
    g = load(NYZ)
    pieces = pack_game.pieces(g)
    assert sum(p.count for p in pieces if "enclosure" in p.tags) == 45
    keys = pack_game.board_keys(g)
    assert len(keys) == 16
    for key in keys:
        board = pack_game.board(g, key=key)
        res = solve(board, pieces)
        assert isinstance(res, Sat), key  # certified inside solve
        assert res.witness.covered == board.area


def test_new_york_zoo_impossible_packings_are_unsat():
    g = load(NYZ)
    pieces = pack_game.pieces(g)
    board = pack_game.board(g, 4, 1)
    # every tile at once cannot fit on one board
    assert isinstance(solve(board, pieces, use_all=True), Unsat)
    # without the 1x1 attractions, a lone empty cell can never be filled
    no_ones = [p for p in pieces if p.size > 1]
    cells = set(board.cells)
    hole = Board(frozenset(cells - {(7, 0), (8, 1)}))  # (8,0) left alone in its corner
    res = solve(hole, no_ones)
    assert isinstance(res, Unsat) and res.reason.startswith("reach")


def test_players_and_seat_choose_the_board():
    g = load(NYZ)
    assert pack_game.board(g, 2, 1).area == 107 and pack_game.board(g, 4, 4).name == "nyz:p4s4"
    with pytest.raises(SpecError, match="no board 'p9s1'"):
        pack_game.board(g, 9, 1)


# ------------------------------------------------------------------ side constraints (Z3)

def _write(tmp_path, text):
    f = tmp_path / "side.yaml"
    f.write_text(text)
    return str(f)


def test_side_constraint_counts_match_removing_the_piece(tmp_path):
    pent = pieces_arg("pentominoes")
    side = _write(tmp_path, 'constraints:\n  - id: side.no-l\n    says: the L is not used\n    body: "used[L] == 0"\n')
    with_z3 = solve(Board.rectangle(3, 5), pent, mode="count", constraints=side)
    without_l = solve(Board.rectangle(3, 5), [p for p in pent if p.name != "L"], mode="count")
    assert with_z3.exact and with_z3.count == without_l.count > 0
    assert with_z3.stats["engine"] == "z3"


def test_side_constraints_shape_the_witness_and_are_rechecked(tmp_path):
    pent = pieces_arg("pentominoes")
    side = _write(tmp_path, 'constraints:\n  - id: side.x-centre\n    says: X covers cell 2,3\n'
                            '    body: "piece_at[at(2, 3, grid=cell)] == X"\n')
    res = solve(Board.rectangle(6, 10), pent, constraints=side)
    assert isinstance(res, Sat)
    owner = res.witness.owner()
    assert pent[res.witness.placed[owner[(2, 3)]].piece].name == "X"
    impossible = _write(tmp_path, 'constraints:\n  - id: side.x-corner\n    says: X in the corner\n'
                                  '    body: "piece_at[at(0, 0, grid=cell)] == X"\n')
    assert isinstance(solve(Board.rectangle(6, 10), pent, constraints=impossible), Unsat)


def test_side_constraint_errors_point_into_their_file(tmp_path):
    side = _write(tmp_path, 'constraints:\n  - id: side.bad\n    says: typo\n    body: "usedd[L] == 0"\n')
    with pytest.raises(SpecError) as e:
        solve(Board.rectangle(3, 5), pieces_arg("pentominoes"), constraints=side)
    p = e.value.problems[0]
    assert p.loc.file == side and p.loc.line == 4 and "usedd" in p.message


# ------------------------------------------------------------------ the command

def test_pack_command_json_and_exit_codes(capsys, tmp_path):
    svg = tmp_path / "p.svg"
    assert main(["pack", "--board", "6x10", "--pieces", "pentominoes", "--json", "--svg", str(svg)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "sat" and len(out["packings"][0]["placements"]) == 12
    assert svg.read_text().startswith("<svg") and svg.read_text().count("<text") == 13
    assert main(["pack", "--board", "4x5", "--pieces", "tetrominoes"]) == 1
    assert "unsat" in capsys.readouterr().out
    assert main(["pack", "--board", "6x10", "--pieces", "pentominoes", "--count", "--timeout", "0.000001"]) == 3
    assert "unknown" in capsys.readouterr().out
    assert main(["pack", "--board", "6x10"]) == 2
    assert "--pieces" in capsys.readouterr().err


def test_pack_command_game_and_counts(capsys):
    assert main(["pack", "--game", "new-york-zoo", "--players", "3", "--seat", "2"]) == 0
    assert "nyz:p3s2" in capsys.readouterr().out
    assert main(["pack", "--board", "3x20", "--pieces", "pentominoes", "--count", "--up-to-symmetry", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["count"] == 2 and out["exact"] is True


# ------------------------------------------------------------------ hostile input: clear errors, never a traceback

def test_hostile_packing_inputs_get_clear_errors(tmp_path, capsys):
    assert main(["pack", "--board", "999x999", "--pieces", "pentominoes"]) == 2
    assert "1 to 200 cells" in capsys.readouterr().err
    blob = tmp_path / "blob.txt"
    blob.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["pack", "--board", str(blob), "--pieces", "pentominoes"]) == 2
    assert "cannot read" in capsys.readouterr().err
    evil = tmp_path / "evil.yaml"
    evil.write_text('constraints:\n  - id: side.evil\n    says: code\n    body: "__import__(\'os\').system(\'echo pwned\')"\n')
    assert main(["pack", "--board", "3x5", "--pieces", "pentominoes", "--constraints", str(evil)]) == 2
    err = capsys.readouterr().err
    assert "evil.yaml:4" in err and "pwned" not in capsys.readouterr().out
    tagged = tmp_path / "tag.yaml"
    tagged.write_text('constraints: !!python/object/apply:os.system ["echo pwned"]\n')
    assert main(["pack", "--board", "3x5", "--pieces", "pentominoes", "--constraints", str(tagged)]) == 2
    assert "tag.yaml" in capsys.readouterr().err
    assert main(["pack", "--game", "no-such-game", "--players", "2", "--seat", "1"]) == 2
    assert "no bundled game" in capsys.readouterr().err
    assert main(["pack", "--game", "new-york-zoo", "--players", "2"]) == 2
    assert "--seat" in capsys.readouterr().err


def test_ctrl_c_during_a_count_prints_the_packings_found_so_far_and_exits_130():
    """Counting the 6x10 pentomino packings (9,356; ~9 s here), Ctrl-C after the first progress
    line: the count so far is printed as a lower bound, with the drawing's header, exit 130."""
    import os
    import signal
    import subprocess
    import sys

    def as_a_terminal_starts_it():  # Ctrl-C at its default, whatever the test process inherited
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    p = subprocess.Popen([sys.executable, "-m", "zoospec.cli", "pack", "--board", "6x10", "--pieces", "pentominoes", "--count"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=as_a_terminal_starts_it)
    assert "solutions seen" in p.stderr.readline()  # searching, a second in
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130 and "Traceback" not in err and "interrupted" in err
    (line,) = [ln for ln in out.splitlines() if ln.startswith("unknown")]
    found = int(line.split("at least ")[1].split()[0].replace(",", ""))
    assert line.startswith("unknown — interrupted; at least") and 0 < found < 9356


def test_boards_of_more_than_100000_placements_are_answered_or_refused_clearly(capsys):
    """A 200x200 board (over 2 million placements of the pentominoes): the area alone refutes an
    exact cover before anything is compiled; with gaps allowed on 44x44 (111,604 placements) the
    exact-cover engine finds and certifies a packing; Z3, which needs a part per placement, says
    its limit instead of pointing into the project's own rules file."""
    import time

    start = time.monotonic()
    assert main(["pack", "--board", "200x200", "--pieces", "pentominoes", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "unsat" and out["stats"]["proof"] == "necessary condition" and time.monotonic() - start < 5
    assert main(["pack", "--board", "44x44", "--pieces", "pentominoes", "--allow-gaps", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "sat" and out["stats"]["empty_cells"] == 44 * 44 - 60
    assert main(["pack", "--board", "44x44", "--pieces", "pentominoes", "--allow-gaps", "--engine", "z3"]) == 2
    err = capsys.readouterr().err
    assert "placements; the Z3 engine" in err and "rules.yaml" not in err
