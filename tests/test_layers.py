"""The package's layers, read from the imports of every wsd module (``ast``, imports inside
functions included): no module imports from a layer above its own (imports for type
annotations only, under ``if TYPE_CHECKING:``, included), no module imports itself through a
chain of others (those never run, so they may close a loop), and no two modules share a
basename.

The layer order is written once, in docs/design.md; ``pytest -s`` prints it with the cycles
and upward imports found.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"


def layer_order(markdown: str) -> list[list[str]]:
    """The layers of the first fenced block after the "Layer order" heading, bottom first: one
    layer a line, as module names (a package stands for its modules; a more specific name
    listed in another layer wins)."""
    match = re.search(r"^#+ Layer order\b.*?^```\w*\n(.*?)^```", markdown, re.S | re.M)
    if match is None:
        raise AssertionError(f"{DESIGN}: no fenced block under a 'Layer order' heading")
    return [line.split("#")[0].split() for line in match.group(1).splitlines()
            if line.split("#")[0].strip()]  # fmt: skip


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the ``wsd`` package under ``root``, by dotted name."""
    modules = {}
    for path in sorted((root / "wsd").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imports(name: str, path: Path, modules: dict[str, Path], typing: bool = True) -> set[str]:
    """The wsd modules ``name`` imports, wherever in the file the import is written (those
    under ``if TYPE_CHECKING:`` only with ``typing``)."""

    def known(dotted: str) -> str:
        while dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_blocks = [block for block in ast.walk(tree)
                     if isinstance(block, ast.If) and _is_type_checking(block.test)]
    skipped = set() if typing else {id(node) for block in typing_blocks
                                    for inner in block.body for node in ast.walk(inner)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(known(a.name) for a in node.names if a.name.split(".")[0] == "wsd")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            if base.split(".")[0] == "wsd":
                found.update(known(f"{base}.{a.name}") for a in node.names)
    found.discard(name)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def layer_of(module: str, layers: list[list[str]]) -> int:
    """The index of the layer whose most specific entry names ``module``; KeyError if none."""
    best = max(((len(entry), index) for index, layer in enumerate(layers) for entry in layer
                if module == entry or module.startswith(entry + ".")), default=None)  # fmt: skip
    if best is None:
        raise KeyError(f"{module} is in no layer of {DESIGN.name}")
    return best[1]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def upward_imports(graph: dict[str, set[str]], layers: list[list[str]]) -> list[str]:
    return [f"{module} (layer {layer_of(module, layers)}) imports {target} "
            f"(layer {layer_of(target, layers)})"
            for module in sorted(graph) for target in sorted(graph[module])
            if layer_of(target, layers) > layer_of(module, layers)]  # fmt: skip


def same_basenames(modules: list[str]) -> dict[str, list[str]]:
    by_name = defaultdict(list)
    for module in modules:
        by_name[module.rpartition(".")[2]].append(module)
    return {name: names for name, names in by_name.items() if len(names) > 1}


MODULES = module_files(ROOT)
LAYERS = layer_order(DESIGN.read_text(encoding="utf-8"))
GRAPH = {name: imports(name, path, MODULES) for name, path in MODULES.items()}
RUNTIME = {name: imports(name, path, MODULES, typing=False) for name, path in MODULES.items()}


def report() -> str:
    order = "\n".join(f"  {i}: {' '.join(layer)}" for i, layer in enumerate(LAYERS))
    found_cycles = "\n".join("  " + " <-> ".join(c) for c in cycles(RUNTIME)) or "  none"
    upward = "\n".join("  " + line for line in upward_imports(GRAPH, LAYERS)) or "  none"
    return (f"layer order (bottom first):\n{order}\nimport cycles:\n{found_cycles}\n"
            f"upward imports:\n{upward}")


def test_the_reader_finds_imports_of_every_kind(tmp_path):
    """Hand-made package: top-level, inside a function, relative, ``from package import
    module`` and ``import a.b.c`` all count; the stdlib does not."""
    (tmp_path / "wsd" / "sub").mkdir(parents=True)
    for name in ("__init__", "low", "sub/__init__", "sub/high", "sub/other", "sub/typed"):
        (tmp_path / "wsd" / f"{name}.py").write_text("")
    (tmp_path / "wsd" / "sub" / "high.py").write_text(
        "import os\nfrom typing import TYPE_CHECKING\nfrom wsd import low\n"
        "if TYPE_CHECKING:\n    from wsd.sub import typed\n"
        "def f():\n    from . import other\n    import wsd.sub.other.nothing\n")
    modules = module_files(tmp_path)
    assert sorted(modules) == ["wsd", "wsd.low", "wsd.sub", "wsd.sub.high", "wsd.sub.other",
                               "wsd.sub.typed"]
    high = modules["wsd.sub.high"]
    assert imports("wsd.sub.high", high, modules) == {"wsd.low", "wsd.sub.other", "wsd.sub.typed"}
    assert imports("wsd.sub.high", high, modules, typing=False) == {"wsd.low", "wsd.sub.other"}


def test_cycles_and_layers_on_a_hand_made_graph():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    layers = [["wsd.base"], ["wsd.top", "wsd.base.special"]]
    assert layer_of("wsd.base.x", layers) == 0 and layer_of("wsd.base.special.y", layers) == 1
    assert upward_imports({"wsd.base.x": {"wsd.top"}, "wsd.top": {"wsd.base"}}, layers) == [
        "wsd.base.x (layer 0) imports wsd.top (layer 1)"]
    with pytest.raises(KeyError, match="wsd.elsewhere"):
        layer_of("wsd.elsewhere", layers)


def test_every_module_has_a_layer():
    assert len(MODULES) > 100 and "wsd.systems.lesk" in MODULES
    missing = []
    for module in MODULES:
        try:
            layer_of(module, LAYERS)
        except KeyError:
            missing.append(module)
    assert not missing, f"modules in no layer of {DESIGN}: {missing}"


def test_no_module_imports_from_a_higher_layer():
    print("\n" + report())
    assert not upward_imports(GRAPH, LAYERS), report()


def test_no_import_cycles():
    assert not cycles(RUNTIME), report()


def test_module_names_are_unique():
    assert not same_basenames(list(MODULES)), same_basenames(list(MODULES))
