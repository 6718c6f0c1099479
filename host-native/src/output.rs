//! What the CLI prints: one JSON document with `--json`, else short text per kind of result.

use serde_json::{json, Value};

/// Prints the results of a command's calls (several only for batched seeds and imports,
/// which are merged into one report).
pub fn print(results: &[(&String, Value)], as_json: bool) {
    let Some((method, _)) = results.first() else {
        return;
    };
    let value = merge(method, results.iter().map(|(_, v)| v));
    if as_json {
        println!("{value}");
    } else {
        print!("{}", human(method, &value));
    }
}

/// One report from the reports of a batched command.
fn merge<'a>(method: &str, mut values: impl Iterator<Item = &'a Value>) -> Value {
    let first = values.next().cloned().unwrap_or(Value::Null);
    values.fold(first, |mut acc, v| {
        match method {
            "seed" | "remember" => extend(&mut acc["outcomes"], &v["outcomes"]),
            "import" => {
                for k in ["restored", "already_present"] {
                    acc[k] = json!(acc[k].as_u64().unwrap_or(0) + v[k].as_u64().unwrap_or(0));
                }
                extend(&mut acc["written"]["outcomes"], &v["written"]["outcomes"]);
            }
            _ => {}
        }
        acc
    })
}

fn extend(into: &mut Value, more: &Value) {
    if let (Some(a), Some(b)) = (into.as_array_mut(), more.as_array()) {
        a.extend(b.iter().cloned());
    }
}

fn num(v: &Value) -> String {
    v.as_f64().map_or_else(|| "-".into(), |x| format!("{x:.2}"))
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn outcome(o: &Value) -> String {
    match s(&o["action"]) {
        "conflict" => format!(
            "conflict {} ({}) with {}: {}{}",
            s(&o["conflict"]),
            s(&o["kind"]).replace('_', " "),
            s(&o["existing"]),
            s(&o["mode"]).replace('_', " "),
            o["id"]
                .as_str()
                .map_or(String::new(), |id| format!(", stored {id}"))
        ),
        "created" => format!("created {}", s(&o["id"])),
        "merged" => format!(
            "merged into {} (absorbed {}, similarity {})",
            s(&o["id"]),
            s(&o["absorbed"]),
            num(&o["similarity"])
        ),
        _ => match o["existing"].as_str() {
            Some(id) => format!("skipped: {} of {id}", s(&o["reason"]).replace('_', " ")),
            None => format!("skipped: {}", s(&o["reason"]).replace('_', " ")),
        },
    }
}

/// Outcomes one per line, or counted when there are many.
fn outcomes(list: &Value) -> String {
    let list = list.as_array().map(Vec::as_slice).unwrap_or_default();
    if list.len() <= MAX_LISTED_OUTCOMES {
        return list.iter().map(|o| outcome(o) + "\n").collect();
    }
    let mut counts = std::collections::BTreeMap::new();
    for o in list {
        let key = match (s(&o["action"]), o["reason"].as_str()) {
            ("skipped", Some(reason)) => format!("skipped ({})", reason.replace('_', " ")),
            (action, _) => action.to_string(),
        };
        *counts.entry(key).or_insert(0usize) += 1;
    }
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    format!("{} inputs — {}\n", list.len(), parts.join(", "))
}

/// Most outcomes printed one per line.
const MAX_LISTED_OUTCOMES: usize = 20;

fn memory_line(m: &Value) -> String {
    format!(
        "{}  {:<12} {:<8} imp {}  {}",
        s(&m["id"]),
        s(&m["type"]),
        s(&m["state"]),
        num(&m["importance"]),
        s(&m["content"])
    )
}

fn relationship_line(r: &Value) -> String {
    format!(
        "{} {} {} · strength {} · evidence {}{}\n",
        s(&r["from"]),
        s(&r["relation"]),
        s(&r["to"]),
        num(&r["strength"]),
        r["evidence"],
        if r["inferred"] == json!(true) {
            " (inferred)"
        } else {
            ""
        }
    )
}

fn human(method: &str, v: &Value) -> String {
    let mut out = String::new();
    match method {
        "seed" | "remember" => out += &outcomes(&v["outcomes"]),
        "extract" => {
            for x in v.as_array().into_iter().flatten() {
                out += &format!(
                    "{} {} · importance {} · confidence {}{} · sentiment {}  {}\n",
                    s(&x["type"]),
                    s(&x["kind"]),
                    num(&x["importance"]),
                    num(&x["confidence"]),
                    if x["hedged"] == json!(true) {
                        " (hedged)"
                    } else {
                        ""
                    },
                    num(&x["sentiment"]),
                    s(&x["content"])
                );
                if let Some(t) = x["expires_at"].as_i64() {
                    out += &format!("    expires at {t} ms\n");
                }
                for e in x["entities"].as_array().into_iter().flatten() {
                    out += &format!("    entity {} ({})\n", s(&e["name"]), s(&e["type"]));
                }
                for r in x["relationships"].as_array().into_iter().flatten() {
                    out += &format!(
                        "    {} {} {}\n",
                        s(&r["from"]),
                        s(&r["relation"]),
                        s(&r["to"])
                    );
                }
            }
            if out.is_empty() {
                out += "nothing worth remembering\n";
            }
        }
        "import" => {
            out += &format!(
                "restored {}, already present {}\n",
                v["restored"], v["already_present"]
            );
            out += &outcomes(&v["written"]["outcomes"]);
        }
        "search" => {
            for (i, h) in v.as_array().into_iter().flatten().enumerate() {
                let w = &h["why"];
                out += &format!(
                    "{:>2}. {}  {}\n",
                    i + 1,
                    num(&h["score"]),
                    memory_line(&h["memory"])
                );
                out += &format!(
                    "    relevance {} (text {}, vector {}) · recency {} · retention {} · importance {}\n",
                    num(&w["semantic"]),
                    num(&w["text"]),
                    num(&w["vector"]),
                    num(&w["recency"]),
                    num(&w["retention"]),
                    num(&w["importance"])
                );
            }
            if out.is_empty() {
                out += "no memories matched\n";
            }
        }
        "conflicts" | "resolve_conflict" => {
            let one = [v.clone()];
            let list = if method == "conflicts" {
                v.as_array().map(Vec::as_slice).unwrap_or_default()
            } else {
                &one
            };
            for c in list {
                out += &format!(
                    "{} {} · {} ({})\n    was: {}\n    now: {}\n",
                    s(&c["id"]),
                    s(&c["status"]),
                    s(&c["kind"]).replace('_', " "),
                    c["resolution"]
                        .as_str()
                        .unwrap_or(s(&c["mode"]))
                        .replace('_', " "),
                    s(&c["existing_content"]),
                    s(&c["content"])
                );
            }
            if out.is_empty() {
                out += "no conflicts\n";
            }
        }
        "schedules" | "scheduled" | "schedule_create" | "schedule_ack" | "schedule_update"
        | "schedule_cancel" => {
            let one = [v.clone()];
            let list = v.as_array().map_or(&one[..], Vec::as_slice);
            for x in list {
                out += &format!(
                    "{} {} [{}] next {} · missed {}  {}\n",
                    s(&x["id"]),
                    s(&x["status"]),
                    s(&x["cron_tag"]),
                    x["next_due_at"]
                        .as_i64()
                        .map_or("-".to_string(), |t| t.to_string()),
                    x["missed"],
                    s(&x["content"])
                );
            }
            if out.is_empty() {
                out += if method == "scheduled" {
                    "nothing due\n"
                } else {
                    "no schedules\n"
                };
            }
        }
        "heartbeat_check" | "heartbeat_context" => {
            let r = if method == "heartbeat_context" {
                &v["report"]
            } else {
                v
            };
            out += &format!(
                "{} — {} ({}, {} autonomy, {})\n",
                if r["should_act"] == true {
                    "speak up"
                } else {
                    "stay quiet"
                },
                s(&r["decision_reason"]).replace('_', " "),
                r["urgency_tier"].as_str().unwrap_or("no urgency"),
                s(&r["autonomy"]),
                s(&r["time_period"]).replace('_', " "),
            );
            for sig in r["signals"].as_array().into_iter().flatten() {
                out += &format!(
                    "  {} {} ({}): {}\n",
                    if sig["surfaced"] == true { "*" } else { " " },
                    s(&sig["kind"]).replace('_', " "),
                    s(&sig["tier"]),
                    s(&sig["summary"]),
                );
            }
            if let Some(id) = r["act_id"].as_str() {
                out += &format!("recorded {id}\n");
            }
            out += &format!(
                "next check in {} min\n",
                r["next_tick_ms"].as_i64().unwrap_or(0) / 60_000
            );
            if r["should_act"] == true {
                out += s(&r["summary"]);
            }
        }
        "record_message" => out += &format!("recorded {} ({})\n", s(&v["id"]), s(&v["role"])),
        "entities" => {
            for e in v.as_array().into_iter().flatten() {
                let aliases: Vec<&str> = e["aliases"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(s)
                    .collect();
                out += &format!(
                    "{} ({}) · {} mentions{}\n",
                    s(&e["name"]),
                    s(&e["type"]),
                    e["mentions"],
                    if aliases.is_empty() {
                        String::new()
                    } else {
                        format!(" · also {}", aliases.join(", "))
                    }
                );
            }
            if out.is_empty() {
                out += "no entities\n";
            }
        }
        "relationships" => {
            for r in v.as_array().into_iter().flatten() {
                out += &relationship_line(r);
            }
            if out.is_empty() {
                out += "no relationships\n";
            }
        }
        "traverse" => {
            for n in v["nodes"].as_array().into_iter().flatten() {
                out += &format!(
                    "{}{} ({})\n",
                    "  ".repeat(n["depth"].as_u64().unwrap_or(0) as usize),
                    s(&n["name"]),
                    s(&n["type"])
                );
            }
        }
        "path" => {
            for r in v["hops"].as_array().into_iter().flatten() {
                out += &relationship_line(r);
            }
            if v["found"] != json!(true) {
                out += "no path within reach\n";
            }
        }
        "list" => {
            out += &format!("{} memories\n", v["total"]);
            for m in v["memories"].as_array().into_iter().flatten() {
                out += &format!("{}\n", memory_line(m));
            }
        }
        "export" => out += s(v),
        _ if v.get("content").is_some() && v.get("id").is_some() => {
            out += &format!("{}\n", memory_line(v));
            out += &format!(
                "  status {} · layer {} · tier {} · accesses {} · feedback {} · pinned {}\n",
                s(&v["status"]),
                s(&v["layer"]),
                s(&v["tier"]),
                v["access_count"],
                v["feedback"],
                v["pinned"]
            );
        }
        _ => out += &format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default()),
    }
    out
}
