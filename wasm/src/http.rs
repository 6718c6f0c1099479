//! Mnemo's HTTP API for a JS host that serves it (the Cloudflare Worker and its Durable
//! Objects): every answer and every decision is `mnemo-http`'s; these only convert. A reply
//! crosses as `{status, body}` (a JSON body).

use std::cell::RefCell;

use js_sys::{Function, Object, Reflect};
use mnemo_http::{Api, Gate, Outcome, Reply, Request, OWNER_HEADER};
use wasm_bindgen::prelude::*;

use crate::interop::coded;
use crate::mnemo::Mnemo;

thread_local! {
    /// The HTTP API of the call schema `loadSchema` was given.
    static API: RefCell<Option<Api>> = const { RefCell::new(None) };
}

#[wasm_bindgen]
impl Mnemo {
    /// Hands over the engine's call schema (`schema.json`, shipped in the package), which
    /// `http` reads each route's argument types from. Checked here.
    #[wasm_bindgen(js_name = loadSchema)]
    pub fn load_schema(text: &str) -> Result<(), JsValue> {
        let api = Api::from_text(text).map_err(|why| coded(&why, "invalid_input"))?;
        API.with(|a| *a.borrow_mut() = Some(api));
        Ok(())
    }

    /// Serves one request of Mnemo's HTTP API (the routes of `mnemo serve`, under `/api/v1`)
    /// on this store: `query` is the URL's query string without `?`, `body` the raw body.
    /// Answers `{status, body}`; the caller checks the token first. The watcher's routes
    /// belong to the native server and are answered 501.
    pub fn http(
        &mut self,
        method: &str,
        path: &str,
        query: &str,
        body: &[u8],
    ) -> Result<JsValue, JsValue> {
        let request = Request {
            method,
            path,
            query,
            owner: None,
            body,
        };
        let engine = &mut self.engine;
        let reply = API.with(|api| match api.borrow().as_ref() {
            Some(api) => mnemo_http::handle_now(api, &request, |method, args| {
                match engine.call_json(method, args) {
                    Ok(answer) => Outcome::Answer(answer),
                    Err(e) => Outcome::Refused {
                        code: e.code().to_string(),
                        message: e.to_string(),
                    },
                }
            }),
            None => Reply::error(
                "internal",
                "the HTTP routes need the call schema: call Mnemo.loadSchema(schema.json) first",
            ),
        });
        reply_js(&reply)
    }

    /// What a request gets before its token: `{status, body}` for the health answer (this
    /// host runs no event stream) and for a path outside the API or a method it does not
    /// take; `undefined` for a route of the API.
    #[wasm_bindgen(js_name = httpGate)]
    pub fn http_gate(method: &str, path: &str) -> Result<JsValue, JsValue> {
        match mnemo_http::gate(method, path) {
            Gate::Health => {
                let now = js_sys::Date::now() as i64;
                reply_js(&mnemo_http::health(env!("CARGO_PKG_VERSION"), now, 0))
            }
            Gate::Answer(reply) => reply_js(&reply),
            Gate::Api => Ok(JsValue::UNDEFINED),
        }
    }

    /// The answer to a request without the right bearer token.
    #[wasm_bindgen(js_name = httpUnauthorized)]
    pub fn http_unauthorized() -> Result<JsValue, JsValue> {
        reply_js(&Reply::unauthorized())
    }

    /// `{status, body}` refusing a body for `path` whose declared length (`content-length`)
    /// is over the route's limit, before it is read; `undefined` when it may be read.
    #[wasm_bindgen(js_name = httpCheckLength)]
    pub fn http_check_length(
        path: &str,
        content_length: Option<String>,
    ) -> Result<JsValue, JsValue> {
        match mnemo_http::check_length(path, content_length.as_deref()) {
            Ok(()) => Ok(JsValue::UNDEFINED),
            Err(refused) => reply_js(&refused),
        }
    }

    /// The one owner a request concerns, as `{owner}`, or its refusal as `{status, body}`
    /// (see `mnemo_http::owner_of`). `headers` is the request's `Headers`; `store` the store
    /// a test names, if any.
    #[wasm_bindgen(js_name = httpOwner)]
    pub fn http_owner(
        method: &str,
        path: &str,
        query: &str,
        headers: &JsValue,
        body: &[u8],
        store: Option<String>,
    ) -> Result<JsValue, JsValue> {
        let get: Function = Reflect::get(headers, &"get".into())?.dyn_into()?;
        let owner = get.call1(headers, &OWNER_HEADER.into())?.as_string();
        let request = Request {
            method,
            path,
            query,
            owner: owner.as_deref(),
            body,
        };
        match mnemo_http::owner_of(&request, store.as_deref()) {
            Ok(owner) => {
                let out = Object::new();
                Reflect::set(&out, &"owner".into(), &owner.into())?;
                Ok(out.into())
            }
            Err(refused) => reply_js(&refused),
        }
    }

    /// An error answer `{status, body}`: `{"error": message, "code": code}` with the status
    /// of its code (as every server gives it).
    #[wasm_bindgen(js_name = httpError)]
    pub fn http_error(code: &str, message: &str) -> Result<JsValue, JsValue> {
        reply_js(&Reply::error(code, message))
    }
}

/// A reply as `{status, body}`.
fn reply_js(reply: &Reply) -> Result<JsValue, JsValue> {
    let out = Object::new();
    Reflect::set(&out, &"status".into(), &reply.status.into())?;
    Reflect::set(&out, &"body".into(), &reply.body.as_str().into())?;
    Ok(out.into())
}
