//! The OpenAI-compatible embeddings provider against a real HTTP peer on loopback (a minimal
//! server speaking the `/v1/embeddings` protocol with a deterministic 8-d "model").

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
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
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let answer = if broken {
                "not json".to_string()
            } else {
                let data: Vec<Value> = request["input"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": toy_vector(t.as_str().unwrap_or(""))}))
                    .collect();
                json!({"object": "list", "model": request["model"], "data": data}).to_string()
            };
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    format!("http://{addr}/v1")
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
