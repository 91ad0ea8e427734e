//! Online matches and results of games.

use crate::{GameRef, GameResult, Tournament, TournamentError};

impl Tournament {
    /// Links the online match playing a game; from then on the game has started and its choices
    /// are closed. Linking again (a match re-created after a failure) replaces the id.
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`], [`TournamentError::UnknownTable`],
    /// [`TournamentError::Bye`], [`TournamentError::UnknownGame`],
    /// [`TournamentError::ChoicesPending`] until both choices are known,
    /// [`TournamentError::AlreadyDecided`].
    pub fn set_match(
        &mut self,
        round: u32,
        table: u32,
        game: u32,
        match_id: u64,
    ) -> Result<(), TournamentError> {
        let at = GameRef { round, table, game };
        let g = self.undecided_game(at)?;
        if g.seats.is_none() {
            return Err(TournamentError::ChoicesPending(at));
        }
        g.match_id = Some(match_id);
        Ok(())
    }

    /// Records the result of a game: an over-the-board result entered by the director, an
    /// online result from the server, or a forfeit. Choices need not be complete (a team that did
    /// not turn up forfeits before choosing).
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`], [`TournamentError::UnknownTable`],
    /// [`TournamentError::Bye`], [`TournamentError::UnknownGame`],
    /// [`TournamentError::AlreadyDecided`] (use [`Tournament::correct_result`]).
    pub fn record_result(
        &mut self,
        round: u32,
        table: u32,
        game: u32,
        result: GameResult,
    ) -> Result<(), TournamentError> {
        self.undecided_game(GameRef { round, table, game })?.result = Some(result);
        Ok(())
    }

    /// The director's correction of a recorded result (forfeits included). Standings follow,
    /// since they are always computed from the results; pairings already made stay.
    ///
    /// # Errors
    /// As [`Tournament::record_result`], with [`TournamentError::NotDecided`] for a game that
    /// has no result yet.
    pub fn correct_result(
        &mut self,
        round: u32,
        table: u32,
        game: u32,
        result: GameResult,
    ) -> Result<(), TournamentError> {
        let at = GameRef { round, table, game };
        let g = self.game_at(at)?;
        if g.result.is_none() {
            return Err(TournamentError::NotDecided(at));
        }
        g.result = Some(result);
        Ok(())
    }

    /// Clears a result the director entered by mistake: the game is undecided again (standings
    /// follow). Only a game not played online — its match's result is the game's and is
    /// corrected instead — and, for game 1, only while game 2 has not started.
    ///
    /// # Errors
    /// As [`Tournament::correct_result`], with [`TournamentError::PlayedOnline`] and
    /// [`TournamentError::GameTwoStarted`].
    pub fn clear_result(&mut self, round: u32, table: u32, game: u32) -> Result<(), TournamentError> {
        let at = GameRef { round, table, game };
        if game == 1 && self.pairing_mut(round, table)?.game_mut(2).is_some_and(|g| g.is_started()) {
            return Err(TournamentError::GameTwoStarted(at));
        }
        let g = self.game_at(at)?;
        if g.result.is_none() {
            return Err(TournamentError::NotDecided(at));
        }
        if g.match_id.is_some() {
            return Err(TournamentError::PlayedOnline(at));
        }
        g.result = None;
        Ok(())
    }

    fn game_at(&mut self, at: GameRef) -> Result<&mut crate::Game, TournamentError> {
        self.pairing_mut(at.round, at.table)?.game_mut(at.game).ok_or(TournamentError::UnknownGame(at.game))
    }

    /// A game that has no result yet.
    fn undecided_game(&mut self, at: GameRef) -> Result<&mut crate::Game, TournamentError> {
        let g = self.game_at(at)?;
        if g.result.is_some() {
            return Err(TournamentError::AlreadyDecided(at));
        }
        Ok(g)
    }
}
