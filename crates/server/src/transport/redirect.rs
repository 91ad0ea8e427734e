//! Plain HTTP when the server serves HTTPS: every request is sent on to the same path over HTTPS
//! (308, so a method and body stay as they were), except an ACME CA's HTTP-01 challenge, which
//! must be answered in plain HTTP (RFC 8555 §8.3). Nothing else is served in clear: no page, no
//! WebSocket, no `/metrics`.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::transport::acme::Challenges;

/// Where plain HTTP sends its requests.
#[derive(Clone)]
pub(crate) struct Target {
    /// `public_host`; empty for the request's own host.
    pub(crate) host: String,
    /// The HTTPS listener's port (left out of the address when it is 443).
    pub(crate) port: u16,
    /// The open ACME orders' answers.
    pub(crate) challenges: Option<Arc<Challenges>>,
}

/// The plain-HTTP router of a server that serves HTTPS.
pub(crate) fn router(target: Target) -> Router {
    let app = Router::new()
        .route("/.well-known/acme-challenge/{token}", get(challenge))
        .fallback(redirect)
        .with_state(Arc::new(target));
    crate::transport::headers::secured(app, false)
}

async fn challenge(State(target): State<Arc<Target>>, Path(token): Path<String>) -> Response {
    match target.challenges.as_ref().and_then(|c| c.answer(&token)) {
        Some(answer) => ([(header::CONTENT_TYPE, "application/octet-stream")], answer).into_response(),
        None => (StatusCode::NOT_FOUND, "no such challenge").into_response(),
    }
}

async fn redirect(State(target): State<Arc<Target>>, headers: HeaderMap, uri: Uri) -> Response {
    let host = match target.host.as_str() {
        "" => match headers.get(header::HOST).and_then(|h| h.to_str().ok()).map(host_part) {
            Some(host) if !host.is_empty() => host.to_owned(),
            _ => {
                return (StatusCode::BAD_REQUEST, "no Host: open the server's https:// address")
                    .into_response();
            }
        },
        name => name.to_owned(),
    };
    let port = if target.port == 443 { String::new() } else { format!(":{}", target.port) };
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    match HeaderValue::try_from(format!("https://{host}{port}{path}")) {
        Ok(location) => (StatusCode::PERMANENT_REDIRECT, [(header::LOCATION, location)]).into_response(),
        Err(_) => (StatusCode::BAD_REQUEST, "not an address").into_response(),
    }
}

/// The host of a `Host` header, without its port: `chess.example.org:80` → `chess.example.org`,
/// `[::1]:7476` → `[::1]`.
fn host_part(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.split(':').next().unwrap_or(host)
}

#[cfg(test)]
mod tests {
    use super::host_part;

    #[test]
    fn the_redirects_host_is_the_requests_without_its_port() {
        assert_eq!(host_part("chess.example.org:80"), "chess.example.org");
        assert_eq!(host_part("chess.example.org"), "chess.example.org");
        assert_eq!(host_part("[::1]:7476"), "[::1]");
        assert_eq!(host_part("127.0.0.1:8080"), "127.0.0.1");
    }
}
