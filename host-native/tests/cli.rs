//! Drives the real `mnemo` binary (the engine component inside wasmtime): conformance with the
//! native core, every command, bad input, the data-directory lock, and a crash mid-import.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

const T0: &str = common::NOW;

/// A fresh data directory, removed on drop.
struct Data(PathBuf);

impl Data {
    fn new(name: &str) -> Data {
        let p = std::env::temp_dir().join(format!("mnemo-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        Data(p)
    }
}

impl Drop for Data {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn mnemo(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .expect("run mnemo")
}

/// Runs with `--json --now T0 --seed 1` and parses stdout; panics unless it succeeded.
fn ok(data: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--seed", "1"];
    all.extend_from_slice(args);
    common::cli(data, &all)
}

/// Runs with `--json` and expects the engine to refuse: exit 1 and `{"error": {code, …}}`.
fn refused(data: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--json", "--now", T0];
    all.extend_from_slice(args);
    let out = mnemo(data, &all);
    assert_eq!(
        out.status.code(),
        Some(1),
        "mnemo {args:?} should fail: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("an error document");
    v["error"].clone()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_scenario_gives_the_recorded_json_byte_for_byte() {
    let dir = root().join("tests/scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/scenarios") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        // What the native core gave when the scenario was recorded.
        let expected =
            std::fs::read_to_string(dir.join("expected").join(path.file_name().unwrap()))
                .expect("a recorded outcome");
        let out = Command::new(env!("CARGO_BIN_EXE_mnemo"))
            .arg("scenario")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8(out.stdout).unwrap().trim_end(),
            expected.trim_end(),
            "{}",
            path.display()
        );
        n += 1;
    }
    assert!(n > 0, "no scenarios found");
}

#[test]
fn the_commands_cover_a_memory_from_write_to_export() {
    let d = Data::new("commands");
    let p = &d.0;
    let r = ok(
        p,
        &[
            "seed",
            "--entity",
            "ana",
            "Ana drinks green tea every morning",
            "--type",
            "PREFERENCE",
            "--tags",
            "drinks,morning",
        ],
    );
    let id = r["outcomes"][0]["id"].as_str().unwrap().to_string();
    let dup = ok(
        p,
        &[
            "seed",
            "--entity",
            "ana",
            "Ana drinks green tea every morning",
        ],
    );
    assert_eq!(dup["outcomes"][0]["reason"], "exact_duplicate");
    ok(
        p,
        &[
            "remember",
            "--entity",
            "ana",
            "Her sister Lena moved to Lisbon",
            "--session",
            "s1",
        ],
    );
    // `extract` shows what would be kept, as JSON and as text, and stores nothing.
    let x = ok(p, &["extract", "My sister Ana lives in Porto. ok"]);
    assert_eq!(x.as_array().map(Vec::len), Some(1), "{x}");
    assert_eq!(x[0]["type"], "RELATIONSHIP");
    assert_eq!(x[0]["relationships"][1]["relation"], "lives_in");
    let text = mnemo(
        p,
        &[
            "--now",
            T0,
            "extract",
            "I think my sister Ana lives in Porto",
        ],
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("(hedged)") && text.contains("user sibling_of Ana"),
        "{text}"
    );
    // The graph, through the CLI.
    ok(
        p,
        &[
            "remember",
            "--entity",
            "ana",
            "My brother Tiago works at Shopify.",
        ],
    );
    let ents = ok(p, &["entities", "--entity", "ana", "--type", "PERSON"]);
    assert!(
        ents.as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "Tiago"),
        "{ents}"
    );
    let rels = ok(
        p,
        &[
            "relationships",
            "--entity",
            "ana",
            "--of",
            "Tiago",
            "--relation",
            "works_at",
        ],
    );
    assert_eq!(rels[0]["to"], "Shopify");
    let walk = ok(p, &["traverse", "--entity", "ana", "user", "--depth", "2"]);
    assert!(
        walk["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "Shopify"),
        "{walk}"
    );
    let text = mnemo(
        p,
        &["--now", T0, "path", "--entity", "ana", "user", "Shopify"],
    );
    assert_eq!(
        String::from_utf8_lossy(&text.stdout),
        "user sibling_of Tiago · strength 0.77 · evidence 1\nTiago works_at Shopify · strength 0.77 · evidence 1\n"
    );
    // A card, from an owner of its own: three memories name Tiago.
    for said in [
        "My brother Tiago works at Shopify.",
        "Tiago plays chess on Sundays.",
        "Tiago lives in Braga.",
    ] {
        ok(p, &["remember", "--entity", "tia", said]);
    }
    let card = ok(p, &["card", "--entity", "tia", "tiago"]);
    assert_eq!(
        (card["name"].as_str(), card["memories"].as_u64()),
        (Some("Tiago"), Some(3)),
        "{card}"
    );
    let text = mnemo(p, &["card", "--entity", "tia", "Tiago"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.starts_with("Tiago (person): ") && text.contains("works at Shopify"),
        "{text}"
    );
    // Tiago and Braga, Tiago and chess: each named together once, so no bridge yet; two
    // conversations naming Tiago and Marta make one.
    for said in [
        "Tiago and Marta went hiking.",
        "Yesterday Marta lent Tiago her rope.",
    ] {
        ok(p, &["remember", "--entity", "tia", said]);
    }
    ok(p, &["consolidate"]);
    let bridges = ok(p, &["bridges", "--entity", "tia"]);
    assert_eq!(bridges.as_array().map(Vec::len), Some(1), "{bridges}");
    assert_eq!(bridges[0]["status"], "proposed", "{bridges}");
    let text = mnemo(p, &["bridges", "--entity", "tia", "--status", "confirmed"]);
    assert_eq!(String::from_utf8_lossy(&text.stdout), "no bridges\n");
    assert_eq!(
        refused(p, &["bridges", "--entity", "tia", "--status", "maybe"])["code"],
        "invalid_input"
    );
    let none = mnemo(p, &["card", "--entity", "tia", "Shopify"]);
    assert!(!none.status.success());
    assert!(
        String::from_utf8_lossy(&none.stderr).contains("a card needs 3 live memories"),
        "{none:?}"
    );
    // Conflicts, through the CLI.
    ok(p, &["remember", "--entity", "ana", "I love cilantro."]);
    let said = ok(p, &["remember", "--entity", "ana", "I hate cilantro."]);
    assert_eq!(said["outcomes"][0]["kind"], "preference_flip");
    let open = ok(p, &["conflicts", "--entity", "ana", "--open"]);
    let cid = open[0]["id"].as_str().unwrap().to_string();
    let done = ok(
        p,
        &[
            "resolve",
            "--entity",
            "ana",
            &cid,
            "keep_both",
            "--reason",
            "tastes vary",
        ],
    );
    assert_eq!(
        (done["status"].as_str(), done["reason"].as_str()),
        (Some("resolved"), Some("tastes vary"))
    );
    assert_eq!(
        ok(p, &["conflicts", "--entity", "ana", "--open"]),
        json!([])
    );
    assert_eq!(
        refused(p, &["resolve", "--entity", "ana", &cid, "perhaps"])["code"],
        "invalid_input"
    );
    let text = mnemo(p, &["--now", T0, "conflicts", "--entity", "ana"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("preference flip (keep both)") && text.contains("was: I love cilantro."),
        "{text}"
    );
    let text = mnemo(p, &["--now", T0, "extract", "haha ok 👍"]);
    assert_eq!(
        String::from_utf8_lossy(&text.stdout),
        "nothing worth remembering\n"
    );
    let hits = ok(
        p,
        &[
            "search",
            "--entity",
            "ana",
            "what does Ana drink?",
            "--mode",
            "important",
        ],
    );
    assert_eq!(hits[0]["memory"]["id"], id.as_str());
    assert_eq!(hits[0]["why"]["mode"], "important");
    assert_eq!(
        ok(p, &["get", "--entity", "ana", &id])["manual_tags"],
        json!(["drinks", "morning"])
    );
    assert_eq!(
        ok(
            p,
            &["update", "--entity", "ana", &id, "--importance", "0.9"]
        )["importance"],
        0.9
    );
    assert_eq!(ok(p, &["reinforce", "--entity", "ana", &id])["feedback"], 3);
    assert_eq!(ok(p, &["demote", "--entity", "ana", &id])["feedback"], 2);
    assert_eq!(ok(p, &["pin", "--entity", "ana", &id])["pinned"], true);
    assert_eq!(
        ok(p, &["pin", "--entity", "ana", &id, "--off"])["pinned"],
        false
    );
    ok(
        p,
        &[
            "status",
            "--entity",
            "ana",
            &id,
            "challenged",
            "--reason",
            "she said coffee",
        ],
    );
    assert_eq!(
        ok(p, &["history", "--entity", "ana", &id])[0]["new"],
        "challenged"
    );
    let moved = ok(
        p,
        &[
            "layer",
            "--entity",
            "ana",
            &id,
            "procedural",
            "--reason",
            "her morning ritual",
        ],
    );
    assert_eq!(moved["layer"], "procedural");
    assert_eq!(
        ok(p, &["history", "--entity", "ana", &id])[1]["layer"]["new"],
        "procedural"
    );
    assert_eq!(
        refused(
            p,
            &["layer", "--entity", "ana", &id, "dream", "--reason", "x"]
        )["code"],
        "invalid_input"
    );
    assert_eq!(ok(p, &["stats", "--entity", "ana"])["total"], 5);
    assert_eq!(ok(p, &["list", "--entity", "ana"])["total"], 5);
    assert!(ok(p, &["maintain"])["examined"].is_number());
    // Owners are apart.
    assert_eq!(
        refused(p, &["get", "--entity", "ben", &id])["code"],
        "not_found"
    );

    // Export, then import into another directory: the same memories come back. With `--json`
    // the export is JSON too: JSONL, one memory's object per line.
    let out = mnemo(p, &["--json", "--now", T0, "export", "--entity", "ana"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let jsonl = String::from_utf8(out.stdout).unwrap();
    assert_eq!(jsonl.lines().count(), 5, "{jsonl}");
    for line in jsonl.lines() {
        let memory: Value = serde_json::from_str(line).expect("each line is JSON");
        assert_eq!(memory["memory"]["entity_id"], "ana", "{line}");
    }
    let file = p.join("ana.jsonl");
    std::fs::write(&file, &jsonl).unwrap();
    let other = Data::new("commands-import");
    let report = ok(&other.0, &["import", file.to_str().unwrap()]);
    assert_eq!(report["restored"], 5);
    assert_eq!(
        ok(&other.0, &["get", "--entity", "ana", &id])["content"],
        "Ana drinks green tea every morning"
    );
    assert_eq!(
        ok(p, &["forget", "--entity", "ana", &id])["state"],
        "DELETED"
    );

    // Human-readable output by default: each hit's relevance is the one `--min-score`
    // compares (`why.relevance`), not its share of the best match.
    let text = mnemo(p, &["search", "--entity", "ana", "Lisbon"]);
    let text = String::from_utf8(text.stdout).unwrap();
    let hits = ok(p, &["search", "--entity", "ana", "Lisbon"]);
    let why = &hits[0]["why"];
    let relevance = why["relevance"].as_f64().unwrap();
    assert!(
        relevance < 0.995,
        "a weak match, so its share of the best (100 %) differs"
    );
    assert!(
        text.contains("Her sister Lena moved to Lisbon")
            && text.contains(&format!("relevance {relevance:.2} ("))
            && text.contains("100 % of the best"),
        "{text}"
    );
}

/// The text output says where each hit stands in the span of time a question names, and when
/// naming a time counted for a question asking when.
#[test]
fn search_text_says_how_time_counted() {
    let d = Data::new("search-time");
    let file = d.0.join("said.jsonl");
    std::fs::create_dir_all(&d.0).unwrap();
    std::fs::write(
        &file,
        "{\"entity_id\":\"ana\",\"content\":\"My colleagues and I went to a convention about robots last month\",\"created_at\":1681041600000}\n\
         {\"entity_id\":\"ana\",\"content\":\"I went to a convention about gardens in Lisbon\",\"created_at\":1681128000000}\n",
    )
    .unwrap();
    let now = ["--now", "2023-04-20T12:00:00Z"];
    let run = |args: &[&str]| {
        let all: Vec<&str> = args.iter().chain(&now).copied().collect();
        let out = mnemo(&d.0, &all);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    run(&["seed", "--file", file.to_str().unwrap()]);
    let search = |q: &str| run(&["search", "--entity", "ana", q]);
    let march = search("Which convention did I go to in March 2023?");
    let lines: Vec<&str> = march.lines().collect();
    assert!(
        lines[0].contains("robots") && lines[1].ends_with("said later of the span asked about"),
        "{march}"
    );
    assert!(
        march.contains("said outside the span asked about"),
        "{march}"
    );
    let when = search("When did I go to a convention?");
    let lines: Vec<&str> = when.lines().collect();
    assert!(
        lines[0].contains("robots") && lines[1].ends_with("names a time (×1.3)"),
        "{when}"
    );
    assert!(!when.contains("span asked about"), "{when}");
}

#[test]
fn search_text_says_who_a_relation_the_query_named_is() {
    let d = Data::new("search-hop");
    for said in [
        "My sister Ana is a nurse.",
        "Ana lives in Lisbon now.",
        "I live in Porto.",
    ] {
        let out = mnemo(&d.0, &["remember", "--entity", "kim", said]);
        assert!(out.status.success(), "{out:?}");
    }
    let out = mnemo(
        &d.0,
        &[
            "search",
            "--entity",
            "kim",
            "Which city does my sister live in?",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains("Ana lives in Lisbon"));
    assert!(
        at.is_some_and(|i| lines[i + 1].ends_with(" · my sister is Ana")),
        "{text}"
    );
    // Only hits naming Ana were found through her.
    let porto = lines.iter().position(|l| l.contains("I live in Porto"));
    assert!(
        porto.is_some_and(|i| !lines[i + 1].contains(" is Ana")),
        "{text}"
    );
}

/// The text output says when a hit was said in the same message as one above it, and so
/// was placed after other messages' hits.
#[test]
fn search_text_says_a_statement_gave_way_to_other_messages() {
    let d = Data::new("search-gave-way");
    let tell = |message: &str, said: &str, now: &str| {
        let args = [
            "remember",
            "--entity",
            "kim",
            "--source-ref",
            message,
            "--now",
            now,
            said,
        ];
        let out = mnemo(&d.0, &args);
        assert!(out.status.success(), "{out:?}");
    };
    tell(
        "msg-1",
        "Ana enjoys reading novels on the train.",
        "2023-04-20T12:00:00Z",
    );
    let three = "Ana loves hiking in the mountains. Ana loves painting landscapes. Ana loves cooking Thai food.";
    tell("msg-2", three, "2023-04-20T13:00:00Z");
    let out = mnemo(&d.0, &["search", "--entity", "kim", "What does Ana love?"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[2].contains("reading novels"), "{text}");
    let gave_way: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains(", after other messages"))
        .collect();
    assert_eq!(gave_way.len(), 2, "{text}");
    assert!(!lines[1].contains("said with"), "{text}");
}

#[test]
fn now_replays_time_for_every_step() {
    let d = Data::new("now");
    ok(
        &d.0,
        &[
            "seed",
            "--entity",
            "ana",
            "Ana has a dentist appointment",
            "--type",
            "EPHEMERAL",
        ],
    );
    let later = mnemo(
        &d.0,
        &["--json", "--now", "2023-12-14T22:13:20Z", "maintain"],
    );
    assert!(later.status.success());
    let report: Value = serde_json::from_slice(&later.stdout).unwrap();
    assert_eq!(
        report["to_deleted"].as_u64().unwrap() + report["to_archived"].as_u64().unwrap(),
        1,
        "{report}"
    );
    let out = mnemo(&d.0, &["--now", "yesterday", "stats", "--entity", "ana"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("RFC 3339"));
}

#[test]
fn bad_input_is_refused_with_a_clear_error_and_changes_nothing() {
    let d = Data::new("bad");
    let p = &d.0;
    ok(p, &["seed", "--entity", "ana", "Ana drinks green tea"]);
    let before = ok(p, &["list", "--entity", "ana"]);
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &[
                "call",
                "seed",
                r#"{"items":[{"entity_id":"ana","content":5}]}"#,
            ],
            "invalid_input",
            "args.items[0].content",
        ),
        (
            &[
                "call",
                "seed",
                r#"{"items":[{"entity_id":"ana","content":"x","colour":"red"}]}"#,
            ],
            "invalid_input",
            "colour",
        ),
        (
            &["call", "search", r#"{"entity_id":"ana","query":"#],
            "invalid_input",
            "args",
        ),
        (
            &[
                "call",
                "seed",
                r#"{"items":[{"entity_id":"ana","content":"x","vector":[1,2]}]}"#,
            ],
            "dimension_mismatch",
            "256",
        ),
        (
            &["call", "drop_everything", "{}"],
            "unknown_value",
            "drop_everything",
        ),
        (
            &["seed", "--entity", "ana", "   "],
            "invalid_input",
            "content",
        ),
        (
            &["seed", "--entity", "ana'; DROP TABLE memories;--", "x"],
            "invalid_input",
            "entity_id",
        ),
        (
            &["search", "--entity", "ana", "tea", "--mode", "loudest"],
            "invalid_input",
            "loudest",
        ),
        (
            &["search", "--entity", "ana", "tea", "--limit", "5000"],
            "invalid_input",
            "limit",
        ),
        (
            &["get", "--entity", "ana", "mem_0000000000000000"],
            "not_found",
            "mem_0000000000000000",
        ),
    ];
    for (args, code, needle) in cases {
        let e = refused(p, args);
        assert_eq!(e["code"], *code, "{args:?}: {e}");
        assert!(
            e["message"].as_str().unwrap().contains(needle),
            "{args:?}: {e}"
        );
    }
    let huge = "é".repeat(50_001); // one over the limit (and under the OS cap on one argument)
    assert_eq!(
        refused(p, &["seed", "--entity", "ana", &huge])["code"],
        "invalid_input"
    );
    // Unicode and FTS syntax are just text.
    ok(p, &["seed", "--entity", "ana", "Ана любит 绿茶 🍵"]);
    let hits = ok(p, &["search", "--entity", "ana", "绿茶 \"NEAR(* OR"]);
    assert_eq!(hits[0]["memory"]["content"], "Ана любит 绿茶 🍵");
    let after = ok(p, &["list", "--entity", "ana", "--state", "ACTIVE"]);
    assert_eq!(after["total"], before["total"].as_u64().unwrap() + 1);
}

#[test]
fn a_data_directory_has_one_process_and_a_stale_sqlite_lock_is_cleared() {
    let d = Data::new("lock");
    ok(&d.0, &["seed", "--entity", "ana", "Ana drinks green tea"]);
    let held = std::fs::OpenOptions::new()
        .write(true)
        .open(d.0.join(".mnemo.lock"))
        .unwrap();
    held.lock().unwrap();
    let out = mnemo(&d.0, &["stats", "--entity", "ana"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("in use by another mnemo process"));
    held.unlock().unwrap();
    // What a crash inside a transaction leaves: SQLite's lock directory.
    std::fs::create_dir(d.0.join("mnemo.db.lock")).unwrap();
    assert_eq!(ok(&d.0, &["stats", "--entity", "ana"])["total"], 1);
}

#[test]
fn killing_the_host_mid_import_keeps_every_acknowledged_batch() {
    use std::io::{BufRead, BufReader};
    let d = Data::new("crash");
    std::fs::create_dir_all(&d.0).unwrap();
    let file = d.0.join("big.jsonl");
    let lines: Vec<String> = (0..20_000)
        .map(|i| json!({"entity_id": "ana", "content": format!("memory number {i} about topic {}", i % 97)}).to_string())
        .collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .args([
            "--data",
            d.0.to_str().unwrap(),
            "--now",
            T0,
            "import",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut acknowledged = 0;
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.starts_with("committed batch") {
            acknowledged += 1;
            if acknowledged == 3 {
                break;
            }
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(
        acknowledged, 3,
        "the import finished too early to be interrupted"
    );
    let stats = ok(&d.0, &["stats", "--entity", "ana"]);
    let total = stats["total"].as_u64().unwrap();
    assert!(total >= 3 * 1000, "acknowledged 3,000, found {total}");
    assert!(total < 20_000, "the import was not interrupted");
    assert_eq!(total % 1000, 0, "a batch was half written: {total}");
}

#[test]
fn schedules_fall_due_as_the_clock_is_replayed() {
    let d = Data::new("schedules");
    let at = |now: &str, args: &[&str]| -> Value {
        let mut all = vec!["--json", "--now", now];
        all.extend_from_slice(args);
        let out = mnemo(&d.0, &all);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let s = at(
        "2028-02-28T08:00:00Z",
        &[
            "schedule",
            "create",
            "--entity",
            "kai",
            "--cron",
            "cron:daily:09:00",
            "take the vitamins",
        ],
    );
    let id = s["id"].as_str().unwrap().to_string();
    assert_eq!(
        at("2028-02-28T08:30:00Z", &["scheduled", "--entity", "kai"]),
        json!([])
    );
    let due = at("2028-02-28T09:01:00Z", &["scheduled", "--entity", "kai"]);
    assert_eq!(due[0]["id"], id.as_str());
    assert_eq!(
        at("2028-02-28T09:02:00Z", &["scheduled", "--entity", "kai"]),
        json!([]),
        "once per due time"
    );
    let acked = at(
        "2028-02-28T09:05:00Z",
        &["schedule", "ack", "--entity", "kai", &id],
    );
    assert_eq!(acked["next_due_at"], 1_835_427_600_000i64, "Feb 29, 09:00");
    let updated = at(
        "2028-02-28T10:00:00Z",
        &[
            "schedule",
            "update",
            "--entity",
            "kai",
            &id,
            "--cron",
            "cron:weekly:fri:18:00",
        ],
    );
    assert_eq!(updated["cron_tag"], "cron:weekly:fri:18:00");
    assert_eq!(
        at(
            "2028-02-28T10:00:00Z",
            &["schedule", "list", "--entity", "kai"]
        )
        .as_array()
        .unwrap()
        .len(),
        1
    );
    at(
        "2028-02-28T10:00:00Z",
        &["schedule", "cancel", "--entity", "kai", &id],
    );
    assert_eq!(
        at(
            "2028-02-28T10:00:00Z",
            &["schedule", "list", "--entity", "kai"]
        ),
        json!([])
    );
    assert_eq!(
        at(
            "2028-02-28T10:00:00Z",
            &["schedule", "list", "--entity", "kai", "--all"]
        )[0]["status"],
        "cancelled"
    );
    // Bad tags are refused with the grammar.
    let out = mnemo(
        &d.0,
        &[
            "--json",
            "schedule",
            "create",
            "--entity",
            "kai",
            "--cron",
            "cron:yearly",
            "x",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cron:weekly:DAY:HH:MM"),
        "{err}"
    );
    // Human output.
    let text = mnemo(
        &d.0,
        &[
            "--now",
            "2028-02-28T10:00:00Z",
            "schedule",
            "list",
            "--entity",
            "kai",
            "--all",
        ],
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("cancelled [cron:weekly:fri:18:00]"), "{text}");
}

#[test]
fn heartbeat_decides_as_the_clock_is_replayed_and_messages_count() {
    let d = Data::new("heartbeat");
    let run = |now: &str, args: &[&str]| -> Output {
        let mut all = vec!["--now", now, "--seed", "1"];
        all.extend_from_slice(args);
        mnemo(&d.0, &all)
    };
    let at = |now: &str, args: &[&str]| -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = run(now, &all);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    // A new owner: first contact, once.
    at(
        "2026-11-23T10:00:00Z",
        &["seed", "--entity", "kai", "Kai drinks green tea"],
    );
    let first = at("2026-11-23T10:00:00Z", &["heartbeat", "--entity", "kai"]);
    assert_eq!(
        (
            first["should_act"].clone(),
            first["decision_reason"].clone()
        ),
        (json!(true), json!("first_contact"))
    );
    assert!(first["act_id"].as_str().unwrap().starts_with("act_"));
    // A deadline in five hours surfaces at once; a dry run records nothing.
    at(
        "2026-11-23T11:00:00Z",
        &[
            "seed",
            "--entity",
            "kai",
            "--type",
            "PLAN",
            "--expires",
            "2026-11-23T16:00:00Z",
            "Send the invoice to Globex",
        ],
    );
    let dry = at(
        "2026-11-23T11:00:00Z",
        &["heartbeat", "--entity", "kai", "--dry-run"],
    );
    assert_eq!(dry["decision_reason"], "act_immediate");
    assert_eq!(dry["act_id"], Value::Null);
    assert_eq!(dry["deadlines"][0]["content"], "Send the invoice to Globex");
    let human = run("2026-11-23T11:00:00Z", &["heartbeat", "--entity", "kai"]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.starts_with("speak up — act immediate (immediate"),
        "{text}"
    );
    assert!(
        text.contains("Send the invoice to Globex") && text.contains("recorded act_"),
        "{text}"
    );
    // Said already: a minute later it stays quiet.
    let later = at(
        "2026-11-23T11:01:00Z",
        &["heartbeat", "--entity", "kai", "--dry-run"],
    );
    assert_eq!(later["should_act"], false, "{later}");
    // Messages: the owner is in a conversation for 15 minutes.
    let m = at(
        "2026-11-23T11:02:00Z",
        &["message", "--entity", "kai", "thanks, on it"],
    );
    assert_eq!(m["role"], "user");
    let talking = at(
        "2026-11-23T11:03:00Z",
        &["heartbeat", "--entity", "kai", "--dry-run"],
    );
    assert_eq!(talking["in_conversation"], true);
    let ctx = at(
        "2026-11-23T11:20:00Z",
        &[
            "heartbeat",
            "--entity",
            "kai",
            "--dry-run",
            "--query",
            "invoice",
        ],
    );
    assert_eq!(ctx["report"]["in_conversation"], false);
    assert_eq!(
        ctx["relevant_memories"][0]["memory"]["content"],
        "Send the invoice to Globex"
    );
    // Bad input is refused and writes nothing.
    for args in [
        &["heartbeat", "--entity", "kai", "--autonomy", "shout"][..],
        &["heartbeat", "--entity", "kai", "--utc-offset", "-900"],
        &["heartbeat", "--entity", "kai", "--deadline-window", "soon"],
        &["message", "--entity", "kai", "--role", "robot", "hi"],
        &["message", "--entity", "kai", "--act", "act_nope", "hi"],
        &["message", "--entity", "kai", " "],
    ] {
        let e = refused(&d.0, args);
        assert_eq!(e["code"], "invalid_input", "{args:?}: {e}");
    }
}

#[test]
fn every_declared_call_is_reachable_from_the_command_line() {
    let d = Data::new("declared");
    let p = &d.0;
    // `call --list` lists exactly the calls the engine declares, each with what it does.
    let listed = ok(p, &["call", "--list"]);
    assert_eq!(listed, json!(mnemo_core::METHODS));
    let text = mnemo(p, &["call", "--list"]);
    let text = String::from_utf8_lossy(&text.stdout);
    for info in mnemo_core::CALLS {
        assert!(
            text.contains(&format!("{:<18} {}", info.method, info.summary())),
            "{}",
            info.method
        );
        // Each call's schema, and the call itself: a result or its arguments refused.
        let out = mnemo(p, &["call", info.method, "--schema"]);
        let doc: Value = serde_json::from_slice(&out.stdout).expect("a schema document");
        assert_eq!(doc["call"]["method"], info.method);
        let out = mnemo(p, &["--json", "call", info.method, "{}"]);
        if out.status.code() != Some(0) {
            let v: Value = serde_json::from_slice(&out.stdout).expect("an error document");
            assert_ne!(v["error"]["code"], "unknown_value", "{}: {v}", info.method);
        }
    }
    let e = refused(p, &["call", "frobnicate", "{}"]);
    assert_eq!(e["code"], "unknown_value");
}

/// Runs `mnemo --data <data> args…` with `input` on stdin (written while it runs; a child that
/// stops reading early is not an error).
fn mnemo_with_stdin(data: &Path, args: &[&str], input: Vec<u8>) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .arg("--data")
        .arg(data)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mnemo");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("mnemo ran");
    writer.join().unwrap();
    out
}

/// The permission bits of `path`.
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn remember_keeps_a_message_with_a_word_longer_than_a_tag() {
    let d = Data::new("longword");
    let url = format!("https://example.com/{}", "a".repeat(80));
    let key = "k3y".repeat(30);
    for text in [
        format!("I keep my Lisbon travel notes at {url} for the trip"),
        format!("My deploy key for the staging server is {key} and it expires soon"),
    ] {
        let r = ok(&d.0, &["remember", "--entity", "ana", &text]);
        assert!(r["outcomes"][0]["id"].is_string(), "{r}");
    }
    let page = ok(&d.0, &["list", "--entity", "ana"]);
    let contents = page.to_string();
    assert!(contents.contains(&url) && contents.contains(&key), "{page}");
    for m in page["memories"].as_array().unwrap() {
        for t in m["auto_tags"].as_array().into_iter().flatten() {
            assert!(t.as_str().unwrap().chars().count() <= 64, "{t}");
        }
    }
}

#[test]
fn a_new_store_is_private_to_its_user() {
    let d = Data::new("private");
    ok(&d.0, &["seed", "--entity", "ana", "Ana drinks green tea"]);
    assert_eq!(mode(&d.0), 0o700, "the data directory");
    assert_eq!(mode(&d.0.join("mnemo.db")), 0o600, "the store");
    // A directory the user made keeps the mode they gave it; the store in it is still private.
    let theirs = Data::new("private-theirs");
    std::fs::create_dir(&theirs.0).unwrap();
    std::fs::set_permissions(
        &theirs.0,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    ok(
        &theirs.0,
        &["remember", "--entity", "ana", "Ana drinks green tea"],
    );
    assert_eq!(mode(&theirs.0), 0o755);
    assert_eq!(mode(&theirs.0.join("mnemo.db")), 0o600);
}

#[test]
fn non_finite_numbers_are_refused_and_nothing_is_stored() {
    let d = Data::new("finite");
    let cases: &[&[&str]] = &[
        &["seed", "--entity", "ana", "x y z", "--importance", "NaN"],
        &["seed", "--entity", "ana", "x y z", "--importance", "inf"],
        &["seed", "--entity", "ana", "x y z", "--importance=-inf"],
        &["seed", "--entity", "ana", "x y z", "--importance", "1e999"],
        &["update", "--entity", "ana", "mem_0", "--importance", "nan"],
        &[
            "relationships",
            "--entity",
            "ana",
            "--min-strength",
            "infinity",
        ],
    ];
    let check = |args: &[&str]| {
        let out = mnemo(&d.0, args);
        assert_eq!(out.status.code(), Some(2), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("finite number"), "{args:?}: {err}");
    };
    for args in cases {
        check(args);
    }
    assert!(!d.0.exists(), "a refused command created the store");
    let id = ok(&d.0, &["seed", "--entity", "ana", "Ana drinks green tea"])["outcomes"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let before = ok(&d.0, &["list", "--entity", "ana"]);
    for args in cases {
        check(args);
    }
    check(&["update", "--entity", "ana", &id, "--importance", "NaN"]);
    assert_eq!(ok(&d.0, &["list", "--entity", "ana"]), before);
}

#[test]
fn a_read_on_a_missing_store_is_an_error_and_creates_nothing() {
    let d = Data::new("missing");
    let reads: &[&[&str]] = &[
        &["search", "--entity", "ana", "tea"],
        &["list", "--entity", "ana"],
        &["get", "--entity", "ana", "mem_0000000000000000"],
        &["stats", "--entity", "ana"],
        &["export", "--entity", "ana"],
        &["history", "--entity", "ana", "mem_0000000000000000"],
        &["entities", "--entity", "ana"],
        &["relationships", "--entity", "ana"],
        &["conflicts", "--entity", "ana"],
        &["scheduled", "--entity", "ana"],
        &["schedule", "list", "--entity", "ana"],
        &["heartbeat", "--entity", "ana", "--dry-run"],
        &["forget", "--entity", "ana", "mem_0000000000000000"],
        &["maintain"],
        &["call", "stats", r#"{"entity_id":"ana"}"#],
    ];
    let refused_missing = |args: &[&str], why: &str| {
        let out = mnemo(&d.0, args);
        assert_eq!(out.status.code(), Some(2), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no Mnemo store at") && err.contains(&*d.0.to_string_lossy()),
            "{args:?}: {err}"
        );
        assert!(err.contains(why), "{args:?}: {err}");
    };
    for args in reads {
        refused_missing(args, "does not exist");
        assert!(!d.0.exists(), "{args:?} created the data directory");
    }
    // A directory without a store: refused too, and left as it was.
    std::fs::create_dir(&d.0).unwrap();
    for args in reads {
        refused_missing(args, "has no mnemo.db");
    }
    assert_eq!(std::fs::read_dir(&d.0).unwrap().count(), 0);
    // What uses no store runs without one.
    let x = ok(&d.0, &["extract", "My sister Ana lives in Porto"]);
    assert_eq!(x[0]["type"], "RELATIONSHIP");
    ok(&d.0, &["call", "--list"]);
    // So do the calls declared `pure` (their answer is the same on any store).
    let x = ok(
        &d.0,
        &[
            "call",
            "extract",
            r#"{"content": "My sister Ana lives in Porto"}"#,
        ],
    );
    assert_eq!(x[0]["type"], "RELATIONSHIP");
    assert!(ok(&d.0, &["call", "llm_instructions"]).is_string());
    assert_eq!(std::fs::read_dir(&d.0).unwrap().count(), 0);
    // A call declared `add` creates the store, as the typed commands that add do.
    let message = r#"{"entity_id": "ana", "role": "user", "content": "hello"}"#;
    ok(&d.0, &["call", "record_message", message]);
    assert!(d.0.join("mnemo.db").exists());
    std::fs::remove_dir_all(&d.0).unwrap();
    std::fs::create_dir(&d.0).unwrap();
    // A write creates the store; then reads work.
    ok(
        &d.0,
        &[
            "remember",
            "--entity",
            "ana",
            "Ana drinks green tea every morning",
        ],
    );
    assert_eq!(ok(&d.0, &["stats", "--entity", "ana"])["total"], 1);
}

#[test]
fn a_store_path_that_cannot_be_opened_is_named_as_the_user_knows_it() {
    // A directory where the store file should be.
    let d = Data::new("dbdir");
    std::fs::create_dir_all(d.0.join("mnemo.db")).unwrap();
    let theirs = d.0.join("mnemo.db").display().to_string();
    for args in [
        &["stats", "--entity", "ana"][..],
        &["seed", "--entity", "ana", "Ana drinks green tea"],
    ] {
        let out = mnemo(&d.0, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&theirs), "{args:?}: {err}");
        assert!(!err.contains("/data/mnemo.db"), "{args:?}: {err}");
    }
    // A store file the engine's sandbox cannot reach (a link out of the data directory).
    let elsewhere = Data::new("dbdir-elsewhere");
    ok(
        &elsewhere.0,
        &["seed", "--entity", "ana", "Ana drinks green tea"],
    );
    let linked = Data::new("dbdir-linked");
    std::fs::create_dir(&linked.0).unwrap();
    std::os::unix::fs::symlink(elsewhere.0.join("mnemo.db"), linked.0.join("mnemo.db")).unwrap();
    let out = mnemo(&linked.0, &["stats", "--entity", "ana"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&linked.0.join("mnemo.db").display().to_string()),
        "{err}"
    );
    assert!(!err.contains("/data/"), "{err}");
}

#[test]
fn maintain_refuses_a_damaged_store() {
    use std::io::{Seek, SeekFrom, Write};
    let d = Data::new("damaged");
    let lines: Vec<String> = (0..300)
        .map(|i| json!({"entity_id": "ana", "content": format!("memory number {i} about topic {} and more", i % 17)}).to_string())
        .collect();
    let out = mnemo_with_stdin(
        &d.0,
        &["--now", T0, "import", "-"],
        lines.join("\n").into_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ok(&d.0, &["maintain"]);
    let db = d.0.join("mnemo.db");
    let len = std::fs::metadata(&db).unwrap().len();
    let mut f = std::fs::OpenOptions::new().write(true).open(&db).unwrap();
    f.seek(SeekFrom::Start(len / 2)).unwrap();
    f.write_all(&[0xff; 4096]).unwrap();
    drop(f);
    let e = refused(&d.0, &["maintain"]);
    assert_eq!(e["code"], "storage_error", "{e}");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains("damaged") && message.contains("backup"),
        "{e}"
    );
    let out = mnemo(&d.0, &["maintain"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("damaged"));
}

#[test]
fn binary_input_to_import_or_seed_is_refused_at_once() {
    let d = Data::new("nul");
    let nul = vec![0u8; 64 << 20];
    let started = std::time::Instant::now();
    let out = mnemo_with_stdin(&d.0, &["--json", "import", "-"], nul.clone());
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("an error document");
    assert_eq!(v["error"]["code"], "import_error", "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("NUL byte") && message.contains("stdin"),
        "{v}"
    );
    assert!(!d.0.exists(), "a refused import created the store");
    // Refused after the first buffer, not after reading (and escaping) 64 MB.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // A bad line after good ones: refused with its line number, nothing stored.
    let mut mixed = b"{\"entity_id\":\"ana\",\"content\":\"Ana drinks tea\"}\n\n".to_vec();
    mixed.extend_from_slice(b"{\"entity_id\":\"ana\",\"content\":\"x\0\"}\n");
    let out = mnemo_with_stdin(&d.0, &["--json", "seed", "--file", "-"], mixed.clone());
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "invalid_input", "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("- line 3"),
        "{v}"
    );
    let out = mnemo_with_stdin(&d.0, &["--json", "import", "-"], mixed);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("import line 3: a NUL byte"),
        "{v}"
    );
    let out = mnemo_with_stdin(
        &d.0,
        &["--json", "import", "-"],
        b"{\"a\":\"\xff\"}\n".to_vec(),
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not valid UTF-8"),
        "{v}"
    );
    assert!(!d.0.exists());
    // Good input with CRLF line ends still imports.
    let out = mnemo_with_stdin(
        &d.0,
        &["import", "-"],
        b"{\"entity_id\":\"ana\",\"content\":\"Ana drinks tea\"}\r\n{\"entity_id\":\"ana\",\"content\":\"Ana walks\"}".to_vec(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(ok(&d.0, &["stats", "--entity", "ana"])["total"], 2);
}

#[test]
fn markdown_notes_import_once_with_their_headings_and_lines() {
    let d = Data::new("notes");
    let notes = d.0.join("MEMORY.md");
    std::fs::create_dir_all(&d.0).unwrap();
    std::fs::write(
        &notes,
        "# About me\n\nI live in Porto with my partner Rui.\n\n## Work\n- I work as a data engineer at Stripe.\n- My manager Ana prefers short standups.\n\n```\nnot a note\n```\n",
    )
    .unwrap();
    let path = notes.to_str().unwrap();
    let first = ok(&d.0, &["import", path, "--entity", "kai"]);
    let created = first["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["action"] == "created")
        .count();
    assert!(created >= 3, "{first}");
    let page = ok(&d.0, &["list", "--entity", "kai", "--limit", "100"]);
    let memories = page["memories"].as_array().unwrap();
    assert_eq!(memories.len(), created);
    let stripe = memories
        .iter()
        .find(|m| m["content"].as_str().unwrap().contains("Stripe"))
        .unwrap_or_else(|| panic!("{page}"));
    assert_eq!(stripe["source_ref"], "MEMORY.md:6");
    assert_eq!(stripe["source"], "import");
    assert!(
        stripe["manual_tags"]
            .as_array()
            .unwrap()
            .contains(&json!("work")),
        "{stripe}"
    );
    let porto = memories
        .iter()
        .find(|m| m["content"].as_str().unwrap().contains("Porto"))
        .unwrap();
    assert_eq!(porto["source_ref"], "MEMORY.md:3");
    assert!(porto["manual_tags"]
        .as_array()
        .unwrap()
        .contains(&json!("about me")));
    assert!(!page.to_string().contains("not a note"));
    // The same file again adds nothing.
    let again = ok(&d.0, &["import", path, "--entity", "kai"]);
    assert!(
        again["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["action"] == "skipped"),
        "{again}"
    );
    let after = ok(&d.0, &["list", "--entity", "kai", "--limit", "100"]);
    assert_eq!(after["total"], page["total"]);
    // Markdown without an owner, or with a NUL, is refused and changes nothing.
    let e = refused(&d.0, &["import", path]);
    assert!(e["message"].as_str().unwrap().contains("--entity"), "{e}");
    std::fs::write(&notes, "- a note\0 with a NUL").unwrap();
    let e = refused(&d.0, &["import", path, "--entity", "kai"]);
    assert!(e["message"].as_str().unwrap().contains("NUL"), "{e}");
    assert_eq!(
        ok(&d.0, &["list", "--entity", "kai", "--limit", "100"])["total"],
        page["total"]
    );
}

#[test]
fn consolidate_follows_the_settings_file_and_refuses_a_bad_one() {
    let d = Data::new("consolidate");
    let settings = |name: &str, text: &str| {
        let path =
            std::env::temp_dir().join(format!("mnemo-settings-{}-{name}.json", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    for text in [
        "I collect vintage stamps.",
        "My bicycle is blue.",
        "I enjoy hiking in the Alps.",
        "My favourite tea is sencha.",
    ] {
        ok(&d.0, &["remember", "--entity", "ana", text]);
    }
    let bound = settings("bound", r#"{"consolidation": {"max_memories": 3}}"#);
    let report = ok(&d.0, &["--config", &bound, "consolidate"]);
    let pruning = &report["consolidation"]["pruning"];
    assert_eq!(
        (&pruning["owners_over"], &pruning["archived"]),
        (&json!(1), &json!(1)),
        "{report}"
    );
    // Without the bound nothing is over it; `maintain` consolidates once a day.
    let again = ok(&d.0, &["consolidate"]);
    assert_eq!(again["consolidation"]["pruning"]["archived"], 0, "{again}");
    assert!(ok(&d.0, &["maintain"])["consolidation"].is_null());

    for (name, text, says) in [
        (
            "zero",
            r#"{"consolidation": {"max_memories": 0}}"#,
            "config.consolidation.max_memories",
        ),
        (
            "unknown",
            r#"{"consolidation": {"max_memory": 3}}"#,
            "max_memory",
        ),
        (
            "type",
            r#"{"consolidation": {"max_memories": "many"}}"#,
            "max_memories",
        ),
        ("junk", "{not json", "invalid config"),
    ] {
        let out = mnemo(&d.0, &["--config", &settings(name, text), "consolidate"]);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success() && all.contains(says), "{name}: {all}");
    }
    let out = mnemo(
        &d.0,
        &["--config", "/nonexistent/settings.json", "maintain"],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("reading the engine settings"));
    // Nothing a refused run was given changed the store.
    let stats = ok(&d.0, &["stats", "--entity", "ana"]);
    assert_eq!(stats["by_state"]["ARCHIVED"], 1, "{stats}");
}

#[test]
fn reembed_moves_a_store_between_the_built_in_embedders() {
    let d = Data::new("reembed");
    let p = &d.0;
    ok(
        p,
        &[
            "seed",
            "--entity",
            "ana",
            "I work as a marine biologist at the aquarium",
        ],
    );
    ok(
        p,
        &[
            "seed",
            "--entity",
            "ana",
            "My sister Ines is visiting me in May",
        ],
    );
    let model = |p: &Path| ok(p, &["call", "embedding_model", "{}"]);
    assert_eq!(
        model(p),
        json!({"model": "mnemo-static-v1", "dimension": 256})
    );
    let r = ok(p, &["reembed", "--model", "mnemo-hash-v1"]);
    assert_eq!(
        (r["memories"].as_u64(), r["previous_model"].as_str()),
        (Some(2), Some("mnemo-static-v1"))
    );
    // The store keeps the embedder it now records, in a later process too.
    assert_eq!(
        model(p),
        json!({"model": "mnemo-hash-v1", "dimension": 384})
    );
    let err = refused(p, &["reembed", "--model", "gpt-4"]);
    assert_eq!(err["code"], "invalid_input");
    assert!(err["message"].as_str().unwrap().contains("gpt-4"), "{err}");
    assert_eq!(
        model(p),
        json!({"model": "mnemo-hash-v1", "dimension": 384})
    );
    ok(p, &["reembed", "--model", "mnemo-static-v1"]);
    let hits = ok(
        p,
        &["search", "--entity", "ana", "what do I do for a living?"],
    );
    assert!(
        hits[0]["memory"]["content"]
            .as_str()
            .unwrap()
            .contains("biologist"),
        "{hits}"
    );
}

#[test]
fn ingest_stores_files_as_passages_search_finds_and_refuses_what_is_not_text() {
    let d = Data::new("ingest");
    let dir = d.0.with_extension("files");
    std::fs::create_dir_all(&dir).unwrap();
    let plan = dir.join("plan-2027.md");
    std::fs::write(
        &plan,
        "# Plan 2027\n\nThe plan covers the year.\n\n## Budget\n\nThe Q4 budget priorities are the data centre in Porto and the security audit.\n",
    )
    .unwrap();
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "Ana keeps her bike in the garage.").unwrap();
    let plan_s = plan.to_str().unwrap();
    let notes_s = notes.to_str().unwrap();
    let r = ok(
        &d.0,
        &[
            "ingest", "--entity", "ana", "--tags", "work", plan_s, notes_s,
        ],
    );
    let reports = r.as_array().cloned().unwrap_or_else(|| vec![r.clone()]);
    assert_eq!(reports.len(), 2, "{r}");
    // Each file is its own transaction, and a line says which was stored (the bar's message on
    // a terminal).
    let again = mnemo(
        &d.0,
        &["--seed", "1", "ingest", "--entity", "bo", plan_s, notes_s],
    );
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(
        said.contains("ingested plan-2027.md 1/2") && said.contains("ingested notes.txt 2/2"),
        "{said}"
    );
    assert_eq!(reports[0]["action"], "created");
    assert_eq!(reports[0]["document"]["title"], "Plan 2027");
    assert_eq!(reports[0]["document"]["mime"], "text/markdown");
    assert_eq!(reports[1]["document"]["title"], "notes.txt");
    // Found to the passage, with its section.
    let hits = ok(
        &d.0,
        &[
            "call",
            "search",
            r#"{"entity_id": "ana", "query": "Q4 budget priorities"}"#,
        ],
    );
    assert_eq!(
        hits[0]["passage"]["section"],
        json!(["Plan 2027", "Budget"]),
        "{hits}"
    );
    // A PDF's text layer, page by page.
    let report = dir.join("ferry-report.pdf");
    std::fs::write(
        &report,
        pdf(
            &[
                "The ferry to the island leaves at 7:40 from pier 3.",
                "Tickets are sold on board.",
            ],
            false,
        ),
    )
    .unwrap();
    let r = ok(
        &d.0,
        &["ingest", "--entity", "pat", report.to_str().unwrap()],
    );
    let doc = &r["document"];
    assert_eq!(
        (&doc["title"], &doc["format"], &doc["mime"]),
        (
            &json!("ferry-report.pdf"),
            &json!("text"),
            &json!("application/pdf")
        ),
        "{r}"
    );
    let hits = ok(
        &d.0,
        &[
            "call",
            "search",
            r#"{"entity_id": "pat", "query": "where does the ferry leave from"}"#,
        ],
    );
    let found = hits[0]["memory"]["content"].as_str().unwrap_or_default();
    assert!(
        found.contains("pier 3") && found.contains("Tickets"),
        "{hits}"
    );
    // A web page is read as its reader sees it: its title, no script.
    let page = dir.join("trip.html");
    std::fs::write(
        &page,
        "<html><head><title>Island trip</title><script>var key = 'zebra-4411';</script></head>\
         <body><h1>Ferry</h1><p>The ferry to the island leaves at 7:40 from pier 3.</p></body></html>",
    )
    .unwrap();
    let trip = ok(&d.0, &["ingest", "--entity", "ana", page.to_str().unwrap()]);
    let doc = &trip["document"];
    assert_eq!(
        (&doc["title"], &doc["format"], &doc["mime"]),
        (&json!("Island trip"), &json!("html"), &json!("text/html")),
        "{trip}"
    );
    let hits = ok(
        &d.0,
        &[
            "call",
            "search",
            r#"{"entity_id": "ana", "query": "when does the ferry leave", "kinds": ["passage"]}"#,
        ],
    );
    assert_eq!(hits[0]["passage"]["document_id"], doc["id"], "{hits}");
    let none = ok(
        &d.0,
        &[
            "call",
            "search",
            r#"{"entity_id": "ana", "query": "zebra 4411"}"#,
        ],
    );
    assert_eq!(none, json!([]), "{none}");
    // The same file again changes nothing; a changed file replaces its earlier version.
    let again = ok(&d.0, &["ingest", "--entity", "ana", plan_s]);
    assert_eq!(again["action"], "unchanged", "{again}");
    std::fs::write(
        &plan,
        "# Plan 2027\n\n## Budget\n\nThe Q4 budget priorities are the office in Braga.\n",
    )
    .unwrap();
    let changed = ok(&d.0, &["ingest", "--entity", "ana", plan_s]);
    assert_eq!(changed["action"], "replaced", "{changed}");
    let docs = ok(&d.0, &["documents", "--entity", "ana"]);
    assert_eq!(docs.as_array().unwrap().len(), 3, "{docs}");
    let all = ok(&d.0, &["documents", "--entity", "ana", "--all"]);
    assert_eq!(
        all.as_array().unwrap().len(),
        4,
        "the replaced version too: {all}"
    );
    let shown = ok(
        &d.0,
        &[
            "document",
            "--entity",
            "ana",
            docs[0]["id"].as_str().unwrap(),
        ],
    );
    assert_eq!(shown["document"]["id"], docs[0]["id"]);
    assert!(
        shown["passages"][0]["summary"]
            .as_str()
            .is_some_and(|s| !s.is_empty()),
        "{shown}"
    );
    let other = mnemo(
        &d.0,
        &[
            "document",
            "--entity",
            "pat",
            docs[0]["id"].as_str().unwrap(),
        ],
    );
    assert_ne!(
        other.status.code(),
        Some(0),
        "another owner's document is not found"
    );
    // What is not a text file is refused by name, and nothing is written.
    let before = ok(
        &d.0,
        &["call", "documents", r#"{"entity_id": "ana", "all": true}"#],
    );
    let binary = dir.join("image.png");
    std::fs::write(&binary, [0x89u8, b'P', b'N', b'G', 0, 0, 1]).unwrap();
    let latin1 = dir.join("latin1.txt");
    std::fs::write(&latin1, [b'c', b'a', b'f', 0xe9]).unwrap();
    let cut = dir.join("cut.pdf");
    std::fs::write(&cut, &pdf(&["The ferry leaves at dawn."], false)[..200]).unwrap();
    let zero = dir.join("zero.pdf");
    std::fs::write(&zero, b"").unwrap();
    let locked = dir.join("locked.pdf");
    std::fs::write(&locked, pdf(&["Secret minutes."], true)).unwrap();
    let scan = dir.join("scan.pdf");
    std::fs::write(&scan, pdf(&[], false)).unwrap();
    let word = dir.join("letter.docx");
    std::fs::write(&word, b"PK\x03\x04").unwrap();
    let empty = dir.join("empty.md");
    std::fs::write(&empty, " \n").unwrap();
    // 100 MB (sparse: nothing is written to disk), refused from its size before it is read.
    let huge = dir.join("huge.md");
    std::fs::File::create(&huge)
        .and_then(|f| f.set_len(100_000_000))
        .unwrap();
    for (path, words) in [
        (dir.to_str().unwrap(), "is a directory"),
        (binary.to_str().unwrap(), "binary"),
        (latin1.to_str().unwrap(), "not UTF-8"),
        (cut.to_str().unwrap(), "is not a PDF Mnemo can read"),
        (zero.to_str().unwrap(), "zero.pdf is empty"),
        (locked.to_str().unwrap(), "is encrypted"),
        (scan.to_str().unwrap(), "has no text layer"),
        (word.to_str().unwrap(), "cannot be ingested yet"),
        (empty.to_str().unwrap(), "must not be empty"),
        (
            huge.to_str().unwrap(),
            "huge.md is 100 MB; a document is at most 10,000,000 characters",
        ),
        ("/nonexistent/file.md", "reading /nonexistent/file.md"),
    ] {
        let out = mnemo(
            &d.0,
            &["--now", T0, "ingest", "--entity", "ana", notes_s, path],
        );
        assert_ne!(out.status.code(), Some(0), "{path}");
        let err = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(err.contains(words), "{path}: {err}");
    }
    let after = ok(
        &d.0,
        &["call", "documents", r#"{"entity_id": "ana", "all": true}"#],
    );
    assert_eq!(
        before, after,
        "a refused ingest writes nothing, the good files with it included"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PDF of one page holding `lines` in Helvetica (none: a page without text, as a scan is),
/// with an `/Encrypt` dictionary (a user password set) when `encrypted`.
fn pdf(lines: &[&str], encrypted: bool) -> Vec<u8> {
    let mut content = String::from("BT /F1 12 Tf 72 720 Td 14 TL\n");
    for l in lines {
        content += &format!("({l}) Tj T*\n");
    }
    content += "ET";
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_string(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    if encrypted {
        let key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        objects.push(format!(
            "<< /Filter /Standard /V 2 /R 3 /Length 128 /P -1028 /O <{key}> /U <{key}> >>"
        ));
    }
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{o}\nendobj\n", i + 1).bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for o in offsets {
        out.extend(format!("{o:010} 00000 n \n").bytes());
    }
    let encrypt = if encrypted {
        format!(" /Encrypt {} 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]", objects.len())
    } else {
        String::new()
    };
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R{encrypt} >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

/// `search --after/--before` keeps to the memories said in that window, given as RFC 3339 or
/// milliseconds; a window that holds no time is refused by the engine, a date it cannot read
/// by the command line, naming the flag.
#[test]
fn search_keeps_to_a_time_window() {
    let d = Data::new("window");
    let p = &d.0;
    let said = [
        ("2023-01-10T09:00:00Z", "Ana bought a blue kettle"),
        ("2023-02-10T09:00:00Z", "Ana bought a red kettle"),
        ("2023-03-10T09:00:00Z", "Ana bought a green kettle"),
    ];
    let items: Vec<String> = said
        .iter()
        .map(|(at, c)| {
            let ms =
                time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339)
                    .unwrap()
                    .unix_timestamp()
                    * 1000;
            serde_json::json!({"entity_id": "ana", "content": c, "created_at": ms}).to_string()
        })
        .collect();
    ok(
        p,
        &[
            "call",
            "seed",
            &format!(r#"{{"items":[{}]}}"#, items.join(",")),
        ],
    );
    let found = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["search", "--entity", "ana", "kettle"];
        all.extend_from_slice(args);
        ok(p, &all)
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["memory"]["content"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(found(&[]).len(), 3);
    assert_eq!(
        found(&[
            "--after",
            "2023-02-01T00:00:00Z",
            "--before",
            "2023-03-01T00:00:00Z"
        ]),
        vec!["Ana bought a red kettle"]
    );
    // Milliseconds too: 2023-03-01T00:00:00Z.
    assert_eq!(
        found(&["--after", "1677628800000"]),
        vec!["Ana bought a green kettle"]
    );
    // A question naming a time, read as of a day: the kettle bought "last month" first.
    let asked = ok(
        p,
        &[
            "search",
            "--entity",
            "ana",
            "which kettle did Ana buy last month",
            "--as-of",
            "2023-03-15T12:00:00Z",
        ],
    );
    assert_eq!(
        asked[0]["memory"]["content"], "Ana bought a red kettle",
        "{asked}"
    );
    assert_eq!(asked[0]["why"]["period"]["inside"], true, "{asked}");
    assert!(ok(p, &["search", "--entity", "ana", "kettle"])[0]["why"]
        .get("period")
        .is_none());
    let err = refused(
        p,
        &[
            "search",
            "--entity",
            "ana",
            "kettle",
            "--after",
            "2023-03-01T00:00:00Z",
            "--before",
            "2023-02-01T00:00:00Z",
        ],
    );
    assert_eq!(err["code"], "invalid_input");
    assert!(
        err["message"].as_str().unwrap().contains("invalid before"),
        "{err}"
    );
    let out = mnemo(
        p,
        &[
            "--json",
            "search",
            "--entity",
            "ana",
            "kettle",
            "--after",
            "last week",
        ],
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--after"));
}

/// The CLI examples of README.md and host-native/README.md, pasted into a shell as a reader
/// would (`M` the binary, `HOME` a fresh directory holding the files they name, so `~/mnemo`
/// is the test's): every line succeeds, and the search finds what was seeded.
#[test]
fn the_readmes_cli_examples_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for readme in ["README.md", "host-native/README.md"] {
        let text = std::fs::read_to_string(root.join(readme)).expect("README");
        let lines: Vec<&str> = text
            .split("```sh\n")
            .skip(1)
            .filter_map(|block| block.split("```").next())
            .flat_map(str::lines)
            .filter(|l| l.starts_with("$M "))
            .collect();
        assert!(lines.len() >= 5, "{readme}: {lines:?}");
        let home = Data::new(&readme.replace('/', "-"));
        std::fs::create_dir_all(&home.0).unwrap();
        // The documents `ingest` is shown with.
        std::fs::write(
            home.0.join("plan.md"),
            "# Plan\n\nThe Q4 budget goes to the ferry.\n",
        )
        .unwrap();
        std::fs::write(
            home.0.join("page.html"),
            "<html><head><title>Ferry</title></head><body><p>The ferry leaves at 7:40.</p></body></html>",
        )
        .unwrap();
        std::fs::write(
            home.0.join("report.pdf"),
            pdf(&["Tickets are sold on board."], false),
        )
        .unwrap();
        let copy = home.0.join("copy");
        let script = format!(
            "set -e\nM={}\ncd {}\n{}\n",
            env!("CARGO_BIN_EXE_mnemo"),
            home.0.display(),
            lines
                .join("\n")
                .replace("/tmp/copy", &copy.display().to_string())
        );
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .env("HOME", &home.0)
            .env_remove("MNEMO_DATA")
            .env_remove("MNEMO_AGENT")
            .output()
            .expect("bash");
        let (said, errors) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            out.status.success(),
            "{readme}:\n{script}\n{said}\n{errors}"
        );
        assert!(
            said.contains("Ana drinks green tea every morning"),
            "{readme}: {said}"
        );
    }
}
