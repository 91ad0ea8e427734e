//! The service core: the match tasks and the registry of live matches, sessions, accounts and
//! roles, group commit, restore, records, metrics. It knows nothing of transports, of the
//! cluster, or of the features built on it (seeks, rematches, bots, ratings, tournaments): what
//! they need to hear of a match's end reaches them through [`hooks::MatchHooks`], which the core
//! calls and the layer above implements. ARCHITECTURE.md states the layering; `tests/layers.rs`
//! checks it.

pub(crate) mod accounts;
pub(crate) mod addresses;
pub(crate) mod attempts;
pub(crate) mod bot_names;
pub(crate) mod committer;
pub(crate) mod convert;
pub(crate) mod encoding;
pub(crate) mod gallery;
pub(crate) mod hooks;
pub(crate) mod invitations;
pub(crate) mod metrics;
pub(crate) mod outbound;
pub(crate) mod placement;
pub(crate) mod player_rows;
pub(crate) mod random;
pub(crate) mod reads;
pub(crate) mod record;
pub(crate) mod refusal;
pub(crate) mod restore;
pub(crate) mod roles;
pub(crate) mod room;
pub(crate) mod rooms;
pub(crate) mod session;
pub(crate) mod standing;
pub(crate) mod text;
pub(crate) mod wall;
