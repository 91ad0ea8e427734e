//! What the nodes of a cluster say to each other about matches, over NATS, and on which subjects.
//!
//! A node forwards a request about a match it does not run to the node that does (an [`Ask`] on
//! [`ask_subject`], NATS request/reply, answered with an [`Answer`]); the owner sends what the
//! match has for a follower on another node to that node ([`Relay`] on [`relay_subject`]: one
//! publisher, one subscriber, so NATS keeps their order); a node that takes a match over says so
//! on [`TAKEN`], so that nodes whose players follow it ask the new owner. All of it is bincode
//! (`shvedka_proto::encode`), bounded by the protocol's frame limit.
//!
//! bincode carries no field names and no version, so two builds whose messages differ would
//! misread each other. Every subject whose payload is one of this file's messages therefore names
//! the wire's version ([`version`]: [`WIRE`] and the client protocol's version, whose messages
//! ride inside): a node never hears such a message of another build, and knows from the
//! heartbeats (JSON, on a subject of no version, `peers.rs`) which nodes speak another wire, so
//! that it refuses at once to ask them rather than wait for an answer that cannot come.
//! `wire_golden.rs` holds the bytes of a sample of every variant of every message sent on NATS:
//! a change to them fails it until [`WIRE`] is raised.
//!
//! Messages the client protocol appends without a new version (PROTOCOL.md allows it) reach a
//! node of the build before as a relayed message it cannot decode: it logs and drops it, as its
//! clients could not read it either; nothing is misread.

use serde::{Deserialize, Serialize};
use shvedka_proto::{ClientMsg, ErrorMsg, MatchId, PROTOCOL_VERSION, RematchView, Reply, SeatId, ServerMsg};

use crate::features::tournaments::TourAsk;
pub(crate) use crate::service::placement::Ask;

/// The version of the messages sent on NATS: raised whenever their bincode changes
/// (`wire_golden.rs` fails until it is).
pub(crate) const WIRE: u32 = 1;

/// The wire version a node speaks, as its subjects and heartbeats name it: this file's messages
/// and the client protocol's, which they carry.
pub(crate) fn version() -> String {
    format!("w{WIRE}-p{PROTOCOL_VERSION}")
}

/// Where a node hears the requests forwarded to it.
pub(crate) fn ask_subject(node: &str) -> String {
    format!("shvedka.{}.node.{node}.ask", version())
}

/// Where a node hears what the matches of other nodes send its sessions.
pub(crate) fn relay_subject(node: &str) -> String {
    format!("shvedka.{}.node.{node}.relay", version())
}

/// Where the nodes tell each other the matches they list (`listings.rs`).
pub(crate) fn lobby_subject() -> String {
    format!("shvedka.{}.lobby", version())
}

/// The key of node `node`'s one follower of match `id`, which serves every spectator of the match
/// on that node (`relay/galleries.rs`). No session has it (theirs are SHA-256 in hex), and the
/// owner lets it only follow and stop: it acts for nobody.
pub(crate) fn gallery_key(node: &str, id: MatchId) -> String {
    format!("gallery:{node}:{}", id.0)
}

/// Where a node says it ended sessions in the database (a log-out, a password change). Its
/// payload is empty, so it names no version: every node, of any build, looks again.
pub(crate) const SESSIONS_ENDED: &str = "shvedka.sessions.ended";

/// Where a node that took a match over says so. Its payload is the match's id alone (one varint,
/// read alike by every build, and by builds before the version), so it names no version: a node
/// of another build hears it too, and stops waiting on the match's old node (its followers ask
/// the new one, and are refused at once if that one speaks another wire).
pub(crate) const TAKEN: &str = "shvedka.taken";

/// A session of another node, as the node it is on names it. The owner takes none of it on
/// trust: it reads who the session is from the database by its key, and gives it a role only for
/// a proof made with the role's secret, so a request forged on NATS acts for nobody. (Whether it
/// may reach a private match is checked by its own node, which holds its invitations: a holder of
/// a node's NATS credentials hears every relayed event anyway — keeping everybody else off NATS
/// is what guards them.)
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Who {
    /// The SHA-256 of the session's token: its key on every node.
    pub(crate) key: String,
    /// It said it is a program (`ClientMsg::Bot`): shown with its name, gives it nothing.
    pub(crate) bot: bool,
    /// Proof that it presented the arbiters' secret (`Roles::proof`).
    pub(crate) arbiter: Option<String>,
    /// Proof that it presented the tournament directors' secret.
    pub(crate) director: Option<String>,
}

/// What a forwarded request is about.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum About {
    /// A match the asked node runs.
    Match(MatchId, Ask),
    /// The tournaments, which the asked node drives.
    Tournament(TourAsk),
    /// A seek request (`Seek`, `AnswerSeek`, `CancelSeek`, `SeekPools`); the asked node runs the
    /// seeks.
    Seek(ClientMsg),
    /// The session's connection closed: his seeks end, and the offers he asked about stop
    /// telling him.
    SeekGone,
    /// An answer to the rematch offer of a match the asked node ran (`Some(true)` accept,
    /// `Some(false)` decline, `None` only listen).
    Rematch { match_id: MatchId, accept: Option<bool> },
}

/// A forwarded request.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Forward {
    /// The node the session is on (where relayed messages go).
    pub(crate) from: String,
    pub(crate) who: Who,
    pub(crate) about: About,
}

/// The owner's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Answer {
    /// Done (the events it caused are stored).
    Done,
    /// The legal moves asked for.
    Legal(Vec<String>),
    /// A tournament or seek request's answer.
    Reply(Reply),
    /// A rematch offer's view, with the asker's seat in the decided match (his node seats him
    /// in the rematch, at the other colour of that board).
    Rematch { view: RematchView, seat: SeatId },
    /// This node does not run the match (any more): ask the database who does.
    NotHere,
    /// Refused, as a local request would be.
    Refused(ErrorMsg),
    /// `Watch`: the session plays no part in the match, so it was not followed: its node serves
    /// it from that node's one follower of the match (`relay/galleries.rs`).
    Spectator,
}

/// What an owner sends a follower on another node.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Relay {
    /// A message for the session `key`, about `match_id`.
    Msg { key: String, match_id: MatchId, msg: ServerMsg },
    /// The follower fell behind and the owner stopped sending: its connection closes and
    /// resumes.
    Behind { key: String, match_id: MatchId },
    /// A message of the seeks for the session `key` (an invitation, a seek, a match found).
    Push { key: String, msg: ServerMsg },
}

#[cfg(test)]
mod tests {
    use super::*;
    use shvedka_proto::Board;

    #[test]
    fn a_forwarded_move_and_its_relayed_event_survive_the_trip() {
        let fwd = Forward {
            from: "node-b".into(),
            who: Who { key: "ab".into(), bot: false, arbiter: None, director: None },
            about: About::Match(
                MatchId(7),
                Ask::Command(ClientMsg::Move { board: Board::A, text: "e4".into(), think_ms: Some(5) }),
            ),
        };
        let back: Forward = shvedka_proto::decode(&shvedka_proto::encode(&fwd).unwrap()).unwrap();
        assert!(matches!(
            back.about,
            About::Match(MatchId(7), Ask::Command(ClientMsg::Move { ref text, .. })) if text == "e4"
        ));
        let relay = Relay::Msg {
            key: "ab".into(),
            match_id: MatchId(7),
            msg: ServerMsg::Pong { nonce: 1, server_time_us: 2 },
        };
        let back: Relay = shvedka_proto::decode(&shvedka_proto::encode(&relay).unwrap()).unwrap();
        assert!(matches!(back, Relay::Msg { msg: ServerMsg::Pong { nonce: 1, .. }, .. }));
    }

    #[test]
    fn the_subjects_of_bincode_name_the_wire_version_and_the_others_do_not() {
        let v = format!("w{WIRE}-p{PROTOCOL_VERSION}");
        assert_eq!(ask_subject("node-a"), format!("shvedka.{v}.node.node-a.ask"));
        assert_eq!(relay_subject("node-a"), format!("shvedka.{v}.node.node-a.relay"));
        assert_eq!(lobby_subject(), format!("shvedka.{v}.lobby"));
        // A bare match id and an empty payload: every build reads them.
        assert!(!TAKEN.contains(&v) && !SESSIONS_ENDED.contains(&v));
    }
}
