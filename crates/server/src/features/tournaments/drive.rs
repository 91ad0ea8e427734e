//! The tournament driver: a ticker that, while this node runs the tournaments, drives each one —
//! defaults after deadlines, a match with reserved seats for each game whose seats are known (game
//! 2 once game 1 is decided; none for over-the-board tournaments), and the results of decided
//! matches (from their live tasks, or the database for matches decided before a restart).

use std::time::Duration;

use bughouse::{MatchResult, Team};
use shvedka_proto::{ErrorMsg, MatchId};
use shvedka_tournament::{GameRef, GameResult, Outcome, ResultSource, Tournament};

use crate::service::rooms::Rooms;
use crate::service::wall::unix_ms;

use super::*;

impl Tournaments {
    /// One turn of the driver: defaults after deadlines, matches for games whose seats are
    /// known (game 2 once game 1 is decided), and results of ended matches.
    pub(crate) async fn tick(&self, rooms: &Rooms) {
        let ids: Vec<u64> = self.all.lock().await.keys().copied().collect();
        for id in ids {
            if let Err(e) = self.drive(rooms, id).await {
                tracing::warn!(tournament = id, error = %e.message, "tournament step failed; retrying");
            }
        }
    }

    pub(super) async fn drive(&self, rooms: &Rooms, id: u64) -> Result<(), ErrorMsg> {
        let now = unix_ms();
        let snapshot = match self.all.lock().await.get(&id) {
            Some(t) if !t.is_finished() => t.clone(),
            _ => return Ok(()),
        };
        let Some(round) = snapshot.rounds().last() else { return Ok(()) };
        let number = round.number;
        let mut results = Vec::new();
        let mut to_create = Vec::new();
        let mut defaults_due = false;
        for (table, p) in round.pairings() {
            for (i, g) in p.games.iter().enumerate() {
                let game = i as u32 + 1;
                if g.result.is_some() {
                    continue;
                }
                if i == 1 && p.games[0].result.is_none() {
                    break; // game 2 is played after game 1
                }
                match (g.seats, g.match_id) {
                    (None, _) => defaults_due |= now >= g.choices_due_ms,
                    (Some(seats), None) => to_create.push((table, game, seats)),
                    (Some(seats), Some(m)) => {
                        if let Some(result) = rooms.result_of(MatchId(m)).await? {
                            let first_is_team_one = seats[0].team == p.first;
                            results.push((
                                table,
                                game,
                                outcome_of_match(result.0, first_is_team_one),
                                result.1,
                            ));
                        }
                    }
                }
                break; // one game of a pairing at a time
            }
        }
        // Online, game 2 is played after game 1 and chosen for after it (S3): its window opens
        // with game 1's result, below.
        let online = self.online(id);
        if defaults_due {
            self.change(
                rooms,
                id,
                |t| Ok(if online { t.apply_defaults_in_play(now) } else { t.apply_defaults(now) }),
                |games| (!games.is_empty()).then_some(TourChange::Defaulted),
            )
            .await?;
        }
        for (table, game, outcome, reason) in results {
            let result = GameResult::new(outcome, ResultSource::Online, reason);
            let record = |t: &mut Tournament| {
                t.record_result(number, table, game, result)?;
                if game == 1 {
                    t.open_game_two(number, table, now)?;
                }
                Ok(())
            };
            self.change(
                rooms,
                id,
                |t| record(t).map_err(refused),
                |()| Some(TourChange::Result { round: number, table, game }),
            )
            .await?;
        }
        if !online {
            return Ok(()); // over the board: the director prints sheets and enters results
        }
        for (table, game, seats) in to_create {
            let pairing = round.pairings().find(|(t, _)| *t == table).map(|(_, p)| p.clone());
            let Some(pairing) = pairing else { continue };
            let at = shvedka_tournament::GameRef { round: number, table, game };
            let reserved = tour_seats(id, &snapshot, at, &pairing, seats);
            let m = rooms
                .create_reserved(snapshot.rules(), snapshot.time_control(), snapshot.chess960(), reserved)
                .await?;
            self.change(
                rooms,
                id,
                |t| t.set_match(number, table, game, m.0).map_err(refused),
                |()| Some(TourChange::GameStarted { match_id: m }),
            )
            .await?;
        }
        Ok(())
    }
}

/// A game's reserved seats by name and what the game is, for its match: the teams' names with
/// the match's team 1 (the team on White-A) first.
pub(super) fn tour_seats(
    id: u64,
    t: &Tournament,
    at: shvedka_tournament::GameRef,
    p: &shvedka_tournament::Pairing,
    seats: [shvedka_tournament::PlayerRef; 4],
) -> crate::service::rooms::TourSeats {
    let names = seats.map(|s| t.player_name(s).unwrap_or("?").to_owned());
    let team = |n| t.team(n).map_or_else(|| format!("#{}", n.0), |team| team.name.clone());
    let one = seats[0].team;
    let two = if one == p.first { p.second } else { p.first };
    let game = shvedka_proto::TournamentGameView {
        tournament: id,
        name: t.name().to_owned(),
        round: at.round,
        table: at.table,
        game: at.game,
        teams: [team(one), team(two)],
    };
    (names, game)
}

/// The online games' matches of round `round` (0: of every round), in the order of the pairing
/// sheets, each with the game it is and the game's result as the tournament has it.
pub(super) fn linked_matches(t: &Tournament, round: u32) -> Vec<(MatchId, GameRef, Option<GameResult>)> {
    let mut linked = Vec::new();
    for r in t.rounds().iter().filter(|r| round == 0 || r.number == round) {
        for (table, p) in r.pairings() {
            for (game, g) in (1..).zip(&p.games) {
                if let Some(m) = g.match_id {
                    linked.push((MatchId(m), GameRef { round: r.number, table, game }, g.result.clone()));
                }
            }
        }
    }
    linked
}

/// A match result as the pairing sees it: team 1 of the match is the team on White-A.
pub(super) fn outcome_of_match(result: MatchResult, first_is_team_one: bool) -> Outcome {
    match (result, first_is_team_one) {
        (MatchResult::Draw, _) => Outcome::Draw,
        (MatchResult::Win(Team::One), true) | (MatchResult::Win(Team::Two), false) => Outcome::FirstWins,
        _ => Outcome::SecondWins,
    }
}

/// Runs the driver every quarter second until `stop` says so (or the server is gone); the
/// server waits for the returned task at shutdown, so no tournament change is cut in half.
pub(crate) fn spawn_ticker(
    tournaments: std::sync::Weak<Tournaments>,
    rooms: std::sync::Weak<Rooms>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_millis(250));
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = stop.wait_for(|stop| *stop) => return,
            }
            let (Some(tournaments), Some(rooms)) = (tournaments.upgrade(), rooms.upgrade()) else { return };
            if tournaments.hold_role(&rooms).await {
                tournaments.tick(&rooms).await;
            }
        }
    })
}
