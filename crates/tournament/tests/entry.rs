//! Teams that come in by themselves: a player invites a partner who accepts; registration that a
//! director closes; check-in before each round (only the teams checked in are paired, the others
//! are absent and score nothing).

mod common;

use common::{appearances, json, registered, score, started};
use shvedka_tournament::{Format, TeamNo, Tournament, TournamentError};

fn night() -> Tournament {
    Tournament::new("Night", "mgimo-2017", "3+2", Format::Swiss { rounds: 3 }).unwrap()
}

/// An invitation accepted is a team: the inviter first, the invited second; it is gone after.
#[test]
fn an_accepted_invitation_registers_the_team_with_the_inviter_first() {
    let mut t = night();
    t.invite("alice", "Rooks", "bob", 5).unwrap();
    assert_eq!(t.invitations().len(), 1);
    assert_eq!(t.invitations()[0].at_ms, 5);
    assert!(t.teams().is_empty(), "no team before the partner accepts");
    let team = t.accept("Bob", "alice").unwrap();
    assert_eq!(team, TeamNo(1));
    assert_eq!(t.team(team).unwrap().players, ["alice".to_owned(), "bob".to_owned()]);
    assert_eq!(t.team(team).unwrap().name, "Rooks");
    assert!(t.invitations().is_empty());
    assert_eq!(t.team_of("BOB"), Some(team));
}

/// A player has one team and one invitation at a time; a refused invitation changes nothing.
#[test]
fn a_player_in_a_team_or_with_an_invitation_pending_is_refused() {
    let mut t = night();
    t.invite("alice", "Rooks", "bob", 0).unwrap();
    let before = json(&t);
    for (from, to) in [("carol", "bob"), ("bob", "carol"), ("alice", "dave"), ("dave", "Alice")] {
        let e = t.invite(from, "Knights", to, 0).unwrap_err();
        assert!(matches!(e, TournamentError::AlreadyInTeam(_)), "{from} → {to}: {e:?}");
    }
    assert_eq!(
        t.invite("carol", "rooks", "dave", 0),
        Err(TournamentError::DuplicateTeamName("rooks".into()))
    );
    assert_eq!(
        t.invite("carol", "Knights", "Carol", 0),
        Err(TournamentError::SamePlayerTwice("carol".into()))
    );
    assert_eq!(json(&t), before, "refusals changed nothing");
    t.accept("bob", "alice").unwrap();
    assert!(matches!(t.invite("carol", "Knights", "alice", 0), Err(TournamentError::AlreadyInTeam(_))));
    // A director's registration refuses a player of another team too.
    assert_eq!(t.register("Bishops", ["alice", "erin"]), Err(TournamentError::AlreadyInTeam("alice".into())));
}

/// Either side takes an invitation back; nobody else can, and nobody accepts what is gone.
#[test]
fn the_invited_declines_or_the_inviter_cancels() {
    let mut t = night();
    t.invite("alice", "Rooks", "bob", 0).unwrap();
    assert!(matches!(t.decline("carol", "alice"), Err(TournamentError::NoInvitation { .. })));
    t.decline("bob", "alice").unwrap();
    assert!(t.invitations().is_empty());
    assert!(matches!(t.accept("bob", "alice"), Err(TournamentError::NoInvitation { .. })));
    t.invite("alice", "Rooks", "bob", 0).unwrap();
    t.decline("alice", "bob").unwrap();
    assert!(t.invitations().is_empty());
    // Only the invited accepts: the inviter cannot accept his own invitation.
    t.invite("alice", "Rooks", "bob", 0).unwrap();
    assert!(matches!(t.accept("alice", "bob"), Err(TournamentError::NoInvitation { .. })));
}

/// Closed registration refuses players (invitations and acceptances), not the director; an
/// invitation lapses at the start; a director's registration takes its players' invitations.
#[test]
fn closed_registration_refuses_players_but_not_the_director() {
    let mut t = night();
    t.invite("alice", "Rooks", "bob", 0).unwrap();
    t.set_registration_open(false).unwrap();
    assert!(!t.registration_open());
    assert_eq!(t.invite("carol", "Knights", "dave", 0), Err(TournamentError::RegistrationClosed));
    assert_eq!(t.accept("bob", "alice"), Err(TournamentError::RegistrationClosed));
    assert_eq!(t.invitations().len(), 1, "a refused acceptance keeps the invitation");
    t.register("Knights", ["carol", "bob"]).unwrap();
    assert!(t.invitations().is_empty(), "bob's invitation is moot once he is in a team");
    t.set_registration_open(true).unwrap();
    t.invite("alice", "Rooks", "dave", 0).unwrap();
    t.register("Bishops", ["erin", "frank"]).unwrap();
    t.start().unwrap();
    assert!(t.invitations().is_empty(), "an unanswered invitation lapses at the start");
    assert_eq!(t.set_registration_open(true), Err(TournamentError::AlreadyStarted));
    assert_eq!(t.invite("gina", "Queens", "hal", 0), Err(TournamentError::AlreadyStarted));
}

/// Check-in: only the teams checked in are paired; the others are the round's absent teams and
/// score nothing; check-ins start again after each round.
#[test]
fn only_the_teams_checked_in_are_paired() {
    let mut t = registered(Format::Swiss { rounds: 2 }, 5);
    assert_eq!(t.check_in_team(TeamNo(1)), Err(TournamentError::CheckInNotRequired));
    t.set_check_in(true);
    t.start().unwrap();
    assert_eq!(t.pair_next_round(0, 1), Err(TournamentError::TooFewTeams { active: 0 }));
    for team in [1, 2, 4, 5] {
        t.check_in_team(TeamNo(team)).unwrap();
    }
    t.check_in_team(TeamNo(4)).unwrap();
    assert_eq!(t.check_in_team(TeamNo(9)), Err(TournamentError::UnknownTeam(TeamNo(9))));
    assert_eq!(t.pair_next_round(0, 1), Ok(1));
    let r = t.round(1).unwrap();
    assert_eq!(appearances(r), [1, 2, 4, 5].map(TeamNo), "team 3 is not paired");
    assert_eq!(r.absent, [TeamNo(3)]);
    assert_eq!(r.byes().count(), 0, "four teams checked in: no bye");
    assert_eq!(t.checked_in().count(), 0, "check-ins start again");
    let (a, b) = {
        let (_, p) = r.pairing_of(TeamNo(1)).unwrap();
        (p.first.0, p.second.0)
    };
    score(&mut t, 1, a, b, ['W', 'W']);
    let other: Vec<u32> = [2, 4, 5].into_iter().filter(|&x| x != a && x != b).collect();
    score(&mut t, 1, other[0], other[1], ['D', 'D']);
    let row = t.standings().rows.into_iter().find(|r| r.team == TeamNo(3)).unwrap();
    assert_eq!(row.points, shvedka_tournament::Score::ZERO, "an absent team scores nothing");
    // Round 2: team 3 is back, team 5 withdraws; three teams: a bye.
    t.withdraw(TeamNo(5)).unwrap();
    assert_eq!(t.check_in_team(TeamNo(5)), Err(TournamentError::AlreadyWithdrawn(TeamNo(5))));
    for team in [1, 2, 3] {
        t.check_in_team(TeamNo(team)).unwrap();
    }
    assert_eq!(t.pair_next_round(0, 1), Ok(2));
    let r = t.round(2).unwrap();
    assert_eq!(appearances(r), [1, 2, 3].map(TeamNo));
    assert_eq!(r.absent, [TeamNo(4)], "team 4 did not check in for round 2");
    assert_eq!(t.check_in_team(TeamNo(1)), Err(TournamentError::NoRoundsLeft(2)));
}

/// A round robin that asks for check-in gives the scheduled opponent of an absent team the bye.
#[test]
fn in_a_round_robin_the_opponent_of_an_absent_team_has_the_bye() {
    let mut t = registered(Format::RoundRobin, 4);
    t.set_check_in(true);
    t.start().unwrap();
    for team in [1, 2, 3] {
        t.check_in_team(TeamNo(team)).unwrap();
    }
    t.pair_next_round(0, 1).unwrap();
    let r = t.round(1).unwrap();
    // Berger round 1 of four: 1–4, 2–3.
    assert_eq!(r.absent, [TeamNo(4)]);
    assert_eq!(r.byes().collect::<Vec<_>>(), [TeamNo(1)]);
    assert_eq!(r.pairings().count(), 1);
}

/// Without check-in nothing changes: every active team is paired and nobody is absent.
#[test]
fn without_check_in_every_active_team_is_paired() {
    let mut t = started(Format::Swiss { rounds: 1 }, 4);
    t.pair_next_round(0, 1).unwrap();
    assert!(t.round(1).unwrap().absent.is_empty());
    assert_eq!(appearances(t.round(1).unwrap()).len(), 4);
}
