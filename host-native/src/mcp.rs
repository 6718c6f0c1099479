//! `mnemo mcp`: the engine as Model Context Protocol tools, over stdio or streamable HTTP
//! (rmcp, the protocol's Rust SDK). The tools are the calls the engine's declaration gives an
//! MCP name (`memory_search`, `memory_store`, …), with their argument schemas from the same
//! declaration. With `--entity` the server acts for that one owner: no tool takes `entity_id`.
//! Calls run on the engine thread the HTTP server uses (writes grouped, each durable before it
//! is answered).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use serde_json::{json, Value};

use crate::engine::{self, Engine};
use crate::runtime::Runtime;
use mnemo_http::Outcome;

/// Where the MCP server listens.
pub enum Transport {
    /// JSON-RPC on stdin and stdout (what desktop agents start).
    Stdio,
    /// Streamable HTTP at `http://{bind}:{port}/mcp`, behind the server's token.
    Http {
        bind: String,
        port: u16,
        token: String,
    },
}

/// One tool: an engine call under its MCP name.
struct Def {
    tool: Tool,
    method: String,
    /// The call's entry in the schema (where it names an agent).
    call: Value,
}

/// The MCP server: the tools, the engine, and the one owner and agent it may be bound to.
#[derive(Clone)]
struct Mnemo {
    tools: Arc<Vec<Def>>,
    engine: Engine,
    bound: Bound,
}

/// Who a server acts for: one owner (`--entity`), one agent of it (`--agent`), or whoever each
/// call names.
#[derive(Debug, Clone, Default)]
pub struct Bound {
    /// The owner every call acts on.
    pub entity: Option<String>,
    /// The agent every call is made for: it sees and changes what that agent may.
    pub agent: Option<String>,
}

impl Bound {
    /// The arguments a bound server fills in: the owner's (`entity_id`), the agent's.
    fn fields(&self) -> impl Iterator<Item = &'static str> {
        [
            ("entity_id", self.entity.is_some()),
            ("agent_id", self.agent.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, bound)| bound.then_some(k))
    }
}

/// The tools of the engine's call schema (calls with an MCP name). A tool's input schema is
/// its call's argument schema, with the schema's definitions beside it; what the server is
/// bound to (`entity_id`, `agent_id`) is left out of it. Bound to an agent, the owner's calls
/// (the schema's `owner`: team management) are not offered.
fn tools(schema: &Value, bound: &Bound) -> Vec<Def> {
    let defs = schema["$defs"].clone();
    let mut out = Vec::new();
    for call in schema["calls"].as_array().into_iter().flatten() {
        let (Some(name), Some(method)) = (call["mcp"].as_str(), call["method"].as_str()) else {
            continue;
        };
        let mut args = match call["args"]["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/$defs/"))
        {
            Some(def) => defs[def].clone(),
            None => call["args"].clone(),
        };
        let Some(o) = args.as_object_mut() else {
            continue;
        };
        if bound.agent.is_some() && call["owner"] == true {
            continue;
        }
        for field in bound.fields() {
            if let Some(p) = o.get_mut("properties").and_then(Value::as_object_mut) {
                p.remove(field);
            }
            if let Some(r) = o.get_mut("required").and_then(Value::as_array_mut) {
                r.retain(|k| k != field);
            }
        }
        o.insert("type".into(), json!("object"));
        if defs.is_object() {
            o.insert("$defs".into(), defs.clone());
        }
        let summary = call["summary"].as_str().unwrap_or(method).to_string();
        let mut tool = Tool::new(name.to_string(), summary, Arc::new(o.clone()));
        let writes = call["writes"] == true;
        let mut hints = ToolAnnotations::default();
        hints.read_only_hint = Some(!writes);
        // Forgetting is the one write that loses something (softly: purged later).
        hints.destructive_hint = Some(method == "forget");
        // A repeated store is a duplicate the engine skips.
        hints.idempotent_hint = Some(!writes || method == "remember");
        tool.annotations = Some(hints);
        out.push(Def {
            tool,
            method: method.to_string(),
            call: call.clone(),
        });
    }
    out
}

/// A refusal the model can read and act on (a tool error, not a protocol error).
fn refusal(code: &str, message: &str) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(format!("{code}: {message}"))]).into()
}

impl ServerHandler for Mnemo {
    fn get_info(&self) -> ServerConfig {
        let mut scope = match &self.bound.entity {
            Some(e) => format!("Every tool acts on the memories of {e:?}."),
            None => "Every tool takes the entity_id (the user) whose memories it acts on.".into(),
        };
        if let Some(a) = &self.bound.agent {
            scope.push_str(&format!(
                " You are agent {a:?}: you see your own memories and those shared with you."
            ));
        }
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mnemo", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "Long-term memory. Store what the user tells you about themselves and their world \
                 with memory_store (a repeated store is recognised as a duplicate); recall it \
                 with memory_search before answering. {scope}"
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            self.tools.iter().map(|d| d.tool.clone()).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(def) = self.tools.iter().find(|d| d.tool.name == request.name) else {
            return Err(McpError::invalid_params(
                format!("no tool {:?}; tools/list names them", request.name),
                None,
            ));
        };
        let mut args: JsonObject = request.arguments.unwrap_or_default();
        if let Some(entity) = &self.bound.entity {
            match args.get("entity_id") {
                Some(given) if given != &json!(entity) => {
                    return Ok(refusal(
                        "invalid_input",
                        &format!("this server acts for entity {entity:?} only"),
                    ))
                }
                _ => {
                    args.insert("entity_id".into(), json!(entity));
                }
            }
        }
        let mut args = Value::Object(args);
        if let Some(agent) = &self.bound.agent {
            if let Err(e) = mnemo_core::api::for_agent(&def.call, &mut args, agent) {
                return Ok(refusal(e.code(), &e.to_string()));
            }
        }
        match self.engine.call(&def.method, args.to_string()).await {
            Outcome::Answer(text) => {
                let structured = serde_json::from_str::<Value>(&text)
                    .ok()
                    .filter(Value::is_object);
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                result.structured_content = structured;
                Ok(result.into())
            }
            Outcome::Refused { code, message } => Ok(refusal(&code, &message)),
            Outcome::Failed(message) => Err(McpError::internal_error(message, None)),
        }
    }
}

/// Serves MCP until the client leaves (stdio), or until SIGINT/SIGTERM (HTTP), with a
/// maintenance pass as it starts and every `maintain_every` (none when zero); then closes the
/// store.
pub fn run(
    mut rt: Runtime,
    transport: Transport,
    bound: Bound,
    maintain_every: Duration,
) -> Result<()> {
    let schema = rt.schema()?;
    if bound.entity.as_ref().is_some_and(|e| e.trim().is_empty()) {
        bail!("--entity must name an owner");
    }
    if bound.agent.as_ref().is_some_and(|a| a.trim().is_empty()) {
        bail!("--agent must name an agent");
    }
    let tools = Arc::new(tools(&schema, &bound));
    let writes = engine::writes(&schema);
    let threads = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the MCP server's threads")?;
    threads.block_on(async move {
        let (engine, engine_thread) = Engine::start(rt, writes)?;
        if !maintain_every.is_zero() {
            tokio::spawn(crate::serve::maintenance(
                engine.clone(),
                maintain_every,
                true,
            ));
        }
        let server = Mnemo {
            tools,
            engine: engine.clone(),
            bound,
        };
        let served = match transport {
            Transport::Stdio => stdio(server).await,
            Transport::Http { bind, port, token } => http(server, &bind, port, token).await,
        };
        engine.stop();
        let closed = tokio::task::spawn_blocking(move || engine_thread.join())
            .await
            .map_err(|_| anyhow!("the engine's thread panicked"))?;
        served?;
        match closed {
            Ok(result) => result.context("closing the store"),
            Err(_) => bail!("the engine's thread panicked"),
        }
    })
}

async fn stdio(server: Mnemo) -> Result<()> {
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .context("starting MCP on stdio")?;
    tokio::select! {
        quit = running.waiting() => { quit.context("the MCP session failed")?; }
        _ = crate::serve::stop_signal() => {}
    }
    Ok(())
}

async fn http(server: Mnemo, bind: &str, port: u16, token: String) -> Result<()> {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let token = Arc::new(token);
    let router = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let token = token.clone();
            async move {
                if crate::serve::authorised(request.headers(), &token) {
                    next.run(request).await
                } else {
                    unauthorised()
                }
            }
        }));
    let listener = tokio::net::TcpListener::bind((bind, port))
        .await
        .with_context(|| format!("cannot listen on {bind}:{port}"))?;
    eprintln!(
        "mnemo: serving MCP at http://{}/mcp",
        listener.local_addr()?
    );
    axum::serve(listener, router)
        .with_graceful_shutdown(crate::serve::stop_signal())
        .await
        .context("the MCP server failed")
}

fn unauthorised() -> Response {
    (
        axum::http::StatusCode::UNAUTHORIZED,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        json!({ "error": "unauthorized" }).to_string(),
    )
        .into_response()
}
