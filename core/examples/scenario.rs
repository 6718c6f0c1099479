//! Runs a conformance scenario (tests/scenarios/*.json) on the native core and prints one JSON
//! outcome per step — the reference the other targets are compared with.
//!
//! `cargo run -p mnemo-core --example scenario -- tests/scenarios/recall.json`

use mnemo_core::api::{outcome, Scenario};
use mnemo_core::{Call, Engine, ManualClock, SeededEntropy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: scenario <scenario.json>")?;
    let scenario: Scenario = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
    let clock = ManualClock::new(scenario.now);
    let mut engine = Engine::builder(clock.clone())
        .entropy(SeededEntropy::new(scenario.seed))
        .open_in_memory()?;
    let mut out = Vec::new();
    for step in scenario.steps {
        if let Some(at) = step.at {
            clock.set(at);
        }
        let args = step.args.unwrap_or_else(|| serde_json::json!({}));
        let result = Call::parse(&step.method, args).and_then(|c| engine.call(c));
        out.push(outcome(result));
    }
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}
