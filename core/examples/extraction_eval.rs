//! Scores the built-in extractor against the labelled sets in `core/tests/data/` — the
//! development set (`extraction.json`, which the rules were tuned on) and the held-out set
//! (`extraction_holdout.json`, written apart and never tuned on) — and prints the figures as
//! JSON: significance, memory types, hedging, deadlines, entities and relationships.
//!
//! ```sh
//! cargo run --release -p mnemo-core --example extraction_eval [-- --misses]
//! ```

#[path = "../tests/common/extraction_eval.rs"]
mod eval;

fn main() {
    let misses = std::env::args().any(|a| a == "--misses");
    let report = serde_json::json!({
        "development": eval::evaluate(eval::DEV, misses),
        "held_out": eval::evaluate(eval::HOLDOUT, misses),
    });
    println!("{}", serde_json::to_string_pretty(&report).expect("JSON"));
}
