//! A real `mnemo serve` on loopback, for the HTTP tests; and a loopback peer standing in for
//! the model endpoints `mnemo` calls.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A running server on a fresh data directory, stopped on drop.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub token: String,
    pub data: PathBuf,
    /// Keep the data directory when dropped (a test restarts on it).
    pub keep: bool,
}

impl Server {
    pub fn start(name: &str, env_token: Option<&str>) -> Server {
        Server::start_with(name, env_token, &[], None)
    }

    /// A fresh data directory for `name` (emptied).
    pub fn fresh(name: &str) -> PathBuf {
        let data = std::env::temp_dir().join(format!("mnemo-http-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        data
    }

    /// Starts a server with extra `serve` arguments, and under a file limit if given.
    pub fn start_with(
        name: &str,
        env_token: Option<&str>,
        args: &[&str],
        file_limit: Option<u32>,
    ) -> Server {
        let data = Server::fresh(name);
        Server::start_in(data, env_token, args, file_limit)
    }

    /// Starts a server on the store in `data` (kept as it is).
    pub fn start_in(
        data: PathBuf,
        env_token: Option<&str>,
        args: &[&str],
        file_limit: Option<u32>,
    ) -> Server {
        Server::start_env(data, env_token, args, file_limit, &[])
    }

    /// [`Server::start_in`] with environment variables set for the server.
    pub fn start_env(
        data: PathBuf,
        env_token: Option<&str>,
        args: &[&str],
        file_limit: Option<u32>,
        env: &[(&str, &str)],
    ) -> Server {
        let mut cmd = match file_limit {
            Some(n) => {
                let mut sh = Command::new("sh");
                sh.args(["-c", &format!("ulimit -n {n} && exec \"$0\" \"$@\"")])
                    .arg(env!("CARGO_BIN_EXE_mnemo"));
                sh
            }
            None => Command::new(env!("CARGO_BIN_EXE_mnemo")),
        };
        // A clock given in `args` (`--start-at`) replaces the fixed one.
        let clock: &[&str] = if args.contains(&"--start-at") {
            &[]
        } else {
            &["--now", NOW]
        };
        cmd.args(["--data", data.to_str().unwrap()])
            .args(clock)
            .args(["serve", "--port", "0"])
            .args(args)
            .envs(env.iter().copied())
            .env_remove("MNEMO_TOKEN")
            .stderr(Stdio::piped());
        if let Some(t) = env_token {
            cmd.env("MNEMO_TOKEN", t);
        }
        let mut child = cmd.spawn().expect("start mnemo serve");
        let line = banner(&mut child);
        let addr = line
            .trim()
            .trim_start_matches("mnemo: serving http://")
            .trim_end_matches("/api/v1")
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "unexpected banner {line:?}");
        let token = match env_token {
            Some(t) => t.to_string(),
            None => std::fs::read_to_string(data.join(".env"))
                .unwrap()
                .lines()
                .find_map(|l| l.strip_prefix("MNEMO_TOKEN="))
                .expect("a token in .env")
                .to_string(),
        };
        Server {
            child,
            addr,
            token,
            data,
            keep: false,
        }
    }

    /// Sends one request; returns (status, JSON body).
    pub fn raw(&self, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> (u16, Value) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        // A guard against a hung server, not a speed check: no answer in 60 s fails the test.
        s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let head = format!("{method} {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n", body.len());
        s.write_all(head.as_bytes()).unwrap();
        let _ = s.write_all(body); // the server may answer (413) before reading it all
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let split = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(out.len(), |i| i + 4);
        let head = String::from_utf8_lossy(&out[..split]).to_ascii_lowercase();
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status line");
        let body = if head.contains("transfer-encoding: chunked") {
            dechunk(&out[split..])
        } else {
            out[split..].to_vec()
        };
        let body = String::from_utf8(body).expect("a UTF-8 body");
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    pub fn send(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let bytes = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        self.raw(method, path, Some(&self.token), &bytes)
    }

    pub fn total(&self) -> u64 {
        self.send("GET", "/api/v1/stats?entity_id=ana", Value::Null)
            .1["total"]
            .as_u64()
            .unwrap()
    }
}

/// A chunked body, joined (what any HTTP client does with `Transfer-Encoding: chunked`).
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&rest[..eol]);
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        let data = &rest[eol + 2..];
        if n == 0 || data.len() < n {
            break;
        }
        out.extend_from_slice(&data[..n]);
        rest = data[n..].strip_prefix(b"\r\n").unwrap_or(&data[n..]);
    }
    out
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.data);
        }
    }
}

/// A loopback HTTP peer: answers each request with what `answer` makes of its number (from 0)
/// and its JSON body (null when not JSON): a status and a body. Its base URL.
pub fn peer(answer: impl Fn(usize, Value) -> (u16, String) + Send + 'static) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { continue };
            let (status, body) = answer(n, read_request(&stream));
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{addr}")
}

/// The JSON body of one HTTP request read from `stream` (null when it is not JSON).
pub fn read_request(stream: &TcpStream) -> Value {
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
    serde_json::from_slice(&body).unwrap_or(Value::Null)
}

/// An OpenAI `/v1/embeddings` answer to `request`: `vector(text)` for each input.
pub fn embeddings(request: &Value, vector: impl Fn(&str) -> Vec<f32>) -> String {
    let data: Vec<Value> = request["input"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, t)| serde_json::json!({"object": "embedding", "index": i, "embedding": vector(t.as_str().unwrap_or(""))}))
        .collect();
    serde_json::json!({"object": "list", "model": request["model"], "data": data}).to_string()
}

/// The fixed clock of the servers and commands the tests run.
pub const NOW: &str = "2023-11-14T22:13:20Z";

/// Runs `mnemo --data <data> --json --now NOW <args>`.
pub fn run(data: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .arg("--data")
        .arg(data)
        .args(["--json", "--now", NOW])
        .args(args)
        .output()
        .expect("run mnemo")
}

/// Runs `mnemo --data <data> --json --now NOW <args>` and parses its output; panics unless it
/// succeeded.
pub fn cli(data: &std::path::Path, args: &[&str]) -> Value {
    let out = run(data, args);
    assert!(
        out.status.success(),
        "mnemo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

/// The first line a server process writes to its (piped) stderr: where it listens.
pub fn banner(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stderr.take().expect("stderr piped"))
        .read_line(&mut line)
        .expect("a banner line");
    line
}

/// A fresh directory under the system's temp directory, removed on drop.
pub struct Dir(pub PathBuf);

impl Dir {
    /// `mnemo-<name>-<pid>`, emptied.
    pub fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("mnemo-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("dir");
        Dir(p)
    }

    /// Writes a file at `rel` inside, making its directories.
    pub fn write(&self, rel: &str, content: &[u8]) {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
        std::fs::write(p, content).expect("write");
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs a Node script of `tests/` (a real MCP client) with `args`; its stdout, after asserting
/// it succeeded and printed `"ok":true` or a JSON answer.
pub fn node(script: &str, args: &[&std::ffi::OsStr]) -> String {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(
        here.join("../node_modules/@modelcontextprotocol/sdk")
            .exists(),
        "the MCP client SDK is missing: run `npm ci` in the repository (scripts/test does)"
    );
    let out = Command::new("node")
        .arg(here.join("tests").join(script))
        .args(args)
        .output()
        .expect("node runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success(),
        "the MCP client {script} failed:\n{stdout}\n{stderr}"
    );
    stdout
}
