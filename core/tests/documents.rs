//! Documents: `ingest` cuts a text into passages that search finds one by one; the same text
//! again changes nothing, new text under a `source_ref` replaces it; forgetting, export and
//! import carry the whole document; owners and agents never see another's; bad input writes
//! nothing.
mod common;

use common::*;
use mnemo_core::api::Call;
use mnemo_core::*;
use serde_json::{json, Value};

fn call(e: &mut Engine, method: &str, args: Value) -> Result<Value> {
    Call::parse(method, &args).and_then(|c| e.call(c))
}

/// A plan of a few sections, long enough to be cut into several passages.
fn plan() -> String {
    let filler = |topic: &str, n: usize| {
        (0..n)
            .map(|i| {
                format!("The {topic} review number {i} went through the usual agenda and minutes.")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "# Plan 2027\n\n{}\n\n## Hiring\n\n{}\n\n## Budget\n\n### Q4\n\nThe Q4 budget priorities are the new \
         data centre in Porto and the security audit, with 40% of the spend on the audit.\n\n## Travel\n\n{}\n",
        filler("strategy", 12),
        filler("hiring", 15),
        filler("travel", 15)
    )
}

fn ingest(e: &mut Engine, owner: &str, title: &str, content: &str, extra: Value) -> Value {
    let mut args = json!({"entity_id": owner, "title": title, "content": content});
    if let (Some(a), Some(x)) = (args.as_object_mut(), extra.as_object()) {
        a.extend(x.clone());
    }
    call(e, "ingest", args).expect("ingest")
}

#[test]
fn search_finds_the_passage_that_answers_with_its_document_and_section() {
    let (mut e, _) = engine();
    let text = plan();
    let r = ingest(
        &mut e,
        "ana",
        "Plan 2027",
        &text,
        json!({"filename": "plan-2027.md", "tags": ["work"]}),
    );
    assert_eq!(r["action"], "created");
    let doc = &r["document"];
    let n = doc["passages"].as_u64().unwrap();
    assert!(n >= 4, "{doc}");
    assert_eq!(doc["chars"], text.chars().count());
    assert_eq!(doc["manual_tags"], json!(["work"]));
    let auto: Vec<String> = serde_json::from_value(doc["auto_tags"].clone()).unwrap();
    assert!(
        auto.len() <= 6 && auto[0] == "upload" && auto[1] == "md",
        "{auto:?}"
    );
    assert!(auto.contains(&"plan".to_string()), "{auto:?}");
    // Other memories beside it.
    e.seed(vec![mem("ana", "Ana prefers window seats on long flights")])
        .unwrap();
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "What are the Q4 budget priorities?"}),
    )
    .unwrap();
    let top = &hits[0];
    assert!(
        top["memory"]["content"]
            .as_str()
            .unwrap()
            .contains("Q4 budget priorities"),
        "{hits}"
    );
    assert_eq!(top["memory"]["kind"], "passage");
    assert_eq!(top["passage"]["document_id"], doc["id"]);
    assert_eq!(top["passage"]["title"], "Plan 2027");
    assert_eq!(
        top["passage"]["section"],
        json!(["Plan 2027", "Budget", "Q4"])
    );
    assert_eq!(top["passage"]["passages"], n);
    // The passage's offsets point into the document's text.
    let (start, end) = (
        top["passage"]["start"].as_u64().unwrap() as usize,
        top["passage"]["end"].as_u64().unwrap() as usize,
    );
    let slice: String = text.chars().skip(start).take(end - start).collect();
    assert_eq!(slice, top["memory"]["content"].as_str().unwrap());
    // A memory hit says nothing of documents.
    let seat = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "window seat"}),
    )
    .unwrap();
    assert_eq!(seat[0]["memory"]["kind"], "fact");
    assert!(seat[0].get("passage").is_none());
    // `kinds` narrows to documents or leaves them out.
    let only_docs = call(&mut e, "search", json!({"entity_id": "ana", "query": "window seat flights", "kinds": ["passage"], "min_score": 0})).unwrap();
    assert!(only_docs
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["memory"]["kind"] == "passage"));
    let no_docs = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "Q4 budget", "kinds": ["fact"], "min_score": 0}),
    )
    .unwrap();
    assert!(no_docs
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["memory"]["kind"] == "fact"));
    // At most three passages of one document, unless asked.
    let crowd = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "review agenda minutes", "limit": 10, "min_score": 0}),
    )
    .unwrap();
    let of_doc = crowd
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["passage"]["document_id"] == doc["id"])
        .count();
    assert_eq!(of_doc, 3, "{crowd}");
    let more = call(&mut e, "search", json!({"entity_id": "ana", "query": "review agenda minutes", "limit": 10, "min_score": 0, "per_document": 10})).unwrap();
    assert!(
        more.as_array()
            .unwrap()
            .iter()
            .filter(|h| h["passage"]["document_id"] == doc["id"])
            .count()
            > 3
    );
    // `documents` and `document`.
    let listed = call(&mut e, "documents", json!({"entity_id": "ana"})).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    let detail = call(
        &mut e,
        "document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    let passages = detail["passages"].as_array().unwrap();
    assert_eq!(passages.len() as u64, n);
    assert!(passages
        .windows(2)
        .all(|w| w[0]["position"].as_u64() < w[1]["position"].as_u64()));
    assert_eq!(passages[0]["section"], json!(["Plan 2027"]));
}

#[test]
fn the_same_text_changes_nothing_and_new_text_under_a_source_ref_replaces_it() {
    let (mut e, _) = engine();
    let text = plan();
    let first = ingest(
        &mut e,
        "ana",
        "Plan",
        &text,
        json!({"source_ref": "drive:plan"}),
    );
    let before = snapshot(&mut e, "ana");
    let again = ingest(
        &mut e,
        "ana",
        "Plan",
        &text,
        json!({"source_ref": "drive:plan"}),
    );
    assert_eq!(again["action"], "unchanged");
    assert_eq!(again["document"]["id"], first["document"]["id"]);
    assert_eq!(
        snapshot(&mut e, "ana"),
        before,
        "an unchanged ingest writes nothing"
    );
    let new_text = text.replace("the new data centre in Porto", "the new office in Braga");
    let replaced = ingest(
        &mut e,
        "ana",
        "Plan",
        &new_text,
        json!({"source_ref": "drive:plan"}),
    );
    assert_eq!(replaced["action"], "replaced");
    assert_eq!(replaced["replaced"], first["document"]["id"]);
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "Q4 budget priorities"}),
    )
    .unwrap();
    assert!(
        hits[0]["memory"]["content"]
            .as_str()
            .unwrap()
            .contains("Braga"),
        "{hits}"
    );
    assert!(hits
        .as_array()
        .unwrap()
        .iter()
        .all(|h| !h["memory"]["content"].as_str().unwrap().contains("Porto")));
    let live = call(&mut e, "documents", json!({"entity_id": "ana"})).unwrap();
    assert_eq!(live.as_array().unwrap().len(), 1);
    let all = call(
        &mut e,
        "documents",
        json!({"entity_id": "ana", "all": true}),
    )
    .unwrap();
    let old = all
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == first["document"]["id"])
        .unwrap();
    assert_eq!(old["status"], "superseded");
    assert_eq!(old["superseded_by"], replaced["document"]["id"]);
    // The old passages keep their history.
    let old_detail = call(
        &mut e,
        "document",
        json!({"entity_id": "ana", "id": first["document"]["id"]}),
    )
    .unwrap();
    let old_passage = old_detail["passages"][0]["memory_id"].clone();
    let history = call(
        &mut e,
        "status_history",
        json!({"entity_id": "ana", "id": old_passage}),
    )
    .unwrap();
    assert_eq!(history[0]["new"], "superseded");
}

#[test]
fn forgetting_a_document_forgets_its_passages_and_export_import_carries_it_whole() {
    let (mut e, _) = engine();
    let text = plan();
    let doc =
        ingest(&mut e, "ana", "Plan", &text, json!({"filename": "plan.md"}))["document"].clone();
    e.seed(vec![mem("ana", "Ana drinks green tea")]).unwrap();
    let jsonl = e.export_jsonl("ana").unwrap();
    let (mut other, _) = engine();
    other.import_jsonl(jsonl.as_bytes()).unwrap();
    assert_eq!(
        other.export_jsonl("ana").unwrap(),
        jsonl,
        "an export imports byte for byte"
    );
    let detail = call(
        &mut other,
        "document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    assert_eq!(detail["document"], doc);
    let hits = call(
        &mut other,
        "search",
        json!({"entity_id": "ana", "query": "Q4 budget priorities"}),
    )
    .unwrap();
    assert_eq!(
        hits[0]["passage"]["section"],
        json!(["Plan 2027", "Budget", "Q4"])
    );

    let forgotten = call(
        &mut e,
        "forget_document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    assert!(forgotten["deleted_at"].is_number());
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "Q4 budget priorities", "min_score": 0}),
    )
    .unwrap();
    assert!(
        hits.as_array()
            .unwrap()
            .iter()
            .all(|h| h["memory"]["kind"] != "passage"),
        "{hits}"
    );
    assert!(call(&mut e, "documents", json!({"entity_id": "ana"}))
        .unwrap()
        .as_array()
        .unwrap()
        .is_empty());
    // Only a document's own passages came with it, and only its own owner's.
    let mut tampered: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = tampered
        .iter_mut()
        .find(|r| r.get("document").is_some())
        .unwrap();
    first["document"]["document"]["entity_id"] = json!("bob");
    let bad = tampered
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    let (mut third, _) = engine();
    assert!(third.import_jsonl(bad.as_bytes()).is_err());
    assert!(
        third.export_jsonl("ana").unwrap().is_empty(),
        "a refused import writes nothing"
    );
}

#[test]
fn owners_and_agents_never_see_another_s_documents() {
    let (mut e, _) = engine();
    let text = plan();
    let doc =
        ingest(&mut e, "ana", "Plan", &text, json!({"agent_id": "planner"}))["document"].clone();
    // Another owner.
    let bob = call(
        &mut e,
        "search",
        json!({"entity_id": "bob", "query": "Q4 budget priorities", "min_score": 0}),
    )
    .unwrap();
    assert!(bob.as_array().unwrap().is_empty());
    assert!(call(&mut e, "documents", json!({"entity_id": "bob"}))
        .unwrap()
        .as_array()
        .unwrap()
        .is_empty());
    let err = call(
        &mut e,
        "document",
        json!({"entity_id": "bob", "id": doc["id"]}),
    )
    .unwrap_err();
    assert_eq!(err.code(), "not_found");
    let err = call(
        &mut e,
        "forget_document",
        json!({"entity_id": "bob", "id": doc["id"]}),
    )
    .unwrap_err();
    assert_eq!(err.code(), "not_found");
    // Another agent of the same owner: a private document is the planner's.
    let other = json!({"entity_id": "ana", "agent_id": "writer"});
    let mut q = other.clone();
    q["query"] = json!("Q4 budget priorities");
    q["min_score"] = json!(0);
    assert!(call(&mut e, "search", q)
        .unwrap()
        .as_array()
        .unwrap()
        .is_empty());
    assert!(call(&mut e, "documents", other.clone())
        .unwrap()
        .as_array()
        .unwrap()
        .is_empty());
    let mut r = other.clone();
    r["id"] = doc["id"].clone();
    assert_eq!(
        call(&mut e, "document", r.clone()).unwrap_err().code(),
        "not_found"
    );
    assert_eq!(
        call(&mut e, "forget_document", r).unwrap_err().code(),
        "not_found"
    );
    let mut own =
        json!({"entity_id": "ana", "agent_id": "planner", "query": "Q4 budget priorities"});
    assert!(!call(&mut e, "search", own.clone())
        .unwrap()
        .as_array()
        .unwrap()
        .is_empty());
    own["id"] = doc["id"].clone();
    own.as_object_mut().unwrap().remove("query");
    assert_eq!(
        call(&mut e, "document", own).unwrap()["document"]["id"],
        doc["id"]
    );
    // A global document is everyone's to read, and only its writer's (or the owner's) to forget.
    let shared = ingest(
        &mut e,
        "ana",
        "Handbook",
        "# Handbook\n\nThe office opens at nine.",
        json!({"agent_id": "planner", "visibility": "global"}),
    )["document"]
        .clone();
    let mut r = other.clone();
    r["id"] = shared["id"].clone();
    assert_eq!(
        call(&mut e, "document", r.clone()).unwrap()["document"]["title"],
        "Handbook"
    );
    assert_eq!(
        call(&mut e, "forget_document", r).unwrap_err().code(),
        "invalid_input"
    );
}

#[test]
fn passages_are_never_merged_with_or_into_memories() {
    let (mut e, _) = engine();
    let text = "The office opens at nine and closes at six.";
    ingest(&mut e, "ana", "Handbook", text, json!({}));
    // The same words said as a memory are a memory of their own.
    let r = e.seed(vec![mem("ana", text)]).unwrap();
    assert!(matches!(r.outcomes[0], Outcome::Created { .. }), "{r:?}");
    let seeded = r.outcomes[0].id().unwrap().to_string();
    // Said again, it is a duplicate of that memory, never of the passage.
    let r = call(
        &mut e,
        "remember",
        json!({"entity_id": "ana", "content": text}),
    )
    .unwrap();
    assert_eq!(r["outcomes"][0]["action"], "skipped", "{r}");
    assert_eq!(r["outcomes"][0]["existing"], seeded.as_str(), "{r}");
    // Nobody writes a passage but ingest.
    let msg = refused(
        &mut e,
        "seed",
        r#"{"items": [{"entity_id": "ana", "content": "x", "kind": "passage"}]}"#,
    );
    assert!(msg.contains("kind") && msg.contains("ingest"), "{msg}");
    let doc = call(&mut e, "documents", json!({"entity_id": "ana"})).unwrap()[0].clone();
    let detail = call(
        &mut e,
        "document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    let pid = detail["passages"][0]["memory_id"].clone();
    let msg = refused(
        &mut e,
        "update",
        &json!({"entity_id": "ana", "id": pid, "patch": {"content": "changed"}}).to_string(),
    );
    assert!(msg.contains("ingest the document again"), "{msg}");
}

#[test]
fn bad_documents_are_refused_by_name_and_write_nothing() {
    let (mut e, _) = engine();
    ingest(&mut e, "ana", "Notes", "Ana drinks green tea.", json!({}));
    let before = snapshot(&mut e, "ana");
    let cases = [
        (
            json!({"entity_id": "ana", "title": "T", "content": ""}),
            "content",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": " \n\t "}),
            "content",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "bin\u{0}ary"}),
            "content",
        ),
        (
            json!({"entity_id": "ana", "title": "", "content": "text"}),
            "title",
        ),
        (
            json!({"entity_id": "ana", "title": "two\nlines", "content": "text"}),
            "title",
        ),
        (
            json!({"entity_id": "ana", "title": "x".repeat(513), "content": "text"}),
            "title",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": 42}),
            "content",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text", "source": "fax"}),
            "source",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text", "chunking": {"min_chars": 10}}),
            "chunking.min_chars",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text", "chunking": {"overlap": 9000}}),
            "chunking.overlap",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text", "tags": [""]}),
            "tags",
        ),
        (
            json!({"entity_id": "ana';DROP TABLE documents;--", "title": "T", "content": "text"}),
            "entity_id",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text", "visibility": "team"}),
            "visibility",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text", "surprise": 1}),
            "surprise",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text", "format": "pdf"}),
            "format",
        ),
        (
            json!({"entity_id": "ana", "content": "<script>steal()</script><style>p{}</style>",
                   "format": "html"}),
            "content",
        ),
        (
            json!({"entity_id": "ana", "content": "<p>  <!-- nothing --> </p>", "mime": "text/html"}),
            "content",
        ),
    ];
    for (args, field) in cases {
        let err = call(&mut e, "ingest", args.clone()).expect_err(&args.to_string());
        assert!(
            matches!(err.code(), "invalid_input" | "unknown_value"),
            "{args}: {err}"
        );
        assert!(err.to_string().contains(field), "{args}: {err}");
    }
    let huge = "word ".repeat(2_000_001);
    let err = call(
        &mut e,
        "ingest",
        json!({"entity_id": "ana", "title": "Huge", "content": huge}),
    )
    .unwrap_err();
    assert!(err.to_string().contains("10000000 characters"), "{err}");
    assert_eq!(snapshot(&mut e, "ana"), before);
    assert_eq!(
        call(&mut e, "documents", json!({"entity_id": "ana"}))
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Unicode and markup are stored as given.
    let r = ingest(
        &mut e,
        "ana",
        "Zoë's café — naïve résumé 🍵",
        "# Café\n\n数据库很快. Zoë's résumé is naïve.",
        json!({}),
    );
    assert_eq!(r["document"]["title"], "Zoë's café — naïve résumé 🍵");
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "résumé"}),
    )
    .unwrap();
    assert_eq!(hits[0]["passage"]["section"], json!(["Café"]));
}

/// A web page as a reader sees it: its title, its sections, its list and table.
fn page() -> String {
    let filler = |topic: &str| {
        (0..10)
            .map(|i| format!("<p>The {topic} note {i} records what was agreed &amp; why.</p>"))
            .collect::<String>()
    };
    format!(
        "<!doctype html><html><head><title>Office move &ndash; 2027</title>\
         <script>var token = 'zebra-secret-4411';</script><style>.x {{ color: red }}</style></head>\
         <body><nav><a href=\"/\">Home</a> <a href=\"/zebra\">Zebra menu</a></nav>\
         <h1>Office move</h1>{}<h2>Timeline</h2><p>The movers come on <b>Tuesday 3 March</b>; \
         the keys are handed over at noon.</p><ul><li>Pack the lab</li><li>Label the boxes</li></ul>\
         <h2>Costs</h2><table><tr><th>Item</th><th>Cost</th></tr><tr><td>Movers</td><td>4,000</td></tr></table>\
         <div hidden>zebra hidden draft</div>{}</body></html>",
        filler("planning"),
        filler("closing")
    )
}

#[test]
fn an_html_page_is_read_as_its_reader_sees_it() {
    let (mut e, _) = engine();
    let html = page();
    let r = call(
        &mut e,
        "ingest",
        json!({"entity_id": "ana", "content": html, "filename": "move.html"}),
    )
    .unwrap();
    let doc = &r["document"];
    assert_eq!(doc["format"], "html", "{doc}");
    assert_eq!(doc["title"], "Office move – 2027", "the page's <title>");
    let detail = call(
        &mut e,
        "document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    let text: String = detail["passages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["content"].as_str().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    for gone in ["zebra", "token", "color", "Home", "<", "&amp;"] {
        assert!(!text.contains(gone), "{gone:?} in {text}");
    }
    assert!(text.contains("| Movers | 4,000 |"), "{text}");
    assert!(text.contains("- Pack the lab"), "{text}");
    assert!(text.contains("agreed & why"), "{text}");
    // Found to the section its heading names; code and hidden text are not found at all.
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "when do the movers come"}),
    )
    .unwrap();
    assert_eq!(
        hits[0]["passage"]["section"],
        json!(["Office move", "Timeline"]),
        "{hits}"
    );
    let none = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "zebra secret token"}),
    )
    .unwrap();
    assert_eq!(none, json!([]), "{none}");
    // The same page again is the same document; as text it would be another.
    let again = call(
        &mut e,
        "ingest",
        json!({"entity_id": "ana", "content": html, "mime": "text/html; charset=utf-8"}),
    )
    .unwrap();
    assert_eq!(again["action"], "unchanged", "{again}");
}

#[test]
fn a_document_without_a_title_takes_one_from_itself() {
    let (mut e, _) = engine();
    let title = |e: &mut Engine, args: Value| {
        let mut a = json!({"entity_id": "ana"});
        a.as_object_mut()
            .unwrap()
            .extend(args.as_object().unwrap().clone());
        call(e, "ingest", a).unwrap()["document"]["title"].clone()
    };
    assert_eq!(
        title(
            &mut e,
            json!({"content": "Intro line.\n\n## Setup\n\nSteps."})
        ),
        "Setup",
        "a markdown heading"
    );
    assert_eq!(
        title(
            &mut e,
            json!({"content": "# not a heading\nWords.", "filename": "notes.txt"})
        ),
        "notes.txt",
        "plain text (by its extension) has no headings: the file's name"
    );
    assert_eq!(
        title(&mut e, json!({"content": "\n  First line here.\nSecond."})),
        "First line here.",
        "no heading, no file: the first line"
    );
    let long = format!("{} end.", "word ".repeat(60));
    let t = title(&mut e, json!({"content": long}));
    let t = t.as_str().unwrap();
    assert!(t.ends_with('…') && t.chars().count() <= 100, "{t}");
}

#[test]
fn summaries_are_the_sentences_that_stand_for_the_text() {
    let (mut e, _) = engine();
    let topical = [
        "The data centre in Porto needs new racks before the winter.",
        "Cooling for the Porto data centre is the largest part of the budget.",
        "We agreed to move the backup servers to the Porto data centre in March.",
        "The security audit of the data centre starts once the racks are in.",
        "Power for the new racks in the data centre comes from two suppliers.",
        "Ana owns the data centre move and reports on it every week.",
    ];
    let transcript = format!(
        "Good morning everyone, thanks for joining so early today.\nCan everybody hear me alright on the line?\n{}\n",
        topical.join("\n")
    );
    let r = ingest(
        &mut e,
        "ana",
        "Weekly call",
        &transcript,
        json!({"format": "text"}),
    );
    let doc = &r["document"];
    let summary = doc["summary"].as_str().unwrap();
    assert!(!summary.is_empty(), "{doc}");
    assert!(
        !summary.contains("Good morning") && !summary.contains("hear me"),
        "{summary}"
    );
    let taken: Vec<&str> = topical
        .iter()
        .copied()
        .filter(|s| summary.contains(s))
        .collect();
    assert!((2..=3).contains(&taken.len()), "{summary} / {doc}");
    // Each passage's summary is made of its own sentences, and search shows it.
    let detail = call(
        &mut e,
        "document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    for p in detail["passages"].as_array().unwrap() {
        let (s, content) = (
            p["summary"].as_str().unwrap(),
            p["content"].as_str().unwrap(),
        );
        assert!(!s.is_empty(), "{p}");
        for sentence in mnemo_core::document::summary::sentences(s) {
            assert!(
                content.contains(&sentence),
                "{sentence:?} not in {content:?}"
            );
        }
    }
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "cooling budget", "kinds": ["passage"]}),
    )
    .unwrap();
    assert_eq!(
        hits[0]["passage"]["summary"],
        detail["passages"][hits[0]["passage"]["position"].as_u64().unwrap() as usize]["summary"]
    );
    // New text, new summary.
    let moved = ingest(
        &mut e,
        "ana",
        "Weekly call",
        "The office party moves to Friday evening at the harbour restaurant.\nEverybody brings a dish to share with the team.",
        json!({"format": "text"}),
    );
    assert_ne!(moved["document"]["summary"], doc["summary"]);
    assert!(moved["document"]["summary"]
        .as_str()
        .unwrap()
        .contains("office party"));
}

#[test]
fn a_document_is_one_new_memory_to_the_heartbeat_however_many_passages_it_has() {
    let (mut e, _) = engine();
    let r = ingest(&mut e, "ana", "Plan", &plan(), json!({}));
    assert!(r["document"]["passages"].as_u64().unwrap() >= 4, "{r}");
    e.seed(vec![mem("ana", "Ana prefers window seats on long flights")])
        .unwrap();
    let beat = call(
        &mut e,
        "heartbeat_check",
        json!({"entity_id": "ana", "dry_run": true}),
    )
    .unwrap();
    assert_eq!(beat["memory_velocity"], 2, "{beat}");
}

/// What a host LLM was asked: each call's instructions and text.
type Asked = std::rc::Rc<std::cell::RefCell<Vec<(String, String)>>>;

/// An engine whose host LLM answers summary requests with `answer(instructions, text)`, and a
/// log of what it was asked.
fn with_llm(
    answer: impl Fn(&str, &str) -> std::result::Result<String, String> + 'static,
) -> (Engine, Asked) {
    let log = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let asked = log.clone();
    let e = Engine::builder(ManualClock::new(T0))
        .extractor(LlmExtractor(move |instructions: &str, text: &str, _now| {
            asked
                .borrow_mut()
                .push((instructions.to_string(), text.to_string()));
            Some(answer(instructions, text))
        }))
        .open_in_memory()
        .unwrap();
    (e, log)
}

fn consolidation(e: &mut Engine) -> Value {
    let report = call(e, "consolidate", json!({})).unwrap();
    report["consolidation"]["summaries"].clone()
}

#[test]
fn the_host_s_llm_rewrites_summaries_in_consolidation_checked_and_bounded() {
    // An LLM that summarises a passage by its section and a document by its title.
    let (mut e, log) = with_llm(|instructions, text| {
        let first = text.lines().next().unwrap_or("").to_string();
        Ok(if instructions.contains("one passage") {
            let section = text.lines().nth(1).unwrap_or("").replace("Section: ", "");
            json!({"summary": format!("The passage on {section}.")}).to_string()
        } else {
            json!({"summary": format!("{first} sets out the year.")}).to_string()
        })
    });
    let doc = ingest(&mut e, "ana", "Plan", &plan(), json!({}))["document"].clone();
    let id = doc["id"].clone();
    assert_eq!(doc["summary_by"], "sentences");
    let passages = doc["passages"].as_u64().unwrap() as usize;
    assert!(log.borrow().is_empty(), "an ingest never waits on the LLM");

    let report = consolidation(&mut e);
    assert_eq!(report["passages"], passages, "{report}");
    assert_eq!(report["documents"], 1);
    assert_eq!(report["failure"], Value::Null);
    let detail = call(&mut e, "document", json!({"entity_id": "ana", "id": id})).unwrap();
    assert_eq!(
        detail["document"]["summary"],
        "Document: Plan sets out the year."
    );
    assert_eq!(detail["document"]["summary_by"], "llm");
    let q4 = detail["passages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["content"].as_str().unwrap().contains("Q4 budget"))
        .unwrap();
    assert_eq!(q4["summary"], "The passage on Plan 2027 > Budget > Q4.");
    assert_eq!(q4["summary_by"], "llm");
    // The document's summary was asked from its passages' summaries, not its whole text.
    let asked_document = log.borrow().last().unwrap().1.clone();
    assert!(
        asked_document.contains("1. The passage on Plan 2027."),
        "{asked_document}"
    );
    // A search shows the passage's new summary (the cached search was emptied).
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "Q4 budget priorities"}),
    )
    .unwrap();
    assert_eq!(hits[0]["passage"]["summary"], q4["summary"]);
    // Nothing is asked twice; an export carries who wrote each summary, byte for byte.
    let calls = log.borrow().len();
    assert_eq!(consolidation(&mut e)["passages"], 0);
    assert_eq!(log.borrow().len(), calls);
    let jsonl = e.export_jsonl("ana").unwrap();
    let (mut other, _) = engine();
    other.import_jsonl(jsonl.as_bytes()).unwrap();
    assert_eq!(other.export_jsonl("ana").unwrap(), jsonl);
    assert!(jsonl.contains(r#""summary_by":"llm""#));

    // A long document is rewritten a bounded number of calls per run.
    let long: String = (0..60)
        .map(|i| format!("## Part {i}\n\nPart {i} of the manual explains the steps of procedure {i} in full detail for every operator on shift.\n\n"))
        .collect();
    let long_doc = ingest(&mut e, "ana", "Manual", &long, json!({}))["document"].clone();
    assert!(long_doc["passages"].as_u64().unwrap() > 16);
    let before = log.borrow().len();
    let report = consolidation(&mut e);
    assert_eq!(log.borrow().len() - before, 16, "{report}");
    assert_eq!(report["more"], true);
}

#[test]
fn an_llm_summary_that_fails_its_checks_leaves_the_engine_s_in_place() {
    for (answer, why) in [
        (
            Ok("Sure! Here is a summary.".to_string()),
            "not the summary JSON",
        ),
        (Ok(r#"{"summary": "  "}"#.to_string()), "is empty"),
        (
            Ok(json!({"summary": "One. Two. Three. Four."}).to_string()),
            "sentences, more than 2",
        ),
        (
            Ok(json!({"summary": "x".repeat(600)}).to_string()),
            "characters, more than 480",
        ),
        (
            Err("connection refused".to_string()),
            "the LLM failed (connection refused)",
        ),
    ] {
        let (mut e, log) = with_llm(move |_, _| answer.clone());
        let doc = ingest(&mut e, "ana", "Plan", &plan(), json!({}))["document"].clone();
        let before = call(
            &mut e,
            "document",
            json!({"entity_id": "ana", "id": doc["id"]}),
        )
        .unwrap();
        let report = consolidation(&mut e);
        assert!(
            report["failure"].as_str().unwrap().contains(why),
            "{report}"
        );
        assert_eq!(
            (report["passages"].clone(), report["more"].clone()),
            (json!(0), json!(false))
        );
        assert_eq!(
            log.borrow().len(),
            1,
            "a failure ends the step for this run"
        );
        let after = call(
            &mut e,
            "document",
            json!({"entity_id": "ana", "id": doc["id"]}),
        )
        .unwrap();
        assert_eq!(after, before, "{why}");
    }
    // A summary no shorter than its passage is no summary.
    let (mut e, _) =
        with_llm(|_, text| Ok(json!({"summary": text.lines().last().unwrap_or("")}).to_string()));
    ingest(
        &mut e,
        "ana",
        "Note",
        "A short note about the garden shed and its key.",
        json!({}),
    );
    let report = consolidation(&mut e);
    assert!(
        report["failure"]
            .as_str()
            .unwrap()
            .contains("no shorter than its text"),
        "{report}"
    );
    // Without an LLM the step changes nothing: it lists what waits for one.
    let (mut e, _) = engine();
    let doc = ingest(&mut e, "ana", "Plan", &plan(), json!({}))["document"].clone();
    let report = consolidation(&mut e);
    assert_eq!(
        (
            &report["passages"],
            &report["documents"],
            &report["failure"]
        ),
        (&json!(0), &json!(0), &json!(null))
    );
    assert_eq!(
        report["wanted"].as_array().unwrap().len(),
        doc["passages"].as_u64().unwrap() as usize
    );
}

/// Writes `summary` for `document_id` (`position`: of that passage) as `owner` (`agent`).
fn write_summary(
    e: &mut Engine,
    owner: &str,
    agent: Option<&str>,
    document_id: &Value,
    position: Option<usize>,
    summary: &str,
) -> Result<Value> {
    let mut args = json!({"entity_id": owner, "document_id": document_id, "summary": summary});
    if let Some(at) = position {
        args["position"] = json!(at);
    }
    if let Some(agent) = agent {
        args["agent_id"] = json!(agent);
    }
    call(e, "write_summary", args)
}

#[test]
fn a_host_whose_llm_answers_later_gets_what_is_wanted_and_writes_it_checked() {
    let (mut e, _) = engine();
    let doc = ingest(&mut e, "ana", "Plan", &plan(), json!({}))["document"].clone();
    let id = doc["id"].clone();
    let n = doc["passages"].as_u64().unwrap() as usize;
    // What a consolidation without an LLM lists: each passage, with its text and section.
    let wanted = consolidation(&mut e)["wanted"].clone();
    let first = &wanted[0];
    assert_eq!(
        (
            &first["entity_id"],
            &first["document_id"],
            &first["position"]
        ),
        (&json!("ana"), &id, &json!(0))
    );
    let detail = call(&mut e, "document", json!({"entity_id": "ana", "id": id})).unwrap();
    assert_eq!(first["texts"][0], detail["passages"][0]["content"]);
    assert_eq!(first["section"], detail["passages"][0]["section"]);
    let unchanged = detail.clone();

    // Bad input is refused by name, and changes nothing.
    let beyond = format!("has {n} passages");
    let refused: Vec<(Result<Value>, &str)> = vec![
        (
            write_summary(&mut e, "ana", None, &id, Some(0), ""),
            "summary is empty",
        ),
        (
            write_summary(&mut e, "ana", None, &id, Some(0), " \n\t "),
            "summary is empty",
        ),
        (
            write_summary(&mut e, "ana", None, &id, Some(0), "One. Two. Three."),
            "3 sentences, more than 2",
        ),
        (
            write_summary(&mut e, "ana", None, &id, None, "A. B. C. D."),
            "4 sentences, more than 3",
        ),
        (
            write_summary(&mut e, "ana", None, &id, Some(0), &"é".repeat(481)),
            "481 characters, more than 480",
        ),
        (
            write_summary(&mut e, "ana", None, &id, Some(n), "Fine."),
            &beyond,
        ),
        (
            write_summary(&mut e, "ana", None, &json!("no-such-doc"), Some(0), "Fine."),
            "no-such-doc",
        ),
        // Another owner's document does not exist for this one.
        (
            write_summary(&mut e, "bob", None, &id, Some(0), "Fine."),
            "no document",
        ),
        // An agent does not see the owner's own documents.
        (
            write_summary(&mut e, "ana", Some("scout"), &id, Some(0), "Fine."),
            "no document",
        ),
    ];
    for (result, why) in refused {
        let err = result.expect_err(why).to_string();
        assert!(err.contains(why), "{why}: {err}");
    }
    for args in [
        json!({"entity_id": "ana", "document_id": id, "position": -1, "summary": "Fine."}),
        json!({"entity_id": "ana", "document_id": id, "position": 0.5, "summary": "Fine."}),
        json!({"entity_id": "ana", "document_id": id, "position": "0", "summary": "Fine."}),
        json!({"entity_id": "ana", "document_id": id, "summary": 7}),
        json!({"entity_id": "ana", "document_id": id}),
        json!({"entity_id": "ana", "document_id": id, "summary": "Fine.", "by": "me"}),
        json!({"entity_id": "a b", "document_id": id, "summary": "Fine."}),
    ] {
        let err = call(&mut e, "write_summary", args.clone()).expect_err(&args.to_string());
        assert_eq!(err.code(), "invalid_input", "{args}: {err}");
    }
    let detail = call(&mut e, "document", json!({"entity_id": "ana", "id": id})).unwrap();
    assert_eq!(detail, unchanged);

    // Each passage's summary written, as text (quotes and markup kept as given), by the LLM.
    for at in 0..n {
        let summary =
            format!("Part {at}: the \"plan\" <b>'; DROP TABLE passages; --</b> — ünïcode.");
        let doc = write_summary(&mut e, "ana", None, &id, Some(at), &summary).unwrap();
        assert_eq!(doc["id"], id);
    }
    let detail = call(&mut e, "document", json!({"entity_id": "ana", "id": id})).unwrap();
    for (at, p) in detail["passages"].as_array().unwrap().iter().enumerate() {
        assert!(p["summary"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Part {at}: the \"plan\"")));
        assert_eq!(p["summary_by"], "llm");
    }
    // Then the document's own is wanted, from its passages' summaries, and written.
    let wanted = consolidation(&mut e)["wanted"].clone();
    assert_eq!(wanted.as_array().unwrap().len(), 1, "{wanted}");
    assert_eq!(
        (
            &wanted[0]["position"],
            wanted[0]["texts"].as_array().unwrap().len()
        ),
        (&json!(null), n)
    );
    let doc = write_summary(
        &mut e,
        "ana",
        None,
        &id,
        None,
        "  The 2027 plan, its budget and hires.  ",
    )
    .unwrap();
    assert_eq!(
        (&doc["summary"], &doc["summary_by"]),
        (
            &json!("The 2027 plan, its budget and hires."),
            &json!("llm")
        )
    );
    assert_eq!(
        consolidation(&mut e).get("wanted"),
        None,
        "nothing is wanted any more"
    );

    // An agent writes the summaries of documents it stored, not those another shares with it.
    let shared = ingest(
        &mut e,
        "ana",
        "Field notes",
        &plan(),
        json!({"agent_id": "scout", "visibility": "global"}),
    )["document"]["id"]
        .clone();
    let err = write_summary(&mut e, "ana", Some("rover"), &shared, Some(0), "Fine.").unwrap_err();
    assert!(err.to_string().contains("another agent"), "{err}");
    write_summary(
        &mut e,
        "ana",
        Some("scout"),
        &shared,
        Some(0),
        "Scout's notes.",
    )
    .unwrap();

    // A forgotten document's summaries are not written.
    call(
        &mut e,
        "forget_document",
        json!({"entity_id": "ana", "id": id}),
    )
    .unwrap();
    let err = write_summary(&mut e, "ana", None, &id, None, "Gone.").unwrap_err();
    assert!(err.to_string().contains("forgotten or superseded"), "{err}");
}

#[test]
fn the_texts_ingest_embeds_are_known_before_it_runs() {
    // A store whose vectors come from the host, which hands them over ahead of the call.
    let supplied = SuppliedVectors::new(embed::HASH_MODEL, embed::HASH_DIM);
    let on_hand = supplied.on_hand();
    let mut e = Engine::builder(ManualClock::new(T0))
        .embedder(supplied)
        .open_in_memory()
        .unwrap();
    let mut reference = Engine::builder(ManualClock::new(T0))
        .embedder(HashEmbedder::default())
        .open_in_memory()
        .unwrap();
    let hash = HashEmbedder::default();
    let code = "Setup notes.\n\n```sh\ncargo build --release\ncargo test\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nThe end. The end.";
    let documents = [
        json!({"entity_id": "ana", "title": "Plan", "content": plan()}),
        json!({"entity_id": "ana", "content": page(), "format": "html"}),
        json!({"entity_id": "ana", "content": plan(), "format": "text", "source_ref": "plain",
               "chunking": {"min_chars": 200, "max_chars": 400, "overlap": 40}}),
        json!({"entity_id": "ana", "title": "Code", "content": code}),
    ];
    for args in documents {
        let texts = e.texts_to_embed("ingest", &args.to_string()).unwrap();
        assert!(!texts.is_empty());
        // Without the vectors handed over, nothing is stored; with them, every one is used
        // and the document is what the engine's own embedder makes of it.
        on_hand.hand(Vec::new(), &[]).unwrap();
        let count = |e: &mut Engine| {
            let all = json!({"entity_id": "ana", "all": true});
            call(e, "documents", all).unwrap().as_array().unwrap().len()
        };
        let before = count(&mut e);
        let refused = call(&mut e, "ingest", args.clone()).unwrap_err();
        assert_eq!(refused.code(), "embedder_error", "{refused}");
        assert_eq!(count(&mut e), before, "a refused ingest writes nothing");
        let flat: Vec<f32> = texts.iter().flat_map(|t| hash.embed(t).unwrap()).collect();
        on_hand.hand(texts.clone(), &flat).unwrap();
        let stored = call(&mut e, "ingest", args.clone()).unwrap();
        let own = call(&mut reference, "ingest", args.clone()).unwrap();
        assert_eq!(stored["document"]["summary"], own["document"]["summary"]);
        assert_eq!(stored["document"]["passages"], own["document"]["passages"]);
        let id = stored["document"]["id"].as_str().unwrap();
        call(
            &mut e,
            "forget_document",
            json!({"entity_id": "ana", "id": id}),
        )
        .unwrap();
        call(
            &mut reference,
            "forget_document",
            json!({"entity_id": "ana", "id": own["document"]["id"]}),
        )
        .unwrap();
    }
    // Vectors handed over are checked as a call's are; a bad hand changes nothing.
    let texts = vec!["a".to_string(), "b".to_string()];
    let short = on_hand.hand(texts.clone(), &[0.5; 3]);
    assert!(short.unwrap_err().to_string().contains("2 texts"));
    let mut nan = vec![0.5; 2 * embed::HASH_DIM];
    nan[embed::HASH_DIM + 7] = f32::NAN;
    let refused = on_hand.hand(texts, &nan);
    assert_eq!(refused.unwrap_err().code(), "non_finite_vector");
    // Bad arguments are named as `ingest` names them.
    let bad = e
        .texts_to_embed("ingest", r#"{"entity_id": "ana", "content": "  "}"#)
        .unwrap_err();
    assert!(bad.to_string().contains("content"), "{bad}");
    assert!(e.texts_to_embed("ingest", "not json").is_err());
}

/// The tiers of a document's passages, in order (not an access).
fn passage_tiers(e: &mut Engine, owner: &str, document: &Value) -> Vec<Tier> {
    let detail = call(
        e,
        "document",
        json!({"entity_id": owner, "id": document["id"]}),
    )
    .unwrap();
    let ids: Vec<String> = detail["passages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["memory_id"].as_str().unwrap().to_string())
        .collect();
    let all = all_states(e, owner);
    ids.iter()
        .map(|id| all.iter().find(|m| &m.id == id).unwrap().tier)
        .collect()
}

/// A document is tiered as one memory: its passages move together, down when the whole
/// document has been idle, up as soon as one of them is found; they are not related to each
/// other by the tags the document gave them all.
#[test]
fn a_large_document_s_passages_find_partners_outside_it_by_tag() {
    let (mut e, _) = engine();
    // Said before the document: older than every one of its passages.
    let outside = seed_one(
        &mut e,
        NewMemory {
            tags: tags(&["orchard"]),
            ..mem("ana", "The orchard needs a new gate before the autumn")
        },
    );
    let sections: Vec<String> = (0..130)
        .map(|i| format!("## Row {i}\n\nRow {i} holds {} trees, planted in year {}, pruned every winter by hand and picked in the first week of October.", 10 + i, 1990 + i))
        .collect();
    let doc = ingest(
        &mut e,
        "ana",
        "Orchard rows",
        &sections.join("\n\n"),
        json!({"tags": ["orchard"], "chunking": {"min_chars": 100, "max_chars": 220, "overlap": 20}}),
    )["document"]
        .clone();
    let n = doc["passages"].as_u64().unwrap();
    assert!(
        n > 100,
        "more passages than the partners looked at per tag: {doc}"
    );
    e.consolidate().unwrap();
    let detail = call(
        &mut e,
        "document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    let last = detail["passages"][n as usize - 1]["memory_id"].clone();
    let related = call(&mut e, "related", json!({"entity_id": "ana", "id": last})).unwrap();
    let ids: Vec<&str> = related
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["memory"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![outside.as_str()], "{related}");
}

#[test]
fn a_document_s_passages_keep_one_tier() {
    let (mut e, clock) = engine();
    let doc = ingest(
        &mut e,
        "ana",
        "Plan 2027",
        &plan(),
        json!({"tags": ["work"]}),
    )["document"]
        .clone();
    let n = doc["passages"].as_u64().unwrap() as usize;
    assert!(
        n >= 7,
        "enough passages to have linked each to six others: {doc}"
    );
    let work = seed_one(
        &mut e,
        NewMemory {
            tags: tags(&["work"]),
            ..mem("ana", "The work laptop is due for a refresh")
        },
    );
    assert_eq!(passage_tiers(&mut e, "ana", &doc), vec![Tier::Hot; n]);
    // Idle for 60 days: warm (its importance keeps it out of the archive), all of it.
    clock.advance(60 * DAY_MS);
    e.consolidate().unwrap();
    assert_eq!(passage_tiers(&mut e, "ana", &doc), vec![Tier::Warm; n]);
    // Related to the memory sharing its tag, never to another passage of itself.
    let detail = call(
        &mut e,
        "document",
        json!({"entity_id": "ana", "id": doc["id"]}),
    )
    .unwrap();
    let first = detail["passages"][0]["memory_id"]
        .as_str()
        .unwrap()
        .to_string();
    let related = call(&mut e, "related", json!({"entity_id": "ana", "id": first})).unwrap();
    let others: Vec<&str> = related
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["memory"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(others, vec![work.as_str()], "{related}");
    // One passage found: the whole document is hot again, at once.
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "Q4 budget priorities Porto", "limit": 1}),
    )
    .unwrap();
    assert_eq!(hits[0]["passage"]["document_id"], doc["id"]);
    assert_ne!(
        hits[0]["passage"]["position"], 0,
        "a passage other than the first"
    );
    e.flush().unwrap();
    assert_eq!(passage_tiers(&mut e, "ana", &doc), vec![Tier::Hot; n]);
    // Tiering again leaves it hot while that use is recent, then lowers it whole.
    e.consolidate().unwrap();
    assert_eq!(passage_tiers(&mut e, "ana", &doc), vec![Tier::Hot; n]);
    clock.advance(30 * DAY_MS);
    let tiers = e.consolidate().unwrap().consolidation.unwrap().tiers;
    assert_eq!(passage_tiers(&mut e, "ana", &doc), vec![Tier::Warm; n]);
    assert!(tiers.to_warm >= n, "{tiers:?}");
}

/// An unused document without manual tags moves to the archive tier whole once its priority
/// from use has fallen (about 50 days for a neutral one); one with manual tags stays warm;
/// reading it is not a use; a search that nothing hotter answers still finds the archived
/// one, and that brings the whole document back.
#[test]
fn an_unused_document_is_archived_whole_unless_it_has_manual_tags() {
    let (mut e, clock) = engine();
    let plain = ingest(&mut e, "ana", "Plan 2027", &plan(), json!({}))["document"].clone();
    let garden = "## Garden\n\nThe roses along the south fence need pruning in March. The pond pump is replaced every other spring.";
    let tagged =
        ingest(&mut e, "ana", "Garden", garden, json!({"tags": ["garden"]}))["document"].clone();
    let n = plain["passages"].as_u64().unwrap() as usize;
    let m = tagged["passages"].as_u64().unwrap() as usize;
    clock.advance(30 * DAY_MS);
    e.consolidate().unwrap();
    assert_eq!(passage_tiers(&mut e, "ana", &plain), vec![Tier::Warm; n]);
    clock.advance(30 * DAY_MS);
    let tiers = e.consolidate().unwrap().consolidation.unwrap().tiers;
    assert_eq!(passage_tiers(&mut e, "ana", &plain), vec![Tier::Archive; n]);
    assert_eq!(passage_tiers(&mut e, "ana", &tagged), vec![Tier::Warm; m]);
    assert!(tiers.to_archive >= n, "{tiers:?}");
    // Read again (not a use) and tiered again: still archived.
    e.consolidate().unwrap();
    assert_eq!(passage_tiers(&mut e, "ana", &plain), vec![Tier::Archive; n]);
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "Q4 budget priorities Porto", "limit": 1}),
    )
    .unwrap();
    assert_eq!(hits[0]["passage"]["document_id"], plain["id"], "{hits}");
    e.flush().unwrap();
    assert_eq!(passage_tiers(&mut e, "ana", &plain), vec![Tier::Hot; n]);
}

#[test]
fn a_question_naming_a_time_keeps_a_document_to_its_few_passages() {
    let (mut e, clock) = engine();
    // Yesterday's plan, then today's notes: a question about "today" searches today's first,
    // then everything, and the two passes together keep each document to `per_document`.
    let old = ingest(&mut e, "ana", "Plan 2027", &plan(), json!({}))["document"].clone();
    clock.advance(DAY_MS);
    let new = ingest(
        &mut e,
        "ana",
        "Plan 2028",
        &plan().replace("2027", "2028"),
        json!({}),
    )["document"]
        .clone();
    for per_document in [1, 2, 3] {
        let hits = call(
            &mut e,
            "search",
            json!({"entity_id": "ana", "query": "what review agenda and minutes did we go through today",
                   "limit": 20, "min_score": 0, "per_document": per_document}),
        )
        .unwrap();
        let of = |doc: &Value| {
            hits.as_array()
                .unwrap()
                .iter()
                .filter(|h| h["passage"]["document_id"] == doc["id"])
                .count()
        };
        assert_eq!(of(&new), per_document, "{hits}");
        assert!((1..=per_document).contains(&of(&old)), "{hits}");
        assert_eq!(
            hits[0]["passage"]["document_id"], new["id"],
            "today's first"
        );
    }
}
