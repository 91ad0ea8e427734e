//! Tournaments of shvedka: the model of a university bughouse night, from registration to the
//! final crosstable, with no IO. A tournament director runs teams of two through rounds; the
//! server persists a [`Tournament`] as JSON, drives it from protocol commands, creates the online
//! matches and feeds back the results. All the logic lives here, so it can be tested on its own
//! and reused by an over-the-board director's tool. Time is passed in (`now_ms`, match-time Unix
//! milliseconds), never read; no input makes the crate panic; a refused command changes nothing.
//!
//! # Rounds and games (RULES.md S1, S3)
//! A round pairs teams; a [`Pairing`] is two [`Game`]s. In game 1 the team named first chooses
//! the seating and the other team the colours; in game 2 the roles swap. *Seating*
//! ([`SeatingChoice`]): which player of the seating team faces which opponent — `Straight`
//! (first faces first) or `Crossed`. Board A is, by definition, the board of the seating team's
//! first player. *Colours* ([`ColourChoice`]): whether the colour team has White on board A (and
//! Black on B) or White on B. The four seats follow deterministically ([`seats`]). Choices are
//! final once made and close at the game's deadline or when it starts (a match is linked or a
//! result recorded). [`Tournament::apply_defaults`] fills what is missing after the deadline
//! with `Straight` and `WhiteOnA`: the choices that need no thought and favour nobody (players
//! meet in the order registered, conventionally board-one player first; the colour team gets the
//! colours S1 gives "team 1"), so a slow team never holds the round up.
//!
//! Who is named first: the team named first less often than second so far (the smaller
//! first-minus-second, FIDE's colour difference: a bye does not count either way); if equal, the
//! team named second in its latest pairing (so it alternates; a team not paired before comes
//! between one named second and one named first last time); if still equal, the higher-ranked
//! team in a Swiss, the Berger table's left team in a round robin. So a pairing never takes a
//! team further from even than the worse of the two teams was, unless both were equally uneven.
//!
//! # Scoring
//! A game scores 1, ½ or 0 for a team, so a pairing is worth 2. A **bye scores 2** (two games
//! won): FIDE scores a pairing-allocated bye as a win, and a round here is two games. The same
//! 2 points go to a team whose round-robin opponent has withdrawn (it gets a bye) and to a team
//! whose opponent withdraws after the pairing (its two games are forfeited to it), so the order
//! in which a withdrawal and a pairing happen never changes a score. A **forfeit** scores 1 for
//! the team present and 0 for the team that withdrew, like a won and a lost game, but is not a
//! "game won" in the tie-breaks.
//!
//! # Standings ([`Tournament::standings`]) — points, then:
//! 1. **Direct encounter**: points in the games among exactly the teams tied on points, used
//!    only if they have all met each other (otherwise 0 for all). The result between the tied
//!    teams themselves is the evidence players accept without explanation; FIDE puts it first
//!    for round robins. In a Swiss the tied teams rarely have all met, and it passes on.
//! 2. **Buchholz**: the sum of the current points of the opponents, one term per pairing (a
//!    repeated pairing counts twice). A bye adds 0 — there was no opponent; in a round robin
//!    every team has the same number of byes, and in a Swiss the bye goes to the lowest-ranked
//!    team, so this costs little. A withdrawn opponent counts with the points it has (it scores
//!    no more, so meeting it late costs a little). Buchholz measures the strength of the
//!    opposition, the thing a Swiss makes differ; in a complete round robin it is the same for
//!    teams tied on points and falls through.
//! 3. **Sonneborn–Berger**: per game, the points scored times the opponent's points: whom the
//!    points came from. After direct encounter, the standard round-robin tie-break.
//! 4. **Games won** at the board or online (not forfeits, not byes): rewards decisive play.
//!
//! Teams equal on all of these share a rank (listed by team number).
//!
//! # Pairing
//! *Round robin* ([`Format::RoundRobin`]): the FIDE Berger tables over the draw in team-number
//! order (register in drawn order if the seeds should be drawn by lot); with an odd number of
//! teams a dummy team gives each team exactly one bye. A withdrawn team is not paired; its
//! scheduled opponent gets a bye. *Swiss* ([`Format::Swiss`]): teams ranked by the standings;
//! with an odd number of active teams the lowest-ranked team among those with the fewest byes
//! gets the bye; the rest are paired by backtracking within score groups, highest first, top
//! half against bottom half (Dutch style), an odd team floating down to the top of the next
//! group, never a pair that has met before; each score group, highest first, keeps as many of
//! its teams at home as any such pairing allows (so a floater goes where the group below can
//! still pair at home). If no such pairing exists, repeats are allowed —
//! meetings of round 1 first, then rounds 1–2, and so on — and the [`Round::note`] and
//! [`Pairing::repeat`] say so. A new round is paired only once the previous one is complete.
//!
//! # Entry, check-in and the director's word
//! A player invites a partner ([`Tournament::invite`]); the team exists once the partner
//! accepts ([`Tournament::accept`]), the inviter its first player. A player is in one team and
//! has one invitation at a time. A director may close registration to players and still register
//! teams himself. A tournament may ask teams to **check in** before each round
//! ([`Tournament::set_check_in`]): only the teams checked in are paired, the others are the
//! round's [`Round::absent`] and score nothing. The director sees the computer's pairing before
//! it is made ([`Tournament::propose_next_round`]) and may pair a round by hand instead
//! ([`Tournament::pair_next_round_by_hand`]); the round names him ([`Round::by_hand`]).
//!
//! # Exports
//! [`Standings::to_text`], [`Standings::to_csv`], [`Crosstable::to_text`], [`Crosstable::to_csv`],
//! [`Tournament::to_html`] (one page for a projector) and [`Tournament::pairing_sheet`] (for
//! over-the-board play).

mod acts;
mod berger;
mod choices;
mod crosstable;
mod csv;
mod entry;
mod error;
mod game;
mod history;
mod html;
mod manual;
mod results;
mod round;
mod score;
mod sheet;
mod standings;
mod swiss;
mod team;
mod text;
mod tournament;
mod words;

pub use acts::{Director, DirectorAct};
pub use crosstable::{CrossRow, Crosstable};
pub use entry::Invitation;
pub use error::TournamentError;
pub use game::{
    ColourChoice, Game, GameRef, GameResult, Outcome, PlayerRef, ResultSource, Seat, SeatingChoice, seats,
};
pub use round::{Fixture, Pairing, Round};
pub use score::Score;
pub use standings::{BYE_POINTS, StandingRow, Standings};
pub use team::{MAX_NAME, MAX_PLAYER_NAME, Team, TeamNo};
pub use tournament::{Format, MAX_TEAMS, State, Tournament};
pub use words::Language;
