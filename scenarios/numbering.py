"""Citing the Core Rules version a scenario names.

The engine's procedures are declared with the numbers of the version the rulings
were written against (2025-12-01). A scenario that names another version gets its
citations translated through the rule lineage between the two versions
(`rules_db.lineage.compute_lineage`, text matching, no table of numbers): each
number maps to its counterpart, or to its nearest ancestor that has one.
"""

from __future__ import annotations

from functools import lru_cache

ENGINE_VERSION = "2025-12-01"


class UnknownVersion(LookupError):
    pass


def _rules_of(version: str):
    from ingest.documents import BUNDLED
    from ingest.formats import adapter
    from ingest.source import read_lines

    spec = next((s for s in BUNDLED if s.game == "riftbound" and s.kind == "rules" and s.version == version), None)
    if spec is None:
        raise UnknownVersion(f"no bundled Riftbound Core Rules version {version!r}")
    parsed = adapter(spec.format).parse(read_lines(spec.path), spec.path)
    return [{"number": r.number, "text": r.raw_text, "parent": r.parent, "heading": r.heading} for r in parsed.rules]


@lru_cache(maxsize=4)
def correspondence(version: str) -> dict[str, str]:
    """Engine number -> number in `version` (identity for the engine's own version)."""
    if version == ENGINE_VERSION:
        return {}
    from rules_db.lineage import compute_lineage

    engine_rules, target_rules = _rules_of(ENGINE_VERSION), _rules_of(version)
    older = version < ENGINE_VERSION
    rows = compute_lineage(target_rules if older else engine_rules, engine_rules if older else target_rules)
    mapping = {}
    for row in rows:
        if row.old and row.new:
            engine_number, target_number = (row.new, row.old) if older else (row.old, row.new)
            mapping.setdefault(engine_number, target_number)
    return mapping


@lru_cache(maxsize=1)
def _engine_outline() -> tuple[dict[str, str | None], dict[str, list[str]]]:
    """Each rule's parent, and for a rule that is not a heading, the section heading it sits under."""
    parents, section, current = {}, {}, None
    for rule in _rules_of(ENGINE_VERSION):
        parents[rule["number"]] = rule["parent"]
        if rule["heading"]:
            current = rule["number"]
        else:
            section[rule["number"]] = current
    return parents, section


def translate(number: str, version: str) -> str | None:
    """The number in `version` citing what `number` cites in the engine's version: its counterpart, else that of
    its nearest ancestor, else that of the section it sits under (None: nothing corresponds, e.g. a section
    the older version does not have)."""
    if version == ENGINE_VERSION:
        return number
    mapping = correspondence(version)
    parents, section = _engine_outline()
    candidates, candidate = [], number
    while candidate and candidate not in candidates:
        candidates.append(candidate)
        candidate = parents.get(candidate) or (candidate.rsplit(".", 1)[0] if "." in candidate else None)
    if section.get(candidates[-1]):
        candidates.append(section[candidates[-1]])
    return next((mapping[c] for c in candidates if c in mapping), None)
