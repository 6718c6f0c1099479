//! Are a document's summaries better than its first sentences? Every LoCoMo session (a
//! conversation's day, its turns its lines) is ingested as a document; each question is then
//! matched against the summaries of its conversation's sessions (cosine of the built-in
//! embedder's vectors), and scores whether the session holding its evidence comes first
//! (R@1) and how high (MRR). The same questions are matched against summaries of the same
//! length made of each session's first sentences, side by side.
//!
//! `cargo run --release -p mnemo-core --example summaries_eval -- tests/data/locomo/locomo-dev.json`

use std::collections::HashMap;

use mnemo_core::document::summary;
use mnemo_core::document::IngestRequest;
use mnemo_core::{EmbedRequest, Engine, ManualClock};
use serde_json::{json, Value};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Res<()> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: summaries_eval <locomo.json>")?;
    let locomo: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let e = Engine::builder(ManualClock::new(1_700_000_000_000)).open_in_memory()?;
    let embed = |texts: Vec<String>| -> Res<Vec<Vec<f32>>> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(500) {
            out.extend(
                e.embed(&EmbedRequest {
                    texts: chunk.to_vec(),
                })?
                .vectors,
            );
        }
        Ok(out)
    };
    let mut ingest_engine =
        Engine::builder(ManualClock::new(1_700_000_000_000)).open_in_memory()?;
    // [method][0: R@1 sum, 1: reciprocal rank sum]
    let mut scores: HashMap<&str, [f64; 2]> = HashMap::new();
    let (mut questions, mut sessions_seen) = (0usize, 0usize);
    for conv in locomo.as_array().ok_or("LoCoMo is a list")? {
        let owner = conv["sample_id"].as_str().ok_or("no sample_id")?;
        let c = &conv["conversation"];
        // Each session's text, its summary, and a first-sentences summary of the same length.
        let mut where_turn: HashMap<String, usize> = HashMap::new();
        let (mut ours, mut firsts) = (Vec::new(), Vec::new());
        for n in 1.. {
            let Some(turns) = c[format!("session_{n}")].as_array() else {
                break;
            };
            let mut lines = Vec::new();
            for t in turns {
                let (Some(who), Some(text), Some(id)) = (
                    t["speaker"].as_str(),
                    t["text"].as_str(),
                    t["dia_id"].as_str(),
                ) else {
                    continue;
                };
                where_turn.insert(id.to_string(), ours.len());
                lines.push(format!("{who}: {text}"));
            }
            let text = lines.join("\n");
            let req: IngestRequest = serde_json::from_value(json!({
                "entity_id": owner, "title": format!("Session {n}"), "content": text,
                "format": "text", "source": "chat",
            }))?;
            let doc = ingest_engine.ingest(req)?.document;
            let sentences = summary::sentences(&text);
            let taken = summary::sentences(&doc.summary).len().max(1);
            firsts.push(
                sentences
                    .iter()
                    .take(taken)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            ours.push(doc.summary);
            sessions_seen += 1;
        }
        let ours_v = embed(ours)?;
        let firsts_v = embed(firsts)?;
        for qa in conv["qa"].as_array().into_iter().flatten() {
            let category = qa["category"].as_u64().unwrap_or(0);
            let session = qa["evidence"]
                .as_array()
                .and_then(|ev| ev.first())
                .and_then(Value::as_str)
                .and_then(|id| where_turn.get(id));
            let (Some(&session), Some(q), true) = (
                session,
                qa["question"].as_str(),
                (1..=4).contains(&category),
            ) else {
                continue;
            };
            let qv = embed(vec![q.to_string()])?.remove(0);
            questions += 1;
            for (name, vs) in [("centroid", &ours_v), ("first sentences", &firsts_v)] {
                let target = dot(&qv, &vs[session]);
                let rank = 1 + vs.iter().filter(|v| dot(&qv, v) > target).count();
                let s = scores.entry(name).or_default();
                s[0] += f64::from(u8::from(rank == 1));
                s[1] += 1.0 / rank as f64;
            }
        }
    }
    let table: Value = scores
        .iter()
        .map(|(name, [r1, rr])| {
            (
                name.to_string(),
                json!({"r@1": r1 / questions as f64, "mrr": rr / questions as f64}),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into();
    println!(
        "{}",
        serde_json::to_string_pretty(&json!({
            "sessions": sessions_seen, "questions": questions, "session_found_by_summary": table,
        }))?
    );
    Ok(())
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
