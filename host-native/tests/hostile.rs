//! `mnemo serve` against clients that misbehave, on loopback: absurd lengths, pipelining,
//! malformed openings, stalled and idle clients, more connections than it may serve, a file
//! limit it runs out of, a process killed mid-write. Each test checks the server answers (or
//! closes) and goes on serving.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{embeddings, peer, Server};
use serde_json::{json, Value};

/// Longest any exchange below may take: the servers run with `--timeout 2`, so a server that
/// answers or closes in time is far inside it; one that hangs fails the test.
const GUARD: Duration = Duration::from_secs(20);

/// What a connection got back after sending `bytes`: everything read until the server closed
/// it (`true`) or `wait` passed (`false`).
fn exchange(addr: &str, bytes: &[u8], wait: Duration) -> (Vec<u8>, bool) {
    let mut s = TcpStream::connect(addr).unwrap();
    let _ = s.write_all(bytes);
    read_until_closed(&mut s, wait)
}

fn read_until_closed(s: &mut TcpStream, wait: Duration) -> (Vec<u8>, bool) {
    let end = Instant::now() + wait;
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return (out, false);
        }
        s.set_read_timeout(Some(left)).unwrap();
        match s.read(&mut buf) {
            Ok(0) => return (out, true),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            // A reset is the server closing too.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return (out, true),
            Err(_) => return (out, false),
        }
    }
}

/// The status codes of every response in `out`, in order.
fn statuses(out: &[u8]) -> Vec<u16> {
    let text = String::from_utf8_lossy(out);
    text.match_indices("HTTP/1.1 ")
        .filter_map(|(i, _)| text[i + 9..].get(..3)?.parse().ok())
        .collect()
}

/// The server still runs and answers: health, and an engine call with the token.
fn still_serving(server: &mut Server) {
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server exited"
    );
    let (status, body) = server.raw("GET", "/api/v1/health", None, b"");
    assert_eq!((status, &body["status"]), (200, &json!("ok")));
    let (status, body) = server.send(
        "POST",
        "/api/v1/search",
        json!({ "entity_id": "ana", "query": "tea" }),
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn malformed_and_absurd_requests_get_a_4xx_or_a_close_and_the_server_goes_on() {
    let mut server = Server::start_with("malformed", Some("tok"), &["--timeout", "2"], None);
    let big_head = format!(
        "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n\r\n",
        "a".repeat(40_000)
    );
    let many_headers = format!(
        "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n{}\r\n",
        (0..200)
            .map(|i| format!("X-{i}: y\r\n"))
            .collect::<String>()
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "a Content-Length of 2^64-1 without a token",
            b"POST /api/v1/search HTTP/1.1\r\nHost: x\r\nContent-Length: 18446744073709551615\r\n\r\n".to_vec(),
        ),
        (
            "a Content-Length of 100 GB without a token",
            b"POST /api/v1/search HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\n\r\n".to_vec(),
        ),
        (
            "a Content-Length of 100 GB with the token",
            b"POST /api/v1/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Length: 100000000000\r\n\r\n".to_vec(),
        ),
        (
            "a 100 MB document declared on the ingest route, which takes 48 MiB",
            b"POST /api/v1/call/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Length: 104857600\r\n\r\n".to_vec(),
        ),
        ("the HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec()),
        ("binary garbage", (0..=255u8).cycle().take(2048).collect()),
        (
            "a TLS ClientHello",
            [&[0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03][..], &[0u8; 64]].concat(),
        ),
        (
            "Transfer-Encoding: gzip",
            b"POST /api/v1/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nTransfer-Encoding: gzip\r\n\r\n".to_vec(),
        ),
        (
            "Transfer-Encoding: xchunked",
            b"POST /api/v1/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nTransfer-Encoding: xchunked\r\n\r\n".to_vec(),
        ),
        (
            "a bad chunk size",
            b"POST /api/v1/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n".to_vec(),
        ),
        ("a 40 kB header", big_head.into_bytes()),
        ("200 headers", many_headers.into_bytes()),
        ("a request line of spaces", b"          \r\n\r\n".to_vec()),
        ("no HTTP version", b"GET /api/v1/health\r\n\r\n".to_vec()),
    ];
    for (what, bytes) in cases {
        let (out, closed) = exchange(&server.addr, &bytes, GUARD);
        let codes = statuses(&out);
        assert!(closed, "{what}: the connection stayed open ({codes:?})");
        assert!(
            codes.len() <= 1 && codes.iter().all(|&c| (400..500).contains(&c) || c == 505),
            "{what}: {:?}",
            String::from_utf8_lossy(&out)
        );
        still_serving(&mut server);
    }
    // Nothing sent at all: closed once the head timeout passes.
    let (out, closed) = exchange(&server.addr, b"", GUARD);
    assert!(
        closed && statuses(&out).iter().all(|&c| c == 408),
        "{out:?}"
    );
    // Bare LF line ends are read as the line ends they mean.
    let (out, _) = exchange(
        &server.addr,
        b"GET /api/v1/health HTTP/1.1\nHost: x\nConnection: close\n\n",
        GUARD,
    );
    assert_eq!(statuses(&out), [200]);
    still_serving(&mut server);
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let mut server = Server::start_with("pipeline", Some("tok"), &["--timeout", "2"], None);
    for _ in 0..20 {
        let (out, closed) = exchange(
            &server.addr,
            b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/stats?entity_id=ana HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\n\r\nGET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            GUARD,
        );
        assert!(closed);
        assert_eq!(statuses(&out), [200, 200, 200]);
        let text = String::from_utf8_lossy(&out);
        let (health, stats) = (
            text.find("\"status\":\"ok\"").unwrap(),
            text.find("\"entity_id\":\"ana\"").unwrap(),
        );
        assert!(health < stats && text.rfind("\"status\":\"ok\"").unwrap() > stats);
    }
    still_serving(&mut server);
}

#[test]
fn stalled_and_idle_clients_are_cut_off_after_the_timeout() {
    let mut server = Server::start_with("stalled", Some("tok"), &["--timeout", "2"], None);
    // A head that never ends.
    let (_, closed) = exchange(&server.addr, b"GET /api/v1/health HTTP/1.1\r\nHost:", GUARD);
    assert!(closed, "a half-sent head kept its connection");
    // A body that never comes: 408, and closed.
    let (out, closed) = exchange(
        &server.addr,
        b"POST /api/v1/seed HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Length: 100\r\n\r\n{\"items\"",
        GUARD,
    );
    assert!(closed);
    assert_eq!(statuses(&out), [408], "{}", String::from_utf8_lossy(&out));
    // A kept-alive connection left idle after its answer.
    let mut idle = TcpStream::connect(&server.addr).unwrap();
    idle.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let (out, closed) = read_until_closed(&mut idle, GUARD);
    assert!(closed, "an idle connection was kept");
    assert_eq!(statuses(&out), [200]);
    // A hundred clients stalled mid-body hold up nobody, and are all let go.
    let mut stalled: Vec<TcpStream> = (0..100)
        .map(|_| {
            let mut s = TcpStream::connect(&server.addr).unwrap();
            s.write_all(b"POST /api/v1/seed HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Length: 100000\r\n\r\n{")
                .unwrap();
            s
        })
        .collect();
    still_serving(&mut server);
    for s in &mut stalled {
        let (_, closed) = read_until_closed(s, GUARD);
        assert!(closed, "a stalled client was kept");
    }
    assert_eq!(server.total(), 0, "a partial body was stored");
}

#[test]
fn over_the_connection_limit_a_client_gets_503_and_served_ones_go_on() {
    let mut server = Server::start_with("limit", Some("tok"), &["--max-connections", "4"], None);
    // Four kept-alive connections, each answered once and left open.
    let mut held: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = TcpStream::connect(&server.addr).unwrap();
            s.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
                .unwrap();
            let mut buf = [0u8; 512];
            let n = s.read(&mut buf).unwrap();
            assert_eq!(statuses(&buf[..n]), [200]);
            s
        })
        .collect();
    let (out, closed) = exchange(
        &server.addr,
        b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n",
        GUARD,
    );
    assert!(closed);
    assert_eq!(statuses(&out), [503]);
    assert!(String::from_utf8_lossy(&out).contains("\"code\":\"busy\""));
    // The ones held are still served.
    held[0]
        .write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let (out, closed) = read_until_closed(&mut held[0], GUARD);
    assert!(closed);
    assert_eq!(statuses(&out), [200]);
    held.truncate(3);
    // Its place is free again (the server may take a moment to see it closed).
    let deadline = Instant::now() + GUARD;
    loop {
        let (out, _) = exchange(
            &server.addr,
            b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            GUARD,
        );
        if statuses(&out) == [200] {
            break;
        }
        assert!(Instant::now() < deadline, "the freed place never came back");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(held);
    still_serving(&mut server);
}

#[test]
fn out_of_file_descriptors_the_server_waits_and_goes_on() {
    // 100 descriptors: the server serves at most 36 connections, and accepting more fails
    // until some close.
    let mut server = Server::start_with("fds", Some("tok"), &["--timeout", "3"], Some(100));
    let mut held = Vec::new();
    for _ in 0..400 {
        if let Ok(s) = TcpStream::connect(&server.addr) {
            held.push(s);
        }
    }
    // Those over the limit were told so, or wait in the queue; none broke the server.
    let answered: Vec<u16> = held
        .iter_mut()
        .take(60)
        .flat_map(|s| statuses(&read_until_closed(s, Duration::from_millis(200)).0))
        .collect();
    assert!(
        answered.contains(&503) && answered.iter().all(|&c| c == 503),
        "{answered:?}"
    );
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server exited"
    );
    drop(held);
    // Once the clients are gone (or timed out), it serves again.
    let deadline = Instant::now() + GUARD;
    loop {
        let (out, _) = exchange(
            &server.addr,
            b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            Duration::from_secs(5),
        );
        if statuses(&out) == [200] {
            break;
        }
        assert!(Instant::now() < deadline, "the server never served again");
        std::thread::sleep(Duration::from_millis(100));
    }
    still_serving(&mut server);
}

#[test]
fn only_routes_under_the_prefix_exist() {
    let server = Server::start("prefix", Some("tok"));
    for path in [
        "/health",
        "/search",
        "/stats?entity_id=ana",
        "/api/v1",
        "/api/v1x/stats?entity_id=ana",
        "/api/v2/health",
        "/API/V1/health",
        "//api/v1/health",
    ] {
        let (status, body) = server.raw("GET", path, Some("tok"), b"");
        assert_eq!(status, 404, "{path}: {body}");
    }
}

#[test]
fn a_server_that_cannot_listen_or_has_an_empty_token_says_so_and_exits_non_zero() {
    let server = Server::start("bound", Some("tok"));
    let port = server.addr.rsplit(':').next().unwrap();
    let other = Server::fresh("bound-other");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .args(["--data", other.to_str().unwrap(), "serve", "--port", port])
        .env("MNEMO_TOKEN", "tok")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );

    // An empty token in .env: refused before serving.
    let empty = Server::fresh("empty-token");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join(".env"), "OTHER=1\nMNEMO_TOKEN=\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .args(["--data", empty.to_str().unwrap(), "serve", "--port", "0"])
        .env_remove("MNEMO_TOKEN")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("MNEMO_TOKEN= line") && err.contains("is empty"),
        "{err}"
    );
    assert!(!err.contains("serving"), "{err}");
    let _ = std::fs::remove_dir_all(&other);
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn a_token_appended_to_an_existing_env_file_makes_it_private() {
    use std::os::unix::fs::PermissionsExt;
    let data = Server::fresh("env-mode");
    std::fs::create_dir_all(&data).unwrap();
    let env = data.join(".env");
    std::fs::write(&env, "OTHER=1\n").unwrap();
    std::fs::set_permissions(&env, std::fs::Permissions::from_mode(0o644)).unwrap();
    let server = Server::start_in(data, None, &[], None);
    let mode = std::fs::metadata(&env).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let text = std::fs::read_to_string(&env).unwrap();
    assert!(text.starts_with("OTHER=1\nMNEMO_TOKEN="), "{text}");
    assert_eq!(server.token.len(), 32);
    let (status, _) = server.raw(
        "GET",
        "/api/v1/stats?entity_id=ana",
        Some(&server.token),
        b"",
    );
    assert_eq!(status, 200);
}

/// A note no other client writes: words of their own, so dedup stores every one.
fn note(client: usize, i: usize) -> String {
    let mut x = (client as u64) << 32 | i as u64;
    let words: Vec<String> = (0..6)
        .map(|_| {
            // splitmix64: a different word for every (client, i, position).
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            format!("w{:x}", z ^ (z >> 31))
        })
        .collect();
    format!("note {}", words.join(" "))
}

/// Seeds one memory over a kept-alive connection; its id once the server acknowledged it.
fn seed_one(conn: &mut TcpStream, token: &str, content: &str) -> Option<String> {
    let body = json!({ "items": [{ "entity_id": "ana", "content": content }] }).to_string();
    let head = format!(
        "POST /api/v1/seed HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    conn.write_all(head.as_bytes()).ok()?;
    conn.write_all(body.as_bytes()).ok()?;
    let response = read_response(conn)?;
    let (status, value) = response;
    assert!(status == 200, "{status} {value}");
    value["outcomes"][0]["id"].as_str().map(str::to_string)
}

/// Reads one response with a Content-Length from a kept-alive connection.
fn read_response(conn: &mut TcpStream) -> Option<(u16, Value)> {
    conn.set_read_timeout(Some(GUARD)).ok()?;
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&data[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))?
                .trim()
                .parse()
                .ok()?;
            if data.len() >= end + 4 + length {
                let status = statuses(&data[..end]).first().copied()?;
                let value = serde_json::from_slice(&data[end + 4..end + 4 + length]).ok()?;
                return Some((status, value));
            }
        }
        let n = conn.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
    }
}

#[test]
fn concurrent_writes_each_get_their_own_answer() {
    let server = Server::start("concurrent", Some("tok"));
    let per_client = 25;
    let results: Vec<Vec<(String, String)>> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..16)
            .map(|c| {
                let addr = server.addr.clone();
                scope.spawn(move || {
                    let mut conn = TcpStream::connect(&addr).unwrap();
                    conn.set_nodelay(true).unwrap();
                    (0..per_client)
                        .map(|i| {
                            let content = note(c, i);
                            let id = seed_one(&mut conn, "tok", &content).expect("answered");
                            (id, content)
                        })
                        .collect()
                })
            })
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let all: Vec<&(String, String)> = results.iter().flatten().collect();
    assert_eq!(all.len(), 16 * per_client);
    let ids: std::collections::HashSet<&String> = all.iter().map(|(id, _)| id).collect();
    assert_eq!(ids.len(), all.len(), "two requests were given one id");
    for (id, content) in all {
        let (status, memory) = server.send(
            "GET",
            &format!("/api/v1/memories/{id}?entity_id=ana"),
            Value::Null,
        );
        assert_eq!(
            (status, memory["content"].as_str()),
            (200, Some(content.as_str()))
        );
    }
    assert_eq!(server.total(), 16 * per_client as u64);
}

#[test]
fn killed_while_16_clients_write_every_acknowledged_memory_survives() {
    let mut server = Server::start("kill9", Some("tok"));
    server.keep = true;
    let acknowledged = std::sync::Mutex::new(Vec::new());
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for c in 0..16 {
            let (addr, acknowledged, stop) = (server.addr.clone(), &acknowledged, &stop);
            scope.spawn(move || {
                let mut conn = TcpStream::connect(&addr).unwrap();
                conn.set_nodelay(true).unwrap();
                let mut i = 0;
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    let content = note(c, i);
                    match seed_one(&mut conn, "tok", &content) {
                        Some(id) => acknowledged.lock().unwrap().push((id, content)),
                        None => return,
                    }
                    i += 1;
                }
            });
        }
        // Kill -9 once a good number are in.
        let deadline = Instant::now() + Duration::from_secs(120);
        while acknowledged.lock().unwrap().len() < 300 {
            assert!(Instant::now() < deadline, "the clients stopped writing");
            std::thread::sleep(Duration::from_millis(5));
        }
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let acknowledged = acknowledged.into_inner().unwrap();
    assert!(acknowledged.len() >= 300);
    // The file was left as a crash leaves it: in WAL mode, with its log beside it.
    let db = server.data.join("mnemo.db");
    assert_eq!(&std::fs::read(&db).unwrap()[18..20], &[2, 2]);
    assert!(server.data.join("mnemo.db-wal").exists());
    // Copied away with its log (the file alone is no backup: kill -9 can land inside a
    // checkpoint, which leaves the file half-written until its log is replayed), the store
    // recovers, stays a WAL-mode file, and as such opens for writing where the browser
    // opens bytes.
    let backup = server.data.with_extension("backup");
    std::fs::create_dir_all(&backup).unwrap();
    for file in ["mnemo.db", "mnemo.db-wal"] {
        std::fs::copy(server.data.join(file), backup.join(file)).unwrap();
    }
    let clock = || mnemo_core::ManualClock::new(1_700_000_000_000);
    drop(
        mnemo_core::Engine::builder(clock())
            .open(backup.join("mnemo.db"))
            .expect("the file and its log open"),
    );
    let image = std::fs::read(backup.join("mnemo.db")).unwrap();
    std::fs::remove_dir_all(&backup).unwrap();
    assert_eq!(&image[18..20], &[2, 2], "still a WAL-mode file");
    let mut copy = mnemo_core::Engine::builder(clock())
        .open_bytes(&image)
        .expect("the recovered file alone opens");
    copy.call_json(
        "seed",
        r#"{"items":[{"entity_id":"ana","content":"written to the copy"}]}"#,
    )
    .expect("and takes writes");
    // Restarted on the same directory: every acknowledged write is there.
    let restarted = Server::start_in(server.data.clone(), Some("tok"), &[], None);
    for (id, content) in &acknowledged {
        let (status, memory) = restarted.send(
            "GET",
            &format!("/api/v1/memories/{id}?entity_id=ana"),
            Value::Null,
        );
        assert_eq!(
            (status, memory["content"].as_str()),
            (200, Some(content.as_str())),
            "{id} was acknowledged and lost"
        );
    }
    assert!(restarted.total() >= acknowledged.len() as u64);
}

#[test]
fn a_stopped_server_leaves_its_store_whole_in_one_file() {
    let mut server = Server::start("sigterm", Some("tok"));
    server.keep = true;
    let (status, _) = server.send(
        "POST",
        "/api/v1/seed",
        json!({ "items": [{ "entity_id": "ana", "content": "Ana drinks green tea" }] }),
    );
    assert_eq!(status, 200);
    assert!(
        server.data.join("mnemo.db-wal").exists(),
        "the server writes through WAL"
    );
    // SIGTERM: what is in flight is answered, the store closed, and the process exits 0.
    let pid = server.child.id() as libc::pid_t;
    // SAFETY: sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert!(!server.data.join("mnemo.db-wal").exists());
    let image = std::fs::read(server.data.join("mnemo.db")).unwrap();
    assert_eq!(&image[18..20], &[1, 1], "left in rollback-journal mode");
    let mut copy = mnemo_core::Engine::builder(mnemo_core::ManualClock::new(1_700_000_000_000))
        .open_bytes(&image)
        .unwrap();
    assert_eq!(copy.stats("ana").unwrap().total, 1);
    server.keep = false;
}

/// An embeddings endpoint (`/v1/embeddings`, 4-d) that answers its first request (the
/// dimension probe at start) and holds every later one until `release` is set.
fn held_embedder(release: std::sync::Arc<std::sync::atomic::AtomicBool>) -> String {
    peer(move |n, request| {
        while n > 0 && !release.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(10));
        }
        (200, embeddings(&request, |_| vec![0.5; 4]))
    })
}

#[test]
fn health_answers_while_the_engine_is_busy() {
    let release = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let url = held_embedder(release.clone());
    let server = Server::start_env(
        Server::fresh("busy-engine"),
        Some("tok"),
        &[],
        None,
        &[("MNEMO_EMBED_URL", &url), ("MNEMO_EMBED_MODEL", "held-4d")],
    );
    std::thread::scope(|scope| {
        // A write whose embedding is held: the engine's one thread waits inside it.
        let writer = scope.spawn(|| {
            server.send(
                "POST",
                "/api/v1/seed",
                json!({ "items": [{ "entity_id": "ana", "content": "Ana drinks green tea" }] }),
            )
        });
        std::thread::sleep(Duration::from_millis(300));
        assert!(!writer.is_finished(), "the write was not held");
        for _ in 0..5 {
            let (status, body) = server.raw("GET", "/api/v1/health", None, b"");
            assert_eq!((status, &body["status"]), (200, &json!("ok")));
        }
        assert!(!writer.is_finished(), "health waited for the engine");
        release.store(true, std::sync::atomic::Ordering::SeqCst);
        let (status, body) = writer.join().unwrap();
        assert_eq!(status, 200, "{body}");
    });
}
