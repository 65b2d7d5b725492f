"""Expression text → a restricted Python `ast`, with hard limits checked before and after parsing.

Nothing is ever evaluated: the tree is only read by `build.py`. Any node type outside the
whitelist is refused with its position.
"""
from __future__ import annotations

import ast

MAX_CHARS = 4000
MAX_BRACKET_DEPTH = 40
MAX_TREE_DEPTH = 120
MAX_NODES = 6000


class ParseError(Exception):
    def __init__(self, message: str, lineno: int = 1, col: int = 0):
        super().__init__(message)
        self.message, self.lineno, self.col = message, lineno, col


EXPR_NODES = (
    ast.Expression, ast.Constant, ast.Name, ast.Load, ast.Store, ast.Attribute, ast.Subscript, ast.Tuple,
    ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
    ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
    ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitOr, ast.BitAnd,
    ast.IfExp, ast.Call, ast.keyword, ast.GeneratorExp, ast.SetComp, ast.Set, ast.comprehension,
)
STMT_NODES = EXPR_NODES + (ast.Module, ast.Assign, ast.For, ast.If, ast.Pass)


def _prescan(text: str) -> None:
    if not isinstance(text, str):
        raise ParseError(f"expected an expression string, found {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ParseError(f"expression is {len(text)} characters long; the limit is {MAX_CHARS}")
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                raise ParseError(f"brackets nested deeper than {MAX_BRACKET_DEPTH}", 1, i)
        elif ch in ")]}":
            depth -= 1
    if "\x00" in text:
        raise ParseError("expression contains a NUL character")


def _parse(text: str, mode: str, allowed) -> ast.AST:
    _prescan(text)
    try:
        tree = ast.parse(text, mode=mode)
    except SyntaxError as e:
        raise ParseError(f"syntax error: {e.msg}", e.lineno or 1, max((e.offset or 1) - 1, 0)) from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as e:
        raise ParseError(f"cannot parse expression: {type(e).__name__}") from None
    count = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise ParseError(f"expression has more than {MAX_NODES} parts")
        if depth > MAX_TREE_DEPTH:
            raise ParseError(f"expression nested deeper than {MAX_TREE_DEPTH}", getattr(node, "lineno", 1), getattr(node, "col_offset", 0))
        if not isinstance(node, allowed):
            raise ParseError(f"{_describe(node)} is not part of the rule language", getattr(node, "lineno", 1), getattr(node, "col_offset", 0))
        if isinstance(node, ast.Constant) and not isinstance(node.value, (bool, int)) or (
            isinstance(node, ast.Constant) and isinstance(node.value, int) and abs(node.value) > 10**12):
            raise ParseError(f"literal {str(node.value)[:30]!r} is not allowed: only integers up to 10^12 and true/false",
                             node.lineno, node.col_offset)
        if isinstance(node, ast.Name) and node.id.startswith("_") or isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            name = node.id if isinstance(node, ast.Name) else node.attr
            raise ParseError(f"names starting with '_' ({name}) are not allowed", node.lineno, node.col_offset)
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1))
    return tree


def parse_expr(text: str) -> ast.expr:
    return _parse(text.strip(), "eval", EXPR_NODES).body


def parse_stmts(text: str) -> list[ast.stmt]:
    return _parse(text.strip(), "exec", STMT_NODES).body


_NAMES = {
    ast.Lambda: "a lambda", ast.Import: "an import", ast.ImportFrom: "an import", ast.ListComp: "a list comprehension",
    ast.DictComp: "a dict comprehension", ast.List: "a list", ast.Dict: "a dict", ast.Pow: "'**'", ast.Div: "'/' (use '//')",
    ast.NamedExpr: "':='", ast.Starred: "'*'", ast.JoinedStr: "an f-string", ast.Await: "await", ast.Yield: "yield",
    ast.While: "a while loop", ast.FunctionDef: "a function definition", ast.Is: "'is'", ast.IsNot: "'is not'",
    ast.Slice: "a slice", ast.AugAssign: "'+=' (write x = x + 1)",
}


def _describe(node) -> str:
    return _NAMES.get(type(node), f"'{type(node).__name__}'")
