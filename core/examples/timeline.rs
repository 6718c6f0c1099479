//! Scores search on the labelled set of questions about when (`tests/data/timeline/`, written
//! by `scripts/timeline/make.py`): six weeks of one person's conversations replayed in time,
//! each memory stored at the time it was said in its day's session, and questions that name a
//! time, ask for several things, or ask which came first or last, each asked `as_of` its own
//! day of a store holding what was said until then.
//!
//! For each category: hit@1/5/10 (an answer among the first k hits) and all@5/10 (every
//! answer among them, what a question asking for several things needs).
//!
//! ```text
//! cargo run --release -p mnemo-core --example timeline -- [tests/data/timeline/timeline.json] [--json]
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mnemo_core::{Engine, ManualClock, Millis};
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

#[derive(Parser)]
#[command(about = "hit@k and all@k of Mnemo's search on the labelled questions about when")]
struct Args {
    /// The labelled set.
    #[arg(default_value = "tests/data/timeline/timeline.json")]
    set: PathBuf,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    json: bool,
}

/// Cut-offs scored.
const KS: [usize; 3] = [1, 5, 10];

fn millis(text: &str) -> Result<Millis, String> {
    let t = OffsetDateTime::parse(text, &Rfc3339).map_err(|e| format!("{text:?}: {e}"))?;
    Ok((t.unix_timestamp_nanos() / 1_000_000) as Millis)
}

/// Per category: questions, hits at each k, all-of-the-answers at each k.
#[derive(Default)]
struct Score {
    questions: usize,
    hit: [usize; 3],
    all: [usize; 3],
}

fn run(args: &Args) -> Result<String, String> {
    let text =
        std::fs::read_to_string(&args.set).map_err(|e| format!("{}: {e}", args.set.display()))?;
    let set: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let owner = set["owner"].as_str().ok_or("no owner")?;
    let memories = set["memories"].as_array().ok_or("no memories")?;
    let questions = set["questions"].as_array().ok_or("no questions")?;
    // The conversations are replayed in time: before each question (in the order they are
    // asked), what was said until then is stored, each memory at its own time, so a question
    // sees what its day's store held.
    let mut said: Vec<(Millis, &Value)> = memories
        .iter()
        .map(|m| Ok((millis(m["said_at"].as_str().unwrap_or_default())?, m)))
        .collect::<Result<_, String>>()?;
    said.sort_by_key(|(t, _)| *t);
    let mut asked: Vec<(Millis, &Value)> = questions
        .iter()
        .map(|q| Ok((millis(q["as_of"].as_str().unwrap_or_default())?, q)))
        .collect::<Result<_, String>>()?;
    asked.sort_by_key(|(t, _)| *t);
    let clock = ManualClock::new(said.first().map_or(0, |(t, _)| *t));
    let mut engine = Engine::builder(clock.clone())
        .open_in_memory()
        .map_err(|e| e.to_string())?;
    let mut label_of = BTreeMap::new();
    let mut stored = 0;
    let mut scores: BTreeMap<String, Score> = BTreeMap::new();
    let mut missed = Vec::new();
    let mut wrong_first = Vec::new();
    let mut incomplete = Vec::new();
    for (as_of, q) in asked {
        clock.set(as_of);
        let due: Vec<&Value> = said[stored..]
            .iter()
            .take_while(|(t, _)| *t <= as_of)
            .map(|(_, m)| *m)
            .collect();
        stored += due.len();
        for m in due {
            let item = json!({
                "entity_id": owner,
                "content": m["content"],
                "created_at": millis(m["said_at"].as_str().unwrap_or_default())?,
                "session_id": m["session"],
            });
            let report = engine
                .call_json("seed", &json!({ "items": [item] }).to_string())
                .map_err(|e| e.to_string())?;
            let report: Value = serde_json::from_str(&report).map_err(|e| e.to_string())?;
            let outcome = &report["outcomes"][0];
            if outcome["action"] != "created" {
                return Err(format!(
                    "{} was not stored as its own memory: {outcome}",
                    m["label"]
                ));
            }
            label_of.insert(
                outcome["id"].as_str().unwrap_or_default().to_string(),
                m["label"].clone(),
            );
        }
        let args = json!({
            "entity_id": owner,
            "query": q["question"],
            "as_of": as_of,
            "limit": 10,
        });
        let hits = engine
            .call_json("search", &args.to_string())
            .map_err(|e| e.to_string())?;
        let hits: Vec<Value> = serde_json::from_str(&hits).map_err(|e| e.to_string())?;
        let found: Vec<&Value> = hits
            .iter()
            .filter_map(|h| label_of.get(h["memory"]["id"].as_str().unwrap_or_default()))
            .collect();
        let answers: Vec<&Value> = q["answers"]
            .as_array()
            .ok_or("no answers")?
            .iter()
            .collect();
        for category in [q["category"].as_str().unwrap_or("?"), "overall"] {
            let s = scores.entry(category.to_string()).or_default();
            s.questions += 1;
            for (i, k) in KS.iter().enumerate() {
                let top = &found[..found.len().min(*k)];
                s.hit[i] += usize::from(answers.iter().any(|a| top.contains(a)));
                s.all[i] += usize::from(answers.iter().all(|a| top.contains(a)));
            }
        }
        if !answers
            .iter()
            .any(|a| found[..found.len().min(5)].contains(a))
        {
            missed.push(json!({"question": q["question"], "as_of": q["as_of"], "answers": q["answers"], "top": &found[..found.len().min(5)]}));
        }
        if !answers.iter().any(|a| found.first() == Some(a)) {
            wrong_first.push(json!({"question": q["question"], "answers": q["answers"], "top": &found[..found.len().min(3)]}));
        }
        let top10 = &found[..found.len().min(10)];
        if answers.len() > 1 && !answers.iter().all(|a| top10.contains(a)) {
            incomplete.push(json!({"question": q["question"], "as_of": q["as_of"], "answers": q["answers"], "top": top10}));
        }
    }
    let rate = |n: usize, of: usize| (n as f64 / of.max(1) as f64 * 1000.0).round() / 1000.0;
    if args.json {
        let by: BTreeMap<&String, Value> = scores
            .iter()
            .map(|(c, s)| {
                (c, json!({
                    "questions": s.questions,
                    "hit@1": rate(s.hit[0], s.questions), "hit@5": rate(s.hit[1], s.questions), "hit@10": rate(s.hit[2], s.questions),
                    "all@5": rate(s.all[1], s.questions), "all@10": rate(s.all[2], s.questions),
                }))
            })
            .collect();
        return serde_json::to_string_pretty(
            &json!({"by_category": by, "missed_at_1": wrong_first, "missed_at_5": missed, "incomplete_at_10": incomplete}),
        )
        .map_err(|e| e.to_string());
    }
    let mut out = format!(
        "{:<10} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7}\n",
        "category", "questions", "hit@1", "hit@5", "hit@10", "all@5", "all@10"
    );
    for (c, s) in &scores {
        out += &format!(
            "{:<10} {:>9} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>7.3}\n",
            c,
            s.questions,
            rate(s.hit[0], s.questions),
            rate(s.hit[1], s.questions),
            rate(s.hit[2], s.questions),
            rate(s.all[1], s.questions),
            rate(s.all[2], s.questions),
        );
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("timeline: {e}");
            ExitCode::FAILURE
        }
    }
}
