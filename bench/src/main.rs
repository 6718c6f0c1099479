//! `mnemo-bench`: the measurements of the native Mnemo, kept out of the `mnemo` binary users
//! install. `workload` and `heartbeat` time calls inside the engine component (linked from
//! `mnemo-host`, as `mnemo` runs it); `serve` drives a `mnemo serve` process with HTTP clients.

mod component;
mod serve;

use std::path::PathBuf;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "mnemo-bench", about = "Measures the native Mnemo")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Time the benchmark workload (a corpus from core's bench_corpus example) inside the
    /// component on a fresh store: seeding in batches of 1,000, then each search. Prints the
    /// raw timings as JSON.
    Workload { corpus: PathBuf },
    /// Time dry-run heartbeat checks inside the component on the store in --data (core's
    /// heartbeat bench builds one in target/mnemo-heartbeat-bench). Prints the raw timings as
    /// JSON.
    Heartbeat {
        /// The data directory holding the store.
        #[arg(long)]
        data: PathBuf,
        /// The clock, in milliseconds since the epoch.
        #[arg(long)]
        now: i64,
        #[arg(long)]
        entity: String,
        #[arg(long, default_value_t = 300)]
        checks: usize,
    },
    /// Load-test `mnemo serve` on loopback (a fresh store, real HTTP clients) and write the
    /// figures as JSON: seeds per second with 16 clients, a mixed load at 4/16/64 clients,
    /// search latency over 3,000 memories.
    Serve {
        /// Where the JSON goes.
        #[arg(long, default_value = "target/bench-serve.json")]
        out: PathBuf,
        /// Seconds each timed run lasts.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=600))]
        seconds: u64,
        /// The `mnemo` binary to serve with (default: the one built beside this one).
        #[arg(long)]
        mnemo: Option<PathBuf>,
    },
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Workload { corpus } => component::workload(&corpus),
        Command::Heartbeat {
            data,
            now,
            entity,
            checks,
        } => component::heartbeat(&data, now, &entity, checks),
        Command::Serve {
            out,
            seconds,
            mnemo,
        } => {
            let mnemo = match mnemo {
                Some(path) => path,
                None => serve::beside_this()?,
            };
            serve::run(&mnemo, &out, seconds)
        }
    }
}
