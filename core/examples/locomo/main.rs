//! LoCoMo retrieval benchmark for Mnemo's search (see `eval.rs` for the protocol).
//!
//! ```text
//! cargo run --release -p mnemo-core --example locomo -- tests/data/locomo/locomo-dev.json \
//!     [--vectors minilm-dev.f16 --index minilm-dev.index.json] [--json] [--misses FILE] [--mode balanced] \
//!     [--remember | --documents] [--hash] [--link-weight 0.5] [--consolidate]
//! ```

mod eval;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(about = "Evidence recall@1/5/10 of Mnemo's search on LoCoMo")]
struct Args {
    /// LoCoMo JSON (upstream format).
    locomo: PathBuf,
    /// Precomputed float16 vectors of every turn and question (row-major, no header).
    #[arg(long, requires = "index")]
    vectors: Option<PathBuf>,
    /// Index of the vectors file (row → turn or question).
    #[arg(long, requires = "vectors")]
    index: Option<PathBuf>,
    /// Ranking mode: balanced, recent, important, historical, comprehensive.
    #[arg(long, default_value = "balanced")]
    mode: String,
    /// Feed turns through `remember` (the built-in extractor) instead of storing them
    /// verbatim; the supplied vectors are per turn, so this uses the built-in embedder.
    #[arg(long, conflicts_with = "vectors")]
    remember: bool,
    /// Embed with `mnemo-hash-v1` instead of the default `mnemo-static-v1`.
    #[arg(long, conflicts_with = "vectors")]
    hash: bool,
    /// `recall.link_weight`: the share of relevance lent along co-recall links (0 turns it
    /// off; default the engine's).
    #[arg(long)]
    link_weight: Option<f64>,
    /// Consolidate each conversation's store (every step, until done) before its questions,
    /// as a deployment's daily cycle would have.
    #[arg(long)]
    consolidate: bool,
    /// Ingest each session as one document (its turns its lines) instead of a memory per
    /// turn; a question finds an evidence turn when a returned passage holds it.
    #[arg(long, conflicts_with_all = ["remember", "vectors"])]
    documents: bool,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    json: bool,
    /// Write the questions not wholly answered in the top 10 (question, evidence, the turns
    /// returned) to this file, as JSON.
    #[arg(long)]
    misses: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let run = || -> Result<String, String> {
        let mode = args.mode.parse().map_err(|e| format!("{e}"))?;
        let opts = eval::Options {
            locomo: args.locomo.clone(),
            vectors: args.vectors.clone().zip(args.index.clone()),
            mode,
            remember: args.remember,
            hash: args.hash,
            link_weight: args.link_weight,
            consolidate: args.consolidate,
            documents: args.documents,
        };
        let report = eval::evaluate(&opts)?;
        if let Some(path) = &args.misses {
            let text = serde_json::to_string_pretty(&report.misses).map_err(|e| e.to_string())?;
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(if args.json {
            serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?
        } else {
            report.table()
        })
    };
    match run() {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("locomo: {e}");
            ExitCode::FAILURE
        }
    }
}
