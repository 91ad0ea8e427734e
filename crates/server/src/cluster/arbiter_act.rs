//! An arbiter's act forwarded by another node: to the match's live task, to one ending just as it
//! is asked, or — a decided match, forwarded here because this node ran it last (issue 55) — to
//! the match brought back from its log, so the corrected result reaches the watchers this node
//! kept (its end screens, other nodes' through their relays). Carried out by the node the arbiter
//! is on, it reached nobody: that node never had those watchers.

use std::sync::Arc;

use shvedka_proto::{ArbiterRequest, ErrorCode, MatchId};
use shvedka_storage::Role;
use tokio::sync::oneshot;

use super::wire::Answer;
use crate::service::accounts::Accounts;
use crate::service::convert::{self, error};
use crate::service::roles::official;
use crate::service::room::RoomMsg;
use crate::service::rooms::Rooms;
use crate::service::session::Session;

/// Carries out `act` on match `id` (`Rooms::revive_with`); the asker looks for the match's node
/// again when it runs elsewhere or waits to be taken over.
pub(super) async fn carry_out(
    rooms: &Rooms,
    accounts: &Accounts,
    session: &Arc<Session>,
    id: MatchId,
    act: ArbiterRequest,
) -> Answer {
    // Who acts is this node's finding, as for an act of its own sessions.
    let by = match official(accounts, session, Role::Arbiter).await {
        Ok(by) => by,
        Err(e) => return Answer::Refused(e),
    };
    let act = match convert::arbiter_act(act) {
        Ok(act) => act,
        Err(e) => return Answer::Refused(error(ErrorCode::BadRequest, e)),
    };
    let (reply, rx) = oneshot::channel();
    match rooms.revive_with(id, RoomMsg::Arbiter { act, by, reply }).await {
        Ok(()) => {}
        // Not decided, or taken by another node since it was asked: not this node's to answer.
        Err(e) if e.code == ErrorCode::Unavailable => return Answer::NotHere,
        Err(e) => return Answer::Refused(e),
    }
    match rx.await {
        Ok(Ok(())) => Answer::Done,
        Ok(Err(e)) => Answer::Refused(e),
        Err(_) => Answer::Refused(error(ErrorCode::NoSuchMatch, "the match is gone")),
    }
}
