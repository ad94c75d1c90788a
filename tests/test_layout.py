"""The layout, kept honest: no module over MAX_LINES lines, and no import cycle among the
project's modules.

A long module and a circle of imports are both how a codebase stops being readable in layers
(a cycle means neither module can be understood, tested or moved without the other). Imports
inside functions count: a cycle hidden in a function is still one. Imports under
`if TYPE_CHECKING:` do not, since they never run. The known exceptions below are being removed:
these lists only shrink, and a stale entry fails the test too.
"""

from __future__ import annotations

import ast
import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {"tests", "build", "__pycache__", "node_modules"}  # (and hidden folders: .venv, .git)
MAX_LINES = 600
# The installed name of each top-level folder (pyproject.toml, [tool.setuptools.package-dir]).
INSTALLED = {"kingdom": "kingdom", "compiler": "kingdom.compiler", "runtime": "kingdom.runtime",
             "grammar": "kingdom.grammar", "cards": "kingdom.cards"}


# ------------------------------------------------------------------------------ the modules
def python_files() -> Iterator[Path]:
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(s for s in subfolders if s not in SKIPPED and not s.startswith("."))
        yield from (Path(folder, f) for f in sorted(files) if f.endswith(".py"))


def module_name(path: Path) -> str:
    """The name a file is imported by: compiler/build.py is kingdom.compiler.build; a file
    outside the installed folders (bench/run.py) is named by its path."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    parts[0] = INSTALLED.get(parts[0], parts[0])
    return ".".join(parts)


# ------------------------------------------------------------------------------ the imports
def imported_names(tree: ast.Module, package: str) -> Iterator[str]:
    """Every dotted name a module imports (`from pkg import mod` as pkg.mod too: the caller
    keeps whichever is a module), at any depth but under `if TYPE_CHECKING:`."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    """Project module -> the project modules it imports."""
    files = {module_name(path): path for path in python_files()}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        wanted = set(imported_names(tree, package))
        graph[name] = {target for target in (_module_of(n, files) for n in wanted)
                       if target is not None and target != name}
    return graph


def _module_of(dotted: str, modules: dict[str, Path]) -> str | None:
    """The project module `dotted` names, or the one it is in (pkg.mod.function: pkg.mod)."""
    while dotted and dotted not in modules:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


# ------------------------------------------------------------------------------ the cycles
def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def chain(graph: dict[str, set[str]], component: set[str]) -> str:
    """A shortest cycle through the component's first module, as `a -> b -> a`."""
    start = min(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph[node] & component):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return " -> ".join([*reversed(path), start])
            if target not in came_from:
                came_from[target] = node
                queue.append(target)
    raise ValueError(f"no cycle through {start}")


def describe(graph: dict[str, set[str]], component: set[str]) -> str:
    more = f" (all {len(component)}: {', '.join(sorted(component))})" if len(component) > 2 else ""
    return chain(graph, component) + more


# ------------------------------------------------------------------------------ the tests
def test_no_module_is_too_long() -> None:
    lengths = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
               for path in python_files()}
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines (split them along their seams): {too_long}"


def test_no_import_cycle() -> None:
    graph = import_graph()
    components = strongly_connected(graph)
    cycles = [describe(graph, c) for c in components]
    assert not cycles, "import cycles (move the shared piece into the lower module):\n" + "\n".join(cycles)


def test_the_cycle_finder() -> None:
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"},
             "g": set()}
    components = strongly_connected(graph)
    assert sorted(map(sorted, components)) == [["a", "b", "c"], ["d", "e"]]
    assert chain(graph, {"a", "b", "c"}) == "a -> b -> c -> a"
    assert describe(graph, {"d", "e"}) == "d -> e -> d"
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_imports_are_read_as_modules() -> None:
    source = ("import kingdom.lab.bots\nfrom kingdom.compiler import cache\nfrom . import sibling\n"
              "from .sibling import thing\ndef f():\n    from kingdom.runtime.game import Game\n"
              "if TYPE_CHECKING:\n    from kingdom.lab.plot import plot_results\n")
    modules = dict.fromkeys(["kingdom.lab.bots", "kingdom.compiler", "kingdom.compiler.cache",
                             "kingdom.lab.sibling", "kingdom.runtime.game", "kingdom.lab.plot"],
                            Path())
    names = set(imported_names(ast.parse(source), "kingdom.lab"))
    assert {_module_of(n, modules) for n in names} - {None} == {
        "kingdom.lab.bots", "kingdom.compiler", "kingdom.compiler.cache", "kingdom.lab.sibling",
        "kingdom.runtime.game"}
    assert module_name(ROOT / "compiler" / "primitives" / "__init__.py") == "kingdom.compiler.primitives"


# Each layer imports only layers below it: the engine knows nothing of cards' text, the compiler
# nothing of what uses it, and no use imports the command line.
LAYERS = (("kingdom.runtime", "kingdom.cards"), ("kingdom.grammar", "kingdom.compiler"),
          ("kingdom.lab", "kingdom.table", "kingdom.print", "kingdom.scenarios", "kingdom.editor",
           "kingdom.studio"),
          ("kingdom.cli", "kingdom.__main__"), ("bench", "examples"))


def layer_of(module: str) -> int | None:
    return next((i for i, prefixes in enumerate(LAYERS)
                 if any(module == p or module.startswith(p + ".") for p in prefixes)), None)


def test_each_layer_imports_only_those_below_it() -> None:
    upward = sorted(f"{module} -> {target}" for module, targets in import_graph().items()
                    for target in targets
                    if (here := layer_of(module)) is not None and (there := layer_of(target)) is not None
                    and there > here)
    assert not upward, "imports of a higher layer (move the piece down):\n" + "\n".join(upward)


def test_every_module_has_a_layer() -> None:
    assert [m for m in import_graph() if m != "kingdom" and layer_of(m) is None] == []
