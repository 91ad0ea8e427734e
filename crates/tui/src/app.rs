//! The interface's state and what keys and server messages do to it. No IO: keys come in as
//! crossterm events, server messages as [`ServerMsg`]s, and requests go out as [`Action`]s, so
//! every behaviour can be tested without a terminal or a network.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use shvedka_client::{MatchModel, rules_seat, wire_board};
use shvedka_proto::{
    ChatScope, ClaimKind, ClosedReason, EventView, MatchEvent, MatchId, MatchSummary, PauseReason, PhaseView,
    RatingChange, RatingView, RematchView, SeatId, SeekEnd, SeekPool, SeekRequest, SeekView, ServerMsg,
    SessionEnd, TdChoice,
};

use crate::Action;
use crate::entry::{Entry, Pick, read_entry};

/// How many lines the message pane keeps.
const LOG_LINES: usize = 200;

/// The quick messages of bughouse players, on F1–F8, sent to the partner.
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
}

/// The quick pools until the server has said which it has.
const QUICK_POOLS: [&str; 4] = ["1+0", "2+0", "3+0", "5+0"];

/// `m:ss` of a duration.
fn mmss(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

impl App {
    /// A fresh interface in the lobby.
    pub fn new(name: &str) -> App {
        App {
            name: name.to_owned(),
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
        }
    }

    /// The seek the player is in now (a reply or the server's news).
    pub fn seeking(&mut self, view: SeekView, now: Instant) {
        if view.waiting {
            self.info(format!("seeking a {} game; x (or /cancel) withdraws it", view.time_control));
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
        let kind = |v: &SeekView| if v.rated { "rated" } else { "casual" };
        if let Some((v, at)) = &self.seek {
            let elapsed = now.saturating_duration_since(*at);
            if !v.waiting {
                let left = Duration::from_millis(v.expires_in_ms.unwrap_or(0)).saturating_sub(elapsed);
                let partner = v.invited.as_deref().unwrap_or("your partner");
                return Some(format!(
                    "waiting for {partner} to accept a {} {} game ({} left) · x cancels",
                    v.time_control,
                    kind(v),
                    mmss(left)
                ));
            }
            let waited = Duration::from_millis(v.waited_ms) + elapsed;
            let reach = v
                .range
                .unwrap_or(v.reach + (u64::from(v.widening) * elapsed.as_millis() as u64 / 1000) as u32);
            let who =
                if v.players.len() > 1 { format!(" ({})", v.players.join(" & ")) } else { String::new() };
            return Some(format!(
                "seeking a {} {} game{who} · waiting {} · rating ±{reach} · x cancels",
                v.time_control,
                kind(v),
                mmss(waited)
            ));
        }
        self.invitation.as_ref().map(|(v, at)| {
            let left = Duration::from_millis(v.expires_in_ms.unwrap_or(0))
                .saturating_sub(now.saturating_duration_since(*at));
            format!(
                "{} invites you to play a {} {} game as partners ({} left) · /accept or /refuse",
                v.players.first().map_or("a player", String::as_str),
                v.time_control,
                kind(v),
                mmss(left)
            )
        })
    }

    /// A seek in a quick pool: casual (rated is `/seek CLOCK rated`).
    fn quick_seek(&mut self, n: usize) -> Vec<Action> {
        if let Some((v, _)) = &self.seek {
            self.error(format!("you seek a {} game already: x cancels it", v.time_control));
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
                self.error("you seek no game");
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

    /// Says how a rematch offer stands: who accepted, who declined, the new match.
    pub fn rematch(&mut self, view: &RematchView) {
        let named = |flags: &[bool; 4]| {
            view.players
                .iter()
                .zip(view.kinds)
                .zip(flags)
                .filter(|(_, f)| **f)
                .map(|((n, k), _)| crate::view::marked(n, Some(k)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let text = if let Some(id) = view.rematch {
            format!("rematch: match {id}, colours swapped on each board")
        } else if view.declined.iter().any(|&d| d) {
            format!("no rematch of match {}: {} declined", view.match_id, named(&view.declined))
        } else {
            // Who accepted, and what is left for this player to do (nothing once he accepted).
            let mine =
                self.model.as_ref().filter(|m| m.state().match_id == view.match_id).and_then(|m| m.my_seat());
            let next = if mine.is_some_and(|seat| view.accepted[seat.index()]) {
                "waiting for the others"
            } else {
                "/rematch to accept, /norematch to decline"
            };
            let count = view.accepted.iter().filter(|&&a| a).count();
            let who = if count == 0 {
                "nobody accepted yet".to_owned()
            } else {
                format!("{count} of 4 accepted ({})", named(&view.accepted))
            };
            format!("rematch of match {}: {who}; {next}", view.match_id)
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
        let decided_before = self.model.as_ref().is_some_and(|m| m.result().is_some());
        if let Err(e) = MatchModel::follow(&mut self.model, &msg, now, self.rtt) {
            self.error(format!("cannot show this match: {e}"));
        }
        match msg {
            ServerMsg::State(_) if self.model.is_some() => self.screen = Screen::Match,
            ServerMsg::Event(_) if !decided_before => {
                if let Some(reason) = self.model.as_ref().and_then(|m| m.result()).map(|r| r.reason.clone()) {
                    self.info(format!("match over: {reason}"));
                    if let Some(m) = self.model.as_ref().filter(|m| m.my_seat().is_some()) {
                        self.rematch_listen = Some(m.id());
                        self.info("/rematch to play it again (colours swapped on each board), /norematch to decline");
                    }
                }
            }
            ServerMsg::Event(MatchEvent { kind: EventView::Paused { reason }, .. }) => {
                self.info(format!("clocks stopped: {}", pause_reason(reason)));
            }
            ServerMsg::Event(MatchEvent { kind: EventView::Resumed { .. }, .. }) => {
                self.info("the clocks run again");
            }
            ServerMsg::Chat { from, kind, scope, text, .. } => {
                self.push(LogLine::Chat { from: crate::view::marked(&from, Some(kind)), scope, text })
            }
            ServerMsg::SessionEnded { reason } => {
                self.link = Link::Ended;
                self.error(match reason {
                    SessionEnd::LoggedOut => "the session was logged out; log in again",
                    SessionEnd::PasswordChanged => "the account's password was changed; log in again",
                    SessionEnd::AccountDisabled => "the account was disabled",
                });
            }
            ServerMsg::Rematch(view) => self.rematch(&view),
            ServerMsg::SeekInvitation(view) => {
                self.info(format!(
                    "{} invites you to play a {} game as partners: /accept or /refuse",
                    view.players.first().map_or("a player", String::as_str),
                    view.time_control
                ));
                self.invitation = Some((view, now));
            }
            ServerMsg::Seek(view) => {
                self.info(format!("your partner accepted: seeking a {} game together", view.time_control));
                self.seeking(view, now);
            }
            ServerMsg::SeekEnded { seek, reason } => {
                if self.invitation.as_ref().is_some_and(|(v, _)| v.seek == seek) {
                    self.invitation = None;
                }
                if self.seek.as_ref().is_some_and(|(v, _)| v.seek == seek) {
                    self.seek = None;
                    self.info(match reason {
                        SeekEnd::Cancelled => "your seek was cancelled",
                        SeekEnd::Disconnected => "your seek ended: a player's connection was lost",
                        SeekEnd::Declined => "your partner declined",
                        SeekEnd::Expired => "your partner did not answer in time",
                        SeekEnd::Failed => "the match found could not be created; seek again",
                    });
                }
            }
            ServerMsg::MatchFound { match_id, seat, rated, .. } => {
                self.seek = None;
                let rated = if rated { " (rated)" } else { "" };
                self.info(format!("match {match_id} found{rated}: you play {seat}"));
            }
            ServerMsg::Rated { changes, .. } => {
                for c in &changes {
                    self.info(rating_change(c));
                }
            }
            ServerMsg::MatchClosed { match_id, reason } => {
                self.screen = Screen::Lobby;
                self.info(match reason {
                    ClosedReason::Expired => format!("match {match_id} expired: no seated player was there"),
                    ClosedReason::Failed => {
                        format!(
                            "match {match_id} stopped on the server; it is restored when the server restarts"
                        )
                    }
                });
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
        match key.code {
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
                self.info("promotion cancelled");
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
                    self.error(format!("unknown input {text:?}: type /help"));
                    Vec::new()
                }
            };
        }
        let Some(model) = &self.model else { return Vec::new() };
        let Some(seat) = model.my_seat() else {
            if !text.is_empty() {
                self.error("you are watching; sit down to play");
            }
            return Vec::new();
        };
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
                self.info("which piece is removed? press its number (Esc cancels)");
                for (i, p) in picks.iter().enumerate() {
                    self.info(format!("  {}) {}", i + 1, p.label));
                }
                self.picking = Some(picks);
                Vec::new()
            }
        }
    }

    fn command(&mut self, command: &str) -> Vec<Action> {
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
                        self.error("which match? select one in the lobby, or sit in one");
                        Vec::new()
                    }
                    _ => {
                        self.error("bots at which level? /bots 1 to /bots 5");
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
            // Resigning loses the match for the team too: it is asked twice, as in the web client.
            "resign" if confirmed => vec![Action::Resign],
            "resign" => {
                self.resign_asked = true;
                self.info("resign the match for your team? type /resign again to confirm");
                Vec::new()
            }
            "arbiter" => vec![Action::CallArbiter],
            // `/rematch` (or `/norematch`) after the match one played is over.
            "rematch" | "norematch" => match &self.model {
                Some(m) if m.result().is_some() || m.phase() == PhaseView::Annulled => {
                    vec![Action::Rematch(m.id(), verb == "rematch")]
                }
                _ => {
                    self.error("a rematch is agreed after the match is over");
                    Vec::new()
                }
            },
            "claim" => match rest {
                "" | "rep" | "repetition" => vec![Action::Claim(ClaimKind::Repetition)],
                "50" | "fifty" => vec![Action::Claim(ClaimKind::FiftyMoves)],
                other => match other.strip_prefix("flag").map(str::trim).and_then(SeatId::from_name) {
                    Some(seat) => vec![Action::Claim(ClaimKind::Flag(seat))],
                    None => {
                        self.error("claim what? /claim rep, /claim 50 or /claim flag black-A");
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
                    self.error("need what? /need n, b, r, q or p");
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
                    self.error("choose what? /choose TOURNAMENT ROUND GAME straight|crossed|white-a|white-b");
                    Vec::new()
                }
            },
            "mygame" => match rest.parse() {
                Ok(t) => vec![Action::MyGame(t)],
                Err(_) => {
                    self.error("which tournament? /mygame TOURNAMENT");
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
                    self.error("/partner plays again with your partner once your match is over");
                    Vec::new()
                }
            },
            "cancel" => self.cancel_seek(),
            "accept" | "refuse" => match self.invitation.take() {
                Some((v, _)) => vec![Action::AnswerSeek(v.seek, verb == "accept")],
                None => {
                    self.error("nobody invited you to seek a game");
                    Vec::new()
                }
            },
            "lobby" => {
                self.screen = Screen::Lobby;
                vec![Action::Refresh]
            }
            "quit" => {
                self.quit = true;
                vec![Action::Quit]
            }
            "help" => {
                for line in HELP {
                    self.info(*line);
                }
                Vec::new()
            }
            _ => {
                self.error(format!("unknown command /{verb}: type /help"));
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

/// What `/help` prints.
const HELP: &[&str] = &[
    "moves: e4, Nf3, N@f3 (drop), e8=Qd1 or e8 then pick the removed piece; Enter sends",
    "/ready /unready /leave · /draw (offer or accept) /decline · /claim rep|50|flag SEAT",
    "/resign (twice: it asks) · /arbiter · /t TEXT team chat · /say TEXT match chat · /need n|b|r|q|p",
    "/rematch or /norematch after the match: when all four accept, the same match again, colours swapped",
    "F1-F5 need N B R Q P · F6 sit · F7 go · F8 don't trade · /lobby · /quit (Ctrl-C)",
    "lobby: ↑↓ select · Enter or w watch · 1-4 sit white-A black-A white-B black-B · c create",
    "/create [mgimo-2017|classic] [CLOCK] [960] [rated] creates a match; 960: a Chess960 start; rated: accounts only",
    "/top [bullet|blitz|rapid] shows the leaderboard · /profile [NAME] a player's ratings, partners and matches",
    "finding a game: F1-F4 in the lobby seek 1+0 2+0 3+0 5+0 (casual) · x or /cancel withdraws",
    "/seek [CLOCK] [rated] [with NAME] seeks (inviting a partner) · /accept /refuse an invitation · /partner after a match",
    "/bots [LEVEL] fills the empty seats of your match (or the selected one) with bots, level 1-5 (2)",
    "tournaments: /mygame T sits you at your game · /choose T ROUND GAME straight|crossed|white-a|white-b",
];

/// One player's rating change, for the log: `anna 1500 → 1662 (+162)`, a `?` marking a
/// provisional rating.
pub(crate) fn rating_change(c: &RatingChange) -> String {
    let mark = if c.provisional { "?" } else { "" };
    format!(
        "{} {}: {} {} → {}{mark} ({:+})",
        c.category,
        c.name,
        c.seat.name(),
        c.before,
        c.after,
        c.after - c.before
    )
}

/// A rating as a line shows it: `1687` or `1500?` while provisional.
pub(crate) fn rating_text(r: &RatingView) -> String {
    format!("{}{}", r.rating, if r.provisional { "?" } else { "" })
}

/// Why the server stopped the clocks, for the log.
fn pause_reason(reason: PauseReason) -> &'static str {
    match reason {
        PauseReason::Restart => "the server restarted; they run again when all four players are back",
        PauseReason::Shutdown => "the server is shutting down",
        PauseReason::Storage => "the server cannot store moves now; they run again when it can",
    }
}
