//! Providers for the component's imports, over OpenAI-compatible HTTP APIs (as served by
//! Ollama, llama.cpp, vLLM, OpenAI): an embeddings endpoint (`POST {url}/embeddings`) instead
//! of the built-in embedder, and a chat endpoint (`POST {url}/chat/completions`) as the LLM
//! extractor.

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// POSTs `body` as JSON to `url` and reads the JSON answer; errors name the endpoint.
fn post_json(agent: &ureq::Agent, url: &str, body: &Value) -> Result<Value, String> {
    let mut response = agent
        .post(url)
        .send_json(body)
        .map_err(|e| format!("POST {url}: {e}"))?;
    response
        .body_mut()
        .read_json()
        .map_err(|e| format!("{url} answered with something that is not JSON: {e}"))
}

/// An embeddings endpoint and the model it serves.
pub struct HttpEmbedder {
    url: String,
    model: String,
    /// Vector length, learnt from a first request.
    pub dimension: u32,
    agent: ureq::Agent,
}

impl HttpEmbedder {
    /// Connects to `base_url` (e.g. `http://127.0.0.1:11434/v1`) and learns the model's
    /// dimension from one probe.
    pub fn connect(base_url: &str, model: &str) -> Result<HttpEmbedder> {
        let url = format!("{}/embeddings", base_url.trim_end_matches('/'));
        let mut e = HttpEmbedder {
            url,
            model: model.to_string(),
            dimension: 0,
            agent: ureq::Agent::new_with_defaults(),
        };
        let probe = e
            .embed(&["dimension probe".to_string()])
            .map_err(anyhow::Error::msg)
            .with_context(|| {
                format!(
                    "the embeddings endpoint {} did not answer as expected",
                    e.url
                )
            })?;
        let dim = probe.first().map_or(0, Vec::len);
        if dim == 0 {
            bail!("{} returned an empty vector", e.url);
        }
        e.dimension = dim as u32;
        Ok(e)
    }

    /// The model id the store records.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The vectors of `texts`, in order.
    pub fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        let body = json!({ "model": self.model, "input": texts });
        let v = post_json(&self.agent, &self.url, &body)?;
        let data = v["data"]
            .as_array()
            .ok_or_else(|| format!("{} answered without a \"data\" list", self.url))?;
        if data.len() != texts.len() {
            return Err(format!(
                "{} returned {} vectors for {} texts",
                self.url,
                data.len(),
                texts.len()
            ));
        }
        let mut out = vec![Vec::new(); texts.len()];
        for (i, item) in data.iter().enumerate() {
            let index = item["index"].as_u64().map_or(i, |n| n as usize);
            let vector: Option<Vec<f32>> = item["embedding"]
                .as_array()
                .and_then(|a| a.iter().map(|x| x.as_f64().map(|f| f as f32)).collect());
            match (out.get_mut(index), vector) {
                (Some(slot), Some(v)) => *slot = v,
                _ => {
                    return Err(format!(
                        "{} returned a malformed embedding at {i}",
                        self.url
                    ))
                }
            }
        }
        Ok(out)
    }
}

/// A chat-completions endpoint asked to extract memories.
pub struct HttpChat {
    url: String,
    model: String,
    agent: ureq::Agent,
}

impl HttpChat {
    /// A chat endpoint at `base_url` (e.g. `http://127.0.0.1:11434/v1`) serving `model`.
    pub fn new(base_url: &str, model: &str) -> HttpChat {
        HttpChat {
            url: format!("{}/chat/completions", base_url.trim_end_matches('/')),
            model: model.to_string(),
            agent: ureq::Agent::new_with_defaults(),
        }
    }

    /// The model's answer to `instructions` (the system message) about `content`.
    pub fn ask(&self, instructions: &str, content: &str) -> Result<String, String> {
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": instructions},
                {"role": "user", "content": content},
            ],
        });
        let v = post_json(&self.agent, &self.url, &body)?;
        v["choices"][0]["message"]["content"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{} answered without choices[0].message.content", self.url))
    }
}
