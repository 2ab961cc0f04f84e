"""`do.<name>` and `calc.<name>` as mypy reads them: scenarios/registry_types.py, written from the registered
procedures' and queries' own signatures, so that mypy checks each call's arguments (their number, names and the
builtin types the rule functions declare) and a reader finds the procedure a call names. A procedure or query added
or changed makes this test fail until the file is written anew:

    .venv/bin/python tests/test_registry_types.py
"""

from __future__ import annotations

import inspect
import keyword
import re
from pathlib import Path

from scenarios import kernel

TYPES = Path(__file__).resolve().parent.parent / "scenarios" / "registry_types.py"
BUILTIN = {"str", "int", "bool", "float", "dict", "list", "tuple", "frozenset", "set", "None"}
HEADER = '''"""`do.<name>` and `calc.<name>` as mypy reads them: every registered procedure and query with its arguments.

Written by `tests/test_registry_types.py` from the rule functions' own signatures (do not edit it by hand): a
procedure is called with its arguments by position and the rule that makes it happen (`because=`). A type other
than a builtin one (the game, an object, an event) is Any here, so that this module imports nothing of the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

Because = str | tuple[str, ...] | list[str]
'''


def _type(annotation: object) -> str:
    """The annotation if it names builtin types only, else Any."""
    if annotation is inspect.Parameter.empty:
        return "Any"
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return text if set(re.findall(r"[A-Za-z_]\w*", text)) <= BUILTIN else "Any"


def _parameters(fn, positional_only: bool) -> list[str]:
    rendered, keyword_only = [], False
    for parameter in inspect.signature(fn).parameters.values():
        default = " = ..." if parameter.default is not inspect.Parameter.empty else ""
        if parameter.kind is parameter.VAR_POSITIONAL:
            rendered.append(f"*{parameter.name}: {_type(parameter.annotation)}")
            keyword_only = True
        elif parameter.kind is parameter.VAR_KEYWORD:
            rendered.append(f"**{parameter.name}: {_type(parameter.annotation)}")
        else:
            if parameter.kind is parameter.KEYWORD_ONLY and not keyword_only:
                rendered.append("*")
                keyword_only = True
            rendered.append(f"{parameter.name}: {_type(parameter.annotation)}{default}")
    if positional_only:
        rendered.append("/")
    return rendered


def _method(name: str, fn, procedure: bool) -> str:
    where = f"{fn.__module__}.{fn.__name__}"
    parameters = _parameters(fn, positional_only=procedure) + (["*", "because: Because"] if procedure else [])
    returns = _type(inspect.signature(fn).return_annotation) if not procedure else "Any"
    return f'    def {name}(self, {", ".join(parameters)}) -> {returns}:\n        """{where}"""\n'


def render() -> str:
    kernel.load_rules()
    procedures = [
        _method(name, procedure.fn, True)
        for name, procedure in sorted(kernel.PROCEDURES.items())
        if not keyword.iskeyword(name)  # `pass`: not an attribute Python can name
    ]
    queries = [_method(name, fn, False) for name, fn in sorted(kernel.QUERIES.items())]
    return (
        HEADER
        + '\n\nclass TypedProcedures(Protocol):\n    """`do`: each procedure, called through its dispatcher."""\n\n'
        + "\n".join(procedures)
        + '\n\nclass TypedQueries(Protocol):\n    """`calc`: each query."""\n\n'
        + "\n".join(queries)
    )


def test_the_registry_types_are_those_of_the_registered_functions():
    assert TYPES.read_text(encoding="utf-8") == render(), f"{TYPES.name} is out of date: run {Path(__file__).name}"


def test_every_procedure_and_query_is_typed():
    written = TYPES.read_text(encoding="utf-8")
    named = set(re.findall(r"^    def (\w+)\(", written, re.M))
    registered = {name for name in kernel.PROCEDURES if not keyword.iskeyword(name)} | set(kernel.QUERIES)
    assert named == registered


if __name__ == "__main__":
    TYPES.write_text(render(), encoding="utf-8")
    print(f"wrote {TYPES}")
