//! Every call, attacked field by field: each argument of each call the conformance scenarios
//! make (`tests/scenarios/*.json`), top-level and nested, replaced in turn with a hostile
//! value — null, the wrong type, an empty or huge string, control and bidirectional
//! characters, SQL and FTS5 syntax, numbers out of every range, deep nesting — and an unknown
//! field added. Whatever the engine makes of it, it answers or refuses as the caller's fault:
//! no panic, no `internal` or `storage_error`, and a refused call writes nothing.
mod common;

use mnemo_core::api::Scenario;
use mnemo_core::field::MAX_CONTENT_CHARS;
use mnemo_core::*;
use serde_json::{json, Value};

/// The values every argument is replaced with in turn.
fn hostile() -> Vec<Value> {
    let deep = (0..200).fold(json!(1), |v, _| json!([v]));
    vec![
        Value::Null,
        json!(""),
        json!(" \t\n "),
        // Over every field's limit but a document's.
        json!("x".repeat(MAX_CONTENT_CHARS + 1)),
        json!("\u{0}\u{1}\u{7f}\u{202e}evil\u{200b}\u{feff}"),
        json!("'); DROP TABLE memories; --"),
        json!("\"* OR NEAR(a b) NOT c:^d"),
        json!("ana' OR '1'='1"),
        json!("../../etc/passwd"),
        json!("日本語のテキスト 🧠 ﷽"),
        json!(-1),
        json!(0),
        json!(1.5),
        json!(-1e308),
        json!(1e308),
        json!(9_007_199_254_740_993u64),
        json!(i64::MIN),
        json!(true),
        json!([]),
        json!({}),
        json!(["a", 1, null]),
        json!({"$gt": ""}),
        deep,
    ]
}

/// Every place inside `v` a value can be put: object keys and the first two items of lists.
fn paths(v: &Value, at: &mut Vec<Vec<Step>>, here: Vec<Step>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let mut p = here.clone();
                p.push(Step::Key(k.clone()));
                at.push(p.clone());
                paths(x, at, p);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate().take(2) {
                let mut p = here.clone();
                p.push(Step::Index(i));
                at.push(p.clone());
                paths(x, at, p);
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// `v` with the value at `path` replaced by `with`.
fn replaced(v: &Value, path: &[Step], with: &Value) -> Value {
    let mut out = v.clone();
    let mut at = &mut out;
    for s in path {
        at = match s {
            Step::Key(k) => &mut at[k.as_str()],
            Step::Index(i) => &mut at[*i],
        };
    }
    *at = with.clone();
    out
}

fn scenarios() -> Vec<Scenario> {
    common::scenario_files()
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("parse"))
        .collect()
}

#[test]
fn every_argument_of_every_call_survives_hostile_values() {
    let hostile = hostile();
    let mut faults = Vec::new();
    let mut tried = 0usize;
    let mut methods = std::collections::BTreeSet::new();
    for scenario in scenarios() {
        let clock = ManualClock::new(scenario.now);
        let mut engine = Engine::builder(clock.clone())
            .entropy(SeededEntropy::new(scenario.seed))
            .config(scenario.config.clone().unwrap_or_default())
            .open_in_memory()
            .expect("open");
        for step in &scenario.steps {
            if let Some(at) = step.at {
                clock.set(at);
            }
            let args = step.args.clone().unwrap_or_else(|| json!({}));
            let mut places = Vec::new();
            paths(&args, &mut places, Vec::new());
            let mut variants: Vec<Value> = places
                .iter()
                .flat_map(|p| hostile.iter().map(|h| replaced(&args, p, h)))
                .collect();
            variants.extend(hostile.iter().map(|h| {
                let mut a = args.clone();
                if let Value::Object(m) = &mut a {
                    m.insert("no_such_field".into(), h.clone());
                }
                a
            }));
            variants.extend(hostile.iter().filter(|h| !h.is_object()).cloned());
            methods.insert(step.method.clone());
            for v in variants {
                tried += 1;
                let text = v.to_string();
                let before = engine.changes();
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    engine.call_json(&step.method, &text)
                }));
                let shown: String = text.chars().take(160).collect();
                match answer {
                    Err(_) => faults.push(format!("{} {shown}: panicked", step.method)),
                    Ok(Err(e)) if matches!(e.code(), "internal" | "storage_error") => {
                        faults.push(format!("{} {shown}: {e:?}", step.method))
                    }
                    Ok(Err(e)) if engine.changes() != before => faults.push(format!(
                        "{} {shown}: refused ({e:?}) but wrote",
                        step.method
                    )),
                    _ => {}
                }
                if faults.len() > 40 {
                    break;
                }
            }
            // The step itself, so the next ones find what they expect.
            let _ = engine.call_json(&step.method, &args.to_string());
        }
    }
    assert!(
        methods.len() >= 40,
        "the scenarios make too few calls: {methods:?}"
    );
    assert!(
        faults.is_empty(),
        "{} of {tried} hostile calls went wrong:\n{}",
        faults.len(),
        faults.join("\n")
    );
}
