//! How a transport encodes the protocol's messages: bincode 2 (native clients, and WebSocket
//! binary frames) or JSON in serde's external tagging (browsers: WebSocket text frames and
//! WebTransport streams). The messages are the same `shvedka-proto` types either way.

use shvedka_proto::{ClientFrame, ErrorCode, ErrorMsg, MAX_FRAME, ServerMsg};

/// The encoding of one session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// bincode 2, `shvedka_proto::encode`.
    Bincode,
    /// JSON text.
    Json,
}

impl Encoding {
    /// A server message's payload (without any length prefix), at most `MAX_FRAME` bytes in
    /// either encoding. A reply that does not fit is answered instead by a `TooLarge` refusal
    /// of the same request, so the client is never left waiting; any other message that cannot
    /// be encoded is `None`, logged here, and its connection should end (the client resumes).
    pub(crate) fn payload(self, msg: &ServerMsg) -> Option<Vec<u8>> {
        match self.encode(msg) {
            Ok(payload) => Some(payload),
            Err(e) => {
                tracing::error!(error = %e, encoding = ?self, kind = kind(msg), "cannot encode a message");
                let ServerMsg::Reply { req, .. } = msg else { return None };
                let refusal = ServerMsg::Reply {
                    req: *req,
                    result: Err(ErrorMsg {
                        code: ErrorCode::TooLarge,
                        rule: None,
                        message: format!(
                            "the answer exceeds the frame limit of {MAX_FRAME} bytes: ask in parts"
                        ),
                    }),
                };
                self.encode(&refusal).ok()
            }
        }
    }

    fn encode(self, msg: &ServerMsg) -> Result<Vec<u8>, String> {
        let payload = match self {
            Encoding::Bincode => shvedka_proto::encode(msg).map_err(|e| e.to_string())?,
            Encoding::Json => serde_json::to_vec(msg).map_err(|e| e.to_string())?,
        };
        if payload.len() > MAX_FRAME {
            return Err(format!("{} bytes exceed the frame limit of {MAX_FRAME}", payload.len()));
        }
        Ok(payload)
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

/// A message's kind, for logs.
fn kind(msg: &ServerMsg) -> &'static str {
    match msg {
        ServerMsg::Welcome { .. } => "welcome",
        ServerMsg::Refused { .. } => "refused",
        ServerMsg::Pong { .. } => "pong",
        ServerMsg::Reply { .. } => "reply",
        ServerMsg::State(_) => "state",
        ServerMsg::Event(_) => "event",
        ServerMsg::Chat { .. } => "chat",
        ServerMsg::MatchClosed { .. } => "match-closed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shvedka_proto::Reply;

    #[test]
    fn a_reply_too_large_for_a_frame_is_answered_by_a_refusal_in_both_encodings() {
        let huge = ServerMsg::Reply { req: 9, result: Ok(Reply::Record { bpgn: "x".repeat(MAX_FRAME + 1) }) };
        for encoding in [Encoding::Bincode, Encoding::Json] {
            let payload = encoding.payload(&huge).expect("a refusal instead");
            let back: ServerMsg = match encoding {
                Encoding::Bincode => shvedka_proto::decode(&payload).unwrap(),
                Encoding::Json => serde_json::from_slice(&payload).unwrap(),
            };
            let ServerMsg::Reply { req: 9, result: Err(e) } = back else { panic!("{back:?}") };
            assert_eq!(e.code, ErrorCode::TooLarge, "{encoding:?}");
        }
    }

    #[test]
    fn a_pushed_message_too_large_is_not_encoded() {
        let chat = ServerMsg::Chat {
            match_id: shvedka_proto::MatchId(1),
            from: "a".into(),
            seat: None,
            scope: shvedka_proto::ChatScope::Match,
            text: "x".repeat(MAX_FRAME),
        };
        assert_eq!(Encoding::Json.payload(&chat), None);
        assert_eq!(Encoding::Bincode.payload(&chat), None);
    }
}
