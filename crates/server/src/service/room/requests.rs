//! What a match task does with each request: a follow, an arbiter's act, a player's command
//! (checked against the seat it acts for, then handed to the machine), the bot the server starts
//! again taking its seat. Each reply waits until the events it caused are stored (write-ahead).

use std::sync::Arc;
use std::time::Duration;

use bughouse_match::{ArbiterAct, Command, Phase};
use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, PlayerKind};
use tokio::time::Instant;

use super::{Reserved, Room, RoomMsg};
use crate::service::convert::{self, error};
use crate::service::metrics::Outcome;
use crate::service::outbound::Outbound;
use crate::service::refusal;
use crate::service::session::Session;

impl Room {
    pub(super) async fn handle(&mut self, msg: RoomMsg) {
        match msg {
            RoomMsg::Follow { session, out, last_seq, reply } => {
                self.follow(session, out, last_seq);
                self.restart_when_all_back();
                let stored = self.flush().await;
                let _ = reply.send(Room::unless_unstored(stored, Ok(())));
            }
            RoomMsg::Unfollow { session, reply } => {
                let result = self.unfollow(&session);
                // Its `SeatLeft` is stored before the answer.
                let stored = self.flush().await;
                let _ = reply.send(Room::unless_unstored(stored, result));
            }
            RoomMsg::Arbiter { act, by, reply } => {
                let now = self.now();
                let resume = matches!(act, ArbiterAct::Resume);
                let result = self.m.handle_arbiter(now, by, act).map_err(|r| refusal::rejection(&r));
                if result.is_ok() && resume {
                    self.restart_pause = false;
                    self.restart_by = None;
                    self.storage_paused = false;
                }
                let stored = self.flush().await;
                let _ = reply.send(Room::unless_unstored(stored, result));
            }
            RoomMsg::Legal { board, reply } => {
                let moves = if matches!(self.m.phase(), Phase::Running) {
                    let game = self.m.game();
                    game.legal_moves(board).iter().map(|m| game.uci(m)).collect()
                } else {
                    Vec::new()
                };
                let _ = reply.send(moves);
            }
            RoomMsg::Command { session, out, msg, reply } => {
                let is_move = matches!(*msg, ClientMsg::Move { .. });
                let asked = Instant::now();
                let result = self.command(&session, out, *msg).await;
                // Write-ahead: the reply waits until the events it caused are durable, and is
                // an acknowledgement only if they are.
                let stored = self.flush().await;
                let result = Room::unless_unstored(stored, result);
                if is_move {
                    let outcome = if result.is_ok() { Outcome::Accepted } else { Outcome::Refused };
                    self.metrics.moved(outcome, asked.elapsed().as_secs_f64());
                }
                let _ = reply.send(result);
            }
            RoomMsg::Seated { session, reply } => drop(reply.send(self.plays_here(&session))),
            RoomMsg::BotSeat { seat, session, reply } => drop(reply.send(self.hand_to_bot(seat, session))),
            RoomMsg::Shutdown { reply } => {
                self.shutdown = Some(reply);
                self.shut_down().await;
            }
        }
    }

    async fn command(
        &mut self,
        session: &Arc<Session>,
        out: Outbound,
        msg: ClientMsg,
    ) -> Result<(), ErrorMsg> {
        let now = self.now();
        let player = self.acting_player(session)?;
        let command = match msg {
            // His account's own seat, held by a session of his that is gone: he takes it over.
            ClientMsg::TakeSeat { seat, .. }
                if session.account.is_some()
                    && self.kinds[seat.index()] == Some(PlayerKind::Account)
                    && self.names[seat.index()].as_deref() == Some(session.name.as_str())
                    && !matches!(self.m.phase(), Phase::Forming) =>
            {
                self.follow(session.clone(), out, None);
                return Ok(());
            }
            ClientMsg::TakeSeat { seat, .. } => {
                // A reserved seat is an account's: a guest's typed name never matches.
                match &self.reserved {
                    Some(Reserved::Names(names, _))
                        if session.account.is_none() || names[seat.index()] != session.name =>
                    {
                        return Err(error(
                            ErrorCode::Forbidden,
                            format!("{seat} of this tournament game is reserved for {}", names[seat.index()]),
                        ));
                    }
                    Some(Reserved::Players(players)) if players[seat.index()] != player => {
                        return Err(error(
                            ErrorCode::Forbidden,
                            format!("{seat} of this match is reserved for the player the seek drew to it"),
                        ));
                    }
                    _ => {}
                }
                if self.rated {
                    self.ratable(session, seat)?;
                }
                let seat = convert::seat(seat);
                let taken = self.m.handle_command(now, player, Command::TakeSeat(seat));
                taken.map_err(|r| refusal::rejection(&r))?;
                self.names[seat.index()] = Some(session.name.clone());
                self.kinds[seat.index()] = Some(session.kind());
                // Everyone hears of the seat first; then the seated player gets the whole state,
                // which names his seat (also when he was watching already).
                self.flush().await;
                self.follow(session.clone(), out, None);
                return Ok(());
            }
            ClientMsg::LeaveSeat => Command::LeaveSeat,
            ClientMsg::Ready { ready } => Command::Ready(ready),
            ClientMsg::Move { board, text, think_ms } => {
                let board = convert::board(board);
                self.m.may_move(player, board).map_err(|r| refusal::rejection(&r))?;
                let game = self.m.game();
                let mv = game.parse_move(board, &text).map_err(|e| refusal::move_text(&e, board))?;
                self.pending_move = Some((game.uci(&mv), game.san(&mv)));
                Command::Move { mv, client_time: think_ms.map(Duration::from_millis) }
            }
            ClientMsg::OfferDraw => Command::OfferDraw,
            ClientMsg::DeclineDraw => Command::DeclineDraw,
            ClientMsg::Claim(kind) => Command::Claim(convert::claim(kind)),
            ClientMsg::Resign => Command::Resign,
            ClientMsg::CallArbiter { .. } if !self.arbiters => {
                return Err(ErrorMsg {
                    code: ErrorCode::Match(shvedka_proto::MatchRefusal::NoArbiter),
                    rule: Some("K5".into()),
                    message:
                        "this server has no arbiter to call (arbiter_token is empty); the clocks keep running"
                            .into(),
                });
            }
            ClientMsg::CallArbiter { replay } => {
                Command::CallArbiter { replay: replay.map(convert::replay_reason) }
            }
            ClientMsg::Chat { scope, text } => return self.chat(session, scope, text),
            _ => return Err(error(ErrorCode::BadRequest, "not a match command")),
        };
        let left = matches!(command, Command::LeaveSeat).then(|| self.m.seat_of(player)).flatten();
        self.m.handle_command(now, player, command).map_err(|r| refusal::rejection(&r))?;
        if let Some(seat) = left {
            self.names[seat.index()] = None;
            self.kinds[seat.index()] = None;
        }
        Ok(())
    }

    /// Whether `session` may sit in this rated match: an account, and a bot only where the
    /// server rates bots.
    fn ratable(&self, session: &Session, seat: shvedka_proto::SeatId) -> Result<(), ErrorMsg> {
        let why = match (session.account, session.kind()) {
            (None, _) => "a guest may not take it; log in or register",
            (Some(_), PlayerKind::Bot) if !self.hooks.rates_bots() => "this server does not rate bots",
            _ => return Ok(()),
        };
        Err(error(
            ErrorCode::NotRatable,
            format!("{seat} of rated match {} is for an account: {why}", self.id),
        ))
    }
}
