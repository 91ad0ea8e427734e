//! A driver for a UCI chess engine that knows bughouse — Fairy-Stockfish, whose `bughouse`
//! variant is standard online bughouse, that is shvedka's `classic` preset — so that shvedka's bot
//! can play with it (`shvedka bot --uci`) and shvedka's own engine can be measured against it
//! (`shvedka bench-strength`).
//!
//! Fairy-Stockfish is GPL: it is never linked, only run as a separate process spoken to over its
//! standard input and output. [`UciEngine::start`] spawns it (killed when the driver is dropped),
//! shakes hands (`uci`/`uciok`, `UCI_Variant bughouse`, one thread, the hash size,
//! `isready`/`readyok`) and refuses an engine without the variant; [`UciEngine::best_move`] sends a
//! board as FEN with both reserves (`position fen …[Pp] w …`), a [`Go`], and reads `bestmove`
//! back as a legal shvedka move (drops `P@e4`, promotions `e7e8q`), or `None` when the engine has
//! no move (shvedka's waiting, M2/M3).
//!
//! Every wait is bounded (a silent engine is [`UciError::Timeout`], a dead one
//! [`UciError::Exited`]) and so is every line ([`MAX_LINE`]); after such an error the engine is
//! killed and stays unusable, so a caller falls back to its own search rather than hang. A move
//! shvedka refuses is [`UciError::Refused`], with the rule it breaks.
//!
//! How the parts fit: `protocol` is the conversation as text without IO (commands out,
//! [`Info`]/bestmove lines in); `position` holds what the engine's rules and shvedka's have in
//! common ([`check_rules`], [`engine_fen`], [`read_move`]); `lines` reads bounded lines;
//! `engine` is the process and the waits.

mod engine;
mod error;
mod lines;
mod position;
mod protocol;

pub use engine::{Answer, UciEngine, UciSettings};
pub use error::UciError;
pub use lines::MAX_LINE;
pub use position::{Difference, Incompatible, RefusedMove, check_rules, engine_fen, read_move};
pub use protocol::{Go, Info, Score};
