//! How a transport encodes the protocol's messages: bincode 2 (native clients, and WebSocket
//! binary frames) or JSON in serde's external tagging (browsers: WebSocket text frames and
//! WebTransport streams). The messages are the same `shvedka-proto` types either way.

use shvedka_proto::{ClientFrame, ServerMsg};

/// The encoding of one session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// bincode 2, `shvedka_proto::encode`.
    Bincode,
    /// JSON text.
    Json,
}

impl Encoding {
    /// A server message's payload (without any length prefix); `None` if it cannot be encoded.
    pub(crate) fn payload(self, msg: &ServerMsg) -> Option<Vec<u8>> {
        match self {
            Encoding::Bincode => shvedka_proto::encode(msg).ok(),
            Encoding::Json => serde_json::to_vec(msg).ok(),
        }
    }

    /// A whole stream frame: the big-endian `u32` length of the payload, then the payload (the
    /// framing of `shvedka_proto::frame`, in either encoding).
    pub(crate) fn frame(self, msg: &ServerMsg) -> Option<Vec<u8>> {
        let payload = self.payload(msg)?;
        let len = u32::try_from(payload.len()).ok()?;
        let mut out = Vec::with_capacity(4 + payload.len());
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&payload);
        Some(out)
    }

    /// A client frame from exactly one payload.
    pub(crate) fn decode(self, payload: &[u8]) -> Result<ClientFrame, String> {
        match self {
            Encoding::Bincode => shvedka_proto::decode(payload).map_err(|e| e.to_string()),
            Encoding::Json => serde_json::from_slice(payload).map_err(|e| format!("not a client frame: {e}")),
        }
    }
}
