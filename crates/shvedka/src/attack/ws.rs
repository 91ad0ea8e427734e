//! A bare WebSocket client, written out by hand rather than taken from a library: the attacks
//! need to send what no well-behaved library sends (a frame header claiming 16 MiB, a text frame
//! that is not JSON), and to speak from a chosen local address. The upgrade is the HTTP/1.1
//! request of RFC 6455 §4.1 without an `Origin` (a client that is no browser); frames are
//! client frames, masked (§5.3).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::Instant;

/// Opcodes (RFC 6455 §5.2).
pub(crate) const TEXT: u8 = 0x1;
pub(crate) const BINARY: u8 = 0x2;
const PONG: u8 = 0xA;

/// Upgrades a TCP connection from `from` to `http`'s `/ws`: the open stream, or the HTTP status
/// the server answered instead (503: a connection limit).
pub(crate) async fn open(from: IpAddr, http: SocketAddr) -> std::io::Result<Result<TcpStream, u16>> {
    let socket = if from.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    socket.bind(SocketAddr::new(from, 0))?;
    let mut stream = socket.connect(http).await?;
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {http}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    let mut head = Vec::with_capacity(512);
    let mut byte = [0u8; 1];
    // Byte by byte, so that nothing after the head (the server's first frame) is taken.
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() > 8192 || stream.read(&mut byte).await? == 0 {
            return Err(std::io::Error::other("the server ended the upgrade's answer early"));
        }
        head.push(byte[0]);
    }
    match status(&head) {
        Some(101) => Ok(Ok(stream)),
        Some(code) => Ok(Err(code)),
        None => Err(std::io::Error::other("not an HTTP answer")),
    }
}

/// The status code of an HTTP/1.1 answer's head.
fn status(head: &[u8]) -> Option<u16> {
    let line = head.split(|&b| b == b'\r').next()?;
    let line = std::str::from_utf8(line).ok()?;
    line.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// A whole client frame: FIN, `opcode`, masked with `mask`.
pub(crate) fn frame(opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
    let mut out = header(opcode, payload.len() as u64, mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// A client frame's header alone, claiming a payload of `len` bytes.
pub(crate) fn header(opcode: u8, len: u64, mask: [u8; 4]) -> Vec<u8> {
    let mut out = vec![0x80 | (opcode & 0x0F)];
    match len {
        0..=125 => out.push(0x80 | len as u8),
        126..=0xFFFF => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(len as u16).to_be_bytes());
        }
        _ => {
            out.push(0x80 | 127);
            out.extend_from_slice(&len.to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out
}

/// Holds an open WebSocket until `until`: reads (and drops) what the server sends, and answers
/// its keep-alive with an unsolicited pong every few seconds. Whether the server closed it first.
pub(crate) async fn hold(mut stream: TcpStream, until: Instant) -> bool {
    let mut buf = vec![0u8; 16 * 1024];
    let mut pong = tokio::time::interval(Duration::from_secs(4));
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(until) => return false,
            _ = pong.tick() => {
                if stream.write_all(&frame(PONG, b"", [1, 2, 3, 4])).await.is_err() {
                    return true;
                }
            }
            read = stream.read(&mut buf) => {
                if !matches!(read, Ok(n) if n > 0) {
                    return true;
                }
            }
        }
    }
}

/// Waits at most `wait` for the server to close `stream` (reading and dropping what it sends);
/// whether it did.
pub(crate) async fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    let mut buf = vec![0u8; 16 * 1024];
    let until = Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(until, stream.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
            Err(_) => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_masked_client_frames_of_rfc_6455() {
        // RFC 6455 §5.7: a masked text frame "Hello".
        let f = frame(TEXT, b"Hello", [0x37, 0xfa, 0x21, 0x3d]);
        assert_eq!(f, [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]);
        assert_eq!(header(BINARY, 256, [0; 4])[..4], [0x82, 0xFE, 0x01, 0x00]);
        let big = header(BINARY, 16 << 20, [0; 4]);
        assert_eq!(big[..2], [0x82, 0xFF]);
        assert_eq!(big[2..10], (16u64 << 20).to_be_bytes());
    }

    #[test]
    fn the_status_of_an_upgrade_answer_is_read() {
        assert_eq!(status(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"), Some(101));
        assert_eq!(status(b"HTTP/1.1 503 Service Unavailable\r\n\r\n"), Some(503));
        assert_eq!(status(b"SSH-2.0\r\n\r\n"), None);
    }
}
