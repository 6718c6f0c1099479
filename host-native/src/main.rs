//! `mnemo`: Mnemo for native programs. Every command runs the engine component inside
//! wasmtime on a store in the data directory, so the native tool and the browser run the same
//! engine code and give the same JSON.

mod cli;
mod code;
mod engine;
mod files;
mod mcp;
mod output;
mod serve;
mod tools;

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use mnemo_core::Answer;
use serde_json::json;

use cli::{parse_now, Cli, Command};
use datadir::DataDir;
use mnemo_host::{ahead, datadir, providers, random_seed, runtime};
use runtime::{Clock, Options, Runtime};

fn run(cli: Cli) -> Result<ExitCode> {
    if let Command::Scenario { file } = &cli.command {
        return tools::scenario(file);
    }
    let clock = match (&cli.now, &cli.start_at) {
        (Some(s), _) => Clock::Fixed(parse_now(s)?),
        (None, Some(s)) => Clock::running_from(parse_now(s)?),
        (None, None) => Clock::System,
    };
    let seed = cli.seed.unwrap_or_else(random_seed);
    let workspace = (cli.workspace.as_deref())
        .map(mnemo_host::workspace::Workspace::open)
        .transpose()?;
    let json = cli.json;
    let need = cli.command.need();
    // The store is opened only when a command is ready to use it.
    let open = |need| -> Result<(DataDir, Runtime)> {
        // Whatever the store's files are made with (SQLite's journal and WAL come from inside
        // the component, which cannot set a mode): for this user alone.
        // SAFETY: umask only sets the process's file mode mask.
        unsafe { libc::umask(0o077) };
        let dir = DataDir::open(&cli.data, need)?;
        let embedding = match (&cli.embed_url, &cli.embed_model) {
            (Some(url), Some(model)) => Some(runtime::Embedding::Http(
                providers::HttpEmbedder::connect(url, model)?,
            )),
            _ => None,
        };
        let llm = match (&cli.llm_url, &cli.llm_model) {
            (Some(url), Some(model)) => Some(providers::HttpChat::new(url, model)),
            _ => None,
        };
        let config = match &cli.config {
            Some(path) => std::fs::read_to_string(path)
                .with_context(|| format!("reading the engine settings {}", path.display()))?,
            None => String::new(),
        };
        let rt = Runtime::open(Options {
            data: dir.path.clone(),
            clock,
            seed,
            embedding,
            llm,
            config,
            workspace: workspace.clone(),
        })?;
        Ok((dir, rt))
    };
    let calls = match cli.command {
        Command::Serve {
            bind,
            port,
            max_connections,
            timeout,
            maintain_every,
        } => {
            let (dir, rt) = open(need)?;
            let token = serve::token(&dir.path)?;
            let settings = serve::Settings {
                bind,
                port,
                max_connections,
                timeout: std::time::Duration::from_secs(timeout),
                maintain_every: std::time::Duration::from_secs(maintain_every),
            };
            serve::serve(rt, token, settings)?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Mcp {
            entity,
            http,
            bind,
            port,
            maintain_every,
        } => {
            let agent = cli.agent.clone();
            let (dir, rt) = open(need)?;
            let transport = if http {
                mcp::Transport::Http {
                    bind,
                    port,
                    token: serve::token(&dir.path)?,
                }
            } else {
                mcp::Transport::Stdio
            };
            let every = std::time::Duration::from_secs(maintain_every);
            mcp::run(rt, transport, mcp::Bound { entity, agent }, every)?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Call {
            method,
            args,
            list,
            schema,
        } => {
            let (_dir, rt) = open(need)?;
            let agent = cli.agent.as_deref();
            return generic_call(rt, method, &args, list, schema, json, agent);
        }
        // Made (their input read and checked) before the store is touched, so a refused
        // command creates nothing.
        command => match cli::calls(command) {
            Ok(calls) => calls,
            Err(e) => {
                return match e.downcast::<mnemo_core::Error>() {
                    Ok(refused) => Ok(refuse(json, refused.code(), &refused.to_string())),
                    Err(e) => Err(e),
                }
            }
        },
    };
    let (_dir, rt) = open(need)?;
    rt.close_after(|rt| {
        let mut answers = Vec::new();
        let acting = Acting::of(rt, cli.agent.as_deref())?;
        // Each batch of a long seed or import, and each file ingested, is its own transaction:
        // a progress bar on a terminal, else one line per committed call (what a crash can no
        // longer lose).
        let bar = (calls.len() > 1 && std::io::stderr().is_terminal()).then(|| {
            let style = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            indicatif::ProgressBar::new(calls.len() as u64).with_style(style)
        });
        for (n, call) in calls.iter().enumerate() {
            let args = match for_agent(acting.as_ref(), call.method(), call.args_json()) {
                Ok(args) => args,
                Err((code, message)) => return Ok(refuse(json, &code, &message)),
            };
            match rt.call(call.method(), &args)? {
                Ok(out) => {
                    answers.push(Answer::from_json(call.method(), &out)?);
                    match &bar {
                        Some(bar) => {
                            bar.set_message(committed(call));
                            bar.inc(1)
                        }
                        None if calls.len() > 1 => {
                            eprintln!("{} {}/{}", committed(call), n + 1, calls.len())
                        }
                        None => {}
                    }
                }
                Err(e) => return Ok(refuse(json, &e.code, &e.message)),
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        output::print(answers, json)?;
        Ok(ExitCode::SUCCESS)
    })
}

/// What a committed call of a long command did, as its progress line says it: the file an
/// ingest stored, else a batch.
fn committed(call: &mnemo_core::Call) -> String {
    match call {
        mnemo_core::Call::Ingest(req) => match (&req.filename, &req.title) {
            (Some(name), _) | (None, Some(name)) => format!("ingested {}", &**name),
            (None, None) => "ingested a document".into(),
        },
        _ => "committed batch".into(),
    }
}

/// Who the calls of this command are made for (`--agent`), with the schema of the engine that
/// runs, read once for all of them.
struct Acting {
    agent: String,
    declared: serde_json::Value,
}

impl Acting {
    /// The agent of `--agent`, if one was given.
    fn of(rt: &mut Runtime, agent: Option<&str>) -> Result<Option<Acting>> {
        Ok(match agent {
            Some(a) => Some(Acting {
                agent: a.to_string(),
                declared: rt.schema()?,
            }),
            None => None,
        })
    }
}

/// The arguments of `method` as the agent acting makes the call: its `agent_id` filled in
/// wherever the call names one, another agent refused, the owner's calls refused — the rule of
/// the engine's schema (`mnemo_core::api::for_agent`). Unchanged without an agent; arguments
/// that are not JSON are left for the engine to refuse.
fn for_agent(
    acting: Option<&Acting>,
    method: &str,
    args: String,
) -> std::result::Result<String, (String, String)> {
    let Some(Acting { agent, declared }) = acting else {
        return Ok(args);
    };
    let call = declared["calls"]
        .as_array()
        .and_then(|calls| calls.iter().find(|c| c["method"] == method));
    let (Some(call), Ok(mut value)) = (call, serde_json::from_str::<serde_json::Value>(&args))
    else {
        return Ok(args);
    };
    match mnemo_core::api::for_agent(call, &mut value, agent) {
        Ok(()) => Ok(value.to_string()),
        Err(e) => Err((e.code().to_string(), e.to_string())),
    }
}

/// Reports an engine's refusal: `{"error": {code, message}}` with `--json`, else a line on
/// stderr; exit status 1.
fn refuse(json: bool, code: &str, message: &str) -> ExitCode {
    if json {
        println!("{}", json!({"error": {"code": code, "message": message}}));
    } else {
        eprintln!("error ({code}): {message}");
    }
    ExitCode::from(1)
}

/// `mnemo call`: any engine call by name with JSON arguments, passed through as typed; or the
/// list of calls, or a call's schema, as the engine declares them.
fn generic_call(
    rt: Runtime,
    method: Option<String>,
    args: &str,
    list: bool,
    schema: bool,
    json: bool,
    agent: Option<&str>,
) -> Result<ExitCode> {
    rt.close_after(|rt| {
        let method = method.unwrap_or_default();
        if list || schema {
            // As the engine that runs declares them.
            let declared = rt.schema()?;
            let calls = declared["calls"].as_array().cloned().unwrap_or_default();
            if list {
                output::calls(&calls, json);
                return Ok(ExitCode::SUCCESS);
            }
            let Some(call) = calls.iter().find(|c| c["method"] == method.as_str()) else {
                return Ok(refuse(
                    json,
                    "unknown_value",
                    &format!("unknown method {method:?}; `mnemo call --list` lists them"),
                ));
            };
            let doc = json!({"call": call, "$defs": declared["$defs"]});
            println!("{}", serde_json::to_string_pretty(&doc)?);
            return Ok(ExitCode::SUCCESS);
        }
        let acting = Acting::of(rt, agent)?;
        let args = match for_agent(acting.as_ref(), &method, args.to_string()) {
            Ok(args) => args,
            Err((code, message)) => return Ok(refuse(json, &code, &message)),
        };
        match rt.call(&method, &args)? {
            Ok(out) if json => {
                println!("{out}");
                Ok(ExitCode::SUCCESS)
            }
            Ok(out) => {
                output::print(vec![Answer::from_json(&method, &out)?], false)?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => Ok(refuse(json, &e.code, &e.message)),
        }
    })
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mnemo: {e:#}");
            ExitCode::from(2)
        }
    }
}
