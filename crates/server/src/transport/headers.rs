//! The headers every HTTP response of the server carries, from the router (`web.rs`, the
//! redirect of `redirect.rs`) and from the raw `503` of a refused connection (`http_accept.rs`)
//! alike: one list, so that no answer goes out without them.

use axum::Router;
use axum::http::{HeaderName, HeaderValue};
use tower_http::set_header::SetResponseHeaderLayer;

/// The page's scripts, styles and images come from the server alone (and the empty `data:` image
/// a drag shows) and it connects only to the server (WebTransport's `https:` on the browsers'
/// port, the WebSocket), no site may frame it (clickjacking), no type is sniffed, and no address
/// of the server leaks to the sites a page links to.
pub(crate) const SECURITY_HEADERS: [(&str, &str); 4] = [
    (
        "content-security-policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self' https: wss: ws:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
];

/// HTTPS responses tell the browser to come back over HTTPS only, for a year (RFC 6797; not for
/// subdomains, which may be other services of the same organisation).
pub(crate) const HSTS: (&str, &str) = ("strict-transport-security", "max-age=31536000");

/// `app` with [`SECURITY_HEADERS`] on every response, and [`HSTS`] too over TLS.
pub(crate) fn secured(mut app: Router, tls: bool) -> Router {
    let hsts = tls.then_some(HSTS);
    for (name, value) in SECURITY_HEADERS.into_iter().chain(hsts) {
        app = app.layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        ));
    }
    app
}

/// The same headers as lines of a raw HTTP/1.1 head (each ending in CRLF).
pub(crate) fn raw_lines() -> String {
    SECURITY_HEADERS.iter().map(|(name, value)| format!("{name}: {value}\r\n")).collect()
}
