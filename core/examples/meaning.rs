//! How well search finds what was meant: the meaning set (`tests/data/meaning`), questions
//! that share no content word with the fact that answers them, and questions about things
//! never said.
//!
//! ```text
//! cargo run --release -p mnemo-core --example meaning [-- --out target/mnemo-meaning.json]
//!     [--set scripts/distill/dev-paraphrase.json]
//! ```
//!
//! For each embedder — `mnemo-hash-v1`, `mnemo-static-v1` (the default) and all-MiniLM-L6-v2
//! (the vectors beside the set, `minilm.f16`, made by `scripts/distill/teacher.py`, when there
//! are some) — the facts are stored for one owner and every question is searched:
//! - hit@1 / hit@3: the answering fact is the first hit / among the first three (every hit
//!   counted, whatever its relevance);
//! - the same with the facts spread over owners of 24 (closer to one person's store);
//! - abstention: at the default `min_score`, the share of questions about things never said
//!   that return a hit (false positives), and the share of answerable questions whose fact is
//!   still among the first three; then the same at other minimums, to choose the default —
//!   for one owner of all the facts, and for owners of 24 (every never-said question asked of
//!   each);
//! - importance: the facts through `remember`, the extractor's importance and the stored one
//!   by tenths, and how often the `important` mode changes a question's first three hits.

// The LoCoMo example's half-float decoder.
#[allow(dead_code)]
#[path = "locomo/eval.rs"]
mod locomo;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mnemo_core::{
    Config, Engine, HashEmbedder, Id, Limit, ManualClock, NewMemory, RankMode, SearchRequest,
    SuppliedVectors,
};
use serde_json::{json, Value};

/// Facts per owner in the pooled run (120 facts over five owners).
const POOL: usize = 24;
/// 2026-01-01, when the facts are said.
const T0: i64 = 1_767_225_600_000;

#[derive(Parser)]
#[command(about = "Paraphrase and abstention rates of Mnemo's search, per embedder")]
struct Args {
    /// The set: `{facts: [{fact, questions}], abstain}`, MiniLM vectors in `minilm.f16` beside it.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/meaning/paraphrase.json"))]
    set: PathBuf,
    /// Where to write the figures as JSON.
    #[arg(long)]
    out: Option<PathBuf>,
}

struct Set {
    facts: Vec<String>,
    /// (question, index of its fact)
    questions: Vec<(String, usize)>,
    abstain: Vec<String>,
    /// MiniLM vectors: facts, then questions, then abstain questions (empty: none).
    minilm: Vec<Vec<f32>>,
}

fn load(path: &std::path::Path) -> Result<Set, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut facts = Vec::new();
    let mut questions = Vec::new();
    for (i, f) in v["facts"].as_array().ok_or("no facts")?.iter().enumerate() {
        facts.push(f["fact"].as_str().ok_or("fact")?.to_string());
        for q in f["questions"].as_array().ok_or("questions")? {
            questions.push((q.as_str().ok_or("question")?.to_string(), i));
        }
    }
    let abstain: Vec<String> = v["abstain"]
        .as_array()
        .ok_or("no abstain")?
        .iter()
        .filter_map(|q| q.as_str().map(String::from))
        .collect();
    let bytes = std::fs::read(path.with_file_name("minilm.f16")).unwrap_or_default();
    let rows = facts.len() + questions.len() + abstain.len();
    if !bytes.is_empty() && bytes.len() != rows * 384 * 2 {
        return Err(format!(
            "minilm.f16 holds {} bytes, not {rows} rows",
            bytes.len()
        ));
    }
    let minilm = bytes
        .chunks_exact(384 * 2)
        .map(|row| {
            row.chunks_exact(2)
                .map(|b| locomo::f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
                .collect()
        })
        .collect();
    Ok(Set {
        facts,
        questions,
        abstain,
        minilm,
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Model {
    Hash,
    Static,
    MiniLm,
}

impl Model {
    fn name(self) -> &'static str {
        match self {
            Model::Hash => "mnemo-hash-v1",
            Model::Static => "mnemo-static-v1",
            Model::MiniLm => "all-MiniLM-L6-v2",
        }
    }
}

fn engine(model: Model) -> Engine {
    let b = Engine::builder(ManualClock::new(T0));
    let b = match model {
        Model::Hash => b.embedder(HashEmbedder::default()),
        Model::Static => b,
        Model::MiniLm => b.embedder(SuppliedVectors::new("all-MiniLM-L6-v2", 384)),
    };
    b.open_in_memory().expect("an in-memory store opens")
}

/// Stores the facts, fact `i` for owner `owner_of(i)`; returns memory id → fact index.
fn store(
    e: &mut Engine,
    set: &Set,
    model: Model,
    owner_of: impl Fn(usize) -> String,
) -> HashMap<String, usize> {
    let items = set
        .facts
        .iter()
        .enumerate()
        .map(|(i, f)| NewMemory {
            vector: (model == Model::MiniLm).then(|| set.minilm[i].clone()),
            ..NewMemory::new(&owner_of(i), f).expect("a valid owner and fact")
        })
        .collect();
    let report = e.seed(items).expect("the facts are stored");
    report
        .outcomes
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.id().map(|id| (id.to_string(), i)))
        .collect()
}

fn search(
    e: &mut Engine,
    owner: &str,
    text: &str,
    vector: Option<&Vec<f32>>,
    min_score: Option<f64>,
) -> Vec<(String, f64)> {
    e.search(&SearchRequest {
        vector: vector.cloned(),
        limit: Some(Limit::new(3).expect("in range")),
        min_score,
        ..SearchRequest::new(Id::owner(owner).expect("a valid owner"), text)
    })
    .expect("search runs")
    .into_iter()
    .map(|h| (h.memory.id, h.why.relevance))
    .collect()
}

/// The first three hits of question `q`, asked of its fact's owner.
fn ask(e: &mut Engine, set: &Set, model: Model, pooled: bool, q: usize) -> Vec<(String, f64)> {
    let (text, fact) = &set.questions[q];
    let owner = owner_of(pooled, *fact);
    search(e, &owner, text, set.question_vec(model, q), Some(0.0))
}

/// Minimum relevances tried for the abstention table.
const MINIMUMS: [f64; 7] = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35];

fn rate(n: usize, of: usize) -> f64 {
    (n as f64 / of.max(1) as f64 * 1000.0).round() / 1000.0
}

/// The owner of fact `i`: one for all, or one per `POOL` facts.
fn owner_of(pooled: bool, i: usize) -> String {
    if pooled {
        format!("pool{}", i / POOL)
    } else {
        "me".into()
    }
}

impl Set {
    /// MiniLM's vector of question `q` (none for the other models).
    fn question_vec(&self, model: Model, q: usize) -> Option<&Vec<f32>> {
        (model == Model::MiniLm).then(|| &self.minilm[self.facts.len() + q])
    }
    /// MiniLM's vector of never-said question `a`.
    fn abstain_vec(&self, model: Model, a: usize) -> Option<&Vec<f32>> {
        (model == Model::MiniLm).then(|| &self.minilm[self.facts.len() + self.questions.len() + a])
    }
}

fn measure(set: &Set, model: Model) -> Value {
    let hits = |pooled: bool| {
        let mut e = engine(model);
        let owner = |i: usize| owner_of(pooled, i);
        let ids = store(&mut e, set, model, owner);
        let (mut h1, mut h3) = (0, 0);
        for (q, (_, fact)) in set.questions.iter().enumerate() {
            let found = ask(&mut e, set, model, pooled, q);
            let rank = found.iter().position(|(id, _)| ids.get(id) == Some(fact));
            h1 += (rank == Some(0)) as usize;
            h3 += rank.is_some() as usize;
        }
        let n = set.questions.len();
        json!({"hit_at_1": rate(h1, n), "hit_at_3": rate(h3, n)})
    };
    json!({
        "model": model.name(),
        "one_owner_120_facts": hits(false),
        "five_owners_24_facts": hits(true),
        "abstention": abstention(set, model, false),
        "abstention_owners_of_24": abstention(set, model, true),
    })
}

/// Abstention: the best hit's relevance for every never-said question (asked of every owner
/// when the facts are pooled) and the answering fact's relevance for every question, then the
/// share above the default `min_score` and the others.
fn abstention(set: &Set, model: Model, pooled: bool) -> Value {
    let nf = set.facts.len();
    let owner = |i: usize| owner_of(pooled, i);
    let owners: Vec<String> = (0..nf)
        .step_by(if pooled { POOL } else { nf.max(1) })
        .map(owner)
        .collect();
    let mut e = engine(model);
    let ids = store(&mut e, set, model, owner);
    let mut unanswerable: Vec<f64> = Vec::new();
    for a in 0..set.abstain.len() {
        for o in &owners {
            let found = search(
                &mut e,
                o,
                &set.abstain[a],
                set.abstain_vec(model, a),
                Some(0.0),
            );
            unanswerable.push(found.first().map_or(0.0, |h| h.1));
        }
    }
    let answered: Vec<f64> = set
        .questions
        .iter()
        .enumerate()
        .map(|(q, (_, fact))| {
            ask(&mut e, set, model, pooled, q)
                .iter()
                .find(|(id, _)| ids.get(id) == Some(fact))
                .map_or(-1.0, |h| h.1)
        })
        .collect();
    let at = |min: f64| {
        json!({
            "min_score": min,
            "false_positive_rate": rate(unanswerable.iter().filter(|&&r| r >= min).count(), unanswerable.len()),
            "answerable_found_in_top_3": rate(answered.iter().filter(|&&r| r >= min).count(), answered.len()),
        })
    };
    let default = Config::default().recall.min_relevance;
    json!({
        "questions": unanswerable.len(),
        "at_default": at(default),
        "by_min_score": MINIMUMS.iter().map(|&m| at(m)).collect::<Vec<_>>(),
    })
}

/// Counts of `values` by tenth (0–0.1, …, 0.9–1.0).
fn deciles(values: &[f64]) -> Vec<usize> {
    let mut out = vec![0; 10];
    for v in values {
        out[((v * 10.0).floor() as usize).min(9)] += 1;
    }
    out
}

/// Importance through `remember` (the default embedder and extractor): what the extractor
/// gives the facts, what they are stored with after the surprise adjustment, how often the
/// `important` mode orders a question's first three hits differently from `balanced`, and
/// each mode's hit@1 / hit@3.
fn importance(set: &Set) -> Value {
    // The facts stored for one owner: the engine, which fact each memory holds, the
    // importance the extractor gave, and the importance stored.
    let store = || {
        let mut e = engine(Model::Static);
        let (mut given, mut stored, mut fact_of) = (Vec::new(), Vec::new(), HashMap::new());
        for (i, fact) in set.facts.iter().enumerate() {
            given.extend(
                e.extract(fact)
                    .expect("extract")
                    .iter()
                    .map(|x| x.importance),
            );
            let report = e
                .remember("me", fact, Default::default())
                .expect("remember");
            for id in report.stored_ids() {
                stored.push(e.get("me", id).expect("stored").importance);
                fact_of.insert(id.to_string(), i);
            }
        }
        (e, fact_of, given, stored)
    };
    let top = |e: &mut Engine, q: &str, mode: RankMode| -> Vec<String> {
        e.search(&SearchRequest {
            limit: Some(Limit::new(3).expect("in range")),
            mode,
            ..SearchRequest::new(Id::owner("me").expect("a valid owner"), q)
        })
        .expect("search")
        .into_iter()
        .map(|h| h.memory.id)
        .collect()
    };
    let (mut e, _, given, stored) = store();
    let reordered = set
        .questions
        .iter()
        .filter(|(q, _)| top(&mut e, q, RankMode::Balanced) != top(&mut e, q, RankMode::Important))
        .count();
    // hit@1 / hit@3 of a mode, each on a store of its own (searches are uses, which the
    // `important` mode weighs): the answering fact first / among the first three.
    let hits = |mode: RankMode| {
        let (mut e, fact_of, _, _) = store();
        let (mut one, mut three) = (0, 0);
        for (q, fact) in &set.questions {
            let at = top(&mut e, q, mode)
                .iter()
                .position(|id| fact_of.get(id) == Some(fact));
            one += usize::from(at == Some(0));
            three += usize::from(at.is_some());
        }
        json!([
            rate(one, set.questions.len()),
            rate(three, set.questions.len())
        ])
    };
    json!({
        "extractor_deciles": deciles(&given),
        "stored_deciles": deciles(&stored),
        "important_mode_reorders_top_3": rate(reordered, set.questions.len()),
        "hit_at_1_3": {"balanced": hits(RankMode::Balanced), "important": hits(RankMode::Important)},
    })
}

fn main() -> ExitCode {
    let args = Args::parse();
    let set = match load(&args.set) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cannot read the meaning set {}: {e}", args.set.display());
            return ExitCode::FAILURE;
        }
    };
    let results: Vec<Value> = [Model::Hash, Model::Static, Model::MiniLm]
        .into_iter()
        .filter(|&m| m != Model::MiniLm || !set.minilm.is_empty())
        .map(|m| measure(&set, m))
        .collect();
    let importance = importance(&set);
    let report = json!({
        "importance": importance,
        "facts": set.facts.len(),
        "questions": set.questions.len(),
        "abstain_questions": set.abstain.len(),
        "results": results,
    });
    let text = serde_json::to_string_pretty(&report).expect("JSON of plain values");
    println!("{text}");
    if let Some(out) = args.out {
        if let Err(e) = std::fs::write(&out, text + "\n") {
            eprintln!("cannot write {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
