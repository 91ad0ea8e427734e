//! How a transport encodes the protocol's messages: bincode 2 (native clients, and WebSocket
//! binary frames) or JSON in serde's external tagging (browsers: WebSocket text frames and
//! WebTransport streams). The messages are the same `shvedka-proto` types either way.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use shvedka_proto::{ClientFrame, ErrorCode, ErrorMsg, MAX_FRAME, ServerMsg};

/// The encoding of one session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// bincode 2, `shvedka_proto::encode`.
    Bincode = 0,
    /// JSON text.
    Json = 1,
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

    /// A client frame from exactly one payload.
    pub(crate) fn decode(self, payload: &[u8]) -> Result<ClientFrame, String> {
        match self {
            Encoding::Bincode => shvedka_proto::decode(payload).map_err(|e| e.to_string()),
            Encoding::Json => serde_json::from_slice(payload).map_err(|e| format!("not a client frame: {e}")),
        }
    }
}

/// A message many connections receive (a match's event or chat line to its followers): encoded at
/// most once per encoding, however many followers there are, and the bytes shared.
#[derive(Debug)]
pub(crate) struct Shared {
    msg: ServerMsg,
    payloads: [OnceLock<Option<Arc<[u8]>>>; 2],
}

impl Shared {
    pub(crate) fn new(msg: ServerMsg) -> Arc<Shared> {
        Arc::new(Shared { msg, payloads: [OnceLock::new(), OnceLock::new()] })
    }

    pub(crate) fn msg(&self) -> &ServerMsg {
        &self.msg
    }
}

/// A message queued for one connection: its own (a reply, its state), or one it shares.
///
/// Its own is boxed: a connection's queue (a tokio `mpsc`) allocates its slots 32 at a time, and
/// with the message inline (352 bytes) each connection held 11 KiB of slots from its first reply
/// on (heap profile, issue 34); boxed, a slot is 16 bytes, for an allocation per reply.
#[derive(Debug)]
pub(crate) enum Outgoing {
    Own(Box<ServerMsg>),
    Shared(Arc<Shared>),
}

impl Outgoing {
    /// The message itself.
    pub(crate) fn msg(&self) -> &ServerMsg {
        match self {
            Outgoing::Own(msg) => msg,
            Outgoing::Shared(shared) => &shared.msg,
        }
    }

    /// The message itself (a copy, if it is shared).
    #[cfg(test)]
    pub(crate) fn into_msg(self) -> ServerMsg {
        match self {
            Outgoing::Own(msg) => *msg,
            Outgoing::Shared(shared) => shared.msg.clone(),
        }
    }
}

impl Encoding {
    /// As [`Encoding::payload`]; a shared message is encoded by the first connection that needs
    /// it in this encoding, and the others take its bytes.
    pub(crate) fn payload_of(self, out: &Outgoing) -> Option<Cow<'_, [u8]>> {
        match out {
            Outgoing::Own(msg) => self.payload(msg).map(Cow::Owned),
            Outgoing::Shared(shared) => {
                let slot = &shared.payloads[self as usize];
                slot.get_or_init(|| self.payload(&shared.msg).map(Arc::from)).as_deref().map(Cow::Borrowed)
            }
        }
    }

    /// Appends a whole stream frame to `buf`: the big-endian `u32` length of the payload, then
    /// the payload (the framing of `shvedka_proto::frame`, in either encoding). `false` when the
    /// message cannot be encoded (see [`Encoding::payload`]).
    pub(crate) fn append_frame(self, out: &Outgoing, buf: &mut Vec<u8>) -> bool {
        let Some(payload) = self.payload_of(out) else { return false };
        let Ok(len) = u32::try_from(payload.len()) else { return false };
        buf.extend_from_slice(&len.to_be_bytes());
        buf.extend_from_slice(&payload);
        true
    }
}

/// A message's kind, for logs.
fn kind(msg: &ServerMsg) -> &'static str {
    match msg {
        ServerMsg::Welcome { .. } => "welcome",
        ServerMsg::Refused { .. } => "refused",
        ServerMsg::SessionRefused(_) => "session-refused",
        ServerMsg::Pong { .. } => "pong",
        ServerMsg::Reply { .. } => "reply",
        ServerMsg::State(_) => "state",
        ServerMsg::Event(_) => "event",
        ServerMsg::Chat { .. } => "chat",
        ServerMsg::MatchClosed { .. } => "match-closed",
        ServerMsg::Rematch(_) => "rematch",
        ServerMsg::SessionEnded { .. } => "session-ended",
        ServerMsg::Rated { .. } => "rated",
        ServerMsg::SeekInvitation(_) => "seek-invitation",
        ServerMsg::Seek(_) => "seek",
        ServerMsg::SeekEnded { .. } => "seek-ended",
        ServerMsg::MatchFound { .. } => "match-found",
        ServerMsg::Tournament { .. } => "tournament",
        ServerMsg::ResumeElsewhere { .. } => "resume-elsewhere",
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
            kind: shvedka_proto::PlayerKind::Guest,
            seat: None,
            scope: shvedka_proto::ChatScope::Match,
            text: "x".repeat(MAX_FRAME),
        };
        assert_eq!(Encoding::Json.payload(&chat), None);
        assert_eq!(Encoding::Bincode.payload(&chat), None);
    }

    #[test]
    fn a_shared_message_is_encoded_once_per_encoding_and_its_bytes_shared() {
        let event = ServerMsg::Pong { nonce: 7, server_time_us: 9 };
        let shared = Shared::new(event.clone());
        let (one, two) = (Outgoing::Shared(shared.clone()), Outgoing::Shared(shared));
        for encoding in [Encoding::Bincode, Encoding::Json] {
            let (a, b) = (encoding.payload_of(&one).unwrap(), encoding.payload_of(&two).unwrap());
            assert!(matches!((&a, &b), (Cow::Borrowed(_), Cow::Borrowed(_))), "{encoding:?}");
            assert_eq!(a.as_ptr(), b.as_ptr(), "one encoding, shared: {encoding:?}");
            assert_eq!(
                &*a,
                &encoding.payload(&event).unwrap()[..],
                "the same bytes as its own: {encoding:?}"
            );
            let mut framed = Vec::new();
            assert!(encoding.append_frame(&one, &mut framed) && encoding.append_frame(&two, &mut framed));
            assert_eq!(framed.len(), 2 * (4 + a.len()), "two frames, each with its length");
            assert_eq!(&framed[..4], &(a.len() as u32).to_be_bytes());
        }
        let own = Outgoing::Own(Box::new(event.clone()));
        assert!(matches!(Encoding::Bincode.payload_of(&own), Some(Cow::Owned(_))));
        assert_eq!(own.into_msg(), event);
    }
}
