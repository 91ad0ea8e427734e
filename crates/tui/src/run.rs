//! The loop that drives the interface: keys from a reader thread, updates from the server, a
//! redraw ten times a second for the clocks, the lobby refreshed, the round trip measured, and a
//! lost connection resumed by itself.
//!
//! Each turn: 1. draw; 2. wait for the first of a key, a server update, a tick, a lobby refresh,
//! a ping or a reconnect attempt; 3. apply it to the [`App`] and perform the requests it made.

use std::io;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event};
use shvedka_client::{CONNECT_TIMEOUT, Client, ClientError, Update};
use shvedka_proto::{MatchId, Reply, ResultView};
use tokio::sync::mpsc;
use tokio::time::{MissedTickBehavior, interval};

use crate::app::{App, Link, Screen};
use crate::i18n::{Lang, t};
use crate::prefs::{Settings, write_choice};
use crate::review::{Review, ReviewError};
use crate::{Action, speak, view};

/// How the interface is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A player: lobby, seats, moves, chat.
    Play,
    /// A spectator of one match, leaving by itself a moment after the match ends.
    Spectate(MatchId),
}

/// Runs the full-screen interface on the terminal until the player quits (or, spectating, the
/// match ends), speaking the language of `settings` (and remembering one chosen with `/lang`
/// where `settings` says). Returns the result of the followed match, if it ended, and the
/// language spoken last.
///
/// # Errors
/// Terminal errors.
pub async fn run(
    mut client: Client,
    name: &str,
    mode: Mode,
    settings: Settings,
) -> io::Result<(Option<ResultView>, Lang)> {
    let mut terminal = ratatui::try_init()?;
    let outcome = drive(&mut terminal, &mut client, name, mode, &settings).await;
    ratatui::try_restore()?;
    client.close().await;
    outcome
}

async fn drive(
    terminal: &mut ratatui::DefaultTerminal,
    client: &mut Client,
    name: &str,
    mode: Mode,
    settings: &Settings,
) -> io::Result<(Option<ResultView>, Lang)> {
    let mut app = App::new_in(name, settings.lang);
    app.server = Some(client.server());
    let mut keys = key_reader();
    let mut tick = every(Duration::from_millis(100));
    let mut lobby = every(Duration::from_secs(2));
    let mut ping = every(Duration::from_secs(5));
    let mut reconnect_at: Option<tokio::time::Instant> = None;
    let mut ended_at: Option<Instant> = None;
    match mode {
        Mode::Play => {
            app.info(t!(app.lang, "welcome"));
            perform(client, &mut app, settings, Action::SeekPools).await;
        }
        Mode::Spectate(id) => perform(client, &mut app, settings, Action::Watch(id)).await,
    }
    loop {
        terminal.draw(|f| view::render(f, &app, Instant::now()))?;
        if app.quit {
            break;
        }
        if let Mode::Spectate(_) = mode {
            match (ended_at, app.model.as_ref().and_then(|m| m.result())) {
                (None, Some(_)) => ended_at = Some(Instant::now()),
                (Some(t), _) if t.elapsed() > Duration::from_secs(2) => break,
                _ => {}
            }
        }
        tokio::select! {
            key = keys.recv() => match key {
                Some(Event::Key(key)) => {
                    for action in app.on_key(key) {
                        perform(client, &mut app, settings, action).await;
                    }
                }
                Some(_) => {}
                None => break,
            },
            update = client.next_update() => match update {
                Some(Update::Server(msg)) => {
                    app.on_server(msg, Instant::now());
                    if let Some(id) = app.rematch_listen.take() {
                        // Hear of the others' answers to the rematch from now on.
                        match client.rematch(id, None).await {
                            Ok(view) => app.rematch(&view),
                            Err(e) => app.error(refusal(app.lang, &e)),
                        }
                    }
                }
                // The server ended the session and said why: nothing to resume.
                Some(Update::Disconnected(_)) if app.link == Link::Ended => {}
                Some(Update::Disconnected(why)) => {
                    app.disconnected(&why);
                    reconnect_at = Some(tokio::time::Instant::now());
                }
                None => break,
            },
            _ = tick.tick() => {}
            _ = lobby.tick(), if app.screen == Screen::Lobby && app.link == Link::Connected => {
                perform(client, &mut app, settings, Action::Refresh).await;
            }
            _ = ping.tick(), if app.link == Link::Connected => {
                if let Ok(rtt) = client.ping().await {
                    app.rtt = rtt;
                }
            }
            _ = sleep_until(reconnect_at), if reconnect_at.is_some() => {
                reconnect_at = None;
                let Link::Reconnecting(attempt) = app.link else { continue };
                terminal.draw(|f| view::render(f, &app, Instant::now()))?;
                // Each node of a list gets its own bounded try; one address is given 5 s.
                let nodes = u32::try_from(client.servers().len()).unwrap_or(u32::MAX);
                let limit = Duration::from_secs(5).max(CONNECT_TIMEOUT.saturating_mul(nodes) + Duration::from_secs(1));
                match tokio::time::timeout(limit, client.resume()).await {
                    Ok(Ok(())) => {
                        app.link = Link::Connected;
                        app.server = Some(client.server());
                        if client.servers().len() > 1 {
                            app.info(t!(app.lang, "reconnected-to", server = client.server().to_string()));
                        } else {
                            app.info(t!(app.lang, "reconnected"));
                        }
                        // A seek ends with its connection.
                        if app.seek.take().is_some() {
                            app.info(t!(app.lang, "seek-ended-connection"));
                        }
                        app.invitation = None;
                    }
                    Ok(Err(e)) => {
                        app.error(t!(app.lang, "reconnect-failed", detail = speak::client_error(app.lang, &e)));
                        retry(&mut app, &mut reconnect_at, attempt);
                    }
                    Err(_) => retry(&mut app, &mut reconnect_at, attempt),
                }
            }
        }
    }
    Ok((app.model.as_ref().and_then(|m| m.result().cloned()), app.lang))
}

fn retry(app: &mut App, reconnect_at: &mut Option<tokio::time::Instant>, attempt: u32) {
    app.link = Link::Reconnecting(attempt + 1);
    let wait = Duration::from_millis(500 * u64::from(attempt.min(6)));
    *reconnect_at = Some(tokio::time::Instant::now() + wait);
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Reads terminal events on a thread of its own; it stops when the receiver is gone.
fn key_reader() -> mpsc::Receiver<Event> {
    let (tx, rx) = mpsc::channel(64);
    std::thread::spawn(move || {
        while !tx.is_closed() {
            match event::poll(Duration::from_millis(100)) {
                Ok(true) => match event::read() {
                    Ok(ev) => {
                        if tx.blocking_send(ev).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                },
                Ok(false) => {}
                Err(_) => return,
            }
        }
    });
    rx
}

/// Sends one request and shows what came of it.
async fn perform(client: &Client, app: &mut App, settings: &Settings, action: Action) {
    let lang = app.lang;
    if let Action::Language(chosen) = action {
        if let Some(path) = &settings.store
            && let Err(e) = write_choice(path, chosen)
        {
            app.error(t!(lang, "lang-not-saved", path = path.display().to_string(), detail = e.to_string()));
        }
        return;
    }
    if app.link != Link::Connected && action != Action::Quit {
        app.error(t!(lang, "not-connected"));
        return;
    }
    let asked = action.clone();
    let result: Result<(), ClientError> = match action {
        Action::Quit | Action::Language(_) => Ok(()),
        Action::Refresh => client.list_matches().await.map(|m| app.set_lobby(m)),
        Action::Create { rules, time_control, chess960, rated } => {
            match client
                .request(shvedka_proto::ClientMsg::CreateMatch {
                    rules,
                    time_control,
                    listed: true,
                    chess960,
                    rated,
                })
                .await
            {
                Ok(Reply::Created { match_id }) => {
                    app.info(t!(lang, "match-created", id = match_id.0));
                    if let Ok(list) = client.list_matches().await {
                        app.selected = list.iter().position(|m| m.match_id == match_id).unwrap_or(0);
                        app.set_lobby(list);
                    }
                    Ok(())
                }
                Ok(_) => Ok(()),
                Err(e) => Err(e),
            }
        }
        Action::Seek(request) => client.seek(request).await.map(|view| app.seeking(view, Instant::now())),
        Action::AnswerSeek(seek, true) => {
            client.accept_seek(seek).await.map(|view| app.seeking(view, Instant::now()))
        }
        Action::AnswerSeek(seek, false) => client.decline_seek(seek).await,
        Action::CancelSeek(seek) => client.cancel_seek(seek).await.map(|()| {
            app.seek = None;
            app.info(t!(lang, "seek-cancelled"));
        }),
        Action::SeekPools => client.seek_pools().await.map(|pools| app.set_pools(&pools)),
        Action::Watch(id) => client.watch(id).await,
        Action::TakeSeat(id, seat) => client.take_seat(id, seat).await,
        Action::LeaveSeat => client.leave_seat().await,
        Action::FillWithBots(match_id, level) => client
            .request(shvedka_proto::ClientMsg::FillWithBots { match_id, level })
            .await
            .map(|_| app.info(t!(lang, "bots-coming", level = level, id = match_id.0))),
        Action::Ready(ready) => client.ready(ready).await,
        Action::Rematch(id, accept) => client.rematch(id, Some(accept)).await.map(|v| app.rematch(&v)),
        Action::Play { board, text } => client.play(board, &text, app.turn_since.map(|t| t.elapsed())).await,
        Action::OfferDraw => client.offer_draw().await,
        Action::DeclineDraw => client.decline_draw().await,
        Action::Claim(kind) => client.claim(kind).await,
        Action::Resign => client.resign().await,
        Action::CallArbiter(replay) => client.call_arbiter(replay).await,
        Action::Chat(scope, text) => client.chat(scope, &text).await,
        Action::Choose { tournament, round, game, choice } => {
            client.choose(tournament, round, game, choice).await.map(|()| app.info(t!(lang, "choice-taken")))
        }
        Action::Leaderboard(category) => client.leaderboard(&category).await.map(|rows| {
            let name = speak::category(lang, &category);
            app.info(t!(lang, "leaderboard-title", category = name, n = rows.len()));
            for r in rows.iter().take(20) {
                let games = t!(lang, "games-count", n = r.rating.games);
                app.info(format!("{:>3}. {:<20} {:>5}  ({games})", r.rank, r.name, r.rating.rating));
            }
        }),
        Action::Review(id) => client.record(id).await.map(|text| match Review::from_bpgn(id, &text) {
            Ok(review) => app.open_review(review),
            Err(why) => app.error(review_error(lang, id, &why)),
        }),
        Action::Profile(name) => client.profile(&name).await.map(|p| {
            app.info(t!(
                lang,
                "profile-summary",
                name = p.name.as_str(),
                categories = p.categories.len(),
                recent = p.recent.len()
            ));
            for c in &p.categories {
                let last: Vec<String> =
                    c.history.iter().take(5).map(|h| format!("{:+}", h.after - h.before)).collect();
                app.info(t!(
                    lang,
                    "profile-category",
                    category = speak::category(lang, &c.rating.category),
                    rating = crate::app::rating_text(&c.rating),
                    deviation = c.rating.deviation,
                    games = c.rating.games,
                    last = last.join(" ")
                ));
                for partner in &c.partners {
                    app.info(t!(
                        lang,
                        "profile-partner",
                        name = partner.name.as_str(),
                        rating = crate::app::rating_text(&partner.rating),
                        games = partner.rating.games
                    ));
                }
            }
            // The recent matches, newest first, with their results (as /help promises).
            for r in p.recent.iter().take(10) {
                let [wa, ba, wb, bb] = &r.players;
                let result = match &r.result {
                    Some(view) => speak::result(lang, view),
                    None => speak::phase(lang, shvedka_proto::PhaseView::Annulled),
                };
                app.info(t!(
                    lang,
                    "profile-recent",
                    id = r.match_id.0,
                    rules = r.rules.as_str(),
                    clock = r.time_control.as_str(),
                    team1 = format!("{wa}, {bb}"),
                    team2 = format!("{ba}, {wb}"),
                    result = result
                ));
            }
        }),
        Action::MyGame(t) => match client.assignment(t).await {
            Ok((Some((m, seat)), _)) => client.take_seat(m, seat).await,
            Ok((None, finished)) => {
                app.info(if finished {
                    t!(lang, "tournament-over", id = t)
                } else {
                    t!(lang, "tournament-no-game")
                });
                Ok(())
            }
            Err(e) => Err(e),
        },
    };
    if let Err(e) = result {
        app.error(speak::refused(lang, &asked, &e));
    }
}

/// A refusal as the player reads it, in `lang`: rendered from the server's code and rule
/// (`speak::client_error`).
pub fn refusal(lang: Lang, e: &ClientError) -> String {
    speak::client_error(lang, e)
}

/// A timer of the loop that skips the ticks it missed. The lobby's refresh is only listened to
/// while the lobby shows: with tokio's default (a burst of every missed tick) a player back from
/// a ten-minute match got three hundred refreshes at once, and "too many requests" nine times.
fn every(period: Duration) -> tokio::time::Interval {
    let mut timer = interval(period);
    timer.set_missed_tick_behavior(MissedTickBehavior::Skip);
    timer
}

/// Why a match's record cannot be reviewed, in the reader's words.
fn review_error(lang: Lang, id: MatchId, why: &ReviewError) -> String {
    match why {
        ReviewError::Unreadable(detail) => t!(lang, "review-unreadable", id = id.0, detail = detail.as_str()),
        ReviewError::NoGame => t!(lang, "review-no-game", id = id.0),
        ReviewError::Unplayable(detail) => t!(lang, "review-unplayable", id = id.0, detail = detail.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Back in the lobby after a long match, the refresh comes once, not once per missed tick.
    #[tokio::test(start_paused = true)]
    async fn a_timer_not_listened_to_for_a_while_ticks_once_then_keeps_its_period() {
        let mut lobby = every(Duration::from_secs(2));
        lobby.tick().await;
        // Ten minutes in a match: nobody listens to the lobby's timer.
        tokio::time::advance(Duration::from_secs(600)).await;
        lobby.tick().await;
        let again = tokio::time::timeout(Duration::from_millis(1_900), lobby.tick()).await;
        assert!(again.is_err(), "a second refresh came at once: the missed ticks came in a burst");
    }
}
