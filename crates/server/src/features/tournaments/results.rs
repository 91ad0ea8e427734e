//! A director's result for a game, and its clearing. A game played online has one result: its
//! match's. So a result entered for a game in play is refused unless the director says to end
//! the match with it (`end_game`), and then the match ends with that result — its players are
//! told, with the director's words — before the tournament records it; a result entered or
//! corrected for a game whose match has ended corrects the match's result too (A2). The board
//! and the standings never disagree. A result entered by mistake for a game not played online is
//! cleared.

use bughouse::{MatchResult, Team};
use bughouse_match::{ArbiterAct, Official};
use shvedka_proto::{ErrorCode, ErrorMsg, MatchId, TdOutcome, TourChange, TourRefusal};
use shvedka_tournament::{
    DirectorAct, Game, GameRef, GameResult, Outcome, Pairing, ResultSource, Tournament, TournamentError,
};
use tokio::sync::oneshot;

use super::{MAX_NOTE, Tournaments, refused};
use crate::service::convert::error;
use crate::service::room::RoomMsg;
use crate::service::rooms::Rooms;

/// Where a result goes.
pub(super) struct At {
    pub(super) tournament: u64,
    pub(super) round: u32,
    pub(super) table: u32,
    pub(super) game: u32,
}

/// What the director enters.
pub(super) struct Entry {
    pub(super) outcome: TdOutcome,
    pub(super) reason: String,
    pub(super) correct: bool,
    pub(super) end_game: bool,
}

fn outcome_of(o: TdOutcome) -> Outcome {
    match o {
        TdOutcome::FirstWins => Outcome::FirstWins,
        TdOutcome::SecondWins => Outcome::SecondWins,
        TdOutcome::Draw => Outcome::Draw,
    }
}

/// The game at `at`, with its pairing; `None` for no such game (the change then says why).
fn game_at<'t>(t: &'t Tournament, at: &At) -> Option<(&'t Pairing, &'t Game)> {
    let (_, p) = t.round(at.round)?.pairings().find(|(table, _)| *table == at.table)?;
    Some((p, p.games.get(usize::try_from(at.game).ok()?.checked_sub(1)?)?))
}

/// The game's online match, and the match's result for `outcome` (team one of a match is the
/// team on White-A); `None` for a game with no match (over the board, not started).
fn linked(p: &Pairing, g: &Game, outcome: Outcome) -> Option<(MatchId, MatchResult)> {
    let (m, seats) = (g.match_id?, g.seats?);
    let first_is_team_one = seats[0].team == p.first;
    let result = match (outcome, first_is_team_one) {
        (Outcome::Draw, _) => MatchResult::Draw,
        (Outcome::FirstWins, true) | (Outcome::SecondWins, false) => MatchResult::Win(Team::One),
        _ => MatchResult::Win(Team::Two),
    };
    Some((MatchId(m), result))
}

impl Tournaments {
    /// Enters (or corrects) a game's result, ending or correcting its match first (see the
    /// module's documentation).
    pub(super) async fn enter_result(
        &self,
        rooms: &Rooms,
        by: (&Official, &DirectorAct),
        at: At,
        entry: Entry,
    ) -> Result<(), ErrorMsg> {
        let Entry { outcome, reason, correct, end_game } = entry;
        if reason.chars().count() > MAX_NOTE {
            return Err(error(
                ErrorCode::Invalid(shvedka_proto::Invalid::NoteLength { max: MAX_NOTE as u32 }),
                format!("the reason of a result has at most {MAX_NOTE} characters"),
            ));
        }
        let (official, act) = by;
        let At { tournament, round, table, game } = at;
        let snapshot = self.copy_of(tournament).await?;
        let game_now = game_at(&snapshot, &at);
        let linked = game_now.and_then(|(p, g)| linked(p, g, outcome_of(outcome)));
        let source = if linked.is_some() { ResultSource::Director } else { ResultSource::OverTheBoard };
        let here = GameRef { round, table, game };
        // Entered once, corrected after: checked before the match is touched.
        match game_now.map(|(_, g)| g.result.is_some()) {
            Some(true) if !correct => return Err(refused(TournamentError::AlreadyDecided(here))),
            Some(false) if correct => return Err(refused(TournamentError::NotDecided(here))),
            _ => {}
        }
        if let Some((m, result)) = linked {
            let in_play = rooms.result_of(m).await?.is_none();
            if in_play && !end_game {
                let tour_game = shvedka_proto::TourGame { round, table, game };
                return Err(error(
                    ErrorCode::Tournament(TourRefusal::GameInPlay { game: tour_game, match_id: m }),
                    format!(
                        "round {round} table {table} game {game} is in play in match {m}: confirm to end it with this result"
                    ),
                ));
            }
            // Decided on the board a moment ago, not recorded yet: the board's result comes
            // first (the driver records it within a tick); the director corrects it after.
            if !in_play && !correct {
                return Err(refused(TournamentError::AlreadyDecided(here)));
            }
            // The match ends (or its result is corrected) with the director's result and words.
            let note = if reason.trim().is_empty() {
                "the tournament director's result".to_owned()
            } else {
                reason.clone()
            };
            let (reply, rx) = oneshot::channel();
            let act = ArbiterAct::DeclareResult { result, note };
            rooms.revive_with(m, RoomMsg::Arbiter { act, by: official.clone(), reply }).await?;
            rx.await.map_err(|_| error(ErrorCode::NoSuchMatch, "the match is gone"))??;
        }
        let what = format!(
            "{} the result of round {round} table {table} game {game}: {outcome:?} ({reason})",
            if correct { "corrected" } else { "entered" }
        );
        let result = GameResult::new(outcome_of(outcome), source, reason).by(act.by.clone());
        // Online, game 2's choices open with game 1's result, however it came (S3).
        let online = self.online(tournament);
        let now = act.at_ms;
        let note = DirectorAct { what, ..act.clone() };
        self.change(
            rooms,
            tournament,
            |t| {
                // The match's own result may have been recorded meanwhile (the driver saw the
                // match end): the director's replaces it, the same outcome.
                if correct {
                    t.correct_result(round, table, game, result).map_err(refused)?;
                } else {
                    match t.record_result(round, table, game, result.clone()) {
                        Ok(()) if online && game == 1 => {
                            t.open_game_two(round, table, now).map_err(refused)?;
                        }
                        Ok(()) => {}
                        // The match just ended with the director's result and the driver
                        // recorded it first: the director's stands, the same outcome.
                        Err(TournamentError::AlreadyDecided(_)) if linked.is_some() => {
                            t.correct_result(round, table, game, result).map_err(refused)?;
                        }
                        Err(e) => return Err(refused(e)),
                    }
                }
                t.note_act(note);
                Ok(())
            },
            |()| {
                Some(if correct {
                    TourChange::Corrected { round, table, game }
                } else {
                    TourChange::Result { round, table, game }
                })
            },
        )
        .await
    }

    /// Clears a result entered by mistake.
    pub(super) async fn clear_result(
        &self,
        rooms: &Rooms,
        act: &DirectorAct,
        at: At,
    ) -> Result<(), ErrorMsg> {
        let At { tournament, round, table, game } = at;
        let note = DirectorAct {
            what: format!("cleared the result of round {round} table {table} game {game}"),
            ..act.clone()
        };
        self.change(
            rooms,
            tournament,
            |t| {
                t.clear_result(round, table, game).map_err(refused)?;
                t.note_act(note);
                Ok(())
            },
            |()| Some(TourChange::Corrected { round, table, game }),
        )
        .await
    }
}
