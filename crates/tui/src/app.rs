//! The interface's state and what keys and server messages do to it. No IO: keys come in as
//! crossterm events, server messages as [`ServerMsg`]s, and requests go out as [`Action`]s, so
//! every behaviour can be tested without a terminal or a network.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use shvedka_client::{MatchModel, rules_seat, wire_board};
use shvedka_proto::{
    ChatScope, ClaimKind, EventView, MatchEvent, MatchId, MatchSummary, PhaseView, PlayerKind, RatingView,
    RematchView, ReplayReason, SeatId, SeekPool, SeekRequest, SeekView, ServerMsg, TdChoice,
};

use crate::Action;
use crate::entry::{Entry, Pick, read_entry};
use crate::i18n::{Lang, t};
use crate::review::Review;
use crate::speak;

/// How many lines the message pane keeps.
const LOG_LINES: usize = 200;

/// The quick messages of bughouse players, on F1–F8, sent to the partner. They travel as these
/// words (the web client and the bots send the same) and each reader sees them in his language
/// (`speak::quick`).
pub const QUICK: [&str; 8] = [
    "need a knight",
    "need a bishop",
    "need a rook",
    "need a queen",
    "need a pawn",
    "sit",
    "go",
    "don't trade",
];

/// Which screen is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The list of matches.
    Lobby,
    /// One match, seated or watching.
    Match,
    /// A decided match's record, stepped through (`/review N`).
    Review,
}

/// The state of the connection, as the player should know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Up.
    Connected,
    /// Lost; reconnecting (attempt number).
    Reconnecting(u32),
    /// The session ended on the server (logged out elsewhere, the password changed, the account
    /// disabled): it never resumes, so no reconnection is tried.
    Ended,
}

/// A line of the message pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogLine {
    /// Something that happened.
    Info(String),
    /// A refusal or a failure.
    Error(String),
    /// A chat message.
    Chat {
        /// Who wrote it.
        from: String,
        /// To whom.
        scope: ChatScope,
        /// What.
        text: String,
    },
}

/// The terminal client's state.
pub struct App {
    /// The player's name.
    pub name: String,
    /// The language the interface speaks.
    pub lang: Lang,
    /// `/help` is open over the main pane (Esc closes it).
    pub help: bool,
    /// How many lines the help is scrolled forward (PgDn, PgUp).
    pub help_at: usize,
    /// How many lines the message pane is scrolled back from its newest (PgUp, PgDn).
    pub log_back: usize,
    /// The screen shown.
    pub screen: Screen,
    /// The lobby list.
    pub lobby: Vec<MatchSummary>,
    /// The selected lobby row.
    pub selected: usize,
    /// The followed match.
    pub model: Option<MatchModel>,
    /// The input line.
    pub input: String,
    /// Removal choices waiting for a digit.
    pub picking: Option<Vec<Pick>>,
    /// The message pane, oldest first.
    pub log: VecDeque<LogLine>,
    /// The connection.
    pub link: Link,
    /// The server address connected to (one node of a cluster given several), when known.
    pub server: Option<std::net::SocketAddr>,
    /// The last measured round trip.
    pub rtt: Duration,
    /// Whether the player asked to leave.
    pub quit: bool,
    /// Since when it has been the player's turn (his thinking time, for lag credit).
    pub turn_since: Option<Instant>,
    /// `/resign` was typed once: the next command confirms it only if it is `/resign` again.
    pub resign_asked: bool,
    /// The decided match whose rematch offer the player should hear of (sent by the runner).
    pub rematch_listen: Option<MatchId>,
    /// The seek the player is in, and when the server described it.
    pub seek: Option<(SeekView, Instant)>,
    /// A partner's invitation to seek, not yet answered, and when it came.
    pub invitation: Option<(SeekView, Instant)>,
    /// The quick pools' time controls, on F1–F4 in the lobby.
    pub pools: Vec<String>,
    /// The server let the match go (`ResumeElsewhere`, said already): the connection's end that
    /// follows is the move to another node, not a fault.
    pub moving: bool,
    /// The record being reviewed (`Screen::Review`).
    pub review: Option<Review>,
}

/// The quick pools until the server has said which it has.
const QUICK_POOLS: [&str; 4] = ["1+0", "2+0", "3+0", "5+0"];

/// `m:ss` of a duration.
fn mmss(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

impl App {
    /// A fresh interface in the lobby, in English.
    pub fn new(name: &str) -> App {
        App::new_in(name, Lang::En)
    }

    /// A fresh interface in the lobby, speaking `lang`.
    pub fn new_in(name: &str, lang: Lang) -> App {
        App {
            name: name.to_owned(),
            lang,
            help: false,
            help_at: 0,
            log_back: 0,
            screen: Screen::Lobby,
            lobby: Vec::new(),
            selected: 0,
            model: None,
            input: String::new(),
            picking: None,
            log: VecDeque::new(),
            link: Link::Connected,
            server: None,
            rtt: Duration::ZERO,
            quit: false,
            turn_since: None,
            resign_asked: false,
            rematch_listen: None,
            seek: None,
            invitation: None,
            pools: QUICK_POOLS.map(String::from).to_vec(),
            moving: false,
            review: None,
        }
    }

    /// The seek the player is in now (a reply or the server's news).
    pub fn seeking(&mut self, view: SeekView, now: Instant) {
        if view.waiting {
            let text = t!(self.lang, "seek-started", clock = view.time_control.as_str());
            self.info(text);
        }
        self.seek = Some((view, now));
    }

    /// The quick pools the server has (the first four go on F1–F4).
    pub fn set_pools(&mut self, pools: &[SeekPool]) {
        let mut quick: Vec<String> = Vec::new();
        for p in pools.iter().filter(|p| p.quick) {
            if !quick.contains(&p.time_control) {
                quick.push(p.time_control.clone());
            }
        }
        if !quick.is_empty() {
            self.pools = quick;
        }
    }

    /// What the seek line says at `now`: the seek (waiting time, rating range), or a partner's
    /// invitation; `None` when there is neither.
    pub fn seek_line(&self, now: Instant) -> Option<String> {
        let lang = self.lang;
        let rated = |v: &SeekView| if v.rated { "yes" } else { "no" };
        if let Some((v, at)) = &self.seek {
            let elapsed = now.saturating_duration_since(*at);
            if !v.waiting {
                let left = Duration::from_millis(v.expires_in_ms.unwrap_or(0)).saturating_sub(elapsed);
                let partner = v.invited.clone().unwrap_or_else(|| t!(lang, "seek-your-partner"));
                return Some(t!(
                    lang,
                    "seek-waiting-partner",
                    partner = partner,
                    clock = v.time_control.as_str(),
                    rated = rated(v),
                    left = mmss(left)
                ));
            }
            let waited = Duration::from_millis(v.waited_ms) + elapsed;
            let reach = v
                .range
                .unwrap_or(v.reach + (u64::from(v.widening) * elapsed.as_millis() as u64 / 1000) as u32);
            return Some(if v.players.len() > 1 {
                t!(
                    lang,
                    "seek-seeking-together",
                    clock = v.time_control.as_str(),
                    rated = rated(v),
                    players = v.players.join(" & "),
                    waited = mmss(waited),
                    reach = reach
                )
            } else {
                t!(
                    lang,
                    "seek-seeking",
                    clock = v.time_control.as_str(),
                    rated = rated(v),
                    waited = mmss(waited),
                    reach = reach
                )
            });
        }
        self.invitation.as_ref().map(|(v, at)| {
            let left = Duration::from_millis(v.expires_in_ms.unwrap_or(0))
                .saturating_sub(now.saturating_duration_since(*at));
            let from = v.players.first().cloned().unwrap_or_else(|| t!(lang, "seek-a-player"));
            t!(
                lang,
                "seek-invited",
                from = from,
                clock = v.time_control.as_str(),
                rated = rated(v),
                left = mmss(left)
            )
        })
    }

    /// A seek in a quick pool: casual (rated is `/seek CLOCK rated`).
    fn quick_seek(&mut self, n: usize) -> Vec<Action> {
        if let Some((v, _)) = &self.seek {
            let text = t!(self.lang, "seek-already", clock = v.time_control.as_str());
            self.error(text);
            return Vec::new();
        }
        match self.pools.get(n) {
            Some(tc) => vec![Action::Seek(SeekRequest {
                time_control: tc.clone(),
                rules: "mgimo-2017".into(),
                rated: false,
                range: None,
                partner: None,
            })],
            None => Vec::new(),
        }
    }

    fn cancel_seek(&mut self) -> Vec<Action> {
        match &self.seek {
            Some((v, _)) => vec![Action::CancelSeek(v.seek)],
            None => {
                self.error(t!(self.lang, "seek-none"));
                Vec::new()
            }
        }
    }

    /// Adds a line to the message pane.
    pub fn push(&mut self, line: LogLine) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Adds an information line.
    pub fn info(&mut self, text: impl Into<String>) {
        self.push(LogLine::Info(text.into()));
    }

    /// Adds an error line.
    pub fn error(&mut self, text: impl Into<String>) {
        self.push(LogLine::Error(text.into()));
    }

    /// The connection ended (`why`, the client library's words): reconnecting. When the server
    /// said why beforehand (the match moves to another node), that is all the player reads; else
    /// the loss is said in his language.
    pub fn disconnected(&mut self, why: &str) {
        if !std::mem::take(&mut self.moving) {
            self.error(t!(self.lang, "connection-lost", detail = why));
        }
        self.link = Link::Reconnecting(1);
    }

    /// Says how a rematch offer stands: who accepted, who declined, the new match.
    pub fn rematch(&mut self, view: &RematchView) {
        let lang = self.lang;
        let named = |flags: &[bool; 4]| {
            view.players
                .iter()
                .zip(view.kinds)
                .zip(flags)
                .filter(|(_, f)| **f)
                .map(|((n, k), _)| speak::marked(lang, n, Some(k)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let text = if let Some(id) = view.rematch {
            t!(lang, "rematch-made", id = id.0)
        } else if view.declined.iter().any(|&d| d) {
            t!(
                lang,
                "rematch-declined",
                id = view.match_id.0,
                n = view.declined.iter().filter(|d| **d).count(),
                names = named(&view.declined)
            )
        } else {
            // Who accepted, and what is left for this player to do (nothing once he accepted).
            let mine =
                self.model.as_ref().filter(|m| m.state().match_id == view.match_id).and_then(|m| m.my_seat());
            let next = if mine.is_some_and(|seat| view.accepted[seat.index()]) {
                t!(lang, "rematch-wait-others")
            } else {
                t!(lang, "rematch-how")
            };
            let count = view.accepted.iter().filter(|&&a| a).count() as u32;
            let who = if count == 0 {
                t!(lang, "rematch-nobody")
            } else {
                t!(lang, "rematch-accepted", n = count, names = named(&view.accepted))
            };
            t!(lang, "rematch-status", id = view.match_id.0, who = who, next = next)
        };
        self.info(text);
    }

    /// A new lobby list.
    pub fn set_lobby(&mut self, matches: Vec<MatchSummary>) {
        self.lobby = matches;
        self.selected = self.selected.min(self.lobby.len().saturating_sub(1));
    }

    /// Takes a message the server pushed.
    pub fn on_server(&mut self, msg: ServerMsg, now: Instant) {
        let lang = self.lang;
        let result_before = self.model.as_ref().and_then(|m| m.result().cloned());
        let decided_before = result_before.is_some();
        if let Err(e) = MatchModel::follow(&mut self.model, &msg, now, self.rtt) {
            self.error(t!(lang, "match-cannot-show", detail = e.to_string()));
        }
        match msg {
            ServerMsg::State(state) if self.model.is_some() => {
                self.screen = Screen::Match;
                // A server's bot that could not sit again after a restart, and why.
                for b in &state.bots_missing {
                    let seat = speak::seat_of(lang, b.seat);
                    self.info(match b.reason {
                        shvedka_proto::BotTrouble::MaxBots => t!(lang, "bot-missing-max-bots", seat = seat),
                        shvedka_proto::BotTrouble::Failed => t!(lang, "bot-missing-failed", seat = seat),
                    });
                }
                // K6: a match waiting after a restart says for how long at most.
                if let Some(by) = state.restart_by_us {
                    let wait = Duration::from_micros(by.saturating_sub(state.server_time_us));
                    self.info(t!(lang, "restart-wait", time = mmss(wait)));
                }
                // K5: a match stopped by a call says who called and why to whoever opens it.
                if let Some(call) = state.called
                    && let Some(line) =
                        self.event_line(&EventView::ArbiterCalled { seat: call.seat, replay: call.replay })
                {
                    self.info(line);
                }
            }
            ServerMsg::Event(MatchEvent { kind, .. }) => {
                if let Some(line) = self.event_line(&kind) {
                    self.info(line);
                }
                // A corrected result (A2) is told as the first one was.
                if let Some(now_decided) = self.model.as_ref().and_then(|m| m.result())
                    && decided_before
                    && result_before.as_ref() != Some(now_decided)
                {
                    let text = t!(lang, "match-result-corrected", result = speak::result(lang, now_decided));
                    self.info(text);
                }
                if !decided_before && let Some(result) = self.model.as_ref().and_then(|m| m.result()) {
                    let text = t!(lang, "match-over", result = speak::result(lang, result));
                    self.info(text);
                    if let Some(m) = self.model.as_ref() {
                        let text = t!(lang, "review-offer", id = m.id().0);
                        self.info(text);
                    }
                    if let Some(m) = self.model.as_ref().filter(|m| m.my_seat().is_some()) {
                        self.rematch_listen = Some(m.id());
                        self.info(t!(lang, "rematch-offer"));
                    }
                }
            }
            ServerMsg::Chat { from, kind, scope, text, .. } => {
                self.push(LogLine::Chat { from: speak::marked(lang, &from, Some(kind)), scope, text })
            }
            ServerMsg::SessionEnded { reason } => {
                self.link = Link::Ended;
                self.error(speak::session_end(lang, reason));
            }
            ServerMsg::Rematch(view) => self.rematch(&view),
            ServerMsg::SeekInvitation(view) => {
                let from = view.players.first().cloned().unwrap_or_else(|| t!(lang, "seek-a-player"));
                self.info(t!(lang, "seek-invitation", from = from, clock = view.time_control.as_str()));
                self.invitation = Some((view, now));
            }
            ServerMsg::Seek(view) => {
                self.info(t!(lang, "seek-partner-accepted", clock = view.time_control.as_str()));
                self.seeking(view, now);
            }
            ServerMsg::SeekEnded { seek, reason } => {
                if self.invitation.as_ref().is_some_and(|(v, _)| v.seek == seek) {
                    self.invitation = None;
                }
                if self.seek.as_ref().is_some_and(|(v, _)| v.seek == seek) {
                    self.seek = None;
                    self.info(speak::seek_end(lang, reason));
                }
            }
            ServerMsg::MatchFound { match_id, seat, rated, .. } => {
                self.seek = None;
                let rated = if rated { "yes" } else { "no" };
                let seat = speak::seat(lang, seat);
                self.info(t!(lang, "match-found", id = match_id.0, rated = rated, seat = seat));
            }
            ServerMsg::Rated { changes, .. } => {
                for c in &changes {
                    self.info(speak::rating_change(lang, c));
                }
            }
            ServerMsg::MatchClosed { match_id, reason } => {
                self.screen = Screen::Lobby;
                self.info(speak::closed(lang, match_id, reason));
            }
            ServerMsg::ResumeElsewhere { match_id, reason } => {
                // The client resumes on its next address once the connection ends.
                self.info(speak::elsewhere(lang, match_id, reason));
                self.moving = true;
            }
            _ => {}
        }
        let my_turn = self.model.as_ref().is_some_and(|m| m.my_seat().is_some_and(|s| m.to_move(s)));
        match (my_turn, self.turn_since) {
            (true, None) => self.turn_since = Some(now),
            (false, Some(_)) => self.turn_since = None,
            _ => {}
        }
    }

    /// The line the message pane shows for a match event, if any: who sits down or stands up
    /// (the server's bots filling a match included, so all its players learn of them), a call to
    /// the arbiter and his acts, the clocks stopped and restarted by the server, a declined draw.
    /// Moves, clocks and the result show on the boards.
    fn event_line(&self, kind: &EventView) -> Option<String> {
        let lang = self.lang;
        Some(match kind {
            EventView::SeatTaken { seat, name, kind: PlayerKind::Bot } => {
                t!(lang, "seat-taken-bot", name = name.as_str(), seat = speak::seat(lang, *seat))
            }
            EventView::SeatTaken { seat, name, kind } => t!(
                lang,
                "seat-taken",
                name = speak::marked(lang, name, Some(*kind)),
                seat = speak::seat(lang, *seat)
            ),
            EventView::SeatLeft { seat } => t!(lang, "seat-left", seat = speak::seat(lang, *seat)),
            EventView::ArbiterCalled { seat, replay: None } => {
                t!(lang, "arbiter-called", seat = speak::seat(lang, *seat))
            }
            EventView::ArbiterCalled { seat, replay: Some(why) } => t!(
                lang,
                "arbiter-called-replay",
                seat = speak::seat(lang, *seat),
                reason = speak::replay_reason(lang, *why)
            ),
            EventView::ArbiterActed { act, .. } => speak::arbiter_act(lang, act),
            // What older servers sent: words only, shown as they are.
            EventView::Arbiter { act } => t!(lang, "arbiter-words", text = act.as_str()),
            EventView::Paused { reason } => {
                t!(lang, "clocks-stopped", reason = speak::pause_reason(lang, *reason))
            }
            EventView::Resumed { .. } => t!(lang, "clocks-resumed"),
            EventView::DrawDeclined { seat } => {
                t!(lang, "draw-declined", seat = speak::seat(lang, *seat))
            }
            EventView::Ready { .. }
            | EventView::CountdownStarted { .. }
            | EventView::Started
            | EventView::Moved { .. }
            | EventView::DrawOffered { .. }
            | EventView::Claimed { .. }
            | EventView::Resigned { .. }
            | EventView::FlagFell { .. }
            | EventView::Ended(_) => return None,
        })
    }

    /// Shows a record to review, at its end.
    pub fn open_review(&mut self, review: Review) {
        self.help = false;
        self.review = Some(review);
        self.screen = Screen::Review;
    }

    /// A key on the review screen with an empty input line: ←/→ a move, ↑/↓ a step (acts too),
    /// Home/End the start and the end, Esc back to the lobby. Whether it was one of them.
    fn on_review_key(&mut self, code: KeyCode) -> bool {
        let Some(r) = self.review.as_mut() else { return false };
        match code {
            KeyCode::Right => r.next_move(),
            KeyCode::Left => r.previous_move(),
            KeyCode::Down => r.next_step(),
            KeyCode::Up => r.previous_step(),
            KeyCode::Home => r.start(),
            KeyCode::End => r.end(),
            KeyCode::Esc => {
                self.review = None;
                self.screen = if self.model.is_some() { Screen::Match } else { Screen::Lobby };
            }
            _ => return false,
        }
        true
    }

    /// Takes a key; returns the requests it makes.
    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Action> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char('c' | 'q')) {
            self.quit = true;
            return vec![Action::Quit];
        }
        if let Some(picks) = self.picking.take() {
            return self.on_pick_key(key, picks);
        }
        if self.screen == Screen::Review && self.input.is_empty() && self.on_review_key(key.code) {
            return Vec::new();
        }
        match key.code {
            KeyCode::Esc if self.help => {
                self.help = false;
                Vec::new()
            }
            KeyCode::PageDown if self.help => {
                self.help_at += 5;
                Vec::new()
            }
            KeyCode::PageUp if self.help => {
                self.help_at = self.help_at.saturating_sub(5);
                Vec::new()
            }
            // The messages: PgUp goes back to older ones, PgDn forward to the newest.
            KeyCode::PageUp => {
                self.log_back = (self.log_back + 5).min(self.log.len().saturating_sub(1));
                Vec::new()
            }
            KeyCode::PageDown => {
                self.log_back = self.log_back.saturating_sub(5);
                Vec::new()
            }
            KeyCode::F(n @ 1..=4) if self.screen == Screen::Lobby => self.quick_seek(usize::from(n) - 1),
            KeyCode::F(n @ 1..=8) if self.screen == Screen::Match => {
                vec![Action::Chat(ChatScope::Team, QUICK[usize::from(n) - 1].to_owned())]
            }
            KeyCode::Esc => {
                self.input.clear();
                Vec::new()
            }
            KeyCode::Backspace => {
                self.input.pop();
                Vec::new()
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.input);
                self.submit(text.trim())
            }
            KeyCode::Up if self.screen == Screen::Lobby => {
                self.selected = self.selected.saturating_sub(1);
                Vec::new()
            }
            KeyCode::Down if self.screen == Screen::Lobby => {
                self.selected = (self.selected + 1).min(self.lobby.len().saturating_sub(1));
                Vec::new()
            }
            KeyCode::Char(c) if self.screen == Screen::Lobby && self.input.is_empty() => self.lobby_key(c),
            KeyCode::Char(c) => {
                if self.input.chars().count() < 200 {
                    self.input.push(c);
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn on_pick_key(&mut self, key: KeyEvent, picks: Vec<Pick>) -> Vec<Action> {
        let chosen = match key.code {
            KeyCode::Char(c) => c.to_digit(10).and_then(|d| picks.get((d as usize).checked_sub(1)?)).cloned(),
            KeyCode::Esc => {
                self.info(t!(self.lang, "promotion-cancelled"));
                return Vec::new();
            }
            _ => None,
        };
        match (chosen, self.my_board()) {
            (Some(pick), Some(board)) => vec![Action::Play { board, text: pick.text }],
            (None, _) => {
                self.picking = Some(picks);
                Vec::new()
            }
            (Some(_), None) => Vec::new(),
        }
    }

    /// Hot keys of the lobby (when the input line is empty).
    fn lobby_key(&mut self, c: char) -> Vec<Action> {
        let selected = self.lobby.get(self.selected).map(|m| m.match_id);
        match (c, selected) {
            ('q', _) => {
                self.quit = true;
                vec![Action::Quit]
            }
            ('r', _) => vec![Action::Refresh],
            ('c', _) => {
                self.input = "/create mgimo-2017 3+0".to_owned();
                Vec::new()
            }
            ('x', _) => self.cancel_seek(),
            ('w', Some(id)) => vec![Action::Watch(id)],
            ('1'..='4', Some(id)) => {
                let seat = SeatId::ALL[c as usize - '1' as usize];
                vec![Action::TakeSeat(id, seat)]
            }
            _ => {
                self.input.push(c);
                Vec::new()
            }
        }
    }

    fn my_board(&self) -> Option<shvedka_proto::Board> {
        let seat = self.model.as_ref()?.my_seat()?;
        Some(wire_board(rules_seat(seat).board))
    }

    /// Runs a line typed on the input line.
    fn submit(&mut self, text: &str) -> Vec<Action> {
        if let Some(command) = text.strip_prefix('/') {
            return self.command(command);
        }
        if self.screen == Screen::Lobby {
            return match self.lobby.get(self.selected) {
                Some(m) if text.is_empty() => vec![Action::Watch(m.match_id)],
                _ if text.is_empty() => Vec::new(),
                _ => {
                    self.error(t!(self.lang, "unknown-input", text = text));
                    Vec::new()
                }
            };
        }
        let Some(model) = &self.model else { return Vec::new() };
        let Some(seat) = model.my_seat() else {
            if !text.is_empty() {
                self.error(t!(self.lang, "watching-cannot-move"));
            }
            return Vec::new();
        };
        // A move typed at a decided match: it is over (the server no longer runs it, and would
        // answer only that this session follows no match).
        if !text.is_empty() && matches!(model.phase(), PhaseView::Ended | PhaseView::Annulled) {
            self.error(t!(self.lang, "match-over-already"));
            return Vec::new();
        }
        if text.is_empty() {
            return if model.phase() == PhaseView::Forming {
                vec![Action::Ready(!model.state().ready[seat.index()])]
            } else {
                Vec::new()
            };
        }
        let board = rules_seat(seat).board;
        match read_entry(model.game(), board, text) {
            Entry::Send(text) => vec![Action::Play { board: wire_board(board), text }],
            Entry::Pick(picks) => {
                let lang = self.lang;
                self.info(t!(lang, "promotion-which"));
                for (i, p) in picks.iter().enumerate() {
                    let piece = speak::piece(lang, p.role);
                    self.info(t!(
                        lang,
                        "promotion-choice",
                        n = i + 1,
                        piece = piece,
                        square = p.square.to_string()
                    ));
                }
                self.picking = Some(picks);
                Vec::new()
            }
        }
    }

    fn command(&mut self, command: &str) -> Vec<Action> {
        let lang = self.lang;
        self.help = false;
        let (verb, rest) = command.split_once(' ').unwrap_or((command, ""));
        let rest = rest.trim();
        let team = |text: &str| vec![Action::Chat(ChatScope::Team, text.to_owned())];
        let confirmed = std::mem::take(&mut self.resign_asked) && verb == "resign";
        match verb {
            "create" => {
                // `/create [RULES] [CLOCK] [960] [rated]`: the words `960` and `rated` (anywhere)
                // ask for Chess960 and a rated match.
                let flag = |word: &str| rest.split_whitespace().any(|w| w == word);
                let (chess960, rated) = (flag("960"), flag("rated"));
                let mut words = rest.split_whitespace().filter(|w| *w != "960" && *w != "rated");
                let rules = words.next().unwrap_or("mgimo-2017").to_owned();
                let time_control = words.next().unwrap_or("3+0").to_owned();
                vec![Action::Create { rules, time_control, chess960, rated }]
            }
            "bots" => {
                // `/bots [LEVEL]`: the followed match, or in the lobby the selected one.
                let level = if rest.is_empty() { Ok(2) } else { rest.parse::<u8>() };
                let target = match (&self.model, self.screen) {
                    (Some(m), Screen::Match) => Some(m.id()),
                    _ => self.lobby.get(self.selected).map(|m| m.match_id),
                };
                match (level, target) {
                    (Ok(level @ 1..=5), Some(id)) => vec![Action::FillWithBots(id, level)],
                    (Ok(1..=5), None) => {
                        self.error(t!(lang, "bots-which-match"));
                        Vec::new()
                    }
                    _ => {
                        self.error(t!(lang, "bots-which-level"));
                        Vec::new()
                    }
                }
            }
            "refresh" => vec![Action::Refresh],
            "ready" => vec![Action::Ready(true)],
            "unready" => vec![Action::Ready(false)],
            "leave" => vec![Action::LeaveSeat],
            "draw" => vec![Action::OfferDraw],
            "decline" => vec![Action::DeclineDraw],
            // A decided match is not resigned: said at once, not asked twice for a refusal.
            "resign"
                if self
                    .model
                    .as_ref()
                    .is_some_and(|m| matches!(m.phase(), PhaseView::Ended | PhaseView::Annulled)) =>
            {
                self.error(t!(lang, "match-over-already"));
                Vec::new()
            }
            // Resigning loses the match for the team too: it is asked twice, as in the web client.
            "resign" if confirmed => vec![Action::Resign],
            "resign" => {
                self.resign_asked = true;
                self.info(t!(lang, "resign-confirm"));
                Vec::new()
            }
            // `/arbiter` calls the arbiter; `/arbiter setup|hint|other` asks him for a replay (A5, A6).
            "arbiter" => match rest {
                "" => vec![Action::CallArbiter(None)],
                "setup" => vec![Action::CallArbiter(Some(ReplayReason::WrongSetup))],
                "hint" => vec![Action::CallArbiter(Some(ReplayReason::OutsideHint))],
                "other" | "replay" => vec![Action::CallArbiter(Some(ReplayReason::Other))],
                _ => {
                    self.error(t!(lang, "arbiter-why"));
                    Vec::new()
                }
            },
            // `/rematch` (or `/norematch`) after the match one played is over.
            "rematch" | "norematch" => match &self.model {
                Some(m) if m.result().is_some() || m.phase() == PhaseView::Annulled => {
                    vec![Action::Rematch(m.id(), verb == "rematch")]
                }
                _ => {
                    self.error(t!(lang, "rematch-not-yet"));
                    Vec::new()
                }
            },
            "claim" => match rest {
                "" | "rep" | "repetition" => vec![Action::Claim(ClaimKind::Repetition)],
                "50" | "fifty" => vec![Action::Claim(ClaimKind::FiftyMoves)],
                other => match other.strip_prefix("flag").map(str::trim).and_then(SeatId::from_name) {
                    Some(seat) => vec![Action::Claim(ClaimKind::Flag(seat))],
                    None => {
                        self.error(t!(lang, "claim-what"));
                        Vec::new()
                    }
                },
            },
            "t" | "team" if !rest.is_empty() => team(rest),
            "say" | "all" if !rest.is_empty() => vec![Action::Chat(ChatScope::Match, rest.to_owned())],
            "need" => match rest.chars().next().map(|c| c.to_ascii_lowercase()) {
                Some('n') => team(QUICK[0]),
                Some('b') => team(QUICK[1]),
                Some('r') => team(QUICK[2]),
                Some('q') => team(QUICK[3]),
                Some('p') => team(QUICK[4]),
                _ => {
                    self.error(t!(lang, "need-what"));
                    Vec::new()
                }
            },
            "sit" => team(QUICK[5]),
            "go" => team(QUICK[6]),
            "notrade" => team(QUICK[7]),
            "choose" => match parse_choose(rest) {
                Some((tournament, round, game, choice)) => {
                    vec![Action::Choose { tournament, round, game, choice }]
                }
                None => {
                    self.error(t!(lang, "choose-what"));
                    Vec::new()
                }
            },
            "mygame" => match rest.parse() {
                Ok(t) => vec![Action::MyGame(t)],
                Err(_) => {
                    self.error(t!(lang, "mygame-which"));
                    Vec::new()
                }
            },
            "top" => {
                vec![Action::Leaderboard(if rest.is_empty() { "blitz".into() } else { rest.to_owned() })]
            }
            "profile" => {
                vec![Action::Profile(if rest.is_empty() { self.name.clone() } else { rest.to_owned() })]
            }
            // `/seek [CLOCK] [rated] [with NAME]`: a seek of one's own (a partner invited).
            "seek" => {
                let mut words = rest.split_whitespace().peekable();
                let mut request = SeekRequest {
                    time_control: "3+0".into(),
                    rules: "mgimo-2017".into(),
                    rated: false,
                    range: None,
                    partner: None,
                };
                while let Some(w) = words.next() {
                    match w {
                        "rated" => request.rated = true,
                        "with" => request.partner = words.next().map(str::to_owned),
                        "classic" | "mgimo-2017" => request.rules = w.to_owned(),
                        tc => request.time_control = tc.to_owned(),
                    }
                }
                vec![Action::Seek(request)]
            }
            // Play again with the partner of the match just over: he is invited on its terms.
            "partner" => match &self.model {
                Some(m) if m.result().is_some() && m.my_seat().is_some() => {
                    let me = m.my_seat().expect("guarded");
                    let partner = SeatId::ALL
                        .into_iter()
                        .find(|s| s.team() == me.team() && *s != me)
                        .and_then(|s| m.state().seats[s.index()].clone());
                    match partner {
                        Some(partner) => vec![Action::Seek(SeekRequest {
                            time_control: m.state().time_control.clone(),
                            rules: m.state().rules.clone(),
                            rated: m.state().rated,
                            range: None,
                            partner: Some(partner),
                        })],
                        None => Vec::new(),
                    }
                }
                _ => {
                    self.error(t!(lang, "partner-not-yet"));
                    Vec::new()
                }
            },
            "cancel" => self.cancel_seek(),
            "accept" | "refuse" => match self.invitation.take() {
                Some((v, _)) => vec![Action::AnswerSeek(v.seek, verb == "accept")],
                None => {
                    self.error(t!(lang, "invitation-none"));
                    Vec::new()
                }
            },
            "lobby" => {
                self.screen = Screen::Lobby;
                vec![Action::Refresh]
            }
            "review" => {
                // `/review N`, or the followed match (or in the lobby the selected one).
                let target = match rest.parse::<u64>() {
                    Ok(n) => Some(MatchId(n)),
                    Err(_) if rest.is_empty() => match (&self.model, self.screen) {
                        (Some(m), Screen::Match) => Some(m.id()),
                        _ => self.lobby.get(self.selected).map(|m| m.match_id),
                    },
                    Err(_) => None,
                };
                match target {
                    Some(id) => vec![Action::Review(id)],
                    None => {
                        self.error(t!(lang, "review-which-match"));
                        Vec::new()
                    }
                }
            }
            "quit" => {
                self.quit = true;
                vec![Action::Quit]
            }
            "help" => {
                self.help = true;
                self.help_at = 0;
                Vec::new()
            }
            // `/lang ru`, `/lang en`: the interface speaks it from now on, and it is remembered.
            "lang" | "language" | "язык" => match Lang::from_code(rest) {
                Some(chosen) => {
                    self.lang = chosen;
                    self.info(t!(chosen, "lang-set"));
                    vec![Action::Language(chosen)]
                }
                None => {
                    self.error(t!(lang, "lang-what"));
                    Vec::new()
                }
            },
            _ => {
                self.error(t!(lang, "unknown-command", verb = verb));
                Vec::new()
            }
        }
    }
}

/// `/choose T R G straight|crossed|white-a|white-b` (RULES.md S3).
fn parse_choose(rest: &str) -> Option<(u64, u32, u32, TdChoice)> {
    let mut w = rest.split_whitespace();
    let (t, r, g) = (w.next()?.parse().ok()?, w.next()?.parse().ok()?, w.next()?.parse().ok()?);
    let choice = match w.next()? {
        "straight" => TdChoice::Straight,
        "crossed" => TdChoice::Crossed,
        "white-a" => TdChoice::WhiteOnA,
        "white-b" => TdChoice::WhiteOnB,
        _ => return None,
    };
    w.next().is_none().then_some((t, r, g, choice))
}

/// What `/help` shows, line by line, in `lang`.
pub fn help_lines(lang: Lang) -> Vec<String> {
    vec![
        t!(lang, "help-moves"),
        t!(lang, "help-pieces"),
        t!(lang, "help-match"),
        t!(lang, "help-resign"),
        t!(lang, "help-rematch"),
        t!(lang, "help-keys"),
        t!(lang, "help-lobby"),
        t!(lang, "help-create"),
        t!(lang, "help-bots"),
        t!(lang, "help-ratings"),
        t!(lang, "help-review"),
        t!(lang, "help-seek-quick"),
        t!(lang, "help-seek"),
        t!(lang, "help-tournaments"),
        t!(lang, "help-lang"),
        t!(lang, "help-scroll"),
    ]
}

/// A rating as a line shows it: `1687` or `1500?` while provisional.
pub(crate) fn rating_text(r: &RatingView) -> String {
    format!("{}{}", r.rating, if r.provisional { "?" } else { "" })
}
