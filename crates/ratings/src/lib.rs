//! Ratings for bughouse: how strong a player is, and how strong a pair is together.
//!
//! The model (and why): each player has a **Glicko-2** rating per time-control category — a
//! rating, a deviation (how sure the server is of it) and a volatility. A **team is as strong as
//! the mean of its partners**, the convention of FICS and the bughouse sites: the expected score
//! of a team comes from the difference between the two teams' mean ratings, so beating a stronger
//! team gains more and a weak partner is counted in ([`team`] says how Glicko-2 is applied to it). Glicko-2 rather than Elo because the deviation makes new players move fast and
//! settled ones slowly and marks a rating provisional while it is unsure; rather than a team model
//! such as Weng-Lin because Glicko-2's numbers are the ones chess players read (lichess, FICS,
//! chess.com), it has a published worked example to check the mathematics against (Glickman,
//! "Example of the Glicko-2 system"), and the calibration benchmark ranks hidden strengths a
//! little better with it, within 0.01 of what hindsight over all the games could do (`cargo bench
//! -p shvedka-ratings --bench calibration` prints all three).
//!
//! The mathematics is the `skillratings` crate's; this crate decides what a bughouse match is to
//! it ([`team`]), which category a time control falls in ([`category`]), and what a provisional
//! rating is ([`rating`]). A **partnership** is rated the same way as one player: the pair
//! against the opposing pair ([`team::rate_pairs`]).

pub mod calibration;
pub mod category;
pub mod rating;
pub mod team;

pub use category::{Categories, Category};
pub use rating::{PROVISIONAL_ABOVE, Rating};
pub use team::{Outcome, rate_match, rate_pairs};
