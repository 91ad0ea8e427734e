//! The shvedka wire protocol: every message that crosses the network, and nothing else.
//!
//! Only the protocol's identity is fixed so far; the message types, the length-prefixed bincode 2
//! framing and the golden vectors come with the server (see ARCHITECTURE.md, layer 4).

/// The ALPN protocol id of native shvedka clients on the QUIC endpoint.
pub const ALPN: &[u8] = b"shvedka/1";

/// The protocol version exchanged in the handshake; a peer of another version is refused.
pub const PROTOCOL_VERSION: u32 = 1;
