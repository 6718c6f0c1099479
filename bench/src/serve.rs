//! `mnemo-bench serve`: the HTTP server under load, measured as its users see it. Starts a
//! `mnemo serve` on loopback over a fresh store and drives it with real HTTP clients (ureq, one
//! kept-alive connection each), then writes the figures as JSON:
//!
//! - single-memory seeds per second with 16 clients;
//! - a mixed load (remember, seed, search in turn) at 4, 16 and 64 clients: requests per
//!   second and p50/p95/p99 latency;
//! - search latency for one kept-alive client over 3,000 memories;
//! - health (no engine call) at 64 clients: what the HTTP stack alone serves, for scale;
//! - with an LLM extractor that takes [`LLM_DELAY`] to answer (a loopback chat endpoint):
//!   [`LLM_CLIENTS`] clients each remembering and searching in turn, so a search's latency
//!   shows whether it waits for other clients' LLM calls.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use mnemo_host::random_seed;
use serde_json::{json, Value};

/// Clients of the seed run (the figure the server is asked to reach: 3,000 seeds/s).
const SEED_CLIENTS: usize = 16;
/// Client counts of the mixed runs.
const MIXED_CLIENTS: [usize; 3] = [4, 16, 64];
/// Memories in the store before the search run.
const SEARCH_STORE: usize = 3_000;
/// Searches the single client makes.
const SEARCHES: usize = 500;
/// How long the benchmark's chat endpoint takes to answer (a fast local model).
const LLM_DELAY: Duration = Duration::from_millis(200);
/// Clients of the run with an LLM extractor.
const LLM_CLIENTS: usize = 8;
/// Owner of every benchmark memory.
const OWNER: &str = "bench";
/// Topics notes are about, so that searches find something.
const TOPICS: [&str; 12] = [
    "garden", "boiler", "piano", "invoice", "marathon", "recipe", "passport", "dentist", "camera",
    "holiday", "library", "bicycle",
];

/// The `mnemo` built beside this binary (`cargo build --release -p mnemo-host` puts both in
/// `target/release`).
pub fn beside_this() -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let mnemo = exe.with_file_name("mnemo");
    if !mnemo.is_file() {
        bail!(
            "no mnemo beside {}: build it first (cargo build --release -p mnemo-host), or pass --mnemo",
            exe.display()
        );
    }
    Ok(mnemo)
}

/// A server process on a scratch data directory, stopped and removed on drop.
struct Server {
    child: Child,
    base: String,
    data: PathBuf,
}

impl Server {
    fn start(mnemo: &Path, token: &str) -> Result<Server> {
        Server::start_with(mnemo, token, &[])
    }

    /// Starts `mnemo serve` with `args` given before it (e.g. an LLM endpoint).
    fn start_with(mnemo: &Path, token: &str, args: &[&str]) -> Result<Server> {
        let data = std::env::temp_dir().join(format!(
            "mnemo-bench-serve-{}-{}",
            std::process::id(),
            random_seed()
        ));
        let mut child = Command::new(mnemo)
            .args(["--data", &data.to_string_lossy()])
            .args(args)
            .args(["serve", "--port", "0"])
            .env("MNEMO_TOKEN", token)
            .stderr(Stdio::piped())
            .spawn()
            .context("starting mnemo serve")?;
        let mut line = String::new();
        if let Some(stderr) = child.stderr.take() {
            BufReader::new(stderr).read_line(&mut line)?;
        }
        let Some(addr) = line.trim().strip_prefix("mnemo: serving ") else {
            let _ = child.kill();
            bail!("the server did not start: {line}");
        };
        Ok(Server {
            child,
            base: addr.to_string(),
            data,
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// One kept-alive client.
struct Client {
    agent: ureq::Agent,
    base: String,
    auth: String,
}

impl Client {
    fn new(base: &str, token: &str) -> Client {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .new_agent();
        Client {
            agent,
            base: base.to_string(),
            auth: format!("Bearer {token}"),
        }
    }

    /// GETs `route`; fails on anything but 200.
    fn get(&self, route: &str) -> Result<()> {
        let status = self
            .agent
            .get(format!("{}/{route}", self.base))
            .call()?
            .status()
            .as_u16();
        if status != 200 {
            bail!("{route} answered {status}");
        }
        Ok(())
    }

    /// POSTs `body` to `route`; fails on anything but 200.
    fn post(&self, route: &str, body: &Value) -> Result<Value> {
        let mut response = self
            .agent
            .post(format!("{}/{route}", self.base))
            .header("Authorization", &self.auth)
            .send_json(body)?;
        let status = response.status().as_u16();
        let value: Value = response.body_mut().read_json()?;
        if status != 200 {
            bail!("{route} answered {status}: {value}");
        }
        Ok(value)
    }
}

/// A loopback chat-completions endpoint that answers every request after [`LLM_DELAY`],
/// extracting one memory that repeats the user's words. Its base URL.
fn slow_chat() -> Result<String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let url = format!("http://{}/v1", listener.local_addr()?);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || answer_slowly(stream));
        }
    });
    Ok(url)
}

/// Answers one chat request on `stream` (a connection per request) after [`LLM_DELAY`].
fn answer_slowly(stream: std::net::TcpStream) -> Result<()> {
    use std::io::{Read, Write};
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let request: Value = serde_json::from_slice(&body)?;
    std::thread::sleep(LLM_DELAY);
    let said = request["messages"][1]["content"]
        .as_str()
        .unwrap_or("nothing");
    let memories =
        json!({"memories": [{"content": format!("User said: {said}"), "type": "CONTEXT"}]});
    let answer = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": memories.to_string()}}]})
        .to_string();
    write!(
        &stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
        answer.len()
    )?;
    Ok(())
}

/// A note of its own: a topic and words no other note has, so dedup keeps every one.
fn note(client: usize, i: usize) -> String {
    let mut x = ((client as u64) << 32) | i as u64;
    let mut word = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        format!("k{:x}", (z ^ (z >> 31)) & 0xff_ffff)
    };
    let topic = TOPICS[(client * 7 + i) % TOPICS.len()];
    format!("note {} {} about the {topic} {}", word(), word(), word())
}

/// The calls of the mixed load, in the order a client makes them.
const MIXED_CALLS: [&str; 3] = ["remember", "seed", "search"];

/// The request a client makes for its `i`th turn of the mixed load.
fn mixed(client: &Client, c: usize, i: usize) -> Result<()> {
    match i % MIXED_CALLS.len() {
        0 => client.post(
            "remember",
            &json!({ "entity_id": OWNER, "content": format!("I moved the {} today. {}", TOPICS[i % TOPICS.len()], note(c, i)) }),
        ),
        1 => client.post(
            "seed",
            &json!({ "items": [{ "entity_id": OWNER, "content": note(c + 1000, i) }] }),
        ),
        _ => client.post(
            "search",
            &json!({ "entity_id": OWNER, "query": TOPICS[(c + i) % TOPICS.len()] }),
        ),
    }
    .map(|_| ())
}

/// Each request's turn number (see [`drive`]) and latency.
type Latencies = Vec<(usize, Duration)>;

/// Runs `clients` clients for `span`, each calling `turn(client, c, i)` in a loop; answers
/// the requests made and every latency, as `(turn number, latency)` sorted by latency.
fn drive(
    base: &str,
    token: &str,
    clients: usize,
    span: Duration,
    turn: fn(&Client, usize, usize) -> Result<()>,
) -> Result<(usize, Duration, Latencies)> {
    let start = Instant::now();
    let per_client: Vec<Result<Latencies>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                scope.spawn(move || {
                    let client = Client::new(base, token);
                    let mut latencies = Vec::new();
                    let mut i = 0;
                    while start.elapsed() < span {
                        let t = Instant::now();
                        turn(&client, c, i)?;
                        latencies.push((i, t.elapsed()));
                        i += 1;
                    }
                    Ok(latencies)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| bail!("a client panicked")))
            .collect()
    });
    let elapsed = start.elapsed();
    let mut all = Vec::new();
    for latencies in per_client {
        all.extend(latencies?);
    }
    all.sort_by_key(|&(_, latency)| latency);
    Ok((all.len(), elapsed, all))
}

/// The latencies (sorted by latency) of the turns whose number is `k` modulo `n`: one call
/// of a load whose clients make `n` calls in turn.
fn of_turn(sorted: &[(usize, Duration)], n: usize, k: usize) -> Latencies {
    sorted.iter().filter(|(i, _)| i % n == k).copied().collect()
}

/// The `q` quantile of latencies sorted by latency, in milliseconds.
fn quantile<T>(sorted: &[(T, Duration)], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    (sorted[i].1.as_secs_f64() * 1e6).round() / 1e3
}

/// Runs every measurement on servers of the `mnemo` binary at `mnemo` and writes the JSON to
/// `out`.
pub fn run(mnemo: &Path, out: &Path, seconds: u64) -> Result<()> {
    let token = format!("bench-{:x}", random_seed());
    let span = Duration::from_secs(seconds);
    let mut report = json!({
        "what": "mnemo serve on loopback, driven by ureq clients with one kept-alive connection each",
        "cpus": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "seconds_per_run": seconds,
    });

    // Single-memory seeds, 16 clients, on a fresh store.
    {
        let server = Server::start(mnemo, &token)?;
        let (n, elapsed, lat) = drive(&server.base, &token, SEED_CLIENTS, span, |client, c, i| {
            client
                .post(
                    "seed",
                    &json!({ "items": [{ "entity_id": OWNER, "content": note(c, i) }] }),
                )
                .map(|_| ())
        })?;
        report["seed"] = json!({
            "clients": SEED_CLIENTS,
            "requests": n,
            "memories_per_second": (n as f64 / elapsed.as_secs_f64()).round(),
            "p50_ms": quantile(&lat, 0.50),
            "p99_ms": quantile(&lat, 0.99),
        });
        eprintln!("seed: {}", report["seed"]);
    }

    // Search over 3,000 memories by one kept-alive client, then the mixed runs on that store.
    let server = Server::start(mnemo, &token)?;
    let client = Client::new(&server.base, &token);
    for batch in (0..SEARCH_STORE).collect::<Vec<_>>().chunks(1_000) {
        let items: Vec<Value> = batch
            .iter()
            .map(|&i| json!({ "entity_id": OWNER, "content": note(9_999, i) }))
            .collect();
        client.post("seed", &json!({ "items": items }))?;
    }
    let mut latencies = Vec::with_capacity(SEARCHES);
    for i in 0..SEARCHES {
        // Queries vary (a topic and a word), so most miss the search cache as users' do.
        let query = format!("{} k{:x}", TOPICS[i % TOPICS.len()], i * 7919);
        let t = Instant::now();
        client.post("search", &json!({ "entity_id": OWNER, "query": query }))?;
        latencies.push(((), t.elapsed()));
    }
    latencies.sort_by_key(|&(_, latency)| latency);
    report["search"] = json!({
        "memories": SEARCH_STORE,
        "searches": SEARCHES,
        "p50_ms": quantile(&latencies, 0.50),
        "p95_ms": quantile(&latencies, 0.95),
        "p99_ms": quantile(&latencies, 0.99),
    });
    eprintln!("search: {}", report["search"]);

    let mut runs = Vec::new();
    for clients in MIXED_CLIENTS {
        let (n, elapsed, lat) = drive(&server.base, &token, clients, span, mixed)?;
        let run = json!({
            "clients": clients,
            "requests": n,
            "requests_per_second": (n as f64 / elapsed.as_secs_f64()).round(),
            "p50_ms": quantile(&lat, 0.50),
            "p95_ms": quantile(&lat, 0.95),
            "p99_ms": quantile(&lat, 0.99),
            "by_call": MIXED_CALLS.iter().enumerate().map(|(k, call)| {
                let of_call = of_turn(&lat, MIXED_CALLS.len(), k);
                (call.to_string(), json!({
                    "p50_ms": quantile(&of_call, 0.50),
                    "p99_ms": quantile(&of_call, 0.99),
                }))
            }).collect::<serde_json::Map<_, _>>(),
        });
        eprintln!("mixed: {run}");
        runs.push(run);
    }
    report["mixed"] = json!(runs);
    let (n, elapsed, lat) = drive(&server.base, &token, 64, span, |client, _, _| {
        client.get("health")
    })?;
    report["health"] = json!({
        "clients": 64,
        "requests_per_second": (n as f64 / elapsed.as_secs_f64()).round(),
        "p50_ms": quantile(&lat, 0.50),
        "p99_ms": quantile(&lat, 0.99),
    });
    eprintln!("health: {}", report["health"]);
    drop(server);

    // An LLM extractor that takes LLM_DELAY: each client remembers, then searches.
    let llm = slow_chat()?;
    let server = Server::start_with(mnemo, &token, &["--llm-url", &llm, "--llm-model", "slow"])?;
    let client = Client::new(&server.base, &token);
    let items: Vec<Value> = (0..SEARCH_STORE / 10)
        .map(|i| json!({ "entity_id": OWNER, "content": note(9_999, i) }))
        .collect();
    client.post("seed", &json!({ "items": items }))?;
    let (n, elapsed, lat) = drive(&server.base, &token, LLM_CLIENTS, span, |client, c, i| {
        if i % 2 == 0 {
            client.post(
                "remember",
                &json!({ "entity_id": OWNER, "content": format!("I moved the {} today. {}", TOPICS[i % TOPICS.len()], note(c, i)) }),
            )
        } else {
            client.post(
                "search",
                &json!({ "entity_id": OWNER, "query": TOPICS[(c + i) % TOPICS.len()] }),
            )
        }
        .map(|_| ())
    })?;
    let of_call = |k: usize| -> Value {
        let of = of_turn(&lat, 2, k);
        json!({
            "per_second": (of.len() as f64 / elapsed.as_secs_f64()).round(),
            "p50_ms": quantile(&of, 0.50),
            "p99_ms": quantile(&of, 0.99),
        })
    };
    report["slow_llm"] = json!({
        "clients": LLM_CLIENTS,
        "llm_delay_ms": LLM_DELAY.as_millis() as u64,
        "requests": n,
        "remember": of_call(0),
        "search": of_call(1),
    });
    eprintln!("slow_llm: {}", report["slow_llm"]);
    drop(server);

    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(out, serde_json::to_string_pretty(&report)? + "\n")
        .with_context(|| format!("writing {}", out.display()))?;
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
