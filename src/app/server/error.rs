//! Refusals as JSON: `{ "error": "…" }` with a 4xx (or 5xx) status, so the
//! pages show the reason and scripts can read it. Also [`JsonBody`], a JSON
//! extractor whose refusals (bad JSON, too large, wrong type) take the same
//! shape instead of axum's plain-text ones.

use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// A refused request: its status and the reason in words.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// A choice the engine refuses, or a request that does not fit the
    /// game's moment (the game is unchanged).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    pub fn too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is larger than the {} KiB this server accepts",
                super::MAX_BODY / 1024
            ),
        )
    }

    /// Something broke on the server's side (a failing card script, a task
    /// that died): the game is as it was before the request.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": cut(&self.message) });
        (self.status, axum::Json(body)).into_response()
    }
}

/// The longest error message sent, in characters: a message that quotes
/// the request (an agent's name, a file name) quotes at most this much of
/// it, not a 100 KB input back in full.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// `message`, cut to [`MAX_MESSAGE_CHARS`] with a note of how long it was.
pub fn cut(message: &str) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => message.to_string(),
        Some((end, _)) => format!(
            "{}… (cut: {} characters in all)",
            &message[..end],
            message.chars().count()
        ),
    }
}

/// The largest plain-text error body turned into JSON; a longer one is
/// cut there (only axum's own short refusals are not JSON already).
const MAX_TEXT_BODY: usize = 64 * 1024;

/// Makes every refusal JSON: axum's own (a bad query string, a method a
/// route does not take, a missing header) come as plain text or empty;
/// they are rewritten as `{ "error": "…" }` with the same status, the
/// method refused named for a 405.
pub async fn json_errors(req: Request, next: axum::middleware::Next) -> Response {
    let method = req.method().clone();
    let res = next.run(req).await;
    let status = res.status();
    let is_json = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = match axum::body::to_bytes(body, MAX_TEXT_BODY).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let allow = parts
        .headers
        .get(axum::http::header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let message = match (status, allow) {
        (StatusCode::METHOD_NOT_ALLOWED, Some(allow)) => {
            format!("this route does not take that method; it takes {allow}")
        }
        (StatusCode::METHOD_NOT_ALLOWED, None) => format!(
            "this route does not take {method} (its Allow header names the methods it takes)"
        ),
        _ if text.is_empty() => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
        _ => text,
    };
    let mut res = ApiError::new(status, message).into_response();
    if let Some(allow) = parts.headers.get(axum::http::header::ALLOW) {
        res.headers_mut()
            .insert(axum::http::header::ALLOW, allow.clone());
    }
    res
}

/// A JSON request body, refused as an [`ApiError`] when it cannot be read.
pub struct JsonBody<T>(pub T);

/// Like [`JsonBody`], but an empty body is the type's default.
pub struct OptionalJson<T>(pub T);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned + Default,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let declared = declared_type(&req);
        let bytes = body(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        json_declared(declared)?;
        parse(&bytes).map(OptionalJson)
    }
}

/// The request's Content-Type, if it names one.
fn declared_type(req: &Request) -> Option<String> {
    req.headers()
        .get(axum::http::header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

/// A body declared as something other than JSON is refused (415), before
/// it is read as JSON: a form or a text a page on another site could send
/// without asking (CORS lets those through with no preflight) is never
/// taken for a request of the studio's pages, whatever the Origin check
/// lets by. No Content-Type at all is taken as JSON.
fn json_declared(declared: Option<String>) -> Result<(), ApiError> {
    let Some(declared) = declared else {
        return Ok(());
    };
    let media = declared
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if media == "application/json"
        || (media.starts_with("application/") && media.ends_with("+json"))
    {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!(
            "the request body must be JSON, sent with Content-Type: application/json (this one says `{}`)",
            cut(&declared)
        ),
    ))
}

async fn body<S: Send + Sync>(req: Request, state: &S) -> Result<axum::body::Bytes, ApiError> {
    axum::body::Bytes::from_request(req, state)
        .await
        .map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::too_large()
            } else {
                ApiError::bad_request(format!("cannot read the request body: {e}"))
            }
        })
}

fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::bad_request(format!("the request body is not the JSON expected: {e}"))
    })
}

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let declared = declared_type(&req);
        let bytes = body(req, state).await?;
        json_declared(declared)?;
        parse(&bytes).map(JsonBody)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_cut_and_says_how_long_it_was() {
        assert_eq!(cut("short"), "short");
        let long = "é".repeat(100_000);
        let c = cut(&long);
        assert!(c.len() < 2 * MAX_MESSAGE_CHARS + 64, "{}", c.len());
        assert!(c.ends_with("… (cut: 100000 characters in all)"), "{c}");
    }
}
