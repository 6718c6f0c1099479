//! The built-in extractor on the labelled sets (`tests/data/extraction*.json`): the floors
//! below sit just under the figures in `docs/BENCHMARKS.md`, so a change that makes extraction
//! worse fails here. Print the figures with `cargo run -p mnemo-core --example extraction_eval`.
#[path = "common/extraction_eval.rs"]
mod eval;

fn holds(set: &str, floors: &[(&str, f64)]) {
    let r = eval::evaluate(set, false);
    for (path, floor) in floors {
        let v = path
            .split('.')
            .fold(&r, |v, k| &v[k])
            .as_f64()
            .unwrap_or_else(|| panic!("{set}: no figure {path} in {r:#}"));
        assert!(
            v >= *floor,
            "{set}: {path} fell to {v} (floor {floor}): {r:#}"
        );
    }
}

#[test]
fn development_set_holds_its_floors() {
    holds(
        eval::DEV,
        &[
            ("significance_accuracy", 0.97),
            ("type_accuracy_first_statement", 0.85),
            ("hedging_accuracy", 0.95),
            ("deadline_accuracy", 0.93),
            ("entities.f1", 0.88),
            ("relations.precision", 0.85),
            ("relations.f1", 0.70),
        ],
    );
}

#[test]
fn held_out_set_holds_its_floors() {
    holds(
        eval::HOLDOUT,
        &[
            ("significance_accuracy", 0.95),
            ("type_accuracy_first_statement", 0.72),
            ("hedging_accuracy", 0.95),
            ("deadline_accuracy", 0.9),
            ("entities.f1", 0.86),
            ("relations.precision", 0.8),
            ("relations.f1", 0.62),
        ],
    );
}

/// What the built-in extractor makes of every message of both labelled sets, exactly.
fn extractions() -> String {
    use mnemo_core::extract::{Extractor, RuleExtractor};
    let mut out = String::new();
    for set in [eval::DEV, eval::HOLDOUT] {
        let path = format!("{}/tests/data/{set}", env!("CARGO_MANIFEST_DIR"));
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(path).expect("set")).expect("JSON");
        for case in cases {
            let text = case["text"].as_str().expect("text");
            let found = RuleExtractor.extract(text, eval::NOW).expect("extract");
            out += &serde_json::to_string(&serde_json::json!({ "text": text, "found": found }))
                .expect("JSON");
            out.push('\n');
        }
    }
    out
}

/// The floors above catch a worse extractor; this catches any change at all — a type, an
/// importance, an entity — against the output recorded in `tests/data/extraction.expected.jsonl`
/// (re-record a change that is meant with `MNEMO_BLESS=1`, and review the diff).
#[test]
fn the_extractor_gives_the_recorded_output() {
    let expected = format!(
        "{}/tests/data/extraction.expected.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let now = extractions();
    if std::env::var_os("MNEMO_BLESS").is_some() {
        std::fs::write(&expected, &now).expect("write");
        return;
    }
    let before = std::fs::read_to_string(&expected).expect("the recorded output");
    let first = before
        .lines()
        .zip(now.lines())
        .find(|(a, b)| a != b)
        .map(|(a, b)| format!("recorded: {a}\nnow:      {b}"));
    assert!(
        before == now,
        "the extractor's output changed:\n{}",
        first.unwrap_or_else(|| "a different number of lines".into())
    );
}
