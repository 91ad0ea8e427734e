//! The shvedka wire protocol: every message that crosses the network, and nothing else.
//!
//! A session is one bidirectional QUIC stream (ALPN [`ALPN`]) carrying length-prefixed frames in
//! both directions, in order — a match needs total order, because a capture on one board changes
//! a reserve on the other. Each frame is a big-endian `u32` length followed by that many bytes of
//! bincode 2 (`standard()` configuration, serde). The client sends [`ClientFrame`]s, each with a
//! request number the server's [`ServerMsg::Reply`] repeats; the server also pushes match events,
//! chat and pongs. The first client message is [`ClientMsg::Hello`] with [`PROTOCOL_VERSION`].
//!
//! The types here are the protocol's own, independent of the rules crates: seats, boards and
//! results are small enums, moves are text in long notation or SAN, positions are BFEN. So the
//! format changes only when this crate changes, and golden byte vectors (`tests/golden.rs`) make
//! sure it never changes by accident. `PROTOCOL.md` describes the session and the rules for
//! changing messages.

mod analysis;
mod client;
mod closes;
mod codec;
mod explanation;
mod ratings;
mod record_review;
mod refusals;
mod seeks;
mod server;
mod tournaments;
mod types;

pub use analysis::{AnalysedMove, AnalysisRequest, AnalysisView, BoardAnalysis, Evaluation};
pub use client::{
    ArbiterRequest, ChatScope, ClaimKind, ClientFrame, ClientMsg, EntryRequest, ReplayReason, Resume,
    TdChoice, TdExport, TdOutcome, TdRequest,
};
pub use closes::{CLOSE_LIMIT, limit_close_reason, limit_of_close_reason};
pub use codec::{CodecError, FrameDecoder, MAX_FRAME, decode, encode, frame};
pub use explanation::{ExplainedLine, ExplanationView, HappeningView, Outcome, WeighingView};
pub use ratings::{
    CategoryProfile, HistoryPoint, LeaderRow, PartnerView, ProfileView, RatingChange, RatingView,
};
pub use record_review::{
    ActView, ImpossibleView, LaterView, NamedMove, RecordReview, RecordReviewRequest, ReviewedAct,
    ReviewedMove, UnreadableAt,
};
pub use refusals::{
    Busy, ClaimRefusal, Colour, IllegalMove, Invalid, MatchRefusal, MoveText, OfficialRefusal, OfficialRole,
    PieceKind, PositionRefusal, SessionRefusal, Square, TakeBackRefusal,
};
pub use seeks::{SeekEnd, SeekPool, SeekRequest, SeekView};
pub use server::{
    BotTrouble, CallView, ClosedReason, DrawHow, ElsewhereReason, ErrorCode, ErrorMsg, EventView, Limit,
    MatchEvent, MatchState, MatchSummary, MissingBot, MoveView, PauseReason, PhaseView, RecentMatch,
    RematchView, Reply, ResultCause, ResultView, ServerMsg, SessionEnd, TournamentGameView,
};
pub use tournaments::{
    ChoiceKind, GameView, InvitationView, OfficialView, PairingView, RoundView, StandingView,
    TOURNAMENT_TEAMS, TableView, TeamView, TourChange, TourGame, TourRefusal, TourResultSource,
    TourResultView, TournamentFormat, TournamentPhase, TournamentSummary, TournamentView,
};
pub use types::{Board, MatchId, PlayerKind, SeatId, TeamId};

/// The ALPN protocol id of native shvedka clients on the QUIC endpoint.
pub const ALPN: &[u8] = b"shvedka/1";

/// The protocol version exchanged in the handshake; a peer of another version is refused.
pub const PROTOCOL_VERSION: u32 = 16;
