//! What a session may ask, request by request: the lobby's and the tournaments' requests are
//! answered here, match requests are passed to the match's task and answered once it has
//! stored what they caused — or, when another process runs the match (a node of a cluster),
//! forwarded there through the server's `Placement`; the seeks, tournaments and rematch offers
//! another process serves are reached through its `Remote`. The single process is the same code
//! with the local answers (`Local`, `Alone`).

use std::sync::Arc;

use bughouse_match::Official;
use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, MatchId, Reply, ServerMsg, TdRequest};
use shvedka_storage::Role;
use tokio::sync::{mpsc, oneshot};

use crate::features::remote::Seeking;
use crate::features::tournaments::TourAsk;
use crate::lobby::Lobby;
use crate::service::convert::{self, error};
use crate::service::outbound::Outbound;
use crate::service::placement::{Ask, Forwarded};
use crate::service::room::{RoomHandle, RoomMsg};
use crate::service::session::Session;

/// The most bytes of a record one `RecordPart` carries (whole characters; its JSON form,
/// where every character may be escaped, stays within a frame).
pub(crate) const RECORD_PART: usize = 24 * 1024;

/// Answers one request of `session`, whose client is at `remote`.
pub(crate) async fn dispatch(
    lobby: &Arc<Lobby>,
    session: &Arc<Session>,
    out: &Outbound,
    msg: ClientMsg,
    remote: std::net::IpAddr,
) -> Result<Reply, ErrorMsg> {
    // The reads that cost take turns while they are served (`service::reads`).
    let costly = matches!(
        msg,
        ClientMsg::Record { .. }
            | ClientMsg::RecordPart { .. }
            | ClientMsg::RecentMatches { .. }
            | ClientMsg::Leaderboard { .. }
            | ClientMsg::Profile { .. }
            | ClientMsg::Review { .. }
            | ClientMsg::ReviewRecord(_)
    );
    let _turn = if costly { Some(lobby.rooms.reads.turn().await) } else { None };
    match msg {
        ClientMsg::Hello { .. } => Err(error(ErrorCode::Handshake, "the session is already open")),
        ClientMsg::Ping { nonce } => {
            // Queued without waiting: a client that does not read is behind, not a reason to stall.
            out.push(ServerMsg::Pong { nonce, server_time_us: lobby.server_time_us() });
            Ok(Reply::Ok)
        }
        ClientMsg::ListMatches => whole_list(lobby, session, false),
        ClientMsg::ListPage { after, limit, live } => {
            if live {
                official(lobby, session, Role::Arbiter).await?;
            }
            let which = (live, mine(session));
            let (matches, next) = lobby.rooms.page(which, after, limit as usize, others(lobby, which));
            Ok(Reply::MatchPage { matches, next })
        }
        // A wrong secret counts as a failed log-in of the address: guessing one is as slow.
        ClientMsg::Arbiter { token } => {
            lobby.accounts.guessing(remote, || lobby.roles.grant_arbiter(session, &token))
        }
        ClientMsg::Director { token } => {
            lobby.accounts.guessing(remote, || lobby.roles.grant_director(session, &token))
        }
        ClientMsg::Td(req) => {
            let by = official(lobby, session, Role::Director).await?;
            tracing::info!(name = %session.name, %by, ?req, "director command");
            let req = match req {
                // A team is two accounts, named as registered.
                TdRequest::Register { tournament, team, players: [a, b] } => TdRequest::Register {
                    tournament,
                    team,
                    players: [lobby.accounts.player(&a).await?, lobby.accounts.player(&b).await?],
                },
                req => req,
            };
            tournament(lobby, session, TourAsk::Director { by, req }).await
        }
        ClientMsg::Choose { tournament: id, round, game, choice } => {
            let name = session.account_name()?.to_owned();
            tournament(lobby, session, TourAsk::Choose { name, tournament: id, round, game, choice }).await
        }
        ClientMsg::Assignment { tournament: id } => {
            let name = session.account_name()?.to_owned();
            tournament(lobby, session, TourAsk::Assignment { name, tournament: id }).await
        }
        ClientMsg::Tournaments { after, limit } => {
            tournament(lobby, session, TourAsk::List { after, limit }).await
        }
        ClientMsg::TournamentRound { tournament: id, round } => {
            tournament(lobby, session, TourAsk::Round { tournament: id, round }).await
        }
        ClientMsg::Entry(req) => {
            let name = session.account_name()?.to_owned();
            let req = crate::features::tournaments::with_partner_account(req, &lobby.accounts).await?;
            tournament(lobby, session, TourAsk::Entry { name, req }).await
        }
        ClientMsg::Roles => crate::service::roles::roles_of(&lobby.accounts, session)
            .await
            .map(|roles| Reply::Roles { roles }),
        ClientMsg::FollowTournament { tournament: Some(id) } => {
            lobby.tournaments.follow(id, out).await.map(|()| Reply::Ok)
        }
        ClientMsg::FollowTournament { tournament: None } => {
            lobby.tournaments.unfollow(out);
            Ok(Reply::Ok)
        }
        ClientMsg::ListLive => {
            official(lobby, session, Role::Arbiter).await?;
            whole_list(lobby, session, true)
        }
        ClientMsg::ArbiterAct { match_id, act } => {
            let by = official(lobby, session, Role::Arbiter).await?;
            let act = convert::arbiter_act(act).map_err(|e| error(ErrorCode::BadRequest, e))?;
            tracing::info!(name = %session.name, %by, match_id = %match_id, ?act, "arbiter act");
            if lobby.rooms.room(match_id).is_err() && lobby.placement.may_run_elsewhere(match_id) {
                let request = convert::arbiter_request(&act);
                match lobby.placement.forward(session, out, match_id, Ask::Arbiter(request)).await {
                    // Run by nobody: a finished match, revived here.
                    Err(e) if e.code == ErrorCode::NoSuchMatch => {}
                    answer => return answer.map(|_| Reply::Ok),
                }
            }
            let (reply, rx) = oneshot::channel();
            // A finished match comes back from its log for the act (a corrected result).
            lobby.rooms.revive_with(match_id, RoomMsg::Arbiter { act, by, reply }).await?;
            rx.await.map_err(|_| gone())?.map(|()| Reply::Ok)
        }
        ClientMsg::Record { match_id } => {
            let bpgn = record(lobby, session, match_id).await?;
            if bpgn.len() > RECORD_PART {
                return Err(error(
                    ErrorCode::TooLarge,
                    format!(
                        "the record has {} bytes, more than one answer carries ({RECORD_PART}): ask for it in parts (RecordPart)",
                        bpgn.len()
                    ),
                ));
            }
            Ok(Reply::Record { bpgn })
        }
        ClientMsg::RecordPart { match_id, offset } => {
            let bpgn = record(lobby, session, match_id).await?;
            let (text, offset) = part(&bpgn, offset)?;
            Ok(Reply::RecordPart { text: text.to_owned(), offset, total: bpgn.len() as u64 })
        }
        ClientMsg::Legal { match_id, board } => {
            let room = match place(lobby, session, match_id).await? {
                Place::Here(room) => room,
                Place::Elsewhere => {
                    return match lobby.placement.forward(session, out, match_id, Ask::Legal(board)).await? {
                        Forwarded::Legal(moves) => Ok(Reply::Legal(moves)),
                        Forwarded::Done => Ok(Reply::Legal(Vec::new())),
                    };
                }
            };
            let (reply, rx) = oneshot::channel();
            let board = convert::board(board);
            room.tx.send(RoomMsg::Legal { board, reply }).await.map_err(|_| gone())?;
            Ok(Reply::Legal(rx.await.map_err(|_| gone())?))
        }
        ClientMsg::FillWithBots { match_id, level } => {
            // A private match's id must not tell a guesser that it exists.
            match place(lobby, session, match_id).await? {
                Place::Here(_) => {
                    lobby.bots.fill(&lobby.rooms, &lobby.metrics, session, match_id, level).map(|_| Reply::Ok)
                }
                // The node that runs the match seats its own bots in it.
                Place::Elsewhere => {
                    let ask = Ask::FillWithBots(level);
                    lobby.placement.forward(session, out, match_id, ask).await.map(|_| Reply::Ok)
                }
            }
        }
        ClientMsg::CreateMatch { rules, time_control, listed, chess960, rated } => {
            if rated && session.account.is_none() {
                return Err(error(ErrorCode::LoginRequired, "log in to create a rated match"));
            }
            match lobby.rooms.create(session.player, &rules, &time_control, listed, chess960, rated).await? {
                (match_id, None) => Ok(Reply::Created { match_id }),
                (match_id, Some(code)) => {
                    session.invite(match_id);
                    Ok(Reply::Invited { match_id, code })
                }
            }
        }
        ClientMsg::Bot => {
            // The kind shown with a seated player's name does not change under the others' eyes.
            if session.room().is_some() {
                return Err(error(
                    ErrorCode::Invalid(shvedka_proto::Invalid::BotTooLate),
                    "say you are a bot before following a match",
                ));
            }
            session.bot.store(true, std::sync::atomic::Ordering::Relaxed);
            Ok(Reply::Ok)
        }
        ClientMsg::Invitation { code } => {
            let match_id = lobby.rooms.redeem(session, &code).await?;
            Ok(Reply::Invited { match_id, code })
        }
        ClientMsg::Rematch { match_id, accept } => {
            // The offer is kept where the match ran: another process's is answered there.
            let kept_by = Some(match_id)
                .filter(|&id| lobby.rooms.room(id).is_err() && !lobby.rematches.holds(id))
                .and_then(|id| lobby.remote.rematch_kept_by(id));
            if let Some(node) = kept_by {
                return lobby.remote.ask_rematch(session, out, &node, match_id, accept).await;
            }
            let rematches = &lobby.rematches;
            let (view, _) = rematches.answer(&lobby.rooms, session, out, match_id, accept, false).await?;
            Ok(Reply::Rematch(view))
        }
        msg if crate::features::seeks::is_seek_request(&msg) => match lobby.remote.seeking() {
            Seeking::Here => lobby.seeks.request(session, out, msg).await,
            Seeking::There(node) => lobby.remote.ask_seeks(session, out, &node, msg).await,
            Seeking::Unknown => Err(error(
                ErrorCode::Unavailable,
                "this node cannot tell yet which node of the cluster pairs seeks; try again in a moment",
            )),
        },
        ClientMsg::RecentMatches { name } => {
            crate::features::played::recent(&lobby.rooms, session, &name).await
        }
        ClientMsg::Leaderboard { category } => {
            crate::features::profiles::leaderboard(&lobby.rooms, lobby.ratings.leaderboard_size, &category)
                .await
        }
        ClientMsg::Profile { name } => crate::features::profiles::profile(&lobby.rooms, session, &name).await,
        ClientMsg::Analyse(req) => {
            if let Some(id) = lobby.rooms.seated_in_play(session) {
                return Err(error(
                    ErrorCode::Busy(shvedka_proto::Busy::Playing),
                    format!("you sit in match {id}: the engine is for review, after the game"),
                ));
            }
            lobby.analyst.analyse(req, remote).await.map(Reply::Analysis)
        }
        ClientMsg::ReviewRecord(req) => crate::features::record_review::review(&req),
        ClientMsg::Review { match_id, after } => {
            crate::features::review::page(&lobby.rooms, session, match_id, after).await
        }
        ClientMsg::Watch { match_id } => {
            let place = place(lobby, session, match_id).await?;
            leave_other(lobby, session, match_id).await?;
            let room = match place {
                Place::Here(room) => room,
                Place::Elsewhere => {
                    let ask = Ask::Watch { last_seq: None };
                    return lobby.placement.forward(session, out, match_id, ask).await.map(|_| Reply::Ok);
                }
            };
            let (reply, rx) = oneshot::channel();
            ask(
                &room.tx,
                rx,
                RoomMsg::Follow { session: session.clone(), out: out.clone(), last_seq: None, reply },
            )
            .await
        }
        ClientMsg::TakeSeat { match_id, .. } => {
            let place = place(lobby, session, match_id).await?;
            leave_other(lobby, session, match_id).await?;
            let room = match place {
                Place::Here(room) => room,
                Place::Elsewhere => {
                    let ask = Ask::Command(msg);
                    return lobby.placement.forward(session, out, match_id, ask).await.map(|_| Reply::Ok);
                }
            };
            let (reply, rx) = oneshot::channel();
            ask(
                &room.tx,
                rx,
                RoomMsg::Command { session: session.clone(), out: out.clone(), msg: Box::new(msg), reply },
            )
            .await
        }
        msg => {
            let id = session.room().ok_or_else(|| match session.closed_room() {
                Some(closed) => {
                    error(ErrorCode::NotInMatch, format!("match {closed} is over; you follow no match"))
                }
                None => error(ErrorCode::NotInMatch, "you follow no match"),
            })?;
            let room = match lobby.rooms.room(id) {
                Ok(room) => room,
                Err(_) => {
                    let ask = Ask::Command(msg);
                    return lobby.placement.forward(session, out, id, ask).await.map(|_| Reply::Ok);
                }
            };
            let (reply, rx) = oneshot::channel();
            ask(
                &room.tx,
                rx,
                RoomMsg::Command { session: session.clone(), out: out.clone(), msg: Box::new(msg), reply },
            )
            .await
        }
    }
}

/// Where a match runs, for a session that may reach it.
enum Place {
    /// In this process.
    Here(RoomHandle),
    /// In another process, if any runs it (`Placement::forward` says).
    Elsewhere,
}

/// Where the live match `id` runs, if the session may reach it; a private one it holds no
/// invitation to is refused exactly as a match that does not exist.
async fn place(lobby: &Lobby, session: &Session, id: MatchId) -> Result<Place, ErrorMsg> {
    let place = match lobby.rooms.room(id) {
        Ok(room) => Place::Here(room),
        Err(e) if !lobby.placement.may_run_elsewhere(id) => return Err(e),
        Err(_) => Place::Elsewhere,
    };
    if reaches(lobby, session, id).await? { Ok(place) } else { Err(no_live_match(id)) }
}

/// A tournament request: answered here, or by the process that drives the tournaments.
async fn tournament(lobby: &Lobby, session: &Session, ask: TourAsk) -> Result<Reply, ErrorMsg> {
    if let Some(node) = lobby.tournaments.driver_elsewhere() {
        return lobby.remote.ask_driver(session, &node, ask).await;
    }
    lobby.tournaments.answer(&lobby.rooms, ask).await
}

/// Stops following another match before following `id` (refused while playing there).
async fn leave_other(lobby: &Arc<Lobby>, session: &Arc<Session>, id: MatchId) -> Result<(), ErrorMsg> {
    match session.room() {
        Some(other) if other != id && !lobby.rooms.unfollow(session, other).await? => {
            lobby.placement.let_go(session, other).await
        }
        _ => Ok(()),
    }
}

/// Who the session acts as in `role` (its account's role is read from the store now).
async fn official(lobby: &Lobby, session: &Session, role: Role) -> Result<Official, ErrorMsg> {
    crate::service::roles::official(&lobby.accounts, session, role).await
}

/// Whether the session may reach `id`: as anyone may, or as an arbiter.
pub(crate) async fn reaches(lobby: &Lobby, session: &Session, id: MatchId) -> Result<bool, ErrorMsg> {
    if lobby.rooms.reaches(session, id).await? {
        return Ok(true);
    }
    match official(lobby, session, Role::Arbiter).await {
        Ok(_) => Ok(true),
        Err(ErrorMsg { code: ErrorCode::Official(_), .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

fn gone() -> ErrorMsg {
    error(ErrorCode::NoSuchMatch, "the match is gone")
}

async fn ask(
    tx: &mpsc::Sender<RoomMsg>,
    rx: oneshot::Receiver<Result<(), ErrorMsg>>,
    msg: RoomMsg,
) -> Result<Reply, ErrorMsg> {
    tx.send(msg).await.map_err(|_| gone())?;
    rx.await.map_err(|_| gone())?.map(|()| Reply::Ok)
}

/// The whole list in one answer, when it fits one page (else: ask by pages).
fn whole_list(lobby: &Lobby, session: &Session, unlisted_too: bool) -> Result<Reply, ErrorMsg> {
    let max = lobby.rooms.page_max();
    let which = (unlisted_too, mine(session));
    let (matches, next) = lobby.rooms.page(which, None, max, others(lobby, which));
    if next.is_some() {
        return Err(error(
            ErrorCode::TooLarge,
            format!("more than {max} matches: ask for them by pages (ListPage)"),
        ));
    }
    Ok(Reply::Matches(matches))
}

/// The account whose own unlisted matches a list shows too (a guest's: none).
fn mine(session: &Session) -> Option<&str> {
    session.account.map(|_| session.name.as_str())
}

/// The other nodes' matches a list shows: the listed ones (or all), and the account's own.
fn others(lobby: &Lobby, (unlisted_too, mine): (bool, Option<&str>)) -> Vec<shvedka_proto::MatchSummary> {
    match mine {
        Some(name) if !unlisted_too => {
            let mut v = lobby.placement.others(false);
            let own: Vec<_> = lobby
                .placement
                .others(true)
                .into_iter()
                .filter(|s| {
                    crate::service::rooms::sits(s, name) && !v.iter().any(|o| o.match_id == s.match_id)
                })
                .collect();
            v.extend(own);
            v
        }
        _ => lobby.placement.others(unlisted_too),
    }
}

fn no_live_match(id: MatchId) -> ErrorMsg {
    error(ErrorCode::NoSuchMatch, format!("no live match {id}"))
}

/// A match's record, for those who may reach the match (a private one: its players, the
/// arbiters and the holders of its code).
async fn record(lobby: &Lobby, session: &Session, id: MatchId) -> Result<String, ErrorMsg> {
    let none = || error(ErrorCode::NoSuchMatch, format!("no match {id}"));
    if !reaches(lobby, session, id).await? {
        return Err(none());
    }
    lobby.rooms.record_of(id).await?.ok_or_else(none)
}

/// The part of `text` from byte `offset`: at most [`RECORD_PART`] bytes, whole characters.
fn part(text: &str, offset: u64) -> Result<(&str, u64), ErrorMsg> {
    let start = usize::try_from(offset).ok().filter(|&o| o <= text.len() && text.is_char_boundary(o));
    let start = start.ok_or_else(|| {
        error(
            ErrorCode::BadRequest,
            format!("offset {offset} is not a character boundary of the record ({} bytes)", text.len()),
        )
    })?;
    let mut end = (start + RECORD_PART).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Ok((&text[start..end], offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a4_a_long_record_travels_in_parts_of_whole_characters() {
        let text = "é".repeat(RECORD_PART); // two bytes each
        let mut parts = Vec::new();
        let mut offset = 0u64;
        while (offset as usize) < text.len() {
            let (p, at) = part(&text, offset).unwrap();
            assert_eq!(at, offset);
            assert!(!p.is_empty() && p.len() <= RECORD_PART);
            offset += p.len() as u64;
            parts.push(p.to_owned());
        }
        assert_eq!(parts.concat(), text);
        assert_eq!(parts.len(), 2);
        assert!(part(&text, 1).is_err(), "inside a character");
        assert!(part(&text, text.len() as u64 + 1).is_err(), "past the end");
        assert_eq!(part(&text, text.len() as u64).unwrap().0, "", "the end is an empty part");
    }
}
