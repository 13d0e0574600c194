"""The package's imports point one way: no cycles, and variants only at the edges.

The walk reads every module's source (imports inside functions included; those under
``if TYPE_CHECKING:`` are left out, since they never run) and builds the graph of
``calhamer`` modules. A cycle is a failure, and so is any import of a variant module
(``calhamer.variants`` or below) from a module that is neither a variant itself nor one of the
edges that turn names into variants: documents, the command line and the web judge.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import calhamer

PACKAGE = Path(calhamer.__file__).parent

# Where a variant's name becomes a variant object: phase and game documents, the command line,
# the web judge, and the public surface (which re-exports ``find_variant``).
EDGES = ("calhamer", "calhamer.formats", "calhamer.game", "calhamer.cli", "calhamer.server")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    is_package = MODULES[importer].name == "__init__.py"
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(name: str) -> set[str]:
    """The calhamer modules ``name`` imports at run time, wherever in the file."""
    tree = ast.parse(MODULES[name].read_text(), str(MODULES[name]))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def _within(name: str, roots: tuple[str, ...]) -> bool:
    return any(name == r or name.startswith(r + ".") for r in roots)


def test_the_walk_sees_the_package() -> None:
    assert "calhamer.position" in GRAPH
    assert "calhamer.phases.intake" in GRAPH["calhamer.phases"]
    assert "calhamer.pieces" in GRAPH["calhamer.phases.intake"]


def test_no_import_cycles() -> None:
    # Tarjan's strongly connected components over the module graph.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            connect(v)
    assert cycles == []


def test_only_variants_and_edges_import_variants() -> None:
    offenders = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if not _within(name, ("calhamer.variants", *EDGES))
        for target in targets
        if _within(target, ("calhamer.variants",))
    )
    assert offenders == []


def test_only_the_edges_import_rendering_or_the_web_judge() -> None:
    """The library (the core and the variants) never reaches for pictures or the web judge,
    not even inside a function: the command line, the web judge and the package's lazy
    ``render_svg`` do."""
    outer = ("calhamer.render", "calhamer.server", "calhamer.cli")
    offenders = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if name != "calhamer" and not _within(name, outer)
        for target in targets
        if _within(target, ("calhamer.render", "calhamer.server"))
    )
    assert offenders == []


def _loaded_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    return {line for line in out.splitlines() if line.startswith("calhamer")}


def test_import_calhamer_loads_no_variant_module() -> None:
    loaded = _loaded_after("import calhamer")
    variants = sorted(m for m in loaded if m.startswith("calhamer.variants."))
    assert variants == []


def test_the_standard_start_loads_no_other_variant() -> None:
    loaded = _loaded_after("import calhamer\ncalhamer.Position.initial('standard')")
    assert sorted(m for m in loaded if m.startswith("calhamer.variants.")) == []
    assert not any(m.startswith(("calhamer.server", "calhamer.render")) for m in loaded)


def _all_loaded_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    return set(out.splitlines())


# Slow to import and needed only by some uses: installed packages' metadata (variants from
# other packages), TOML (a map being loaded), spelling suggestions, hashing (dice), JSON and
# argparse (documents and the command line), the validated documents, pictures, the server.
_LAZY = ("importlib.metadata", "tomllib", "difflib", "hashlib", "hmac", "secrets", "json",
         "argparse", "pydantic", "calhamer.documents", "calhamer.render", "calhamer.server",
         "calhamer.game", "calhamer.formats", "calhamer.dice")


def test_import_calhamer_loads_only_the_core() -> None:
    loaded = _all_loaded_after("import calhamer")
    assert sorted(m for m in loaded if m.startswith(_LAZY)) == []


def test_the_command_line_help_loads_no_metadata_dice_or_documents() -> None:
    loaded = _all_loaded_after("from calhamer.cli import build_parser\n"
                               "build_parser().format_help()")
    slow = ("importlib.metadata", "hashlib", "secrets", "pydantic", "calhamer.documents",
            "calhamer.variants.")
    assert sorted(m for m in loaded if m.startswith(slow)) == []


def test_a_command_help_still_lists_every_variant() -> None:
    from calhamer.cli import build_parser
    from calhamer.variants import variant_names

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    text = " ".join(sub.choices["new"].format_help().split())  # type: ignore[union-attr]
    assert f"({', '.join(variant_names())})" in text


def test_adjudicate_means_one_thing() -> None:
    """A resolver decides nodes (``decide``); ``adjudicate`` is a whole phase's judgment."""
    from calhamer.adjudicator import MovementResolver
    from calhamer.resolver import GuessResolver
    from calhamer.variants import find_variant, variant_names
    from calhamer.variants.superdiplomacy.resolver import _Resolver as StackResolver

    classes = {GuessResolver, MovementResolver, StackResolver}
    classes |= {find_variant(name).resolver_class for name in variant_names()}
    for cls in classes:
        assert callable(getattr(cls, "decide", None)), cls
        assert not [name for name in dir(cls) if name.startswith("adjudicate")], cls
