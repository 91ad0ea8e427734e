//! The transports: the two QUIC endpoints (native clients and browsers by WebTransport) with
//! their TLS identities, and the HTTP side (the web client's files, `/metrics`, the WebSocket
//! fallback). Each turns bytes into `ClientFrame`s and drains a session's `Outbound` queue; the
//! session itself is served by `connection.rs`.

pub(crate) mod acme;
pub(crate) mod admission;
pub(crate) mod certificates;
pub(crate) mod devcert;
pub(crate) mod endpoint;
pub(crate) mod frames;
pub(crate) mod headers;
pub(crate) mod http_accept;
pub(crate) mod listeners;
pub(crate) mod native;
pub(crate) mod redirect;
pub(crate) mod refused;
pub(crate) mod reset;
pub(crate) mod tls;
pub(crate) mod web;
pub(crate) mod web_certs;
pub(crate) mod web_files;
pub(crate) mod webtransport;
