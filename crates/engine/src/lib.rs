//! The move search of the shvedka bot: given a whole bughouse [`Game`](bughouse::Game), the board
//! the bot plays and a [`Limits`], [`Engine::choose`] answers with a good legal move in time, and
//! [`Engine::wish`] names the piece the bot would most like its partner to send.
//!
//! Why it searches one board: the other board's moves are out of the bot's hands and arrive at
//! unknown times, so the search treats its own board as the game and the reserves as they stand.
//! What the other board means is in the evaluation instead: pieces in reserve are worth more than
//! on the board, and the king-safety term fears the opponent's reserve.
//!
//! How the parts fit:
//! - `engine`: the public face. The root moves come from the bughouse crate
//!   (`Game::legal_moves`), so every variant rule — no drop mate under MGIMO (P3), promotion by
//!   removal with its removal square (R1–R4) — holds for the move played; each root move's child is
//!   the board after `Game::play_unchecked`.
//! - `search`: iterative deepening and principal-variation alpha-beta on the board alone, a
//!   `chess_core::Position` played by copy-make: captures leave the board for the partner (C1) and
//!   never enter its pockets; no legal move is a loss when it is mate on board (M1) and a
//!   penalty when it is waiting (M2, M3). `quiesce` resolves captures at the horizon.
//! - `ordering` (hash move, MVV-LVA, killers, history) and `tt` (the transposition table keyed by
//!   `Position::zobrist`) make the search fast; `score` holds the mate-score arithmetic.
//! - `eval` scores a position (material on board and in reserve, mobility, placement) with
//!   `king_safety`, the term that decides most bughouse games.
//! - `analysis` is the review's and the arbiter's view of a board: the score, the best move and
//!   the line the transposition table holds after it.
//! - `limits` turns a level and a clock into a budget; `wish` runs shallow searches with a piece
//!   added to a reserve.
//!
//! The search is deterministic under a node limit: the same position and limits give the same
//! move from a fresh engine.

mod analysis;
mod engine;
mod eval;
mod king_safety;
mod limits;
mod ordering;
mod quiesce;
mod score;
mod search;
mod tt;
mod values;
mod wish;

pub use analysis::{Analysis, MAX_LINE, Verdict, verdict};
pub use engine::{Choice, Engine};
pub use limits::Limits;
pub use score::MATE;
