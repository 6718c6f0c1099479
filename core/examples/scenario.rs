//! Runs a conformance scenario (tests/scenarios/*.json) on the native core and prints one JSON
//! outcome per step — the reference the other targets are compared with.
//!
//! `cargo run -p mnemo-core --example scenario -- tests/scenarios/recall.json`

use mnemo_core::api::{run_scenario, Scenario};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: scenario <scenario.json>")?;
    let scenario: Scenario = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
    println!(
        "{}",
        serde_json::to_string_pretty(&run_scenario(&scenario)?)?
    );
    Ok(())
}
