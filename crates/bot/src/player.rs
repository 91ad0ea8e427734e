//! One bot in one match: follow the match, search on its turn and take a human's time over the
//! move (`pace.rs`), ask the partner for pieces while it waits, answer draw offers, claim fallen
//! flags when the rules want them claimed, and resume after a lost connection.
//!
//! What chooses the move is a [`Chooser`] (`chooser.rs`): the own search, or a UCI engine; the
//! rest of the loop is the same for both.
//!
//! Each turn of the loop: 0. once the match is known, check the chooser plays its rules; 1.
//! answer a draw offer it has not answered; 2. if it is the bot's turn and no search runs, start
//! one (its answer held until the think time is up); 3. wait for a server update, the search's
//! answer or the chat timer; 4. apply it.

use std::time::{Duration, Instant};

use bughouse::DrawAgreement;
use bughouse::{FlagMode, Game};
use chess_core::Role;
use shvedka_client::{Client, ClientError, MatchModel, Update, rules_seat, wire_board};
use shvedka_engine::Choice;
use shvedka_proto::{ChatScope, ClaimKind, ErrorCode, MatchId, PhaseView, ResultView, SeatId, ServerMsg};
use tokio::task::JoinHandle;

use crate::BotError;
use crate::chooser::{Budget, ChooseError, Chooser};
use crate::pace::{DEFAULT_PACE, Situation, think_time};

/// How a bot behaves.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// Search level, 1 (fast, weak) to 5.
    pub level: u8,
    /// Whether it asks its partner for pieces in team chat.
    pub chat: bool,
    /// The least time it takes per move; above it the bot takes a human's time, drawn from its
    /// clock and the position ([`crate::think_time`]). Zero plays as fast as the search (tests,
    /// benchmarks).
    pub pace: Duration,
}

impl Default for BotConfig {
    fn default() -> BotConfig {
        BotConfig { level: 3, chat: true, pace: DEFAULT_PACE }
    }
}

/// How the match ended for a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The match.
    pub match_id: MatchId,
    /// The bot's seat.
    pub seat: SeatId,
    /// The result (`None` if the match was annulled, or was over before the bot could look).
    pub result: Option<ResultView>,
    /// Moves the bot played.
    pub moves: u32,
    /// Team chat messages it sent.
    pub asked: u32,
    /// Draw offers it answered (accepted or declined).
    pub draws_answered: u32,
    /// Moves its own search played because its UCI engine could not (always 0 without one).
    pub fallbacks: u32,
}

/// The least time before the bot asks again for the piece it asked for last (another piece it
/// asks for at once): a partner told once has heard it.
const ASK_AGAIN: Duration = Duration::from_secs(30);

/// A draw offer is accepted when the bot's last search scored its own board at least this many
/// centipawns against it; otherwise it plays on.
const ACCEPT_DRAW_BELOW: i32 = -300;

/// How long a bot waits after the server said it sends too many requests: a few tokens of the
/// server's bucket (20 a second by default).
const SLOW_DOWN: Duration = Duration::from_millis(250);

/// How many times a rate-limited request is tried again before the bot gives up on it.
const SLOW_DOWN_TRIES: u32 = 40;

fn rate_limited(e: &ClientError) -> bool {
    matches!(e, ClientError::Server(m) if m.code == ErrorCode::RateLimited)
}

/// Sends a request again, after [`SLOW_DOWN`], for as long as the server says it is rate-limited:
/// a bot that plays fast must not lose its tournament to its own haste.
pub(crate) async fn patiently<T, F>(mut request: impl FnMut() -> F) -> Result<T, ClientError>
where
    F: Future<Output = Result<T, ClientError>>,
{
    let mut tries = 0;
    loop {
        match request().await {
            Err(e) if rate_limited(&e) && tries < SLOW_DOWN_TRIES => {
                tries += 1;
                tokio::time::sleep(SLOW_DOWN).await;
            }
            other => return other,
        }
    }
}

/// A search in progress (its answer held until the think time is up): the position it started
/// from, and when.
struct Thinking {
    task: JoinHandle<Result<(Chooser, Option<Choice>), ChooseError>>,
    position: String,
    started: Instant,
}

/// Sits in `seat` of `match_id`, says ready and plays the match to its end.
///
/// # Errors
/// [`BotError`] when the seat cannot be taken or the connection cannot be resumed.
pub async fn play_match(
    client: &mut Client,
    match_id: MatchId,
    seat: SeatId,
    config: &BotConfig,
) -> Result<Outcome, BotError> {
    play_match_with(client, match_id, seat, config, Chooser::search(config.level)).await
}

/// [`play_match`] with the moves chosen by `chooser` (a UCI engine, say) instead of the own search
/// at `config.level`.
///
/// # Errors
/// [`BotError`] as [`play_match`]; [`BotError::Rules`] when the chooser cannot play the match's
/// rules (the bot then leaves the seat).
pub async fn play_match_with(
    client: &mut Client,
    match_id: MatchId,
    seat: SeatId,
    config: &BotConfig,
    chooser: Chooser,
) -> Result<Outcome, BotError> {
    // Shown as a bot wherever its name is; refused only once the session follows a match, where
    // what it said before stands.
    let _ = client.declare_bot().await;
    patiently(|| client.take_seat(match_id, seat)).await.map_err(|e| BotError::Seat(e.to_string()))?;
    patiently(|| client.ready(true)).await.map_err(|e| BotError::Seat(e.to_string()))?;
    play_seated_with(client, match_id, seat, config, chooser).await
}

/// Plays the match to its end from `seat`, where the session sits already (the server seated it:
/// a match found by seeking, a rematch), following the match from its state on.
///
/// # Errors
/// [`BotError`] when the connection cannot be resumed.
pub async fn play_seated(
    client: &mut Client,
    match_id: MatchId,
    seat: SeatId,
    config: &BotConfig,
) -> Result<Outcome, BotError> {
    play_seated_with(client, match_id, seat, config, Chooser::search(config.level)).await
}

/// [`play_seated`] with the moves chosen by `chooser`.
///
/// # Errors
/// [`BotError`] as [`play_match_with`].
pub async fn play_seated_with(
    client: &mut Client,
    match_id: MatchId,
    seat: SeatId,
    config: &BotConfig,
    chooser: Chooser,
) -> Result<Outcome, BotError> {
    let mut engine = Some(chooser);
    let mut checked = false;
    let mut model: Option<MatchModel> = None;
    let mut thinking: Option<Thinking> = None;
    let mut outcome =
        Outcome { match_id, seat, result: None, moves: 0, asked: 0, draws_answered: 0, fallbacks: 0 };
    let mut last_ask: Option<(Instant, Role)> = None;
    let mut ask_timer = tokio::time::interval(Duration::from_secs(1));
    let mut waiting_at: Option<String> = None;
    let mut last_score: Option<i32> = None;
    let mut answered_offer: Option<SeatId> = None;
    loop {
        if let Some(m) = &model
            && matches!(m.phase(), PhaseView::Ended | PhaseView::Annulled)
        {
            if let Some(t) = thinking.take() {
                t.task.abort();
            }
            outcome.result = m.result().cloned();
            return Ok(outcome);
        }
        // 0. Once the match is known: does the chooser play its rules?
        if !checked && let (Some(m), Some(e)) = (&model, engine.as_mut()) {
            checked = true;
            if let Err(why) = e.accepts(m.game()) {
                let _ = client.leave_seat().await;
                return Err(BotError::Rules(why.to_string()));
            }
            e.new_game().await;
        }
        // 1. Answer a standing draw offer once.
        if let Some(m) = &model {
            let offer = m.draw_offer().filter(|&s| may_answer(m, seat, s));
            if offer.is_some() && offer != answered_offer {
                let accept = last_score.is_some_and(|s| s <= ACCEPT_DRAW_BELOW);
                let answer = if accept { client.offer_draw().await } else { client.decline_draw().await };
                match answer {
                    Ok(()) => outcome.draws_answered += 1,
                    Err(e) => tracing::debug!(%seat, "draw answer not taken: {e}"),
                }
            }
            answered_offer = offer;
        }
        // 2. Start a search when it is our turn.
        if thinking.is_none()
            && let Some(m) = &model
            && m.to_move(seat)
            && waiting_at.as_deref() != Some(m.game().bfen().as_str())
            && let Some(e) = engine.take()
        {
            waiting_at = None;
            thinking = Some(start_search(e, m, seat, config.pace));
        }
        // 3. Wait for something to happen.
        tokio::select! {
            update = client.next_update() => match update {
                Some(Update::Server(msg)) => on_message(client, &mut model, msg, seat).await,
                Some(Update::Disconnected(why)) => {
                    tracing::info!(%seat, "connection lost ({why}); resuming");
                    resume(client).await?;
                }
                None => return Err(BotError::Connection("the update stream ended".into())),
            },
            joined = async { (&mut thinking.as_mut().expect("guarded").task).await }, if thinking.is_some() => {
                let t = thinking.take().expect("guarded");
                let (e, choice) = joined
                    .map_err(|e| ChooseError(e.to_string()))
                    .and_then(|inner| inner)
                    .map_err(|e| BotError::Connection(e.to_string()))?;
                outcome.fallbacks = e.fallbacks();
                engine = Some(e);
                last_score = choice.map(|c| c.score).or(last_score);
                let Some(m) = &model else { continue };
                // The position may have moved on while we thought (a drop piece arrived is fine;
                // a different board position is not).
                let board = rules_seat(seat).board;
                if !m.to_move(seat) || board_fen(m.game(), board) != t.position {
                    continue;
                }
                let Some(choice) = choice else {
                    // Waiting (M2): search again only when the board or a reserve changes, and
                    // ask the partner at once for what would help.
                    waiting_at = Some(m.game().bfen());
                    ask_timer.reset_immediately();
                    continue;
                };
                let text = m.game().uci(&choice.mv);
                match client.play(wire_board(board), &text, Some(t.started.elapsed())).await {
                    Ok(()) => {
                        outcome.moves += 1;
                        // Do not search again before the server has told the new position.
                        wait_for_move_event(client, &mut model, seat).await?;
                    }
                    // Too fast for the server: wait a little before searching again.
                    Err(e) if rate_limited(&e) => tokio::time::sleep(SLOW_DOWN).await,
                    Err(ClientError::Server(e)) => tracing::debug!(%seat, "move {text} refused: {}", e.message),
                    Err(e) => tracing::info!(%seat, "move {text} not sent: {e}"),
                }
            }
            _ = ask_timer.tick(), if config.chat && thinking.is_none() => {
                if let (Some(m), Some(e)) = (&model, engine.as_mut())
                    && let Some(role) = want(e, m, seat)
                    && last_ask.is_none_or(|(at, r)| r != role || at.elapsed() > ASK_AGAIN)
                {
                    let text = format!("need a {}", role.name());
                    if client.chat(ChatScope::Team, &text).await.is_ok() {
                        outcome.asked += 1;
                        last_ask = Some((Instant::now(), role));
                    }
                }
            }
        }
    }
}

/// The piece the bot would like from its partner while it waits, if any.
fn want(engine: &mut Chooser, model: &MatchModel, seat: SeatId) -> Option<Role> {
    if model.phase() != PhaseView::Running {
        return None;
    }
    engine.wish(model.game(), rules_seat(seat))
}

/// Whether the bot in `seat` may answer the draw offer of `offerer` (E3: the opponent on its board,
/// or under `both_boards` anyone else).
fn may_answer(model: &MatchModel, seat: SeatId, offerer: SeatId) -> bool {
    match model.game().rules().draw_agreement {
        DrawAgreement::OneBoard => rules_seat(offerer) == rules_seat(seat).opponent(),
        DrawAgreement::BothBoards => offerer != seat,
    }
}

fn board_fen(game: &Game, board: bughouse::BoardId) -> String {
    let bfen = game.bfen();
    let part = bfen.split(" | ").nth(board.index()).unwrap_or_default();
    // The placement, side to move and rights, without the reserves (which change while we think).
    match (part.find('['), part.find(']')) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &part[..a], &part[b + 1..]),
        _ => part.to_owned(),
    }
}

fn start_search(chooser: Chooser, model: &MatchModel, seat: SeatId, pace: Duration) -> Thinking {
    let game = *model.game();
    let board = rules_seat(seat).board;
    let clocks = model.clocks(Instant::now());
    let remaining = clocks[seat.index()];
    let opponent = clocks[rules_seat(seat).opponent().index()];
    let increment = increment(&model.state().time_control);
    let budget = Budget::Clock { own: remaining, opponent, increment };
    let position = game.bfen();
    let think = think_time(
        pace,
        Situation {
            remaining,
            increment,
            legal: game.legal_moves(board).len(),
            in_check: game.board(board).is_check(),
            position: &position,
        },
    );
    let started = Instant::now();
    let until = tokio::time::Instant::now() + think;
    // The search thread (or the engine's process) is freed as soon as it answers; the wait is a
    // timer.
    let task = tokio::spawn(async move {
        let answer = chooser.choose(game, board, budget).await;
        tokio::time::sleep_until(until).await;
        answer
    });
    Thinking { task, position: board_fen(&game, board), started }
}

/// The increment (or delay) of a time control written `3+2`, `5+d3`, `30s+0` or `10s+100ms`
/// (zero for one that does not parse: the clock alone then sets the pace).
pub fn increment(time_control: &str) -> Duration {
    time_control.parse::<bughouse_match::TimeControl>().map_or(Duration::ZERO, |tc| tc.bonus_time())
}

async fn on_message(client: &Client, model: &mut Option<MatchModel>, msg: ServerMsg, seat: SeatId) {
    if let Err(e) = MatchModel::follow(model, &msg, Instant::now(), Duration::ZERO) {
        tracing::warn!(%seat, "cannot follow the match: {e}");
    }
    if let (ServerMsg::Event(event), Some(m)) = (&msg, model.as_ref())
        && let shvedka_proto::EventView::FlagFell { seat: fallen } = event.kind
        && m.game().rules().flag == FlagMode::Claim
        && fallen.team() != seat.team()
    {
        let _ = client.claim(ClaimKind::Flag(fallen)).await;
    }
}

/// Waits until the server has told the bot's own move (or anything that ends its turn), applying
/// every update on the way.
async fn wait_for_move_event(
    client: &mut Client,
    model: &mut Option<MatchModel>,
    seat: SeatId,
) -> Result<(), BotError> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    while model.as_ref().is_some_and(|m| m.to_move(seat)) {
        match tokio::time::timeout_at(deadline, client.next_update()).await {
            Ok(Some(Update::Server(msg))) => {
                let before = model.as_ref().map(|m| m.moves().len());
                on_message(client, model, msg, seat).await;
                if model.as_ref().map(|m| m.moves().len()) != before {
                    return Ok(());
                }
            }
            Ok(Some(Update::Disconnected(_))) => return resume(client).await,
            Ok(None) => return Err(BotError::Connection("the update stream ended".into())),
            // The move was refused or lost: search again.
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

pub(crate) async fn resume(client: &mut Client) -> Result<(), BotError> {
    let mut last = String::new();
    for attempt in 0..20u32 {
        tokio::time::sleep(Duration::from_millis(200 * u64::from(attempt.min(5)))).await;
        match client.resume().await {
            Ok(()) => {
                tracing::info!(server = %client.server(), "session resumed");
                return Ok(());
            }
            Err(e) => last = e.to_string(),
        }
    }
    Err(BotError::Connection(format!("cannot resume the session: {last}")))
}

/// Plays every game the tournament assigns to this session's player (by name), one after the
/// other, until the tournament is over or nothing has been assigned for `idle`.
///
/// # Errors
/// [`BotError`] as [`play_match`].
pub async fn play_tournament(
    client: &mut Client,
    tournament: u64,
    config: &BotConfig,
    idle: Duration,
) -> Result<Vec<Outcome>, BotError> {
    let _ = client.declare_bot().await;
    let mut played = Vec::new();
    let mut waiting_since = Instant::now();
    loop {
        let (game, finished) = patiently(|| client.assignment(tournament))
            .await
            .map_err(|e| BotError::Connection(e.to_string()))?;
        match game {
            Some((m, seat)) if !played.iter().any(|o: &Outcome| o.match_id == m) => {
                played.push(play_match(client, m, seat, config).await?);
                waiting_since = Instant::now();
            }
            _ if finished || waiting_since.elapsed() > idle => return Ok(played),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// K2: every way of writing a bonus gives the bot its time.
    #[test]
    fn k2_an_increment_or_delay_is_read_in_any_unit() {
        assert_eq!(increment("3+2"), Duration::from_secs(2));
        assert_eq!(increment("5+d3"), Duration::from_secs(3));
        assert_eq!(increment("30s+0"), Duration::ZERO);
        assert_eq!(increment("10s+100ms"), Duration::from_millis(100));
        assert_eq!(increment("1+0.5"), Duration::from_millis(500));
        assert_eq!(increment("nonsense"), Duration::ZERO);
    }
}
