//! The async client library of shvedka, used by the terminal client, the bot and the tests.
//!
//! [`Client::connect`] opens a QUIC connection (the server pinned by its certificate's SHA-256
//! fingerprint, or verified against the web PKI roots), opens the session stream and says
//! `Hello`. Requests ([`Client::request`] and its helpers) return the server's reply; everything
//! the server pushes (match state and events, chat) arrives on [`Client::next_update`]. After a
//! lost connection, [`Client::resume`] reconnects with the session token and the last event seen,
//! and the server sends exactly the missed events. A client may be given several addresses, the
//! nodes of a cluster ([`Client::connect_any`]): it connects to the first that answers, and
//! resumes on the next one that answers when its node is lost. [`ClockModel`] shows the four clocks ticking
//! locally between updates; [`MatchModel`] keeps a followed match current from its events.

mod clock;
mod connection;
mod model;
mod tls;

pub use clock::ClockModel;
pub use connection::{Account, CONNECT_TIMEOUT, Client, ClientError, Trust, Update, Updates, client_config};
pub use model::{MatchModel, ModelError, SeenMove, rules_of, rules_seat, wire_board};
/// The QUIC library, for tools and tests that speak the protocol by hand.
pub use quinn;
pub use tls::parse_fingerprint;
