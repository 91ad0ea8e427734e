//! The S3 choices of each game: who makes them, until when, and the defaults.

use crate::game::seats;
use crate::{
    ColourChoice, Fixture, GameRef, Pairing, PlayerRef, SeatingChoice, TeamNo, Tournament, TournamentError,
};

/// One of the two choices of a game.
#[derive(Clone, Copy)]
enum Choice {
    Seating(SeatingChoice),
    Colours(ColourChoice),
}

impl Choice {
    fn name(self) -> &'static str {
        match self {
            Choice::Seating(_) => "seating",
            Choice::Colours(_) => "colours",
        }
    }
}

impl Tournament {
    /// The seating team of a game (the first-named team in game 1, the other in game 2, S3)
    /// chooses which of its players faces which opponent. Once both choices are in, the game's
    /// seats are known.
    ///
    /// # Errors
    /// [`TournamentError::UnknownTeam`], [`TournamentError::UnknownRound`],
    /// [`TournamentError::NotPaired`] (a bye, or not in the draw), [`TournamentError::UnknownGame`],
    /// [`TournamentError::NotYourChoice`] for the colour team, [`TournamentError::GameStarted`],
    /// [`TournamentError::DeadlinePassed`] when `now_ms` has reached the deadline,
    /// [`TournamentError::AlreadyChosen`].
    pub fn choose_seating(
        &mut self,
        now_ms: u64,
        round: u32,
        team: TeamNo,
        game: u32,
        choice: SeatingChoice,
    ) -> Result<(), TournamentError> {
        self.choose(now_ms, round, team, game, Choice::Seating(choice))
    }

    /// The colour team of a game (the second-named team in game 1, the first-named in game 2,
    /// S3) chooses on which board it plays White.
    ///
    /// # Errors
    /// As [`Tournament::choose_seating`], with `NotYourChoice` for the seating team.
    pub fn choose_colours(
        &mut self,
        now_ms: u64,
        round: u32,
        team: TeamNo,
        game: u32,
        choice: ColourChoice,
    ) -> Result<(), TournamentError> {
        self.choose(now_ms, round, team, game, Choice::Colours(choice))
    }

    fn choose(
        &mut self,
        now_ms: u64,
        round: u32,
        team: TeamNo,
        game: u32,
        choice: Choice,
    ) -> Result<(), TournamentError> {
        self.team(team).ok_or(TournamentError::UnknownTeam(team))?;
        let r = self.round(round).ok_or(TournamentError::UnknownRound(round))?;
        let (table, pairing) = r.pairing_of(team).ok_or(TournamentError::NotPaired { round, team })?;
        let at = GameRef { round, table, game };
        let chooser = match choice {
            Choice::Seating(_) => pairing.seating_team(game),
            Choice::Colours(_) => pairing.colour_team(game),
        };
        if chooser.ok_or(TournamentError::UnknownGame(game))? != team {
            return Err(TournamentError::NotYourChoice { team, choice: choice.name(), game: at });
        }
        let g = pairing.game(game).ok_or(TournamentError::UnknownGame(game))?;
        if g.is_started() {
            return Err(TournamentError::GameStarted(at));
        }
        if now_ms >= g.choices_due_ms {
            return Err(TournamentError::DeadlinePassed { game: at, due_ms: g.choices_due_ms, now_ms });
        }
        let made = match choice {
            Choice::Seating(_) => g.seating.is_some(),
            Choice::Colours(_) => g.colours.is_some(),
        };
        if made {
            return Err(TournamentError::AlreadyChosen { choice: choice.name(), game: at });
        }
        let pairing = self.pairing_mut(round, table)?;
        let (seating_team, colour_team) = (pairing.seating_team(game), pairing.colour_team(game));
        let g = pairing.game_mut(game).ok_or(TournamentError::UnknownGame(game))?;
        match choice {
            Choice::Seating(c) => g.seating = Some(c),
            Choice::Colours(c) => g.colours = Some(c),
        }
        if let (Some(s), Some(c)) = (seating_team, colour_team) {
            g.derive_seats(s, c);
        }
        Ok(())
    }

    /// Fills every choice still missing in a game whose deadline has passed (`now_ms` at or after
    /// it) and that has not started, with the defaults — seating [`SeatingChoice::Straight`],
    /// colours [`ColourChoice::WhiteOnA`] (the crate docs say why) — so
    /// the game is ready. Returns the games it touched.
    pub fn apply_defaults(&mut self, now_ms: u64) -> Vec<GameRef> {
        self.defaults(now_ms, false)
    }

    /// As [`Tournament::apply_defaults`] for games played online, where game 2 is played after
    /// game 1 and its choices are made after it: game 2's are not filled while game 1 has no
    /// result (its window opens with that result, [`Tournament::open_game_two`]).
    pub fn apply_defaults_in_play(&mut self, now_ms: u64) -> Vec<GameRef> {
        self.defaults(now_ms, true)
    }

    /// Gives game 2 of a pairing its own window for its choices, the round's
    /// [`crate::Round::choice_window_ms`] from `now_ms` (game 1's result, online), unless its
    /// deadline is later already. `false` when nothing moved: the window is later, game 2 has
    /// started, or its seats are known.
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`], [`TournamentError::UnknownTable`],
    /// [`TournamentError::Bye`].
    pub fn open_game_two(&mut self, round: u32, table: u32, now_ms: u64) -> Result<bool, TournamentError> {
        let window = self.round(round).ok_or(TournamentError::UnknownRound(round))?.choice_window_ms;
        let Some(g) = self.pairing_mut(round, table)?.game_mut(2) else { return Ok(false) };
        let due = now_ms.saturating_add(window);
        if g.is_started() || g.seats.is_some() || g.choices_due_ms >= due {
            return Ok(false);
        }
        g.choices_due_ms = due;
        Ok(true)
    }

    fn defaults(&mut self, now_ms: u64, game_two_after_game_one: bool) -> Vec<GameRef> {
        let mut touched = Vec::new();
        for round in &mut self.rounds {
            for (table, fixture) in (1..).zip(&mut round.fixtures) {
                let Fixture::Pairing(pairing) = fixture else { continue };
                let (first, second) = (pairing.first, pairing.second);
                let game_one_decided = pairing.games.first().is_some_and(|g| g.result.is_some());
                for (game, g) in (1..).zip(&mut pairing.games) {
                    if (game_two_after_game_one && game == 2 && !game_one_decided)
                        || g.is_started()
                        || now_ms < g.choices_due_ms
                        || (g.seating.is_some() && g.colours.is_some())
                    {
                        continue;
                    }
                    g.seating_defaulted |= g.seating.is_none();
                    g.colours_defaulted |= g.colours.is_none();
                    g.seating.get_or_insert(SeatingChoice::Straight);
                    g.colours.get_or_insert(ColourChoice::WhiteOnA);
                    let (seating_team, colour_team) =
                        if game == 1 { (first, second) } else { (second, first) };
                    g.derive_seats(seating_team, colour_team);
                    touched.push(GameRef { round: round.number, table, game });
                }
            }
        }
        touched
    }

    /// The four seats of a game (White-A, Black-A, White-B, Black-B) once both choices are known;
    /// `None` while a choice is pending, and for an unknown round, table or game or a bye.
    pub fn game_seats(&self, round: u32, table: u32, game: u32) -> Option<[PlayerRef; 4]> {
        let pairing = self.pairing_at(round, table).ok()?;
        let g = pairing.game(game)?;
        Some(seats(pairing.seating_team(game)?, pairing.colour_team(game)?, g.seating?, g.colours?))
    }

    /// Moves the deadline of a game's choices, e.g. to give game 2 its own window once game 1
    /// has ended. A deadline that has passed may be reopened as long as the game has not started.
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`], [`TournamentError::UnknownTable`],
    /// [`TournamentError::Bye`], [`TournamentError::UnknownGame`],
    /// [`TournamentError::GameStarted`].
    pub fn set_choices_due(
        &mut self,
        round: u32,
        table: u32,
        game: u32,
        due_ms: u64,
    ) -> Result<(), TournamentError> {
        let at = GameRef { round, table, game };
        let g = self.pairing_mut(round, table)?.game_mut(game).ok_or(TournamentError::UnknownGame(game))?;
        if g.is_started() {
            return Err(TournamentError::GameStarted(at));
        }
        g.choices_due_ms = due_ms;
        Ok(())
    }

    /// The pairing at a table.
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`], [`TournamentError::UnknownTable`],
    /// [`TournamentError::Bye`].
    pub fn pairing_at(&self, round: u32, table: u32) -> Result<&Pairing, TournamentError> {
        let r = self.round(round).ok_or(TournamentError::UnknownRound(round))?;
        match r.fixture(table) {
            None => Err(TournamentError::UnknownTable { round, table }),
            Some(Fixture::Bye(_)) => Err(TournamentError::Bye { round, table }),
            Some(Fixture::Pairing(p)) => Ok(p),
        }
    }

    pub(crate) fn pairing_mut(&mut self, round: u32, table: u32) -> Result<&mut Pairing, TournamentError> {
        let r = self.round_mut(round).ok_or(TournamentError::UnknownRound(round))?;
        let index = usize::try_from(table).ok().and_then(|t| t.checked_sub(1));
        match index.and_then(|i| r.fixtures.get_mut(i)) {
            None => Err(TournamentError::UnknownTable { round, table }),
            Some(Fixture::Bye(_)) => Err(TournamentError::Bye { round, table }),
            Some(Fixture::Pairing(p)) => Ok(p),
        }
    }
}

impl Pairing {
    pub(crate) fn game_mut(&mut self, game: u32) -> Option<&mut crate::Game> {
        self.games.get_mut(usize::try_from(game).ok()?.checked_sub(1)?)
    }
}
