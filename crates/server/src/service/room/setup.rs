//! How a match task is set up besides its machine: the server's shared parts, and what a match
//! restored from storage brings.

use std::sync::Arc;
use std::time::Duration;

use shvedka_proto::{MatchEvent, PlayerKind};
use shvedka_storage::Store;
use tokio::time::Instant;

use crate::service::committer::Committer;
use crate::service::hooks::MatchHooks;
use crate::service::metrics::Metrics;
use crate::service::session::{Session, Sessions};
use crate::service::standing::Standing;
use bughouse_match::PlayerId;

/// How a match task is set up besides its machine.
pub(crate) struct RoomSetup {
    pub(crate) listed: bool,
    pub(crate) rated: bool,
    pub(crate) hooks: Arc<dyn MatchHooks>,
    pub(crate) creator: Option<PlayerId>,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) committer: Committer,
    pub(crate) sessions: Arc<Sessions>,
    pub(crate) started: Instant,
    pub(crate) records_dir: Option<std::path::PathBuf>,
    pub(crate) reserved: Option<Reserved>,
    pub(crate) arbiters: bool,
    pub(crate) expiry: Duration,
    /// K6: how long a match restored in play waits for its players (`restart_wait_s`).
    pub(crate) restart_wait: Duration,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) restored: Option<Restored>,
    /// Posts each lane of its gallery keeps for spectators behind (`spectator_events_kept`).
    pub(crate) gallery: usize,
    /// Whether this node may run matches now.
    pub(crate) standing: Standing,
    /// Where the watchers of a decided match are kept when its task ends.
    pub(crate) lingering: Arc<crate::service::rooms::lingering::Lingering>,
}

/// What a match restored from storage brings besides its machine.
pub(crate) struct Restored {
    /// The wire views of its logged events.
    pub(crate) views: Vec<MatchEvent>,
    /// The seated players' names.
    pub(crate) names: [Option<String>; 4],
    /// The seated players' kinds.
    pub(crate) kinds: [Option<PlayerKind>; 4],
    /// The seated players' sessions (they follow the match once they are back).
    pub(crate) seated: Vec<Arc<Session>>,
    /// The connections that watched it when it was decided (a decided match brought back for
    /// an arbiter's act): they follow it again and are told what the act changes.
    pub(crate) lingering: Vec<crate::service::rooms::lingering::Watcher>,
}

/// Who alone may take each seat of a match.
#[derive(Clone, Debug)]
pub(crate) enum Reserved {
    /// A tournament game: each seat an account's, by name (it has no rematch: the director pairs
    /// the next game).
    Names([String; 4], Option<Box<shvedka_proto::TournamentGameView>>),
    /// A match found by seeking: each seat a session's player, as the seat draw gave it.
    Players([PlayerId; 4]),
}
