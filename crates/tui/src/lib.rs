//! The terminal client of shvedka (`shvedka play`): a full-screen interface for one player, and
//! the spectator view of `shvedka demo`.
//!
//! [`App`] is the interface's state and reacts to keys and server messages without any IO, giving
//! [`Action`]s back; `view` draws an [`App`] with ratatui (tested on ratatui's test backend);
//! [`run`] is the loop that connects the two to a real terminal and a [`shvedka_client::Client`],
//! reconnecting and resuming by itself when the connection is lost.
//!
//! Move text goes to the server as typed, so the server's refusal (with its rule id) is what the
//! player reads; only a promotion by removal written without the removed piece is completed here,
//! by a pick from the pieces that may be removed (`entry`).
//!
//! It speaks English and Russian ([`i18n`]: Project Fluent catalogues in `locales/`), chosen by
//! the `--lang` flag, the choice remembered from `/lang` ([`prefs`]), or the locale environment.
//! What the server says is rendered from its codes in [`speak`], never from its English words.

mod action;
mod app;
pub mod check_words;
mod entry;
pub mod explain;
pub mod i18n;
pub mod prefs;
pub mod record_words;
pub mod review;
mod run;
pub mod speak;
pub mod view;
pub mod wrong_words;

pub use action::Action;
pub use app::{App, Link, LogLine, QUICK, Screen, help_lines};
pub use entry::{Entry, Pick, read_entry};
pub use i18n::Lang;
pub use prefs::Settings;
pub use run::{Mode, refusal, run};
