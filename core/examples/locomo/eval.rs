//! LoCoMo retrieval evaluation (turn-level evidence recall), following the protocol in
//! `tests/data/locomo/README.md`: one memory per turn, one owner per conversation, the clock
//! set to each session's date while its turns are stored, each session's turns sharing a
//! `session_id`, `source_ref` = the turn's dia_id; each question (categories 1–4, with valid
//! evidence) searches its owner and scores recall@k = |evidence ∩ top-k| / |evidence|.
//! With `documents`, each session is ingested as one document instead (its turns its lines),
//! and a turn counts as found when a returned passage holds any of it.
//! Used by the `locomo` example and by the test that holds recall above the baselines.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use mnemo_core::document::{DocumentRef, IngestRequest};
use mnemo_core::{
    Config, Content, Engine, HashEmbedder, Id, Limit, ManualClock, Millis, NewMemory, Outcome,
    RankMode, RememberOptions, SearchRequest, SkipReason, SourceRef, SuppliedVectors, DAY_MS,
};
use serde_json::{json, Value};

/// The k of recall@k reported.
pub const KS: [usize; 3] = [1, 5, 10];

/// What to evaluate.
pub struct Options {
    pub locomo: PathBuf,
    /// Precomputed float16 vectors and their index; `None` uses the built-in embedder.
    pub vectors: Option<(PathBuf, PathBuf)>,
    pub mode: RankMode,
    /// Feed each turn through `remember` (the built-in extractor: one memory per statement,
    /// chit-chat dropped) instead of storing it verbatim with `seed`.
    pub remember: bool,
    /// The hashing embedder instead of the default (without vectors).
    pub hash: bool,
    /// `recall.link_weight`, when not the default.
    pub link_weight: Option<f64>,
    /// Consolidate before the questions.
    pub consolidate: bool,
    /// Ingest each session as one document (`ingest`) instead of a memory per turn.
    pub documents: bool,
}

/// Summed recall of a group of questions.
#[derive(Default, Clone)]
pub struct Tally {
    pub questions: usize,
    sums: [f64; 3],
}

impl Tally {
    /// Mean recall@1, @5, @10.
    pub fn recall(&self) -> [f64; 3] {
        self.sums.map(|s| s / self.questions.max(1) as f64)
    }
    fn add(&mut self, other: &Tally) {
        self.questions += other.questions;
        (0..3).for_each(|i| self.sums[i] += other.sums[i]);
    }
}

/// The outcome of one evaluation.
pub struct Report {
    pub embedder: String,
    pub mode: RankMode,
    pub memories: usize,
    pub merged: usize,
    pub skipped: usize,
    /// Turns (`--remember`) the extractor found nothing worth storing in.
    pub insignificant: usize,
    /// `seed` (turns verbatim), `remember` (through the extractor) or `ingest` (sessions as
    /// documents).
    pub ingest: &'static str,
    pub seconds: f64,
    pub categories: BTreeMap<u64, Tally>,
    pub overall: Tally,
    /// Each question not wholly answered in the top 10: the question, its evidence turns and
    /// the turns returned, to read what recall missed.
    pub misses: Vec<Value>,
}

impl Report {
    /// The report as one JSON document.
    pub fn to_json(&self) -> Value {
        let recall = |t: &Tally| {
            KS.iter()
                .zip(t.recall())
                .map(|(k, r)| (format!("r@{k}"), r))
                .collect::<BTreeMap<_, _>>()
        };
        let cats: BTreeMap<String, Value> = self
            .categories
            .iter()
            .map(|(c, t)| {
                (
                    c.to_string(),
                    json!({"questions": t.questions, "recall": recall(t)}),
                )
            })
            .collect();
        json!({
            "embedder": self.embedder, "mode": self.mode.as_str(), "ingest": self.ingest,
            "memories": self.memories, "merged": self.merged, "skipped": self.skipped,
            "not_significant": self.insignificant, "seconds": self.seconds,
            "overall": {"questions": self.overall.questions, "recall": recall(&self.overall)}, "categories": cats,
        })
    }

    /// The report as a table.
    pub fn table(&self) -> String {
        let mut out = format!(
            "LoCoMo evidence recall — embedder {}, mode {}, turns stored by {}\n",
            self.embedder, self.mode, self.ingest
        );
        out += &format!(
            "memories stored {}, merged {}, skipped {} (of them not significant {}); {:.1} s\n",
            self.memories, self.merged, self.skipped, self.insignificant, self.seconds
        );
        out += &format!(
            "{:<22} {:>9} {:>7} {:>7} {:>7}\n",
            "category", "questions", "R@1", "R@5", "R@10"
        );
        let names = [
            "",
            "1 multi-hop",
            "2 temporal",
            "3 open-domain",
            "4 single-hop",
        ];
        let rows = self
            .categories
            .iter()
            .map(|(c, t)| (names.get(*c as usize).copied().unwrap_or("?"), t));
        for (name, t) in rows.chain([("overall (1-4)", &self.overall)]) {
            let [r1, r5, r10] = t.recall();
            out += &format!(
                "{name:<22} {:>9} {r1:>7.3} {r5:>7.3} {r10:>7.3}\n",
                t.questions
            );
        }
        out
    }
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// IEEE half → f32.
pub fn f16_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((bits >> 10) & 0x1f) as i32;
    let frac = (bits & 0x3ff) as f32;
    sign * match exp {
        0 => frac * 2f32.powi(-24),
        31 => f32::INFINITY,
        e => (1.0 + frac / 1024.0) * 2f32.powi(e - 15),
    }
}

/// Vectors by row id ("conv-26:D1:3", "conv-26:q0").
pub fn load_vectors(
    vectors: &Path,
    index: &Path,
) -> Result<(HashMap<String, Vec<f32>>, usize), String> {
    let idx = read_json(index)?;
    let dim = idx["dim"].as_u64().ok_or("index has no dim")? as usize;
    let bytes = std::fs::read(vectors).map_err(|e| format!("{}: {e}", vectors.display()))?;
    let mut out = HashMap::new();
    for row in idx["rows"].as_array().ok_or("index has no rows")? {
        let r = row["row"].as_u64().ok_or("row without number")? as usize;
        let id = row["id"].as_str().ok_or("row without id")?.to_string();
        let start = r * dim * 2;
        let chunk = bytes
            .get(start..start + dim * 2)
            .ok_or_else(|| format!("vectors file too short for row {r}"))?;
        out.insert(
            id,
            chunk
                .chunks_exact(2)
                .map(|b| f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
                .collect(),
        );
    }
    Ok((out, dim))
}

/// "1:56 pm on 8 May, 2023" → Unix milliseconds (UTC).
fn parse_session_time(s: &str) -> Option<Millis> {
    let (time, date) = s.split_once(" on ")?;
    let (hm, ampm) = time.trim().split_once(' ')?;
    let (h, m) = hm.split_once(':')?;
    let (mut h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    match ampm.to_ascii_lowercase().as_str() {
        "pm" if h != 12 => h += 12,
        "am" if h == 12 => h = 0,
        _ => {}
    }
    let parts: Vec<&str> = date.split([' ', ',']).filter(|p| !p.is_empty()).collect();
    let day: i64 = parts.first()?.parse().ok()?;
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let name = parts.get(1)?.to_ascii_lowercase();
    let month = MONTHS.iter().position(|m| *m == name)? as i64 + 1;
    let year: i64 = parts.get(2)?.parse().ok()?;
    Some(days_from_civil(year, month, day) * DAY_MS + (h * 60 + m) * 60_000)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Evidence ids cleaned as the dataset README says: "D8:6; D9:17" → two, "D:11:26" → "D11:26",
/// "D30:05" → "D30:5"; ids naming no turn are dropped.
fn clean_evidence(raw: &[Value], turns: &HashSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for e in raw.iter().filter_map(|e| e.as_str()) {
        for part in e.split(';') {
            let p = part.trim().replace("D:", "D");
            let Some((s, t)) = p.trim_start_matches('D').split_once(':') else {
                continue;
            };
            let (Ok(s), Ok(t)) = (s.parse::<u32>(), t.parse::<u32>()) else {
                continue;
            };
            let id = format!("D{s}:{t}");
            if turns.contains(&id) && !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

/// Runs the evaluation.
pub fn evaluate(opts: &Options) -> Result<Report, String> {
    let mode = opts.mode;
    let data = read_json(&opts.locomo)?;
    let vectors = match &opts.vectors {
        Some((v, i)) => Some(load_vectors(v, i)?),
        None => None,
    };
    let clock = ManualClock::new(0);
    let mut config = Config::default();
    if let Some(w) = opts.link_weight {
        config.recall.link_weight = w;
    }
    let builder = Engine::builder(clock.clone()).config(config);
    let mut engine = match &vectors {
        Some((_, dim)) => builder
            .embedder(SuppliedVectors::new("all-MiniLM-L6-v2", *dim))
            .open_in_memory(),
        None if opts.hash => builder.embedder(HashEmbedder::default()).open_in_memory(),
        None => builder.open_in_memory(),
    }
    .map_err(|e| e.to_string())?;
    let embedder = match vectors {
        Some(_) => "all-MiniLM-L6-v2 (supplied)".to_string(),
        None => format!("{} (built-in)", engine.embedding_model().0),
    };

    let mut by_category: BTreeMap<u64, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let (mut stored, mut skipped, mut merged) = (0usize, 0usize, 0usize);
    let mut insignificant = 0usize;
    let started = std::time::Instant::now();
    for conv in data.as_array().ok_or("LoCoMo file is not a list")? {
        let owner = conv["sample_id"]
            .as_str()
            .ok_or("conversation without sample_id")?;
        let owner_id = Id::owner(owner).map_err(|e| e.to_string())?;
        let c = &conv["conversation"];
        let mut sessions: Vec<(u32, &Vec<Value>, Millis)> = Vec::new();
        for (k, v) in c.as_object().ok_or("conversation is not an object")? {
            let Some(n) = k
                .strip_prefix("session_")
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let Some(turns) = v.as_array() else { continue };
            let when = c[format!("session_{n}_date_time")]
                .as_str()
                .and_then(parse_session_time)
                .ok_or_else(|| format!("{owner} session {n}: no date"))?;
            sessions.push((n, turns, when));
        }
        sessions.sort_by_key(|s| s.0);
        // Memory id → dia_ids it holds (a merge joins two turns into one memory).
        let mut refs: HashMap<String, Vec<String>> = HashMap::new();
        let mut turn_ids = HashSet::new();
        // dia_id → the turn's text, for the misses.
        let mut said: HashMap<String, String> = HashMap::new();
        let mut last = 0;
        for (session, turns, when) in &sessions {
            clock.set(*when);
            last = last.max(*when);
            let mut batch = Vec::new();
            let mut dia = Vec::new();
            for t in turns.iter() {
                let (Some(speaker), Some(text), Some(dia_id)) = (
                    t["speaker"].as_str(),
                    t["text"].as_str(),
                    t["dia_id"].as_str(),
                ) else {
                    continue;
                };
                let mut content = format!("{speaker}: {text}");
                if let Some(caption) = t["blip_caption"].as_str() {
                    content.push_str(&format!(" [shares {caption}]"));
                }
                let vector = match &vectors {
                    Some((v, _)) => Some(
                        v.get(&format!("{owner}:{dia_id}"))
                            .ok_or_else(|| format!("no vector for {owner}:{dia_id}"))?
                            .clone(),
                    ),
                    None => None,
                };
                turn_ids.insert(dia_id.to_string());
                said.insert(dia_id.to_string(), content.clone());
                dia.push(dia_id.to_string());
                let content = Content::parse("content", &content).map_err(|e| e.to_string())?;
                let session_id = Id::parse("session_id", &format!("session-{session}"))
                    .map_err(|e| e.to_string())?;
                batch.push(NewMemory {
                    source_ref: Some(SourceRef::parse(dia_id).map_err(|e| e.to_string())?),
                    session_id: Some(session_id),
                    vector,
                    ..NewMemory::of(owner_id.clone(), content)
                });
            }
            if opts.documents {
                // The session as one document, each turn a line; where each turn lies.
                let mut text = String::new();
                let mut spans = Vec::new();
                let mut at = 0;
                for (item, d) in batch.iter().zip(&dia) {
                    let end = at + item.content.chars().count();
                    spans.push((at, end, d.clone()));
                    text.push_str(&item.content);
                    text.push('\n');
                    at = end + 1;
                }
                let req: IngestRequest = serde_json::from_value(json!({
                    "entity_id": owner, "title": format!("Session {session}"), "content": text,
                    "source": "chat", "format": "text",
                }))
                .map_err(|e| e.to_string())?;
                let doc = engine.ingest(req).map_err(|e| e.to_string())?.document;
                let detail = engine
                    .document(&DocumentRef {
                        entity_id: owner_id.clone(),
                        id: Id::parse("id", &doc.id).map_err(|e| e.to_string())?,
                        agent_id: None,
                    })
                    .map_err(|e| e.to_string())?;
                for p in detail.passages {
                    let held = spans
                        .iter()
                        .filter(|(s, e, _)| *s < p.end && p.start < *e)
                        .map(|(_, _, d)| d.clone());
                    refs.entry(p.memory_id).or_default().extend(held);
                }
                stored += doc.passages;
                continue;
            }
            // Each outcome with the turn it came from.
            let outcomes: Vec<(Outcome, String)> = if opts.remember {
                let mut out = Vec::new();
                for (item, d) in batch.into_iter().zip(dia) {
                    let options = RememberOptions {
                        session_id: item.session_id,
                        source_ref: item.source_ref,
                        ..Default::default()
                    };
                    let report = engine
                        .remember(owner, &item.content, options)
                        .map_err(|e| e.to_string())?;
                    out.extend(report.outcomes.into_iter().map(|o| (o, d.clone())));
                }
                out
            } else {
                let report = engine.seed(batch).map_err(|e| e.to_string())?;
                report.outcomes.into_iter().zip(dia).collect()
            };
            for (o, d) in &outcomes {
                let d = d.clone();
                match o {
                    Outcome::Created { id } | Outcome::Conflict { id: Some(id), .. } => {
                        stored += 1;
                        refs.entry(id.clone()).or_default().push(d);
                    }
                    Outcome::Conflict {
                        id: None, existing, ..
                    } => {
                        skipped += 1;
                        refs.entry(existing.clone()).or_default().push(d);
                    }
                    Outcome::Merged { id, absorbed, .. } => {
                        merged += 1;
                        let mut r = refs.remove(absorbed).unwrap_or_default();
                        r.push(d);
                        refs.insert(id.clone(), r);
                    }
                    Outcome::Skipped {
                        existing, reason, ..
                    } => {
                        skipped += 1;
                        if *reason == SkipReason::NotSignificant {
                            insignificant += 1;
                        }
                        if let Some(e) = existing {
                            refs.entry(e.clone()).or_default().push(d);
                        }
                    }
                }
            }
        }
        // Questions are asked a day after the last session.
        clock.set(last + DAY_MS);
        if opts.consolidate {
            while engine
                .consolidate()
                .map_err(|e| e.to_string())?
                .consolidation
                .is_some_and(|c| c.more)
            {}
        }
        for (qi, qa) in conv["qa"]
            .as_array()
            .ok_or("conversation without qa")?
            .iter()
            .enumerate()
        {
            let category = qa["category"].as_u64().unwrap_or(0);
            if !(1..=4).contains(&category) {
                continue;
            }
            let evidence = clean_evidence(
                qa["evidence"].as_array().map(Vec::as_slice).unwrap_or(&[]),
                &turn_ids,
            );
            if evidence.is_empty() {
                continue;
            }
            let question = qa["question"].as_str().ok_or("question without text")?;
            let vector = match &vectors {
                Some((v, _)) => Some(
                    v.get(&format!("{owner}:q{qi}"))
                        .ok_or_else(|| format!("no vector for {owner}:q{qi}"))?
                        .clone(),
                ),
                None => None,
            };
            let req = SearchRequest {
                vector,
                limit: Some(Limit::new(10).map_err(|e| e.to_string())?),
                mode,
                ..SearchRequest::new(owner_id.clone(), question)
            };
            let hits = engine.search(&req).map_err(|e| e.to_string())?;
            // What the search recorded (accesses, co-recalls) is written, as an agent's next
            // write would.
            engine.flush().map_err(|e| e.to_string())?;
            let tally = by_category.entry(category).or_default();
            tally.questions += 1;
            for (slot, k) in KS.iter().enumerate() {
                let found: HashSet<&String> = hits
                    .iter()
                    .take(*k)
                    .flat_map(|h| refs.get(&h.memory.id).into_iter().flatten())
                    .collect();
                let hit = evidence.iter().filter(|e| found.contains(e)).count();
                tally.sums[slot] += hit as f64 / evidence.len() as f64;
                if *k == 10 && hit < evidence.len() {
                    let turn = |d: &String| json!({"turn": d, "text": said.get(d)});
                    misses.push(json!({
                        "conversation": owner, "category": category, "question": question,
                        "evidence": evidence.iter().map(|d| json!({
                            "turn": d, "text": said.get(d), "found": found.contains(d),
                        })).collect::<Vec<_>>(),
                        "top": hits.iter().map(|h| json!({
                            "turns": refs.get(&h.memory.id).map(|r| r.iter().map(turn).collect::<Vec<_>>()),
                            "score": h.score,
                        })).collect::<Vec<_>>(),
                    }));
                }
            }
        }
    }
    let mut overall = Tally::default();
    by_category.values().for_each(|t| overall.add(t));
    Ok(Report {
        embedder,
        mode,
        memories: stored,
        merged,
        skipped,
        insignificant,
        ingest: match (opts.remember, opts.documents) {
            (true, _) => "remember",
            (_, true) => "ingest",
            _ => "seed",
        },
        seconds: started.elapsed().as_secs_f64(),
        categories: by_category,
        overall,
        misses,
    })
}
