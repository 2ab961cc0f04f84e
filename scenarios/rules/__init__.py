"""The rule modules: each implements sections of the Core Rules and registers its procedures, queries,
instructions, actions and vocabulary with the kernel (`scenarios.kernel`). They never import each other;
importing this package imports every module in it, so a new mechanic is a new module here."""

from __future__ import annotations

import importlib
import pkgutil

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_module.name}")
