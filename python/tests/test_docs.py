"""docs/python.md's examples run, and say what they return: every ``python`` block but those on
CUDA resources runs in order in one namespace, and an expression statement whose comment starts with a
value (a Python literal, or the value's repr) must evaluate to it, e.g. ``r.path_to(3)  # [0, 2,
3]: ...``. Comments that describe rather than show (``# Stats(invalidated=..., ...)``) are not
checked."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest

import dyng

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def _comments(source: str) -> dict[int, str]:
    """The comment ending each line, by line number (1-based)."""
    found = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            found[tok.start[0]] = tok.string[1:].strip()
    return found


def _shown(comment: str, value: Any) -> bool | None:
    """Whether the comment's leading value equals `value`; None when it shows no value."""
    text = repr(value)
    if comment == text or comment.startswith(text + ":") or comment.startswith(text + " ("):
        return True
    for cut in (comment, *(comment.split(sep)[0] for sep in (": ", " (", ", as ", "; "))):
        try:
            expected = ast.literal_eval(cut)
        except (ValueError, SyntaxError):
            continue
        return bool(value == expected)
    return None


def _run(block: str, scope: dict[str, Any]) -> int:
    """Runs the block's statements in order; returns how many shown values it checked."""
    comments = _comments(block)
    checked = 0
    for stmt in ast.parse(block).body:
        code = ast.Module(body=[stmt], type_ignores=[])
        if not isinstance(stmt, ast.Expr):
            exec(compile(code, str(DOC), "exec"), scope)
            continue
        value = eval(compile(ast.Expression(stmt.value), str(DOC), "eval"), scope)
        comment = comments.get(stmt.end_lineno or stmt.lineno)
        if comment is None:
            continue
        if isinstance(value, dyng.Array) and comment.startswith("["):  # shown as a list
            value = value.tolist()
        ok = _shown(comment, value)
        if ok is None:
            continue
        line = ast.get_source_segment(block, stmt)
        assert ok, f"docs/python.md: `{line}` gives {value!r}, the comment says `{comment}`"
        checked += 1
    return checked


@pytest.mark.skipif(not DOC.is_file(), reason="docs/python.md is not beside the tests")
# NetworkX's own note that it caches converted graphs (the NetworkX example calls two functions).
@pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs are saved to cache:UserWarning")
def test_python_md_examples_run_and_show_their_values() -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("networkx")
    # Not the CUDA example, nor the listing of resources and configuration calls (it would
    # switch the process to the CPU module).
    blocks = [b for b in _blocks() if "Resources.cuda(" not in b]
    assert len(blocks) >= 7, "docs/python.md lost its examples"
    # What the blocks take from their prose: frames of edges to insert and to erase.
    scope: dict[str, Any] = {
        "new_df": pd.DataFrame({"src": [0], "dst": [3], "w": [2]}),
        "gone_df": pd.DataFrame({"src": [2], "dst": [1]}),
    }
    # Calls without resources= run on OpenMP: the values are the same on every backend.
    checked = sum(_run(block, scope) for block in blocks)
    assert checked >= 12, f"only {checked} values checked: the comments' format changed?"
