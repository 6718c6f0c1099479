//! What every answer is: a status and a JSON body. Error answers are `{"error": message,
//! "code": code}`, their status given by the code alone ([`status_of`]), so every server
//! answers a code with the same status.

use serde_json::json;

use crate::routes::PREFIX;

/// The HTTP status of an error code: the engine's codes and the pipeline's own. A new code
/// is one line here.
pub fn status_of(code: &str) -> u16 {
    match code {
        "not_found" => 404,
        "method_not_allowed" => 405,
        "timeout" => 408,
        "embedder_mismatch" | "schema_too_new" => 409,
        "body_too_large" => 413,
        "storage_error" | "embedder_error" | "extractor_error" => 500,
        "storage_full" => 507,
        // Faults of the engine or the server, not of the request.
        "internal" | "not_configured" => 500,
        "not_implemented" => 501,
        "busy" => 503,
        // `invalid_input`, `owner_required`, `unknown_value`, …: the caller's to fix.
        _ => 400,
    }
}

/// An HTTP answer: status and JSON body.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body.
    pub body: String,
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, body: String) -> Reply {
        Reply { status, body }
    }

    /// An error answer, `{"error": message, "code": code}`, with the code's status.
    pub fn error(code: &str, message: impl Into<String>) -> Reply {
        Reply::json(
            status_of(code),
            json!({ "error": message.into(), "code": code }).to_string(),
        )
    }

    /// `401` for a request without the right bearer token.
    pub fn unauthorized() -> Reply {
        Reply::json(401, json!({ "error": "unauthorized" }).to_string())
    }

    /// `413` for a body over `limit` bytes, its route's ([`crate::max_body`]).
    pub fn too_large(limit: usize) -> Reply {
        let why = format!(
            "request body exceeds {} MiB (the limit of this route; documents, source files and imports may \
             take {} MiB)",
            limit >> 20,
            crate::request::MAX_DOCUMENT_BODY >> 20
        );
        Reply::error("body_too_large", why)
    }

    /// `404` for a path outside [`PREFIX`] or no route.
    pub fn no_route(method: &str, path: &str) -> Reply {
        if path.starts_with(PREFIX) {
            Reply::error("not_found", format!("no route {method} {path}"))
        } else {
            Reply::error(
                "not_found",
                format!("no route {method} {path}: routes start with {PREFIX}"),
            )
        }
    }

    /// `405` for a path that exists, asked with a method it does not take.
    pub fn wrong_method(method: &str, path: &str, allowed: &str) -> Reply {
        Reply::error(
            "method_not_allowed",
            format!("{method} is not allowed on {path}: use {allowed}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_answer_takes_its_status_from_its_code() {
        for (code, status) in [
            ("not_found", 404),
            ("invalid_input", 400),
            ("owner_required", 400),
            ("body_too_large", 413),
            ("schema_too_new", 409),
            ("storage_error", 500),
            ("internal", 500),
            ("not_implemented", 501),
        ] {
            let reply = Reply::error(code, "why");
            assert_eq!(reply.status, status, "{code}");
            assert_eq!(
                reply.body,
                format!(r#"{{"error":"why","code":"{code}"}}"#),
                "{code}"
            );
        }
    }
}
