//! The server's two QUIC endpoints and their transport limits, all in one place.
//!
//! quinn fixes a connection's transport parameters (how many streams the client may open, how
//! much it may send ahead, whether it may send datagrams) before the TLS handshake tells which
//! ALPN the client speaks, and a credit once granted cannot be taken back. So each kind of client
//! has its own endpoint, sized to exactly what its protocol needs:
//!
//! - **native** on `listen`: ALPN `shvedka/1`, the pinned long-lived certificate, one
//!   bidirectional stream (PROTOCOL.md), no unidirectional streams, no datagrams;
//! - **browsers** on `webtransport_listen`: ALPN `h3`, the rotating development certificate (or
//!   the configured one), HTTP/3 with one WebTransport session.
//!
//! Whatever a client does, the server holds at most [`RECEIVE_WINDOW`] bytes it sent and
//! [`SEND_WINDOW`] bytes it has not acknowledged, per connection.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use rustls::server::ResolvesServerCert;
use shvedka_proto::MAX_FRAME;

use crate::config::ServerConfig;
use crate::transport::tls;

/// A stream's receive window: the largest frame the protocol allows (`MAX_FRAME`, refused above
/// it before anything is buffered) and the start of the next, so a client sending frames back
/// to back is not held to one frame per round trip.
const STREAM_WINDOW: u32 = 2 * MAX_FRAME as u32;

/// The connection's receive window: the same, since everything of a session travels on one
/// stream. (A browser's HTTP/3 control, QPACK and `CONNECT` streams carry a few hundred bytes.)
const RECEIVE_WINDOW: u32 = STREAM_WINDOW;

/// Bytes sent and not yet acknowledged, per connection: a `State` and the events after it go
/// out without waiting a round trip, while a client that stops reading holds at most this much
/// in the server's memory (then the session's writer waits, as its bounded queue fills).
const SEND_WINDOW: u32 = 4 * MAX_FRAME as u32;

/// A native connection's streams: the session's one bidirectional stream, which the client
/// opens; nothing else.
const NATIVE_BIDI: u32 = 1;
const NATIVE_UNI: u32 = 0;

/// A browser's bidirectional streams: the HTTP/3 extended `CONNECT` that opens the WebTransport
/// session, and the session's one stream the page opens (PROTOCOL.md, WebTransport).
const BROWSER_BIDI: u32 = 2;
/// A browser's unidirectional streams: its HTTP/3 control stream and its QPACK encoder and
/// decoder streams (RFC 9114 §6.2: a server must allow at least these three).
const BROWSER_UNI: u32 = 3;
/// The largest datagram a browser may send. WebTransport over HTTP/3 needs QUIC datagrams
/// negotiated (`max_datagram_frame_size` above 0 beside the `SETTINGS_H3_DATAGRAM` that
/// web-transport-quinn sends), though the session never uses them: quinn keeps at most this
/// many unread bytes of them, dropping the oldest. One minimum-MTU packet's worth.
const BROWSER_DATAGRAMS: usize = 1200;

/// What a client of an endpoint may open and send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Native,
    Browser,
}

/// The transport settings of an endpoint's connections.
fn transport(config: &ServerConfig, kind: Kind) -> anyhow::Result<quinn::TransportConfig> {
    let (bidi, uni, datagrams) = match kind {
        Kind::Native => (NATIVE_BIDI, NATIVE_UNI, None),
        Kind::Browser => (BROWSER_BIDI, BROWSER_UNI, Some(BROWSER_DATAGRAMS)),
    };
    let mut transport = quinn::TransportConfig::default();
    transport
        .max_idle_timeout(Some(quinn::IdleTimeout::try_from(config.idle_timeout())?))
        .keep_alive_interval(Some(config.keep_alive()))
        .max_concurrent_bidi_streams(bidi.into())
        .max_concurrent_uni_streams(uni.into())
        .stream_receive_window(STREAM_WINDOW.into())
        .receive_window(RECEIVE_WINDOW.into())
        .send_window(SEND_WINDOW.into())
        .datagram_receive_buffer_size(datagrams)
        // The server never sends datagrams.
        .datagram_send_buffer_size(0);
    Ok(transport)
}

/// The native endpoint on `listen`.
///
/// # Errors
/// A bad certificate, or an address that cannot be bound.
pub(crate) fn native(
    config: &ServerConfig,
    certs: Arc<dyn ResolvesServerCert>,
) -> anyhow::Result<quinn::Endpoint> {
    let crypto = tls::server_crypto(shvedka_proto::ALPN, certs)?;
    bind(config, config.listen, crypto, Kind::Native)
}

/// The browsers' endpoint on `webtransport_listen`, or `None` when WebTransport is off.
///
/// # Errors
/// A bad address or certificate, or an address that cannot be bound.
pub(crate) fn browsers(
    config: &ServerConfig,
    certs: Arc<dyn ResolvesServerCert>,
) -> anyhow::Result<Option<quinn::Endpoint>> {
    let Some(addr) = config.webtransport_addr()? else { return Ok(None) };
    let crypto = tls::server_crypto(tls::ALPN_H3, certs)?;
    bind(config, addr, crypto, Kind::Browser).map(Some)
}

fn bind(
    config: &ServerConfig,
    addr: SocketAddr,
    crypto: quinn::crypto::rustls::QuicServerConfig,
    kind: Kind,
) -> anyhow::Result<quinn::Endpoint> {
    let mut server_config = quinn::ServerConfig::with_crypto(Arc::new(crypto));
    server_config.transport_config(Arc::new(transport(config, kind)?));
    let socket = udp_socket(addr, config.udp_recv_buffer).with_context(|| format!("cannot bind {addr}"))?;
    let runtime = quinn::default_runtime().context("no async runtime")?;
    // The reset and connection-id keys outlive the process (`reset.rs`).
    let endpoint_config = super::reset::endpoint_config(&config.data_dir)?;
    Ok(quinn::Endpoint::new(endpoint_config, Some(server_config), socket, runtime)?)
}

/// A UDP socket with a large receive buffer (quinn loses handshakes under bursts otherwise, and
/// a busy server's packets; every packet the kernel drops for want of room is one QUIC sends
/// again after a timeout, a latency tail). Linux caps the request at `net.core.rmem_max`
/// without a word, so a smaller buffer than asked for is said at start, with the remedy.
fn udp_socket(addr: SocketAddr, recv_buffer: usize) -> std::io::Result<std::net::UdpSocket> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    if let Err(e) = socket.set_recv_buffer_size(recv_buffer) {
        tracing::warn!(error = %e, "cannot enlarge the UDP receive buffer");
    }
    let effective = socket.recv_buffer_size()?;
    match smaller_buffer(recv_buffer, effective) {
        Some(note) => tracing::warn!("{note}"),
        None => tracing::debug!(requested = recv_buffer, effective, "UDP receive buffer"),
    }
    socket.bind(&addr.into())?;
    Ok(socket.into())
}

/// What to tell the operator when the kernel granted less than `requested` bytes. Linux reports
/// twice what it grants for data (the other half is its bookkeeping).
fn smaller_buffer(requested: usize, reported: usize) -> Option<String> {
    let granted = if cfg!(target_os = "linux") { reported / 2 } else { reported };
    (granted < requested).then(|| {
        format!(
            "the UDP receive buffer is {granted} bytes, not the {requested} of udp_recv_buffer: the kernel \
             caps it (on Linux: sysctl -w net.core.rmem_max={requested}); a busy server drops packets \
             with a small buffer"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_udp_buffer_is_said_with_its_remedy() {
        if cfg!(target_os = "linux") {
            let note = smaller_buffer(4 << 20, 425_984).expect("capped");
            assert!(note.contains("212992 bytes") && note.contains("net.core.rmem_max=4194304"), "{note}");
            assert_eq!(smaller_buffer(4 << 20, 8 << 20), None, "granted in full");
        }
        // A request past any cap still gives a socket (the smaller buffer is said, not fatal).
        assert!(udp_socket("127.0.0.1:0".parse().unwrap(), 1 << 30).is_ok());
    }
}
