//! What the CLI prints: one JSON document with `--json` (an export: one per line, JSONL), else
//! short text per kind of answer.
//! Answers arrive typed (`mnemo_core::Answer`), so every field read here is checked by the
//! compiler; a call without a text form of its own is printed as indented JSON.

use std::collections::BTreeMap;
use std::fmt::Write;

use anyhow::Result;
use mnemo_core::{Answer, Conflict, Memory, Outcome, Relationship, Schedule, WriteReport};
use serde_json::Value;

/// Most outcomes printed one per line.
const MAX_LISTED_OUTCOMES: usize = 20;

/// Prints the answers of a command's calls (several only for batched seeds and imports,
/// which are merged into one report).
pub fn print(answers: Vec<Answer>, as_json: bool) -> Result<()> {
    // Documents are reported one by one, each file's own.
    if answers.len() > 1 && answers.iter().all(|a| matches!(a, Answer::Ingest(_))) {
        if as_json {
            println!("{}", serde_json::to_value(&answers)?);
        } else {
            for a in &answers {
                print!("{}", human(a)?);
            }
        }
        return Ok(());
    }
    let Some(answer) = merge(answers) else {
        return Ok(());
    };
    if let (true, Answer::Export(jsonl)) = (as_json, &answer) {
        // JSON already: one object per line, the file `import` reads.
        print!("{jsonl}");
    } else if as_json {
        println!("{}", serde_json::to_value(&answer)?);
    } else {
        print!("{}", human(&answer)?);
    }
    Ok(())
}

/// One report from the reports of a batched command.
fn merge(answers: Vec<Answer>) -> Option<Answer> {
    let mut all = answers.into_iter();
    let first = all.next()?;
    Some(all.fold(first, |acc, next| match (acc, next) {
        (Answer::Seed(mut a), Answer::Seed(b)) => {
            a.outcomes.extend(b.outcomes);
            Answer::Seed(a)
        }
        (Answer::Import(mut a), Answer::Import(b)) => {
            a.restored += b.restored;
            a.already_present += b.already_present;
            a.written.outcomes.extend(b.written.outcomes);
            Answer::Import(a)
        }
        (acc, _) => acc,
    }))
}

/// The calls the engine declares, one per line with what each does (`mnemo call --list`).
pub fn calls(calls: &[Value], as_json: bool) {
    if as_json {
        let methods: Vec<Value> = calls.iter().map(|c| c["method"].clone()).collect();
        println!("{}", Value::from(methods));
        return;
    }
    for c in calls {
        let summary = c["summary"].as_str().unwrap_or("");
        println!("{:<18} {summary}", c["method"].as_str().unwrap_or_default());
    }
}

fn outcome(o: &Outcome) -> String {
    match o {
        Outcome::Conflict {
            id,
            existing,
            kind,
            mode,
            conflict,
        } => format!(
            "conflict {conflict} ({}) with {existing}: {}{}",
            kind.as_str().replace('_', " "),
            mode.as_str().replace('_', " "),
            id.as_ref()
                .map_or(String::new(), |id| format!(", stored {id}"))
        ),
        Outcome::Created { id } => format!("created {id}"),
        Outcome::Merged {
            id,
            absorbed,
            similarity,
        } => format!("merged into {id} (absorbed {absorbed}, similarity {similarity:.2})"),
        Outcome::Skipped {
            reason, existing, ..
        } => {
            let reason = reason_text(reason);
            match existing {
                Some(id) => format!("skipped: {reason} of {id}"),
                None => format!("skipped: {reason}"),
            }
        }
    }
}

fn reason_text(reason: &mnemo_core::SkipReason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
        .unwrap_or_default()
}

/// Outcomes one per line, or counted when there are many.
fn outcomes(list: &[Outcome]) -> String {
    if list.len() <= MAX_LISTED_OUTCOMES {
        return list.iter().map(|o| outcome(o) + "\n").collect();
    }
    let mut counts = BTreeMap::new();
    for o in list {
        let key = match o {
            Outcome::Skipped { reason, .. } => format!("skipped ({})", reason_text(reason)),
            Outcome::Created { .. } => "created".to_string(),
            Outcome::Merged { .. } => "merged".to_string(),
            Outcome::Conflict { .. } => "conflict".to_string(),
        };
        *counts.entry(key).or_insert(0usize) += 1;
    }
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    format!("{} inputs — {}\n", list.len(), parts.join(", "))
}

fn memory_line(m: &Memory) -> String {
    format!(
        "{}  {:<12} {:<8} imp {:.2}  {}",
        m.id,
        m.memory_type.as_str(),
        m.state.as_str(),
        m.importance,
        m.content
    )
}

fn memory_block(m: &Memory) -> String {
    format!(
        "{}\n  status {} · layer {} · tier {} · accesses {} · feedback {} · pinned {}\n",
        memory_line(m),
        m.status,
        m.layer,
        m.tier,
        m.access_count,
        m.feedback,
        m.pinned
    )
}

fn relationship_line(r: &Relationship) -> String {
    format!(
        "{} {} {} · strength {:.2} · evidence {}{}\n",
        r.from,
        r.relation,
        r.to,
        r.strength,
        r.evidence,
        if r.inferred { " (inferred)" } else { "" }
    )
}

fn conflicts(list: &[Conflict]) -> String {
    let mut out = String::new();
    for c in list {
        let _ = write!(
            out,
            "{} {} · {} ({})\n    was: {}\n    now: {}\n",
            c.id,
            c.status,
            c.kind.as_str().replace('_', " "),
            c.resolution
                .map_or(c.mode.as_str(), |r| r.as_str())
                .replace('_', " "),
            c.existing_content,
            c.content
        );
    }
    if out.is_empty() {
        out += "no conflicts\n";
    }
    out
}

fn schedules(list: &[Schedule], nothing: &str) -> String {
    let mut out = String::new();
    for s in list {
        let _ = writeln!(
            out,
            "{} {} [{}] next {} · missed {}  {}",
            s.id,
            s.status,
            s.cron_tag,
            s.next_due_at.map_or("-".to_string(), |t| t.to_string()),
            s.missed,
            s.content
        );
    }
    if out.is_empty() {
        out += nothing;
    }
    out
}

fn write_report(r: &WriteReport) -> String {
    outcomes(&r.outcomes)
}

fn heartbeat(r: &mnemo_core::HeartbeatReport) -> String {
    let mut out = format!(
        "{} — {} ({}, {} autonomy, {})\n",
        if r.should_act {
            "speak up"
        } else {
            "stay quiet"
        },
        r.decision_reason.as_str().replace('_', " "),
        r.urgency_tier.map_or("no urgency", |t| t.as_str()),
        r.autonomy.as_str(),
        r.time_period.as_str().replace('_', " "),
    );
    for sig in &r.signals {
        let _ = writeln!(
            out,
            "  {} {} ({}): {}",
            if sig.surfaced { "*" } else { " " },
            sig.kind.as_str().replace('_', " "),
            sig.tier,
            sig.summary,
        );
    }
    if let Some(id) = &r.act_id {
        let _ = writeln!(out, "recorded {id}");
    }
    let _ = writeln!(out, "next check in {} min", r.next_tick_ms / 60_000);
    if r.should_act {
        out += &r.summary;
    }
    out
}

fn human(answer: &Answer) -> Result<String> {
    if let Some(m) = answer.memory() {
        return Ok(memory_block(m));
    }
    let mut out = String::new();
    match answer {
        Answer::Seed(r) | Answer::Remember(r) => out += &write_report(r),
        Answer::Extract(found) => {
            for x in found {
                let _ = writeln!(
                    out,
                    "{} {} · importance {:.2} · confidence {:.2}{} · sentiment {:.2}  {}",
                    x.memory_type,
                    x.kind,
                    x.importance,
                    x.confidence,
                    if x.hedged { " (hedged)" } else { "" },
                    x.sentiment,
                    x.content
                );
                if let Some(t) = x.expires_at {
                    let _ = writeln!(out, "    expires at {t} ms");
                }
                for e in &x.entities {
                    let _ = writeln!(out, "    entity {} ({})", e.name, e.entity_type);
                }
                for r in &x.relationships {
                    let _ = writeln!(out, "    {} {} {}", r.from, r.relation, r.to);
                }
            }
            if out.is_empty() {
                out += "nothing worth remembering\n";
            }
        }
        Answer::Import(r) => {
            let _ = writeln!(
                out,
                "restored {}, already present {}",
                r.restored, r.already_present
            );
            out += &write_report(&r.written);
        }
        Answer::Search(hits) => {
            for (i, h) in hits.iter().enumerate() {
                let w = &h.why;
                let _ = writeln!(
                    out,
                    "{:>2}. {:.2}  {}",
                    i + 1,
                    h.score,
                    memory_line(&h.memory)
                );
                // Relevance itself (what `--min-score` compares), what it is made of, and how
                // it stands against this query's best match.
                let lent = if w.context >= 0.005 {
                    format!(", lent by its conversation {:.2}", w.context)
                } else {
                    String::new()
                };
                // Where it stands in the span of time the query named, and whether naming a time
                // counted for a question asking when.
                let mut time = match &w.period {
                    Some(p) if p.inside => " · said in the span asked about".to_string(),
                    Some(p) if p.tells => " · said later of the span asked about".to_string(),
                    Some(_) => " · said outside the span asked about".to_string(),
                    None => String::new(),
                };
                if w.when_multiplier != 1.0 {
                    let _ = write!(time, " · names a time (×{})", w.when_multiplier);
                }
                // Found through the knowledge graph: who the relation the query named is.
                if let Some(hop) = &w.hop {
                    let _ = write!(time, " · {} is {}", hop.phrase, hop.entity);
                }
                // Said in the same message as a hit above it: placed after other messages'.
                if let Some(first) = &w.gave_way_to {
                    let _ = write!(time, " · said with {first}, after other messages");
                }
                let _ = writeln!(
                    out,
                    "    relevance {:.2} (text {:.2}, vector {:.2}{lent}; {:.0} % of the best) · recency {:.2} · retention {:.2} · importance {:.2}{time}",
                    w.relevance,
                    w.text,
                    w.vector,
                    w.semantic * 100.0,
                    w.recency,
                    w.retention,
                    w.importance
                );
            }
            if out.is_empty() {
                out += "no memories matched\n";
            }
        }
        Answer::Conflicts(list) => out += &conflicts(list),
        Answer::ResolveConflict(c) => out += &conflicts(std::slice::from_ref(c)),
        Answer::Schedules(list) => out += &schedules(list, "no schedules\n"),
        Answer::Scheduled(list) => out += &schedules(list, "nothing due\n"),
        Answer::ScheduleCreate(s)
        | Answer::ScheduleAck(s)
        | Answer::ScheduleUpdate(s)
        | Answer::ScheduleCancel(s) => out += &schedules(std::slice::from_ref(s), ""),
        Answer::HeartbeatCheck(r) => out += &heartbeat(r),
        Answer::HeartbeatContext(c) => out += &heartbeat(&c.report),
        Answer::RecordMessage(m) => {
            let _ = writeln!(out, "recorded {} ({})", m.id, m.role);
        }
        Answer::Entities(list) => {
            for e in list {
                let _ = writeln!(
                    out,
                    "{} ({}) · {} mentions{}",
                    e.name,
                    e.entity_type,
                    e.mentions,
                    if e.aliases.is_empty() {
                        String::new()
                    } else {
                        format!(" · also {}", e.aliases.join(", "))
                    }
                );
            }
            if out.is_empty() {
                out += "no entities\n";
            }
        }
        Answer::Relationships(list) => {
            for r in list {
                out += &relationship_line(r);
            }
            if out.is_empty() {
                out += "no relationships\n";
            }
        }
        Answer::Traverse(t) => {
            for n in &t.nodes {
                let _ = writeln!(
                    out,
                    "{}{} ({})",
                    "  ".repeat(n.depth),
                    n.name,
                    n.entity_type
                );
            }
        }
        Answer::Bridges(list) => {
            for b in list {
                let _ = writeln!(
                    out,
                    "{} — {} · {} · {} contexts{}",
                    b.a,
                    b.b,
                    b.status,
                    b.contexts,
                    b.relation
                        .as_ref()
                        .map(|r| format!(" · {r}"))
                        .unwrap_or_default()
                );
                for m in &b.evidence {
                    let _ = writeln!(out, "  {}  {}", m.id, m.content);
                }
            }
            if out.is_empty() {
                out += "no bridges\n";
            }
        }
        Answer::Card(c) => {
            let _ = writeln!(out, "{}", c.summary);
            let _ = writeln!(
                out,
                "{} memories · first {} · last {} (ms)",
                c.memories, c.first_seen, c.last_seen
            );
            for f in &c.facts {
                let _ = writeln!(out, "  {:.2}  {}  {}", f.importance, f.id, f.content);
            }
            for r in &c.relationships {
                out += "  ";
                out += &relationship_line(r);
            }
        }
        Answer::Path(p) => {
            for r in &p.hops {
                out += &relationship_line(r);
            }
            if !p.found {
                out += "no path within reach\n";
            }
        }
        Answer::List(page) => {
            let _ = writeln!(out, "{} memories", page.total);
            for m in &page.memories {
                let _ = writeln!(out, "{}", memory_line(m));
            }
        }
        Answer::Export(jsonl) => out += jsonl,
        other => {
            // As the engine's JSON: keys in sorted order.
            let value = serde_json::to_value(other)?;
            let _ = writeln!(out, "{}", serde_json::to_string_pretty(&value)?);
        }
    }
    Ok(out)
}
