//! The account requests of a connection: register, log in, log out, change password. They are
//! served here rather than in `dispatch.rs` because a log-in changes which session the
//! connection serves: it gets a new session of the account, with its own token (so a token
//! always belongs to one account, or to one guest, for its whole life), and the guest session it
//! had is released.

use std::net::IpAddr;
use std::sync::Arc;

use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, Limit, Reply};
use shvedka_storage::AccountRow;

use crate::lobby::Lobby;
use crate::service::convert::error;
use crate::service::metrics::Refusal;
use crate::service::session::Session;

/// Whether the connection goes on after the reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum After {
    Continue,
    /// Logged out: the connection closes after the reply.
    Close,
}

/// Whether `msg` is one of the account requests served here.
pub(crate) fn is_account_request(msg: &ClientMsg) -> bool {
    matches!(
        msg,
        ClientMsg::Register { .. }
            | ClientMsg::Login { .. }
            | ClientMsg::Logout
            | ClientMsg::ChangePassword { .. }
    )
}

/// Serves one account request for the connection now serving `session` (replaced by the
/// account's new session on a log-in).
pub(crate) async fn serve(
    lobby: &Arc<Lobby>,
    session: &mut Arc<Session>,
    msg: ClientMsg,
    remote: IpAddr,
) -> (Result<Reply, ErrorMsg>, After) {
    let result = match msg {
        ClientMsg::Register { name, password, bot } => match idle(session) {
            Ok(()) => match lobby.accounts.register(&name, &password, bot, remote).await {
                Ok(row) => log_in(lobby, session, row).await,
                Err(e) => {
                    if e.code == ErrorCode::Limit(Limit::Registrations) {
                        lobby.metrics.refused(Refusal::Registrations);
                    }
                    Err(e)
                }
            },
            Err(e) => Err(e),
        },
        ClientMsg::Login { name, password } => match idle(session) {
            Ok(()) => match lobby.accounts.login(&name, &password, remote).await {
                Ok(row) => log_in(lobby, session, row).await,
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        },
        ClientMsg::Logout => {
            return match lobby.sessions.revoke(session).await {
                Ok(()) => {
                    tracing::info!(name = %session.name, "logged out");
                    announce_ended(lobby).await;
                    (Ok(Reply::Ok), After::Close)
                }
                Err(e) => (Err(error(ErrorCode::Unavailable, e)), After::Continue),
            };
        }
        ClientMsg::ChangePassword { old, new } => change_password(lobby, session, &old, &new, remote).await,
        _ => Err(error(ErrorCode::BadRequest, "not an account request")),
    };
    (result, After::Continue)
}

/// A log-in changes the session's identity, which a match it follows has shown already.
fn idle(session: &Session) -> Result<(), ErrorMsg> {
    match session.room() {
        Some(id) => Err(error(
            ErrorCode::BadRequest,
            format!("you follow match {id}: log in before taking a seat or watching"),
        )),
        None => Ok(()),
    }
}

async fn log_in(lobby: &Arc<Lobby>, session: &mut Arc<Session>, row: AccountRow) -> Result<Reply, ErrorMsg> {
    let (new, token) = lobby.sessions.open(row.name.clone(), Some(row.id)).await?;
    new.bot.store(row.bot, std::sync::atomic::Ordering::Relaxed);
    tracing::info!(name = %row.name, account = row.id, player = new.player.0, "logged in");
    let old = std::mem::replace(session, new);
    lobby.sessions.release(&old).await;
    Ok(Reply::LoggedIn {
        name: row.name,
        token,
        bot: row.bot,
        roles: row.roles.iter().map(|r| r.as_str().to_owned()).collect(),
    })
}

async fn change_password(
    lobby: &Lobby,
    session: &Session,
    old: &str,
    new: &str,
    remote: IpAddr,
) -> Result<Reply, ErrorMsg> {
    let Some(account) = session.account else {
        return Err(error(ErrorCode::LoginRequired, "log in to change your password"));
    };
    lobby.accounts.change_password(account, old, new, remote).await?;
    lobby
        .sessions
        .revoke_account(account, Some(&session.key))
        .await
        .map_err(|e| error(ErrorCode::Unavailable, e))?;
    tracing::info!(name = %session.name, account, "password changed; other sessions ended");
    announce_ended(lobby).await;
    Ok(Reply::Ok)
}

/// Sessions were ended in the database; other processes serving too (the nodes of a cluster)
/// close their connections now rather than at their next look (`session_check_ms`).
async fn announce_ended(lobby: &Lobby) {
    lobby.placement.sessions_ended().await;
}
