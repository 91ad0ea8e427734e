//! One team match of `shvedka bench-strength`, played in-process through the match machine
//! (`bughouse-match`) on virtual time, without a network.
//!
//! Why virtual time: the benchmark measures play at an equal time per move, not the machine's
//! load. Each player's turn lasts exactly the time per move on the match's clock: the move is
//! chosen when the turn is up (with the reserves as they are then), while the chooser searches
//! that long in real time. The two boards' turns interleave by their virtual instants, as on a real
//! server. A player with no legal move waits (M2, M3), his clock running, until a move on the other
//! board may have brought him material; when both boards wait, time jumps to the next flag. The
//! machine decides the end exactly as online: mate on board, a flag (K4 `auto`), fivefold
//! repetition or the 75-move rule.

use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use bughouse::{Adjudication, BoardId, RuleOptions, Seat};
use bughouse_match::{Command, Match, MatchConfig, Phase, PlayerId, TimeControl};
use shvedka_bot::{Budget, Chooser};

/// How a match went.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    /// The result.
    pub(crate) result: Adjudication,
    /// Moves played on both boards.
    pub(crate) moves: u32,
    /// Virtual time from the start to the end.
    pub(crate) length: Duration,
}

fn player(seat: Seat) -> PlayerId {
    PlayerId(seat.index() as u64 + 1)
}

/// Plays one match of the classic preset, `choosers` in the order of [`Seat::ALL`], each turn
/// lasting `per_move`, each clock starting at `base` without increment. The choosers are given back
/// in their slots.
///
/// # Errors
/// A chooser that failed, or a move the match refused (a bug: choosers give legal moves).
pub(crate) async fn play(
    choosers: &mut [Option<Chooser>; 4],
    per_move: Duration,
    base: Duration,
) -> anyhow::Result<Played> {
    let config = MatchConfig::new(RuleOptions::classic(), TimeControl::fischer(base, Duration::ZERO));
    let mut m = Match::new(config).map_err(|e| anyhow!("{e}"))?;
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::TakeSeat(seat))
            .map_err(|r| anyhow!("{seat} cannot sit: {r:?}"))?;
    }
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::Ready(true))
            .map_err(|r| anyhow!("{seat} cannot say ready: {r:?}"))?;
    }
    let start = m.poll_timeout().context("the countdown did not start")?;
    m.handle_timeout(start);
    if *m.phase() != Phase::Running {
        bail!("the match did not start: {:?}", m.phase());
    }
    // Each clock pays per_move a move and has no increment: no seat moves more than this often.
    let cap = 4 * (base.as_nanos() / per_move.as_nanos().max(1)) as u32 + 16;
    // When each board's side to move answers; `None` while it waits for material.
    let mut due: [Option<Duration>; 2] = [Some(start + per_move); 2];
    let mut moves = 0u32;
    while m.result().is_none() {
        if moves > cap {
            bail!("{moves} moves: more than the clocks allow");
        }
        let next = BoardId::ALL.into_iter().filter_map(|b| due[b.index()].map(|t| (t, b))).min();
        let Some((at, board)) = next else {
            // Both boards wait: their clocks run to the next flag.
            let flag = m.poll_timeout().context("both boards wait and no clock runs")?;
            m.handle_timeout(flag);
            continue;
        };
        m.handle_timeout(at);
        if m.result().is_some() {
            break;
        }
        let seat = m.game().to_move(board);
        let chooser = choosers[seat.index()].take().context("a chooser was lost")?;
        let (chooser, choice) = chooser.choose(*m.game(), board, Budget::PerMove(per_move)).await?;
        choosers[seat.index()] = Some(chooser);
        let Some(choice) = choice else {
            due[board.index()] = None;
            continue;
        };
        let text = m.game().uci(&choice.mv);
        match m.handle_command(at, player(seat), Command::Move { mv: choice.mv, client_time: Some(per_move) })
        {
            Ok(()) => {
                moves += 1;
                due[board.index()] = Some(at + per_move);
                // A move may have sent material to the other board: a waiting player looks again.
                let other = board.other().index();
                due[other] = due[other].or(Some(at + per_move));
            }
            // The match over, or a flag that fell on this very turn: the machine settles it.
            Err(_) if m.result().is_some() || m.fallen_flags()[seat.index()] => due[board.index()] = None,
            Err(r) => bail!("{seat}'s move {text} was refused: {r:?}"),
        }
    }
    let result = m.result().context("the match ended without a result")?;
    Ok(Played { result, moves, length: m.now().saturating_sub(start) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn e1_e7_a_match_of_own_searches_on_virtual_time_ends_with_a_result() {
        let mut choosers = [(); 4].map(|_| Some(Chooser::search(1)));
        let per_move = Duration::from_millis(2);
        let played = play(&mut choosers, per_move, per_move * 60).await.expect("played");
        assert!(played.moves > 0, "{played:?}");
        // Each turn lasts the time per move: the match is at least as long as the moves on one board.
        assert!(played.length >= per_move * (played.moves / 2), "{played:?}");
        assert!(choosers.iter().all(Option::is_some), "every chooser is given back");
        assert!(
            ["E1", "E4", "E5", "E6", "E7", "E8"].contains(&played.result.reason.rule()),
            "{:?}",
            played.result
        );
    }
}
