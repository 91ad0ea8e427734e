//! The HTTP side's TCP connections, accepted here rather than by `axum::serve` so that each is
//! bounded like a QUIC connection:
//!
//! - **Admitted before it is read.** Every TCP connection takes a place of `max_connections`
//!   and of its address's `max_connections_per_address` at accept, and holds it as long as it
//!   lives — through a WebSocket upgrade too, since hyper hands this very stream ([`Admitted`])
//!   to the WebSocket. A connection refused is answered `503` and closed (at most
//!   [`REFUSING`] such answers at once, each within [`REFUSAL_WAIT`]; beyond, it is closed
//!   unanswered).
//! - **Headers in time.** A request's headers must arrive within `http_header_timeout_ms` of the
//!   connection's waiting for them (an idle keep-alive connection included): a client that
//!   trickles a header a byte at a time (slowloris) is closed, not waited on.
//! - **Behind a reverse proxy**, the client's address is the proxy's word, from
//!   `X-Forwarded-For`, but only when the TCP peer is one of `trusted_proxies` ([`client_of`]);
//!   otherwise the header is ignored, so nobody can claim another's address. A proxy's
//!   connections then take a place of `max_connections` only, and each WebSocket session the
//!   place of the client's address when it upgrades.
//! - **Over TLS** when it is the HTTPS listener: the handshake comes after admission and must end
//!   within `http_header_timeout_ms` too. Whether a request came over TLS (here, or to a trusted
//!   proxy that says so with `X-Forwarded-Proto: https`) is [`ClientAddr::secure`]: a password
//!   sent any other way crosses the network readable.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::HeaderMap;
use hyper_util::rt::{TokioIo, TokioTimer};
use ipnet::IpNet;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use crate::transport::admission::{Admission, Admitted as Place};

/// Refused connections answered `503` at once, at most.
pub(crate) const REFUSING: usize = 64;

/// How long a refused connection may take to send its request and be told `503`.
pub(crate) const REFUSAL_WAIT: Duration = Duration::from_secs(2);

/// The HTTP side's settings.
pub(crate) struct Settings {
    /// `http_header_timeout_ms`.
    pub(crate) header_timeout: Duration,
    /// `trusted_proxies`.
    pub(crate) proxies: Arc<Vec<IpNet>>,
    /// HTTPS: the TLS every connection speaks first.
    pub(crate) tls: Option<tokio_rustls::TlsAcceptor>,
}

/// The address of the client a request comes from: the TCP peer's, or, from a trusted proxy, the
/// one it forwarded ([`client_of`]). Put in every request's extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClientAddr {
    pub(crate) ip: IpAddr,
    /// It came through a trusted proxy: its connection holds no place of its address yet.
    pub(crate) proxied: bool,
    /// It came over TLS: to this server, or to the trusted proxy that forwarded it.
    pub(crate) secure: bool,
}

/// A TCP connection with the place it holds: the place goes when the stream is dropped, the
/// WebSocket's end included.
struct Admitted {
    stream: TcpStream,
    _place: Place,
}

impl AsyncRead for Admitted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Admitted {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// Accepts and serves connections on `listener` with `app` until `shutdown` completes; then
/// each connection finishes its request in hand and closes.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    admission: Arc<Admission>,
    settings: Settings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let (stop, stopped) = watch::channel(false);
    let refusing = Arc::new(Semaphore::new(REFUSING));
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, say: wait a moment rather than spin.
                    tracing::warn!(error = %e, "cannot accept an HTTP connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let proxied = is_trusted(&settings.proxies, peer.ip());
        let admitted = if proxied { admission.admit_total() } else { admission.admit(peer.ip()) };
        match admitted {
            Ok(place) => {
                let io = Admitted { stream, _place: place };
                let (app, proxies, stopped) = (app.clone(), settings.proxies.clone(), stopped.clone());
                let header_timeout = settings.header_timeout;
                match settings.tls.clone() {
                    None => {
                        let conn = Connection { io, peer, app, header_timeout, proxies, tls: false };
                        tokio::spawn(conn.serve(stopped));
                    }
                    Some(tls) => {
                        tokio::spawn(async move {
                            // A handshake is held to the headers' time: no slow TLS either.
                            let io = match tokio::time::timeout(header_timeout, tls.accept(io)).await {
                                Ok(Ok(io)) => io,
                                Ok(Err(e)) => {
                                    tracing::debug!(%peer, error = %e, "a TLS handshake failed");
                                    return;
                                }
                                Err(_) => {
                                    tracing::debug!(%peer, "a TLS handshake took longer than http_header_timeout_ms");
                                    return;
                                }
                            };
                            let conn = Connection { io, peer, app, header_timeout, proxies, tls: true };
                            conn.serve(stopped).await;
                        });
                    }
                }
            }
            Err(limit) => {
                admission.log_refused(limit, peer, "HTTP");
                // Over HTTPS a refusal would need a handshake first: the connection is closed.
                if settings.tls.is_some() {
                    continue;
                }
                if let Ok(permit) = refusing.clone().try_acquire_owned() {
                    let body = admission.words(limit);
                    tokio::spawn(async move {
                        let _ = tokio::time::timeout(REFUSAL_WAIT, refuse(stream, body)).await;
                        drop(permit);
                    });
                }
            }
        }
    }
    let _ = stop.send(true);
}

/// One admitted connection of the HTTP side, over TCP or TLS.
struct Connection<I> {
    io: I,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    proxies: Arc<Vec<IpNet>>,
    /// `io` is TLS.
    tls: bool,
}

impl<I: AsyncRead + AsyncWrite + Unpin + Send + 'static> Connection<I> {
    async fn serve(self, mut stopped: watch::Receiver<bool>) {
        let Connection { io, peer, app, header_timeout, proxies, tls } = self;
        let service =
            hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                let mut app = app.clone();
                let mut client = client_of(request.headers(), peer.ip(), &proxies);
                client.secure = tls || (client.proxied && forwarded_https(request.headers()));
                request.extensions_mut().insert(ConnectInfo(peer));
                request.extensions_mut().insert(client);
                async move { tower::Service::call(&mut app, request).await }
            });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
        let conn = builder.serve_connection(TokioIo::new(io), service).with_upgrades();
        tokio::pin!(conn);
        tokio::select! {
            served = conn.as_mut() => {
                if let Err(e) = served {
                    tracing::debug!(%peer, error = %e, "an HTTP connection ended");
                }
                return;
            }
            _ = stopped.wait_for(|stop| *stop) => conn.as_mut().graceful_shutdown(),
        }
        let _ = conn.await;
    }
}

/// Tells a refused connection `503` once its request has arrived (or after a moment), so that a
/// client sees why rather than a reset.
async fn refuse(mut stream: TcpStream, body: String) {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while head.len() < 16 * 1024 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: {}\r\n\
         connection: close\r\n{}\r\n{body}",
        body.len(),
        crate::transport::headers::raw_lines()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

fn is_trusted(proxies: &[IpNet], ip: IpAddr) -> bool {
    proxies.iter().any(|net| net.contains(&canonical(ip)))
}

/// An IPv4 address carried in IPv6 (`::ffff:a.b.c.d`, a dual-stack socket's) as IPv4.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// The client of a request from `peer`: `peer` itself unless it is a trusted proxy; then the
/// address `X-Forwarded-For` names last that is not a trusted proxy (each proxy appends the
/// address it heard from, so the right end is the nearest, and the first untrusted one is the
/// client as far as anyone trusted can tell). A value that does not parse ends the walk there.
pub(crate) fn client_of(headers: &HeaderMap, peer: IpAddr, proxies: &[IpNet]) -> ClientAddr {
    if !is_trusted(proxies, peer) {
        return ClientAddr { ip: canonical(peer), proxied: false, secure: false };
    }
    // Several header lines read as one list, in order; a line that is not text is no address.
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("?").split(','))
        .collect();
    let mut client = canonical(peer);
    for hop in hops.iter().rev() {
        let Ok(ip) = hop.trim().parse::<IpAddr>() else { break };
        client = canonical(ip);
        if !is_trusted(proxies, client) {
            break;
        }
    }
    ClientAddr { ip: client, proxied: true, secure: false }
}

/// Whether a trusted proxy says it took the request over TLS: the nearest hop's
/// `X-Forwarded-Proto` and `Forwarded: proto=`, each one present saying `https` (a proxy that
/// sets one and passes a client's other through unchanged cannot be fooled by it alone).
fn forwarded_https(headers: &HeaderMap) -> bool {
    let last = |name: &str| {
        headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).last()
    };
    let https = |proto: &str| proto.trim().trim_matches('"').eq_ignore_ascii_case("https");
    let x_forwarded = last("x-forwarded-proto").map(https);
    let forwarded = last("forwarded").and_then(|hop| {
        hop.split(';').find_map(|pair| {
            let (k, v) = pair.trim().split_once('=')?;
            k.trim().eq_ignore_ascii_case("proto").then(|| https(v))
        })
    });
    match (x_forwarded, forwarded) {
        (None, None) => false,
        (a, b) => a.unwrap_or(true) && b.unwrap_or(true),
    }
}

/// Whether a request carries a proxy's forwarding headers.
pub(crate) fn forwarded(headers: &HeaderMap) -> bool {
    ["x-forwarded-for", "x-forwarded-proto", "forwarded", "x-real-ip"]
        .iter()
        .any(|h| headers.contains_key(*h))
}

/// Whether what a session sends over this request's connection crosses a network readable: not
/// over TLS (to this server, or to the trusted proxy that says so), and not from this machine
/// itself — the TCP peer loopback, no trusted proxy, no forwarding headers (a proxy on this
/// machine that is not in `trusted_proxies` relays other machines' players) — nor from a
/// network of `plain_http_logins`.
pub(crate) fn in_clear(client: ClientAddr, peer: IpAddr, headers: &HeaderMap, allowed: &[IpNet]) -> bool {
    if client.secure {
        return false;
    }
    if !client.proxied && canonical(peer).is_loopback() && !forwarded(headers) {
        return false;
    }
    !allowed.iter().any(|net| net.contains(&client.ip))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn only_this_machine_itself_tls_or_an_allowed_network_may_send_a_password_in_clear() {
        let proxies: Vec<IpNet> = vec!["10.0.0.5/32".parse().unwrap()];
        let allowed: Vec<IpNet> = vec!["192.168.0.0/16".parse().unwrap()];
        let clear = |peer: &str, extra: &[(&str, &str)]| {
            let mut map = HeaderMap::new();
            for (k, v) in extra {
                map.append(
                    axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    HeaderValue::from_str(v).unwrap(),
                );
            }
            let mut client = client_of(&map, ip(peer), &proxies);
            client.secure = client.proxied && forwarded_https(&map);
            in_clear(client, ip(peer), &map, &allowed)
        };
        assert!(clear("203.0.113.7", &[]), "another machine in plain HTTP");
        assert!(!clear("127.0.0.1", &[]), "this machine itself");
        assert!(!clear("::ffff:127.0.0.1", &[]), "this machine, through a dual-stack socket");
        // A proxy on this machine that is not trusted relays others: not this machine.
        assert!(clear("127.0.0.1", &[("x-forwarded-for", "203.0.113.7")]));
        assert!(clear("::1", &[("x-real-ip", "203.0.113.7")]));
        // A trusted proxy: its word on TLS, not its own address.
        assert!(clear("10.0.0.5", &[]), "a trusted proxy that says nothing of TLS");
        assert!(!clear("10.0.0.5", &[("x-forwarded-for", "203.0.113.7"), ("x-forwarded-proto", "https")]));
        assert!(clear("10.0.0.5", &[("x-forwarded-for", "203.0.113.7"), ("x-forwarded-proto", "http")]));
        // An allowed network, directly or through the proxy.
        assert!(!clear("192.168.4.2", &[]));
        assert!(!clear("10.0.0.5", &[("x-forwarded-for", "192.168.4.2")]));
    }

    #[test]
    fn a_proxy_says_it_terminated_tls_with_the_nearest_hops_proto() {
        let with = |name: &str, values: &[&str]| {
            let mut map = HeaderMap::new();
            for v in values {
                map.append(
                    axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                    HeaderValue::from_str(v).unwrap(),
                );
            }
            map
        };
        assert!(forwarded_https(&with("x-forwarded-proto", &["https"])));
        // Both said, and one of them http: not taken.
        let mut both = with("x-forwarded-proto", &["https"]);
        both.append("forwarded", HeaderValue::from_static("for=203.0.113.7;proto=http"));
        assert!(!forwarded_https(&both));
        assert!(!forwarded_https(&with("x-forwarded-proto", &["http"])));
        // A client's own claim stands left of what the proxy appended.
        assert!(!forwarded_https(&with("x-forwarded-proto", &["https, http"])));
        assert!(forwarded_https(&with("forwarded", &["for=203.0.113.7;proto=https"])));
        assert!(!forwarded_https(&with("forwarded", &["for=203.0.113.7"])));
        assert!(!forwarded_https(&HeaderMap::new()));
    }

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_forwarded_address_counts_only_from_a_trusted_proxy() {
        let proxies: Vec<IpNet> = vec!["10.0.0.0/24".parse().unwrap(), "::1/128".parse().unwrap()];
        let forwarded = headers(&["203.0.113.7"]);
        // A stranger claiming to forward for someone is that stranger.
        let direct = client_of(&forwarded, ip("198.51.100.9"), &proxies);
        assert_eq!(direct, ClientAddr { ip: ip("198.51.100.9"), proxied: false, secure: false });
        let via = client_of(&forwarded, ip("10.0.0.5"), &proxies);
        assert_eq!(via, ClientAddr { ip: ip("203.0.113.7"), proxied: true, secure: false });
        // A client's own forged entry stands left of what the trusted proxies appended.
        let chain = headers(&["192.0.2.66, 203.0.113.7, 10.0.0.4"]);
        assert_eq!(client_of(&chain, ip("10.0.0.5"), &proxies).ip, ip("203.0.113.7"));
        // Several header lines read as one list, in order.
        let lines = headers(&["192.0.2.66", "203.0.113.8"]);
        assert_eq!(client_of(&lines, ip("::1"), &proxies).ip, ip("203.0.113.8"));
        // No header: the proxy itself; garbage ends the walk at the last good hop.
        assert_eq!(client_of(&HeaderMap::new(), ip("10.0.0.5"), &proxies).ip, ip("10.0.0.5"));
        let garbage = headers(&["203.0.113.7, unknown"]);
        assert_eq!(client_of(&garbage, ip("10.0.0.5"), &proxies).ip, ip("10.0.0.5"));
        // A dual-stack socket's IPv4 peer is matched as IPv4.
        assert!(client_of(&forwarded, ip("::ffff:10.0.0.5"), &proxies).proxied);
    }
}
