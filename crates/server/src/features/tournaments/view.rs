//! A tournament as the protocol carries it (`TournamentView`, `TournamentSummary`, `RoundView`):
//! built from the same `Tournament` the exports are, so a page and a printed sheet never disagree.

use shvedka_proto::{
    GameView, InvitationView, MatchId, OfficialView, PairingView, RoundView, StandingView, TableView,
    TdChoice, TdOutcome, TeamView, TourResultSource, TourResultView, TournamentFormat, TournamentPhase,
    TournamentSummary, TournamentView,
};
use shvedka_tournament::{
    ColourChoice, Director, Fixture, Format, Game, Outcome, Pairing, ResultSource, Round, SeatingChoice,
    Tournament,
};

/// What the list shows of tournament `id`.
pub(crate) fn summary(id: u64, t: &Tournament, online: bool) -> TournamentSummary {
    TournamentSummary {
        id,
        name: t.name().to_owned(),
        phase: phase(t),
        format: match t.format() {
            Format::RoundRobin => TournamentFormat::RoundRobin,
            Format::Swiss { rounds } => TournamentFormat::Swiss { rounds },
        },
        rules: t.rules().to_owned(),
        time_control: t.time_control().to_owned(),
        online,
        chess960: t.chess960(),
        teams: count(t.teams().len()),
        rounds_paired: count(t.rounds().len()),
    }
}

/// Tournament `id` as a follower is pushed it: its latest round only.
pub(crate) fn view(id: u64, t: &Tournament, online: bool) -> TournamentView {
    let teams = t
        .teams()
        .iter()
        .map(|team| TeamView {
            team: team.id.0,
            name: team.name.clone(),
            players: team.players.clone(),
            withdrawn: team.withdrawn,
        })
        .collect();
    let standings = t
        .standings()
        .rows
        .into_iter()
        .map(|r| StandingView {
            rank: r.rank,
            team: r.team.0,
            withdrawn: r.withdrawn,
            points: r.points.0,
            direct: r.direct.0,
            buchholz: r.buchholz.0,
            sonneborn_berger: r.sonneborn_berger.0,
            wins: r.wins,
        })
        .collect();
    let round = t.rounds().last().map(|r| round(t, r));
    TournamentView {
        summary: summary(id, t, online),
        teams,
        round,
        standings,
        registration_open: t.registration_open(),
        check_in: t.asks_check_in(),
        checked_in: t.checked_in().map(|team| team.0).collect(),
        invitations: t
            .invitations()
            .iter()
            .map(|i| InvitationView { team: i.team.clone(), from: i.from.clone(), to: i.to.clone() })
            .collect(),
        most_rounds: t.most_rounds_without_repeat(),
        now_ms: crate::service::wall::unix_ms(),
    }
}

/// One round of `t`.
pub(crate) fn round(t: &Tournament, r: &Round) -> RoundView {
    RoundView {
        round: r.number,
        tables: (1..)
            .zip(&r.fixtures)
            .map(|(table, f)| match f {
                Fixture::Pairing(p) => TableView::Pairing(pairing(t, table, p)),
                Fixture::Bye(team) => TableView::Bye { table, team: team.0 },
            })
            .collect(),
        repeats_allowed: r.note.is_some(),
        absent: r.absent.iter().map(|team| team.0).collect(),
        by_hand: r.by_hand.as_ref().map(director_name),
    }
}

fn phase(t: &Tournament) -> TournamentPhase {
    match t.state() {
        shvedka_tournament::State::Registration => TournamentPhase::Registering,
        shvedka_tournament::State::Started { .. } if t.is_finished() => TournamentPhase::Finished,
        shvedka_tournament::State::Started { .. } => TournamentPhase::Running,
    }
}

fn pairing(t: &Tournament, table: u32, p: &Pairing) -> PairingView {
    PairingView {
        table,
        first: p.first.0,
        second: p.second.0,
        repeat: p.repeat,
        games: (1..).zip(&p.games).map(|(n, g)| game(t, p, n, g)).collect(),
    }
}

fn game(t: &Tournament, p: &Pairing, n: u32, g: &Game) -> GameView {
    // Game 1: the first-named team seats, the other colours; game 2 the other way (S3).
    let (seating_team, colour_team) = if n == 1 { (p.first, p.second) } else { (p.second, p.first) };
    GameView {
        game: n,
        seating_team: seating_team.0,
        colour_team: colour_team.0,
        seating: g.seating.map(|s| match s {
            SeatingChoice::Straight => TdChoice::Straight,
            SeatingChoice::Crossed => TdChoice::Crossed,
        }),
        colours: g.colours.map(|c| match c {
            ColourChoice::WhiteOnA => TdChoice::WhiteOnA,
            ColourChoice::WhiteOnB => TdChoice::WhiteOnB,
        }),
        seating_by_default: g.seating_defaulted,
        colours_by_default: g.colours_defaulted,
        seats: g.seats.map(|seats| seats.map(|s| t.player_name(s).unwrap_or_default().to_owned())),
        choices_due_ms: g.choices_due_ms,
        match_id: g.match_id.map(MatchId),
        result: g.result.as_ref().map(|r| TourResultView {
            outcome: match r.outcome {
                Outcome::FirstWins => TdOutcome::FirstWins,
                Outcome::SecondWins => TdOutcome::SecondWins,
                Outcome::Draw => TdOutcome::Draw,
            },
            source: match r.source {
                ResultSource::OverTheBoard => TourResultSource::OverTheBoard,
                ResultSource::Online => TourResultSource::Online,
                ResultSource::Director => TourResultSource::Director,
                ResultSource::Forfeit => TourResultSource::Forfeit,
            },
            director: r.by.as_ref().map(director_name),
            // A director's words are his own; the server's reasons are said by the match.
            note: if r.by.is_some() { r.reason.clone() } else { String::new() },
        }),
    }
}

/// A director as the view names him: his account, or the server's secret.
fn director_name(by: &Director) -> OfficialView {
    match by {
        Director::Account(name) => OfficialView::Account(name.clone()),
        Director::Secret => OfficialView::Secret,
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use shvedka_proto::{MAX_FRAME, ServerMsg, TOURNAMENT_TEAMS, TourChange};
    use shvedka_tournament::{Director, GameResult, MAX_NAME, Outcome, ResultSource};

    use super::*;

    /// `n` characters of two bytes each in UTF-8, starting with `tag` (unique names of the
    /// longest kind).
    fn long(tag: &str, n: usize) -> String {
        let mut s = tag.to_owned();
        while s.chars().count() < n {
            s.push('ж');
        }
        s
    }

    /// The largest view the server may push: as many teams as it carries, team names as long as
    /// allowed (two bytes a character), players named as accounts are at their longest, a round
    /// where every game has its choices, seats, match and a director's note of the longest; it
    /// fits one frame in both encodings.
    #[test]
    fn the_largest_tournament_view_fits_one_frame_in_both_encodings() {
        let mut t = Tournament::new(&long("t", MAX_NAME), "mgimo-2017", "3+2", Format::Swiss { rounds: 11 })
            .expect("a tournament");
        for i in 0..TOURNAMENT_TEAMS {
            // Players are accounts: ASCII names of at most 24 characters.
            let account = |p: &str| format!("{i}{p}{}", "x".repeat(24)).chars().take(24).collect::<String>();
            let players = [account("a"), account("b")];
            t.register(&long(&i.to_string(), MAX_NAME), [&players[0], &players[1]]).expect("a team");
        }
        t.start().expect("start");
        t.pair_next_round(0, 1).expect("round 1");
        t.apply_defaults(u64::MAX);
        let note = long("n", super::super::MAX_NOTE);
        for table in 1..=u32::try_from(TOURNAMENT_TEAMS / 2).unwrap() {
            for game in 1..=2 {
                t.set_match(1, table, game, u64::MAX / 2).expect("a match");
                let result = GameResult::new(Outcome::Draw, ResultSource::OverTheBoard, note.clone())
                    .by(Director::Account(long("d", 24)));
                t.record_result(1, table, game, result).expect("a result");
            }
        }
        let view = view(u64::MAX / 2, &t, true);
        assert_eq!(view.round.as_ref().map(|r| r.tables.len()), Some(TOURNAMENT_TEAMS / 2));
        let msg = ServerMsg::Tournament {
            change: TourChange::Corrected { round: 1, table: 1, game: 1 },
            view: Box::new(view),
        };
        let json = serde_json::to_vec(&msg).expect("JSON");
        let bincode = shvedka_proto::encode(&msg).expect("bincode");
        assert!(
            json.len() < MAX_FRAME && bincode.len() < MAX_FRAME,
            "JSON {} B, bincode {} B",
            json.len(),
            bincode.len()
        );
    }
}
