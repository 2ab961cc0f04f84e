"""No import circle anywhere in the four packages (issue 36): a module reached again by following its own imports
is a circle, whatever layer it is in (the layer contracts of pyproject.toml catch only imports between layers).
Imports inside functions count: they are how a circle hides."""

from __future__ import annotations

import grimp

PACKAGES = ("ingest", "scenarios", "rules_db", "datasette_plugins")


def _circles(graph) -> list[list[str]]:
    """Each import circle as the modules along it, found by a depth-first walk (one per strongly connected set)."""
    found, state, stack = [], {}, []

    def walk(module: str) -> None:
        state[module] = "open"
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if state.get(imported) == "open":
                found.append(stack[stack.index(imported) :] + [imported])
            elif imported not in state:
                walk(imported)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph.modules):
        if module not in state:
            walk(module)
    return found


def test_no_module_imports_itself_through_others():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    circles = [circle for circle in _circles(graph) if all(module.split(".")[0] in PACKAGES for module in circle)]
    assert not circles, "import circles: " + "; ".join(" -> ".join(circle) for circle in circles)


def test_the_circle_finder_finds_a_circle():
    class Graph:
        modules = {"a", "b", "c"}

        @staticmethod
        def find_modules_directly_imported_by(module):
            return {"a": {"b"}, "b": {"c"}, "c": {"a"}}[module]

    assert _circles(Graph()) == [["a", "b", "c", "a"]]
