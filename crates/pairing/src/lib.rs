//! Finding a game: players seek alone or with a partner, and the [`Pool`] forms a match as soon
//! as compatible seeks make four players — two pairs, a pair and two singles, or four singles
//! paired into teams of close strength — and gives it fair seats.
//!
//! Sans-IO, like the match machine: the server adds and withdraws seeks, asks the pool to form
//! matches with the time and a random number it supplies, and does the seating, the storing and
//! the telling itself. So every rule of pairing is tested here without a clock or a socket.
//!
//! - [`seek`]: who seeks what (terms that must match exactly, a rating range);
//! - [`window`]: how a rating range widens while a seek waits;
//! - [`pool`]: the seeks waiting, and forming matches from them;
//! - [`seats`]: teams onto boards and colours.

pub mod pool;
pub mod seats;
pub mod seek;
pub mod window;

pub use pool::{Formed, Pool, Refusal};
pub use seek::{Party, Seek, SeekId, Seeker, Terms};
pub use window::Window;
