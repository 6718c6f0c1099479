//! `mnemo`: Mnemo for native programs. Every command runs the engine component inside
//! wasmtime on a store in the data directory, so the native tool and the browser run the same
//! engine code and give the same JSON.

mod cli;
mod datadir;
mod output;
mod providers;
mod runtime;
mod serve;
mod tools;

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;
use serde_json::{json, Value};

use cli::{calls, parse_now, Cli, Command};
use datadir::DataDir;
use runtime::{Clock, Options, Runtime};

fn run(cli: Cli) -> Result<ExitCode> {
    if let Command::Scenario { file } = &cli.command {
        return tools::scenario(file);
    }
    let clock = match &cli.now {
        Some(s) => Clock::Fixed(parse_now(s)?),
        None => Clock::System,
    };
    let seed = cli.seed.unwrap_or_else(random_seed);
    if let Command::Bench { corpus } = &cli.command {
        return tools::bench(corpus);
    }
    let dir = DataDir::take(&cli.data)?;
    let embedding = match (&cli.embed_url, &cli.embed_model) {
        (Some(url), Some(model)) => Some(runtime::Embedding::Http(
            providers::HttpEmbedder::connect(url, model)?,
        )),
        _ => None,
    };
    let llm = match (&cli.llm_url, &cli.llm_model) {
        (Some(url), Some(model)) => Some(providers::HttpChat::new(url, model)),
        _ => None,
    };
    let mut rt = Runtime::open(Options {
        data: dir.path.clone(),
        clock,
        seed,
        embedding,
        llm,
    })?;
    let json = cli.json;
    if let Command::BenchHeartbeat { entity, checks } = &cli.command {
        return tools::bench_heartbeat(rt, entity, *checks);
    }
    if let Command::Serve { bind, port } = &cli.command {
        let token = serve::token(&dir.path)?;
        serve::serve(rt, &token, bind, *port)?;
        return Ok(ExitCode::SUCCESS);
    }
    // (method, JSON arguments) of each engine call the command makes.
    let steps: Vec<(String, String)> = match cli.command {
        // Passed through as typed: the engine checks the method and parses the JSON.
        Command::Call { method, args } => vec![(method, args)],
        command => calls(command)?
            .into_iter()
            .map(|(m, v)| (m.to_string(), v.to_string()))
            .collect(),
    };
    let mut results = Vec::new();
    // Each batch of a long seed or import is its own transaction: a progress bar on a
    // terminal, else one line per committed batch (what a crash can no longer lose).
    let bar = (steps.len() > 1 && std::io::stderr().is_terminal())
        .then(|| indicatif::ProgressBar::new(steps.len() as u64).with_message("batches committed"));
    for (n, (method, args)) in steps.iter().enumerate() {
        match rt.call(method, args)? {
            Ok(out) => {
                results.push((method, serde_json::from_str::<Value>(&out)?));
                match &bar {
                    Some(bar) => bar.inc(1),
                    None if steps.len() > 1 => {
                        eprintln!("committed batch {}/{}", n + 1, steps.len())
                    }
                    None => {}
                }
            }
            Err(e) => {
                rt.close()?;
                if json {
                    println!(
                        "{}",
                        json!({"error": {"code": e.code, "message": e.message}})
                    );
                } else {
                    eprintln!("error ({}): {}", e.code, e.message);
                }
                return Ok(ExitCode::from(1));
            }
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    rt.close()?;
    output::print(&results, json);
    Ok(ExitCode::SUCCESS)
}

/// 64 bits that differ between runs (the id generator's seed when none is given).
pub(crate) fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mnemo: {e:#}");
            ExitCode::from(2)
        }
    }
}
