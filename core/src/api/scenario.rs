//! Conformance scenarios (JSON in `tests/scenarios/`): a fixed clock and seed, then calls in
//! order. Every face runs them and must print the same JSON.

use serde::Deserialize;
use serde_json::Value;

use super::Call;
use crate::clock::{ManualClock, Millis, SeededEntropy};
use crate::config::Config;
use crate::engine::Engine;
use crate::error::Result;

/// A scenario: start time, entropy seed and settings, then the steps.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Start time, ms since the epoch.
    pub now: Millis,
    /// Seed of the engine's entropy (memory ids).
    pub seed: u64,
    /// Engine settings (the defaults when left out).
    #[serde(default)]
    pub config: Option<Config>,
    /// Whether its steps send source text for the engine to parse: the browser package, whose
    /// engine has no source parser, reads those texts with its parser module first.
    #[serde(default)]
    pub reads_source: bool,
    /// The calls, in order.
    pub steps: Vec<Step>,
}

/// One call of a scenario, optionally after moving the clock to `at`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Moves the clock to this time first, in milliseconds since the Unix epoch (default: it
    /// stays).
    pub at: Option<Millis>,
    /// The call's method name.
    pub method: String,
    /// The call's arguments (default none, as `{}`).
    pub args: Option<Value>,
}

/// Runs a scenario on a fresh in-memory engine (the native reference run).
pub fn run_scenario(scenario: &Scenario) -> Result<Vec<Value>> {
    let clock = ManualClock::new(scenario.now);
    let mut engine = Engine::builder(clock.clone())
        .entropy(SeededEntropy::new(scenario.seed))
        .config(scenario.config.clone().unwrap_or_default())
        .open_in_memory()?;
    let mut out = Vec::with_capacity(scenario.steps.len());
    for step in &scenario.steps {
        if let Some(at) = step.at {
            clock.set(at);
        }
        let args = step.args.clone().unwrap_or_else(|| serde_json::json!({}));
        out.push(outcome(
            Call::parse(&step.method, &args).and_then(|c| engine.call(c)),
        ));
    }
    Ok(out)
}

/// How a face reports a call's result: `{"ok": …}` or `{"error": {"code", "message"}}`.
fn outcome(result: Result<Value>) -> Value {
    match result {
        Ok(v) => serde_json::json!({ "ok": v }),
        Err(e) => serde_json::json!({ "error": { "code": e.code(), "message": e.to_string() } }),
    }
}
