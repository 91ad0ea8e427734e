//! Features over the service core: ratings, rematches, the server's own bots, seeks,
//! tournaments, profiles, review and the lists of matches played. Each uses the core through its
//! types (`Rooms`, `Sessions`, the store); the core imports none of them.

pub(crate) mod analysis;
pub(crate) mod bots;
pub(crate) mod outcomes;
pub(crate) mod played;
pub(crate) mod profiles;
pub(crate) mod rater;
pub(crate) mod record_review;
pub(crate) mod rematch;
pub(crate) mod remote;
pub(crate) mod review;
pub(crate) mod seeks;
pub(crate) mod tournaments;
