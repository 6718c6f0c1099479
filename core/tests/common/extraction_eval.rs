//! Scoring of the built-in extractor on the labelled set `tests/data/extraction.json` (shared
//! by the `extraction_eval` example, which prints it, and the test that holds its floors).

use std::collections::BTreeMap;

use mnemo_core::extract::{Extractor, RuleExtractor};
use serde::Deserialize;
use serde_json::{json, Value};

/// Wednesday 2026-11-18 10:00 UTC: the moment the labelled messages are said.
pub const NOW: i64 = 1_794_996_000_000;

#[derive(Deserialize)]
struct Case {
    text: String,
    significant: bool,
    types: Vec<String>,
    hedged: bool,
    deadline: bool,
    entities: Vec<Named>,
    relations: Vec<(String, String, String)>,
}

#[derive(Deserialize)]
struct Named {
    name: String,
    #[serde(rename = "type")]
    kind: String,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        return 0.0;
    }
    (a as f64 / b as f64 * 1000.0).round() / 1000.0
}

/// Precision, recall and F1 of `found` against `expected`.
fn prf(hit: usize, found: usize, expected: usize) -> Value {
    let (p, r) = (ratio(hit, found), ratio(hit, expected));
    let f = if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    };
    json!({ "precision": p, "recall": r, "f1": (f * 1000.0).round() / 1000.0, "expected": expected, "found": found })
}

/// The development set: the extractor's rules were tuned while looking at it.
pub const DEV: &str = "extraction.json";
/// The held-out set: written apart from the extractor and the development set, never tuned on.
pub const HOLDOUT: &str = "extraction_holdout.json";

/// The scores on one set (a file in `tests/data`), and (with `misses`) every message the
/// extractor got wrong somewhere.
pub fn evaluate(set: &str, misses: bool) -> Value {
    let path = format!("{}/tests/data/{set}", env!("CARGO_MANIFEST_DIR"));
    let cases: Vec<Case> =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the labelled set"))
            .expect("valid set");
    let mut significant_ok = 0;
    let (mut first_ok, mut first_n) = (0, 0);
    let (mut stmt_ok, mut stmt_n) = (0, 0);
    let mut per_type: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut hedge_ok, mut deadline_ok) = (0, 0);
    let (mut ent_hit, mut ent_found, mut ent_exp, mut ent_type_ok) = (0, 0, 0, 0);
    let (mut rel_hit, mut rel_found, mut rel_exp) = (0, 0, 0);
    let mut wrong = Vec::new();
    for case in &cases {
        let out = RuleExtractor.extract(&case.text, NOW).expect("extract");
        let types: Vec<String> = out.iter().map(|x| x.memory_type.to_string()).collect();
        let mut ok = true;
        if out.is_empty() != case.significant {
            significant_ok += 1;
        } else {
            ok = false;
        }
        if case.significant {
            first_n += 1;
            let e = per_type.entry(case.types[0].clone()).or_default();
            e.1 += 1;
            if types.first() == case.types.first() {
                first_ok += 1;
                e.0 += 1;
            }
            for (i, t) in case.types.iter().enumerate() {
                stmt_n += 1;
                if types.get(i) == Some(t) {
                    stmt_ok += 1;
                }
            }
            ok &= types == case.types;
        }
        let hedged = out.iter().any(|x| x.hedged);
        hedge_ok += usize::from(hedged == case.hedged);
        let deadline = out.iter().any(|x| x.expires_at.is_some());
        deadline_ok += usize::from(deadline == case.deadline);
        ok &= hedged == case.hedged && deadline == case.deadline;

        let mut names: Vec<(String, String)> = Vec::new();
        for x in &out {
            for e in &x.entities {
                let n = e.name.to_lowercase();
                if !names.iter().any(|(m, _)| *m == n) {
                    names.push((n, e.entity_type.to_string()));
                }
            }
        }
        ent_found += names.len();
        ent_exp += case.entities.len();
        for e in &case.entities {
            if let Some((_, kind)) = names.iter().find(|(n, _)| *n == e.name.to_lowercase()) {
                ent_hit += 1;
                ent_type_ok += usize::from(*kind == e.kind);
            } else {
                ok = false;
            }
        }
        let mut triples: Vec<(String, String, String)> = Vec::new();
        for x in &out {
            for r in &x.relationships {
                let t = (
                    r.from.to_lowercase(),
                    r.relation.to_string(),
                    r.to.to_lowercase(),
                );
                if !triples.contains(&t) {
                    triples.push(t);
                }
            }
        }
        let expected: Vec<(String, String, String)> = case
            .relations
            .iter()
            .map(|(a, r, b)| (a.to_lowercase(), r.clone(), b.to_lowercase()))
            .collect();
        rel_found += triples.len();
        rel_exp += expected.len();
        let hits = expected.iter().filter(|t| triples.contains(t)).count();
        rel_hit += hits;
        ok &= hits == expected.len() && triples.len() == expected.len();
        if misses && !ok {
            wrong.push(json!({
                "text": case.text,
                "types": [case.types, types],
                "hedged": [case.hedged, hedged],
                "deadline": [case.deadline, deadline],
                "entities": [case.entities.iter().map(|e| format!("{} {}", e.name, e.kind)).collect::<Vec<_>>(), names.iter().map(|(n, k)| format!("{n} {k}")).collect::<Vec<_>>()],
                "relations": [expected, triples],
            }));
        }
    }
    let mut report = json!({
        "messages": cases.len(),
        "significance_accuracy": ratio(significant_ok, cases.len()),
        "type_accuracy_first_statement": ratio(first_ok, first_n),
        "type_accuracy_per_statement": ratio(stmt_ok, stmt_n),
        "type_recall": per_type.iter().map(|(t, (ok, n))| (t.clone(), json!(ratio(*ok, *n)))).collect::<serde_json::Map<_, _>>(),
        "hedging_accuracy": ratio(hedge_ok, cases.len()),
        "deadline_accuracy": ratio(deadline_ok, cases.len()),
        "entities": prf(ent_hit, ent_found, ent_exp),
        "entity_type_accuracy": ratio(ent_type_ok, ent_hit),
        "relations": prf(rel_hit, rel_found, rel_exp),
    });
    if misses {
        report["misses"] = json!(wrong);
    }
    report
}
