//! The OpenAI-compatible embeddings provider against a real HTTP peer on loopback (a minimal
//! server speaking the `/v1/embeddings` protocol with a deterministic 8-d "model").

mod common;

use common::{embeddings, peer};
use std::process::Command;

use serde_json::{json, Value};

/// A deterministic toy model: counts of eight letters, normalised.
fn toy_vector(text: &str) -> Vec<f32> {
    let v: Vec<f32> = "aeiostnr"
        .chars()
        .map(|c| text.matches(c).count() as f32 + 0.1)
        .collect();
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter().map(|x| x / n).collect()
}

/// Serves `/v1/embeddings` on a loopback port until the test ends; `broken` answers garbage.
fn embeddings_server(broken: bool) -> String {
    let url = peer(move |_, request| match broken {
        true => (200, "not json".to_string()),
        false => (200, embeddings(&request, toy_vector)),
    });
    format!("{url}/v1")
}

/// The contents of a `list` answer's memories, in its order.
fn contents(list: &Value) -> Vec<&str> {
    list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect()
}

fn mnemo(data: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .arg("--data")
        .arg(data)
        .args(["--json", "--now", "2023-11-14T22:13:20Z"])
        .args(args)
        .env_remove("MNEMO_EMBED_URL")
        .env_remove("MNEMO_EMBED_MODEL")
        .output()
        .unwrap()
}

#[test]
fn an_openai_compatible_endpoint_embeds_writes_and_searches() {
    let url = embeddings_server(false);
    let data = std::env::temp_dir().join(format!("mnemo-provider-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let with_model = |args: &[&str]| {
        let mut all = vec!["--embed-url", url.as_str(), "--embed-model", "toy-letters"];
        all.extend_from_slice(args);
        mnemo(&data, &all)
    };
    for text in [
        "Ana drinks green tea",
        "Ben rides a bicycle to work",
        "Carla paints watercolours",
    ] {
        let out = with_model(&["seed", "--entity", "ana", text]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let stats: Value =
        serde_json::from_slice(&with_model(&["stats", "--entity", "ana"]).stdout).unwrap();
    assert_eq!(
        (
            stats["embedding_model"].as_str(),
            stats["embedding_dim"].as_u64()
        ),
        (Some("toy-letters"), Some(8))
    );
    let hits: Value =
        serde_json::from_slice(&with_model(&["search", "--entity", "ana", "green tea"]).stdout)
            .unwrap();
    assert_eq!(hits[0]["memory"]["content"], "Ana drinks green tea");
    // The similarity is the toy model's cosine: the endpoint's vectors were used.
    let (q, m) = (toy_vector("green tea"), toy_vector("Ana drinks green tea"));
    let cosine: f32 = q.iter().zip(&m).map(|(a, b)| a * b).sum();
    let got = hits[0]["why"]["vector"].as_f64().unwrap();
    assert!((got - cosine as f64).abs() < 1e-5, "{got} vs {cosine}");

    // The store remembers its model: the built-in embedder is refused.
    let out = mnemo(&data, &["stats", "--entity", "ana"]);
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("toy-letters") && text.contains("embedder_mismatch"),
        "{text}"
    );

    // A broken endpoint is a clear error, before anything is written.
    let broken = embeddings_server(true);
    let out = mnemo(
        &data,
        &[
            "--embed-url",
            &broken,
            "--embed-model",
            "toy-letters",
            "seed",
            "--entity",
            "ana",
            "x",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did not answer as expected"));
    let _ = std::fs::remove_dir_all(&data);
}

/// Serves `/v1/chat/completions` on loopback, answering from `answers` in turn (a status and
/// the message content), and records what it was asked.
fn chat_server(
    answers: Vec<(u16, &'static str)>,
) -> (String, std::sync::Arc<std::sync::Mutex<Vec<Value>>>) {
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = asked.clone();
    let answers = std::sync::Mutex::new(answers.into_iter());
    let url = peer(move |_, request| {
        log.lock().unwrap().push(request);
        let (status, content) = answers
            .lock()
            .unwrap()
            .next()
            .unwrap_or((500, "no more answers"));
        let answer = if status == 200 {
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]})
                .to_string()
        } else {
            content.to_string()
        };
        (status, answer)
    });
    (format!("{url}/v1"), asked)
}

#[test]
fn an_openai_compatible_chat_model_extracts_and_bad_answers_fall_back() {
    let (url, asked) = chat_server(vec![
        (200, r#"{"memories": [{"content": "User is a paramedic in Cork", "type": "IDENTITY", "entities": [{"name": "Cork", "type": "LOCATION"}]}]}"#),
        (200, "```json\n{\"memories\": [{\"content\": \"User prefers tea\", \"type\": \"PREFERENCE\"}]}\n```"),
        (200, "Sure! Here is what I found: the user likes hiking."),
        (200, r#"{"memories": [{"content": "x", "type": "FEELING"}]}"#),
        (500, r#"{"error": "overloaded"}"#),
    ]);
    let data = std::env::temp_dir().join(format!("mnemo-llm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let remember = |text: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_mnemo"))
            .arg("--data")
            .arg(&data)
            .args([
                "--json",
                "--now",
                "2023-11-14T22:13:20Z",
                "--llm-url",
                &url,
                "--llm-model",
                "toy-chat",
            ])
            .args(["remember", "--entity", "kai", text])
            .env_remove("MNEMO_LLM_URL")
            .env_remove("MNEMO_LLM_MODEL")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let r = remember("I'm a paramedic in Cork, have been for years");
    assert!(r.get("fallback").is_none(), "{r}");
    let r2 = remember("tea please, never coffee");
    assert!(
        r2.get("fallback").is_none(),
        "a fenced answer is fine: {r2}"
    );
    for (text, why) in [
        ("I like hiking in the hills.", "not the extraction JSON"),
        ("I prefer window seats.", "not the extraction JSON"),
        ("My sister Ana lives in Porto.", "the LLM failed"),
    ] {
        let r = remember(text);
        let note = r["fallback"]
            .as_str()
            .unwrap_or_else(|| panic!("no fallback note: {r}"));
        assert!(
            note.contains(why) && note.contains("built-in extractor"),
            "{note}"
        );
        assert_eq!(r["outcomes"][0]["action"], "created", "{r}");
    }
    let list = mnemo(
        &data,
        &[
            "call",
            "list",
            r#"{"entity_id": "kai", "oldest_first": true}"#,
        ],
    );
    let list: Value = serde_json::from_slice(&list.stdout).unwrap();
    let contents = contents(&list);
    assert_eq!(
        contents,
        [
            "User is a paramedic in Cork",
            "User prefers tea",
            "I like hiking in the hills.",
            "I prefer window seats.",
            "My sister Ana lives in Porto."
        ]
    );
    // The model was asked with the engine's schema and the user's words.
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 5);
    assert_eq!(asked[0]["model"], "toy-chat");
    assert!(asked[0]["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("\"memories\""));
    assert_eq!(
        asked[0]["messages"][1]["content"],
        "I'm a paramedic in Cork, have been for years"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// `mnemo --json ARGS` on store `data`, asking the chat model at `llm` when given (and no LLM
/// or config from the environment); its JSON answer.
fn with_chat_model(data: &std::path::Path, args: &[&str], llm: Option<&str>) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mnemo"));
    cmd.arg("--data")
        .arg(data)
        .args(["--json", "--now", "2023-11-14T22:13:20Z"])
        .env_remove("MNEMO_LLM_URL")
        .env_remove("MNEMO_LLM_MODEL")
        .env_remove("MNEMO_CONFIG");
    if let Some(url) = llm {
        cmd.args(["--llm-url", url, "--llm-model", "toy-chat"]);
    }
    let out = cmd.args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Value>(&out.stdout).unwrap()
}

#[test]
fn consolidation_asks_the_chat_model_to_summarise_a_cluster() {
    let (url, asked) = chat_server(vec![(
        200,
        r#"{"summary": "Ana drinks green tea every morning, sencha from Porto."}"#,
    )]);
    let data = std::env::temp_dir().join(format!("mnemo-llm-sum-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    // Dedup off, so the five near-duplicates are stored apart and consolidation finds them.
    let config = data.join("config.json");
    std::fs::write(&config, r#"{"dedup": {"enabled": false}}"#).unwrap();
    let run = |args: &[&str], llm: bool| {
        let config = ["--config", config.to_str().unwrap()];
        with_chat_model(
            &data,
            &[&config[..], args].concat(),
            llm.then_some(url.as_str()),
        )
    };
    let said = [
        "Ana drinks green tea every morning.",
        "Every morning Ana drinks green tea.",
        "Ana drinks a green tea every morning.",
        "Ana drinks green tea each morning.",
        "In the morning Ana drinks green tea.",
    ];
    let items: Vec<Value> = said
        .iter()
        .map(|s| json!({"entity_id": "kai", "content": s}))
        .collect();
    run(
        &["call", "seed", &json!({ "items": items }).to_string()],
        false,
    );
    let report = run(&["consolidate"], true);
    let clusters = &report["consolidation"]["clusters"];
    assert_eq!(clusters["merged"], 5, "{report}");
    assert_eq!(clusters["summarised"], 1, "{report}");
    // The model was asked with the summary instructions and the five texts, numbered.
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert!(asked[0]["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("\"summary\""));
    let texts = asked[0]["messages"][1]["content"].as_str().unwrap();
    assert!(said.iter().all(|s| texts.contains(s)), "{texts}");
    assert!(texts.starts_with("1. "), "{texts}");
    // The merged memory says what the model summarised; the members keep their words.
    let list = run(
        &[
            "call",
            "list",
            r#"{"entity_id": "kai", "statuses": ["active", "merged"]}"#,
        ],
        false,
    );
    let contents = contents(&list);
    assert!(
        contents.contains(&"Ana drinks green tea every morning, sencha from Porto."),
        "{contents:?}"
    );
    assert!(said.iter().all(|s| contents.contains(s)), "{contents:?}");
    let _ = std::fs::remove_dir_all(&data);
}

/// A chat endpoint that holds each request until the test releases it (one release per
/// request), answering `content`; what it was asked is recorded as it arrives.
fn held_chat_server(
    content: &'static str,
) -> (
    String,
    std::sync::mpsc::Sender<()>,
    std::sync::mpsc::Receiver<Value>,
) {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (arrived, asked) = std::sync::mpsc::channel::<Value>();
    let held = std::sync::Mutex::new(held);
    let url = peer(move |_, request| {
        let _ = arrived.send(request);
        let _ = held.lock().unwrap().recv();
        let answer = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]});
        (200, answer.to_string())
    });
    (format!("{url}/v1"), release, asked)
}

/// How long a test waits for something that should happen at once, before calling it hung.
const HUNG: std::time::Duration = std::time::Duration::from_secs(30);

/// Another client's seed and search are answered while a request waits on a held endpoint
/// (given `HUNG` at most: a hung server fails the test).
fn another_client_is_answered(server: &common::Server) {
    std::thread::scope(|scope| {
        let (done, answered) = std::sync::mpsc::channel();
        scope.spawn(move || {
            let seed = server.send(
                "POST",
                "/api/v1/seed",
                json!({"items": [{"entity_id": "ana", "content": "Ana's bike is blue"}]}),
            );
            let search = server.send(
                "POST",
                "/api/v1/search",
                json!({"entity_id": "ana", "query": "bike"}),
            );
            let _ = done.send((seed, search));
        });
        let ((seed_status, seed), (search_status, hits)) = answered
            .recv_timeout(HUNG)
            .expect("another client's seed and search are answered meanwhile");
        assert_eq!(seed_status, 200, "{seed}");
        assert_eq!(search_status, 200, "{hits}");
        assert!(hits.to_string().contains("Ana's bike is blue"), "{hits}");
    });
}

#[test]
fn a_slow_llm_holds_up_only_the_request_that_waits_for_it() {
    let (url, release, asked) = held_chat_server(
        r#"{"memories": [{"content": "User is a paramedic in Cork", "type": "IDENTITY"}]}"#,
    );
    let server = common::Server::start_with(
        "slow-llm",
        None,
        &["--llm-url", &url, "--llm-model", "toy-chat"],
        None,
    );
    std::thread::scope(|scope| {
        let remembering = scope.spawn(|| {
            server.send(
                "POST",
                "/api/v1/remember",
                json!({"entity_id": "ana", "content": "I'm a paramedic in Cork"}),
            )
        });
        // The LLM has the question and is holding it.
        let question = asked.recv_timeout(HUNG).expect("the LLM was asked");
        assert_eq!(
            question["messages"][1]["content"],
            "I'm a paramedic in Cork"
        );
        // Meanwhile other clients' reads and writes are answered.
        another_client_is_answered(&server);
        assert!(
            asked.try_recv().is_err(),
            "nothing else asked the LLM meanwhile"
        );
        release.send(()).unwrap();
        let (status, report) = remembering.join().unwrap();
        assert_eq!(status, 200, "{report}");
        assert!(report.get("fallback").is_none(), "{report}");
    });
    // The engine used the answer fetched ahead: the LLM was asked once, not again by it.
    assert!(asked.try_recv().is_err(), "the LLM was asked twice");
    let (_, list) = server.send("GET", "/api/v1/memories?entity_id=ana", Value::Null);
    assert!(
        list.to_string().contains("User is a paramedic in Cork"),
        "{list}"
    );
}

#[test]
fn a_failed_llm_is_reported_as_when_the_engine_asks_it_itself() {
    let (url, asked) = chat_server(vec![(500, r#"{"error": "overloaded"}"#)]);
    let server = common::Server::start_with(
        "failed-llm",
        None,
        &["--llm-url", &url, "--llm-model", "toy-chat"],
        None,
    );
    let (status, report) = server.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "My sister Ana lives in Porto."}),
    );
    assert_eq!(status, 200, "{report}");
    let note = report["fallback"].as_str().unwrap_or_default();
    assert!(
        note.contains("the LLM failed") && note.contains("built-in extractor"),
        "{report}"
    );
    assert_eq!(
        asked.lock().unwrap().len(),
        1,
        "the failure was not asked again"
    );
}

#[test]
fn served_writes_and_searches_embed_each_text_once() {
    let inputs = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let log = inputs.clone();
    let url = peer(move |_, request| {
        let texts = request["input"].as_array().cloned().unwrap_or_default();
        log.lock()
            .unwrap()
            .extend(texts.iter().filter_map(|t| t.as_str().map(str::to_string)));
        (200, embeddings(&request, toy_vector))
    });
    let url = format!("{url}/v1");
    let server = common::Server::start_with(
        "embed-ahead",
        None,
        &["--embed-url", &url, "--embed-model", "toy-letters"],
        None,
    );
    let probe = inputs.lock().unwrap().len();
    let (s, r) = server.send(
        "POST",
        "/api/v1/seed",
        json!({"items": [{"entity_id": "ana", "content": "Ana's bike is blue"}, {"entity_id": "ana", "content": "Ana rows on Sundays"}]}),
    );
    assert_eq!(s, 200, "{r}");
    // Transcript lines: their words, and their speaker's name once for both.
    let (s, r) = server.send(
        "POST",
        "/api/v1/seed",
        json!({"items": [{"entity_id": "ana", "content": "Rui: I sail in the summer"}, {"entity_id": "ana", "content": "Rui: my boat is red"}]}),
    );
    assert_eq!(s, 200, "{r}");
    let (s, r) = server.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "I moved to Lisbon in May."}),
    );
    assert_eq!(s, 200, "{r}");
    let (s, hits) = server.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "rowing"}),
    );
    assert_eq!(s, 200, "{hits}");
    assert!(hits.to_string().contains("Ana rows on Sundays"), "{hits}");
    let id = r["outcomes"][0]["id"].as_str().unwrap().to_string();
    let (s, r) = server.send(
        "PUT",
        &format!("/api/v1/memories/{id}"),
        json!({"entity_id": "ana", "content": "I moved to Lisbon in June."}),
    );
    assert_eq!(s, 200, "{r}");
    let embedded = inputs.lock().unwrap()[probe..].to_vec();
    let mut sorted = embedded.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "Ana rows on Sundays",
            "Ana's bike is blue",
            "I moved to Lisbon in June.",
            "I moved to Lisbon in May.",
            "I sail in the summer",
            "Rui",
            "my boat is red",
            "rowing"
        ],
        "each text embedded once: {embedded:?}"
    );
}

#[test]
fn a_slow_embedding_holds_up_only_the_request_that_waits_for_it() {
    // An embeddings endpoint serving each connection on its own thread, holding any request
    // that asks for a text with "slowly" in it until the test releases it.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (arrived, asked) = std::sync::mpsc::channel::<()>();
    let held = std::sync::Arc::new(std::sync::Mutex::new(held));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (held, arrived) = (held.clone(), arrived.clone());
            std::thread::spawn(move || {
                let mut stream = stream;
                let request = common::read_request(&stream);
                if request.to_string().contains("slowly") {
                    let _ = arrived.send(());
                    let _ = held.lock().unwrap().recv();
                }
                let body = embeddings(&request, toy_vector);
                let _ = std::io::Write::write_all(
                    &mut stream,
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    )
                    .as_bytes(),
                );
            });
        }
    });
    let server = common::Server::start_with(
        "slow-embedding",
        None,
        &["--embed-url", &url, "--embed-model", "toy-letters"],
        None,
    );
    std::thread::scope(|scope| {
        let seeding = scope.spawn(|| {
            server.send(
                "POST",
                "/api/v1/seed",
                json!({"items": [{"entity_id": "ana", "content": "Ana paints slowly"}]}),
            )
        });
        asked.recv_timeout(HUNG).expect("the endpoint was asked");
        // While that text's vector is held, another client's write and search are answered.
        another_client_is_answered(&server);
        release.send(()).unwrap();
        let (status, report) = seeding.join().unwrap();
        assert_eq!(status, 200, "{report}");
        assert_eq!(report["outcomes"][0]["action"], "created", "{report}");
    });
}

#[test]
fn consolidation_asks_the_chat_model_to_rewrite_an_ingested_document_s_summaries() {
    // Two passages (a heading with no text of its own joins the section under it), then the
    // document: three answers.
    let (url, asked) = chat_server(vec![
        (200, r#"{"summary": "Why the plan exists."}"#),
        (
            200,
            r#"{"summary": "Q4 money goes to Porto and the audit."}"#,
        ),
        (
            200,
            r#"{"summary": "The 2027 plan: Porto and the audit in Q4."}"#,
        ),
    ]);
    let data = std::env::temp_dir().join(format!("mnemo-llm-doc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let plan = data.join("plan.md");
    let intro = "The plan covers the year ahead for the whole team and was agreed at the offsite. "
        .repeat(6);
    std::fs::write(
        &plan,
        format!("# Plan 2027\n\n{intro}\n\n## Budget\n\n### Q4\n\nThe Q4 budget priorities are the data centre in Porto and the security audit.\n"),
    )
    .unwrap();
    let run = |args: &[&str], llm: bool| with_chat_model(&data, args, llm.then_some(url.as_str()));
    // Ingesting with the model configured asks it nothing.
    let doc = run(&["ingest", "--entity", "ana", plan.to_str().unwrap()], true)["document"].clone();
    assert_eq!(doc["passages"], 2, "{doc}");
    assert!(asked.lock().unwrap().is_empty());
    let report = run(&["consolidate"], true);
    let summaries = &report["consolidation"]["summaries"];
    assert_eq!(
        (
            summaries["passages"].clone(),
            summaries["documents"].clone()
        ),
        (json!(2), json!(1)),
        "{report}"
    );
    let asked = asked.lock().unwrap();
    assert!(asked[1]["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("one passage"));
    let passage = asked[1]["messages"][1]["content"].as_str().unwrap();
    assert!(
        passage.starts_with("Document: Plan 2027\nSection: Plan 2027 > Budget > Q4\n\n"),
        "{passage}"
    );
    let id = doc["id"].as_str().unwrap();
    let shown = run(&["document", "--entity", "ana", id], false);
    assert_eq!(
        shown["document"]["summary"],
        "The 2027 plan: Porto and the audit in Q4."
    );
    assert_eq!(shown["document"]["summary_by"], "llm");
    assert_eq!(
        shown["passages"][1]["summary"],
        "Q4 money goes to Porto and the audit."
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn consolidation_has_the_chat_model_confirm_bridges_and_write_peer_cards() {
    let (url, asked) = chat_server(vec![
        (
            200,
            r#"{"related": true, "relation": "climbing partner of", "reason": "They hike together and she lent him her rope."}"#,
        ),
        (
            200,
            r#"{"summary": "Marta is the user's friend and Tiago's climbing partner."}"#,
        ),
    ]);
    let data = std::env::temp_dir().join(format!("mnemo-llm-cards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let run = |args: &[&str], llm: bool| with_chat_model(&data, args, llm.then_some(url.as_str()));
    for (session, said) in [
        ("s1", "My friends Tiago and Marta went hiking in the Alps."),
        ("s2", "Yesterday Marta lent Tiago her climbing rope."),
        ("s3", "Yesterday Marta ran the Lisbon half marathon."),
    ] {
        let args = json!({"entity_id": "kai", "content": said, "session_id": session});
        run(&["call", "remember", &args.to_string()], false);
    }
    let report = run(&["consolidate"], true);
    let c = &report["consolidation"];
    assert_eq!(
        (
            c["synthesis"]["confirmed"].as_u64(),
            c["cards"]["written"].as_u64()
        ),
        (Some(1), Some(1)),
        "{report}"
    );
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 2, "one bridge, one card");
    assert!(asked[1]["messages"][1]["content"]
        .as_str()
        .unwrap()
        .starts_with("Marta (person)"));
    let bridges = run(&["bridges", "--entity", "kai"], false);
    assert_eq!(bridges[0]["status"], "confirmed", "{bridges}");
    assert_eq!(bridges[0]["relation"], "climbing partner of");
    let card = run(&["card", "--entity", "kai", "Marta"], false);
    assert_eq!(card["summary_by"], "llm", "{card}");
    assert!(card["summary"]
        .as_str()
        .unwrap()
        .contains("climbing partner"));
    let _ = std::fs::remove_dir_all(&data);
}
