//! The studio's pages, embedded in the binary from `assets/studio/` (plain
//! HTML, CSS and JavaScript modules: nothing to build, nothing to install).
//! `/` is the app shell; every other file is served under `/studio/`.

use super::error::ApiError;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use include_dir::{include_dir, Dir};

static STUDIO: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/studio");

pub fn routes() -> Router<super::AppState> {
    Router::new()
        .route("/", get(|| async { file("index.html") }))
        .route(
            "/studio/{*path}",
            get(|Path(p): Path<String>| async move { file(&p) }),
        )
}

/// An embedded file by its path under `assets/studio/`. Paths are looked
/// up in the embedded tree only, so no request reaches the file system.
fn file(path: &str) -> Response {
    match STUDIO.get_file(path) {
        Some(f) => (
            [
                (CONTENT_TYPE, content_type(path)),
                // The pages change with the binary: always ask again.
                (CACHE_CONTROL, "no-cache"),
            ],
            f.contents(),
        )
            .into_response(),
        None => ApiError::not_found(format!("the studio has no file `{path}`")).into_response(),
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, e)| e) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}
