//! `mnemo serve`: the HTTP API (Keyoku's routes under `/api/v1`) over one store, on hyper.
//!
//! Connections are tokio tasks, each limited in what it may send and how slowly: request
//! heads of at most [`MAX_HEAD`], bodies of at most their route's limit ([`mnemo_http::max_body`]), and a timeout for a head, a
//! body, and an idle kept-alive connection. At most `max_connections` are served at once (a
//! connection over that gets 503 and is closed), never more than the process's file limit
//! allows. Malformed requests get hyper's 400 (or 431, 505) and the connection closes.
//!
//! What a request means and how it is answered is `mnemo-http`'s: this module keeps the
//! transport — the limits above, the Bearer token (compared in constant time), reading the
//! body — and runs the engine calls of a route on the engine's own thread ([`engine`]), which
//! groups concurrent writes into one commit, and the watcher's routes.

mod token;
mod watcher;

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use subtle::ConstantTimeEq;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::engine::{self, Engine};
use crate::runtime::Runtime;
use mnemo_http::{Api, Gate, Handled, Outcome, Reply, Request as ApiRequest, WatcherRoute};
pub use token::token;
use watcher::Watcher;

/// Largest request head: the request line and every header (hyper answers 431 above it).
const MAX_HEAD: usize = 16 << 10;
/// Most headers a request may have.
const MAX_HEADERS: usize = 64;
/// File descriptors kept free of connections (the store's files, wasmtime's, the listener).
const RESERVED_FDS: u64 = 64;
/// How long to wait before accepting again when the process is out of file descriptors.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// How long a stopping server lets the requests in flight finish.
const GRACE: Duration = Duration::from_secs(5);
/// How long a refused client gets to take its 503.
const REFUSAL_WRITE: Duration = Duration::from_secs(2);

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Settings {
    pub bind: String,
    pub port: u16,
    /// Connections served at once (lowered to what the file limit allows).
    pub max_connections: usize,
    /// How long a client may take to send a request's head or its body, or leave a kept-alive
    /// connection idle.
    pub timeout: Duration,
    /// Time between maintenance passes; zero: none.
    pub maintain_every: Duration,
}

/// What every request handler shares.
struct App {
    token: String,
    api: Api,
    engine: Engine,
    watcher: Watcher,
    timeout: Duration,
}

/// Serves until SIGINT or SIGTERM (then answers what is in flight, closes the store and
/// returns), or until it cannot go on (an error that says why).
pub fn serve(mut rt: Runtime, token: String, settings: Settings) -> Result<()> {
    let schema = rt.schema()?;
    let writes = engine::writes(&schema);
    let api = Api::new(&schema);
    let max_connections = connection_limit(settings.max_connections)?;
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(|| {
            // The engine thread is the limit: the connection threads yield to it under load
            // (nice 5, which measurably lowers the 64-client p99 and its worst case).
            // SAFETY: setpriority only sets this thread's nice value (per thread on Linux).
            unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 5) };
        })
        .build()
        .context("starting the server's threads")?;
    tokio.block_on(async move {
        let listener = TcpListener::bind((settings.bind.as_str(), settings.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", settings.bind, settings.port))?;
        let addr = listener.local_addr()?;
        let (engine, engine_thread) = Engine::start(rt, writes)?;
        let app = Arc::new(App {
            token,
            api,
            engine: engine.clone(),
            watcher: Watcher::new(engine.clone()),
            timeout: settings.timeout,
        });
        let router = Router::new().fallback(serve_request).with_state(app);
        eprintln!("mnemo: serving http://{addr}/api/v1");
        let permits = Arc::new(Semaphore::new(max_connections));
        if !settings.maintain_every.is_zero() {
            tokio::spawn(maintenance(engine.clone(), settings.maintain_every, false));
        }
        let accepting = accept(listener, router, permits.clone(), settings.timeout);
        let engine_done = tokio::task::spawn_blocking(move || engine_thread.join());
        tokio::pin!(engine_done);
        tokio::select! {
            result = accepting => result?,
            ended = &mut engine_done => {
                let why = match ended {
                    Ok(Ok(Ok(()))) => anyhow!("it stopped"),
                    Ok(Ok(Err(e))) => e,
                    _ => anyhow!("its thread panicked"),
                };
                bail!("the engine cannot go on: {why:#}");
            }
            _ = stop_signal() => {}
        }
        // Let the requests in flight finish, then close the store.
        let _ = tokio::time::timeout(GRACE, async {
            while permits.available_permits() < max_connections {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await;
        engine.stop();
        match engine_done.await {
            Ok(Ok(result)) => result.context("closing the store"),
            _ => bail!("the engine's thread panicked"),
        }
    })
}

/// Runs the maintenance pass every `every` (the engine consolidates once a day of its clock),
/// the first at once when `now`, queued with the requests; a refusal (a damaged store) is
/// reported and the next pass tried.
pub(crate) async fn maintenance(engine: Engine, every: Duration, now: bool) {
    let first = tokio::time::Instant::now() + if now { Duration::ZERO } else { every };
    let mut ticks = tokio::time::interval_at(first, every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match engine.call("maintain", "{}".to_string()).await {
            Outcome::Answer(_) => {}
            Outcome::Refused { code, message } => {
                eprintln!("mnemo: the maintenance pass was refused: {message} ({code})")
            }
            // The engine stopped: serving ends and says why.
            Outcome::Failed(_) => return,
        }
    }
}

/// Connections to serve at once: `wanted`, lowered so they fit in the file limit.
fn connection_limit(wanted: usize) -> Result<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes only the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Ok(wanted);
    }
    let room = limit.rlim_cur.saturating_sub(RESERVED_FDS);
    if room < 8 {
        bail!(
            "the file limit ({}) leaves no room for connections: raise it (ulimit -n)",
            limit.rlim_cur
        );
    }
    Ok(wanted.min(room as usize).max(1))
}

/// Resolves on SIGINT or SIGTERM.
pub(crate) async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Accepts connections until an error it cannot get past. Out of file descriptors, it waits
/// for some to close instead of giving up.
async fn accept(
    listener: TcpListener,
    router: Router,
    permits: Arc<Semaphore>,
    timeout: Duration,
) -> Result<()> {
    let mut warned = false;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => {
                warned = false;
                stream
            }
            Err(e) if transient(&e) => {
                if !warned {
                    // Not eprintln!: a closed stderr must not stop the server.
                    let _ = writeln!(
                        std::io::stderr(),
                        "mnemo: cannot accept a connection for now ({e}); retrying"
                    );
                    warned = true;
                }
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
            Err(e) => return Err(e).context("accepting connections"),
        };
        // Answers go out as soon as they are written, not after the client's delayed ACK.
        let _ = stream.set_nodelay(true);
        match permits.clone().try_acquire_owned() {
            Ok(permit) => {
                tokio::spawn(connection(stream, router.clone(), permit, timeout));
            }
            Err(_) => {
                tokio::spawn(refuse_busy(stream));
            }
        }
    }
}

/// Accept errors that pass: out of descriptors or memory for now, a client that left.
fn transient(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(
            libc::EMFILE
                | libc::ENFILE
                | libc::ENOBUFS
                | libc::ENOMEM
                | libc::ECONNABORTED
                | libc::ECONNRESET
                | libc::EINTR
                | libc::EAGAIN
                | libc::EPROTO
                | libc::EPERM
        )
    )
}

/// Serves one connection with the limits, holding its permit until it closes.
async fn connection(
    stream: TcpStream,
    router: Router,
    permit: OwnedSemaphorePermit,
    timeout: Duration,
) {
    let service = TowerToHyperService::new(router);
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        // Also the idle timeout: hyper starts it again while waiting for the next request.
        .header_read_timeout(timeout)
        .max_header_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .serve_connection(TokioIo::new(stream), service);
    // Its errors are the client's doing (malformed, too slow, gone): hyper has answered or
    // closed, and nothing else is owed.
    let _ = served.await;
    drop(permit);
}

/// Tells a client over the connection limit to come back later, and closes.
async fn refuse_busy(mut stream: TcpStream) {
    let refusal = Reply::error(
        "busy",
        "the server is serving as many connections as it may; retry shortly",
    );
    let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{}",
        refusal.body.len(),
        refusal.body
    );
    let _ = tokio::time::timeout(REFUSAL_WRITE, async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// The HTTP form of an answer: its status, its JSON body.
fn send(answer: Reply) -> Response {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        answer.body,
    )
        .into_response()
}

/// The system clock in ms since the epoch (health's timestamp only; the engine keeps its own).
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Every request: what `mnemo-http` answers before the token, the token, the body, then the
/// answer `mnemo-http` gives, its engine calls run on the engine thread.
async fn serve_request(State(app): State<Arc<App>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let (method, path) = (parts.method.as_str(), parts.uri.path());
    match mnemo_http::gate(method, path) {
        Gate::Health => {
            let version = env!("CARGO_PKG_VERSION");
            return send(mnemo_http::health(version, now_ms(), app.watcher.clients()));
        }
        Gate::Answer(reply) => return send(reply),
        Gate::Api => {}
    }
    if !authorised(&parts.headers, &app.token) {
        return send(Reply::unauthorized());
    }
    let body = if mnemo_http::has_body(method) {
        match read_body(path, &parts.headers, body, app.timeout).await {
            Ok(body) => body,
            Err(refused) => return send(refused),
        }
    } else {
        Bytes::new()
    };
    let request = ApiRequest {
        method,
        path,
        query: parts.uri.query().unwrap_or(""),
        owner: None,
        body: &body,
    };
    let exec = |method: String, args: String| {
        let engine = app.engine.clone();
        async move { engine.call(&method, args).await }
    };
    match mnemo_http::handle(&app.api, &request, exec).await {
        Handled::Reply(reply) => send(reply),
        Handled::Watcher(route) => watch(&app.watcher, route),
    }
}

/// A watcher route, or the event stream.
fn watch(watcher: &Watcher, route: WatcherRoute) -> Response {
    let answer = match route {
        WatcherRoute::Events => return watcher.subscribe().into_response(),
        WatcherRoute::Status => Ok(watcher.status()),
        WatcherRoute::History(limit) => Ok(watcher.history(limit)),
        WatcherRoute::Start(body) => watcher.start(&body),
        WatcherRoute::Stop => Ok(watcher.stop()),
        WatcherRoute::Watch(body) => watcher.watch(&body),
        WatcherRoute::Unwatch(body) => watcher.unwatch(&body),
    };
    send(match answer {
        Ok(v) => Reply::json(200, v.to_string()),
        Err(why) => Reply::error("invalid_input", why),
    })
}

/// Whether a request carries the server's bearer token (compared in constant time).
pub(crate) fn authorised(headers: &HeaderMap, token: &str) -> bool {
    headers.get_all(header::AUTHORIZATION).iter().any(|v| {
        v.to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|t| bool::from(t.trim().as_bytes().ct_eq(token.as_bytes())))
    })
}

/// The body's bytes of a request for `path`: at most its route's limit
/// ([`mnemo_http::max_body`]), arriving within `timeout`.
async fn read_body(
    path: &str,
    headers: &HeaderMap,
    body: Body,
    timeout: Duration,
) -> Result<Bytes, Reply> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok());
    mnemo_http::check_length(path, declared)?;
    let limit = mnemo_http::max_body(path);
    match tokio::time::timeout(timeout, Limited::new(body, limit).collect()).await {
        Err(_) => Err(Reply::error(
            "timeout",
            format!(
                "the request body did not arrive within {} s",
                timeout.as_secs()
            ),
        )),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            Err(Reply::too_large(limit))
        }
        Ok(Err(e)) => Err(Reply::error(
            "invalid_input",
            format!("cannot read the body: {e}"),
        )),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
    }
}
