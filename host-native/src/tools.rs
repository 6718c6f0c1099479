//! A tool for checking Mnemo itself: conformance scenarios, each on a fresh temporary store.
//! (The measurements are `mnemo-bench`'s, outside the binary users install.)

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use mnemo_core::api::Scenario;
use serde_json::{json, Value};

use crate::cli::read_input;
use crate::datadir::DataDir;
use crate::random_seed;
use crate::runtime::{Clock, Options, Runtime};

/// Runs a scenario in a temporary data directory; prints `[{"ok": …} | {"error": …}, …]`.
pub fn scenario(file: &PathBuf) -> Result<ExitCode> {
    let text = read_input(file)?;
    let sc: Scenario = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a scenario ({{now, seed, config?, steps}})",
            file.display()
        )
    })?;
    let dir = std::env::temp_dir().join(format!(
        "mnemo-scenario-{}-{}",
        std::process::id(),
        random_seed()
    ));
    let result = (|| {
        let data = DataDir::take(&dir)?;
        let mut rt = Runtime::open(Options {
            data: data.path.clone(),
            clock: Clock::Fixed(sc.now),
            seed: sc.seed,
            embedding: None,
            llm: None,
            config: match &sc.config {
                Some(c) => serde_json::to_string(c)?,
                None => String::new(),
            },
            workspace: None,
        })?;
        let mut out = Vec::new();
        for step in &sc.steps {
            if let Some(at) = step.at {
                rt.set_now(at);
            }
            let args = step
                .args
                .as_ref()
                .map_or_else(|| "{}".to_string(), Value::to_string);
            out.push(match rt.call(&step.method, &args)? {
                Ok(v) => json!({ "ok": serde_json::from_str::<Value>(&v)? }),
                Err(e) => json!({ "error": { "code": e.code, "message": e.message } }),
            });
        }
        rt.close()?;
        println!("{}", serde_json::to_string_pretty(&out)?);
        Ok(ExitCode::SUCCESS)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}
