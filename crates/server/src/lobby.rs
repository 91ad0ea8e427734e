//! The whole running server in one value, [`Lobby`]: what a connection reaches — the live
//! matches ([`Rooms`]), the sessions in memory ([`Sessions`]), the accounts ([`Accounts`]), the
//! roles, the tournaments, the seeks ([`Seeks`]), rematch offers, the server's own bots, metrics,
//! rating rules, and where matches run ([`Placement`], [`Remote`]) — each its own part with its
//! own state, put together here once at start. Every connection holds it and every request
//! handler of the top layer is passed it; nothing below the top layer names it.

use std::sync::Arc;
use std::time::Duration;

use bughouse_match::ClockConfig;
use shvedka_storage::Store;
use tokio::time::Instant;

use crate::features::analysis::{AnalysisLimits, Analyst};
use crate::features::bots::Bots;
use crate::features::outcomes::Outcomes;
use crate::features::rater::{Rater, RatingRules};
use crate::features::rematch::Rematches;
use crate::features::remote::Remote;
use crate::features::seeks::{SeekSettings, SeekSetup, Seeks};
use crate::features::tournaments::Tournaments;
use crate::service::accounts::Accounts;
use crate::service::attempts::AttemptLimits;
use crate::service::metrics::Metrics;
use crate::service::placement::Placement;
use crate::service::roles::{Roles, Secrets};
use crate::service::rooms::{MatchLimits, Rooms, RoomsSetup};
use crate::service::session::Sessions;

/// The server's parts a connection uses.
pub(crate) struct Lobby {
    pub(crate) rooms: Arc<Rooms>,
    pub(crate) sessions: Arc<Sessions>,
    pub(crate) accounts: Arc<Accounts>,
    pub(crate) roles: Roles,
    pub(crate) tournaments: Arc<Tournaments>,
    /// The server's start: `server_time_us` counts from it.
    pub(crate) started: Instant,
    pub(crate) metrics: Arc<Metrics>,
    /// The server's own bots (`FillWithBots`).
    pub(crate) bots: Arc<Bots>,
    /// Where matches run (this process alone, or a node of a cluster).
    pub(crate) placement: Arc<dyn Placement>,
    /// How the seeks, tournaments and rematch offers other processes serve are reached.
    pub(crate) remote: Arc<dyn Remote>,
    /// The seeks (finding a game).
    pub(crate) seeks: Seeks,
    /// The rematch offers of decided matches.
    pub(crate) rematches: Arc<Rematches>,
    /// How ratings are kept.
    pub(crate) ratings: RatingRules,
    /// The engine's analysis for review (`ClientMsg::Analyse`).
    pub(crate) analyst: Arc<Analyst>,
}

/// What the lobby is built from.
pub(crate) struct LobbySetup<'a> {
    pub(crate) clock: ClockConfig,
    pub(crate) limits: MatchLimits,
    pub(crate) session_expiry: Duration,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) secrets: Secrets<'a>,
    pub(crate) records_dir: Option<std::path::PathBuf>,
    pub(crate) bots: Bots,
    pub(crate) login: AttemptLimits,
    pub(crate) login_failure_delay: Duration,
    pub(crate) ratings: RatingRules,
    pub(crate) placement: Arc<dyn Placement>,
    pub(crate) remote: Arc<dyn Remote>,
    pub(crate) seeks: SeekSettings,
    /// `rematch_offer_s` and `max_rematch_offers`.
    pub(crate) rematches: (Duration, usize),
    /// The analysis settings.
    pub(crate) analysis: AnalysisLimits,
    /// Whether this node may run matches now.
    pub(crate) standing: crate::service::standing::Standing,
}

impl Lobby {
    /// The lobby over `store`: its tournaments, and every undecided match rebuilt from its log
    /// with its seated players' sessions (other sessions are read when they come back).
    pub(crate) async fn open(setup: LobbySetup<'_>) -> anyhow::Result<Lobby> {
        let LobbySetup {
            clock,
            limits,
            session_expiry,
            store,
            secrets,
            records_dir,
            login,
            login_failure_delay,
            bots,
            ratings,
            placement,
            remote,
            seeks,
            rematches: (rematch_keep, max_rematch_offers),
            analysis,
            standing,
        } = setup;
        let accounts = Arc::new(Accounts::new(store.clone(), login, login_failure_delay).await);
        let started = Instant::now();
        let metrics = Arc::new(Metrics::new());
        let clustered = store.leases().is_some();
        let tournaments = Arc::new(Tournaments::new(
            crate::features::tournaments::load(store.tournaments().await?),
            clustered,
            ratings.categories,
        ));
        let (_, max_player) = store.max_ids().await?;
        let sessions = Arc::new(Sessions::new(store.clone(), max_player, session_expiry));
        let roles = Roles::new(&secrets);
        let rematches = Arc::new(Rematches::new(rematch_keep, max_rematch_offers));
        let rooms_setup = RoomsSetup {
            limits,
            clock,
            store: store.clone(),
            sessions: sessions.clone(),
            records_dir,
            arbiters: roles.arbiters(),
            started,
            metrics: metrics.clone(),
            hooks: Arc::new(Outcomes {
                rater: Rater::new(store.clone(), ratings.categories),
                ratings,
                rematches: rematches.clone(),
            }),
            standing,
        };
        // Tournament games keep their reserved seats across a restart.
        let rooms = Rooms::open(rooms_setup, tournaments.reservations().await).await?;
        let seeks = Seeks::spawn(SeekSetup {
            settings: seeks,
            rooms: rooms.clone(),
            categories: ratings.categories,
            rated_bots: ratings.rated_bots,
        });
        let analyst = Arc::new(Analyst::start(analysis, metrics.clone())?);
        Ok(Lobby {
            analyst,
            rooms,
            sessions,
            accounts,
            roles,
            tournaments,
            started,
            metrics,
            bots: Arc::new(bots),
            placement,
            remote,
            seeks,
            rematches,
            ratings,
        })
    }

    /// The metrics page, with the live counts as of now.
    pub(crate) fn metrics_text(&self) -> String {
        self.placement.set_metrics(&self.metrics);
        self.metrics.encode(self.rooms.len(), self.sessions.len())
    }

    /// The server's monotonic clock, microseconds since start.
    pub(crate) fn server_time_us(&self) -> u64 {
        self.started.elapsed().as_micros() as u64
    }
}
