"""The SQL the Datasette metadata offers as canned queries."""

from __future__ import annotations

CANNED_QUERIES: dict[str, dict] = {
    "rulings_citing_rule": {
        "title": "Rulings citing a rule",
        "description": "Rulings that cite a rule number (or any rule under it), in any version.",
        "sql": """select g.id as ruling_id, g.question, c.number, c.raw_text, c.how, d.version as cited_version
from ruling_citations c join rulings g on g.id = c.ruling_id left join documents d on d.id = c.document_id
where c.number = :number or c.number like :number || '.%'
order by g.position""",
    },
    "rules_mentioning_keyword": {
        "title": "Rules mentioning a keyword",
        "description": "Every rule that mentions a keyword (matched on lemmas: 'recalled' mentions Recall).",
        "sql": """select k.game_id as game, k.term, d.version, r.number, m.matched_text, r.text
from keyword_mentions m join keywords k on k.id = m.keyword_id join rules r on r.id = m.rule_id
join documents d on d.id = r.document_id
where k.term = :term collate nocase
order by k.game_id, d.version desc, r.position""",
    },
    "dangling_references": {
        "title": "Dangling references",
        "description": "Cross-references whose target rule does not exist in the same document.",
        "sql": """select d.id as document, r.number as from_number, x.target_number, x.raw_text
from rule_refs x join rules r on r.id = x.from_rule_id join documents d on d.id = x.document_id
where x.status = 'dangling'
order by d.id, r.position""",
    },
    "stale_citations": {
        "title": "Stale citations",
        "description": "Citations (from rulings and from replay steps) into a rules version that is not the newest.",
        "sql": """select 'ruling' as source, g.id as source_id, g.question as context, c.number,
    d.version as cited_version
from ruling_citations c join rulings g on g.id = c.ruling_id join documents d on d.id = c.document_id
where d.is_newest = 0
union all
select 'replay', s.replay_id, s.summary, c.number, d.version
from replay_step_citations c join replay_steps s on s.id = c.step_id join rules r on r.id = c.rule_id
join documents d on d.id = r.document_id
where d.is_newest = 0
order by source, source_id""",
    },
}
