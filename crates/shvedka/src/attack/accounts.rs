//! Loops on the account requests, the two that cost the server a password hash (argon2id, tens
//! of milliseconds of a core each) when it lets them through: registrations with new names (the
//! server refuses beyond `registrations_per_address_per_hour`, 20, before hashing anything), and
//! log-ins to the honest account with wrong passwords (locked out for the attacker's address
//! after `login_failures_per_name`, 5, each failure answered a second late) — while the probe
//! logs in to the same account from its own address, which must still work.

use std::sync::Arc;

use shvedka_client::{Client, ClientError};
use shvedka_proto::ClientMsg;
use tokio::task::JoinSet;

use super::{Ctx, Tally, reason};

/// Connections the registration loop uses (a few: the cap is per address, not per connection).
const REGISTERING: usize = 4;

pub(crate) async fn registrations(ctx: &Arc<Ctx>, tally: &Arc<Tally>) {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() % 1_000_000_000);
    let clients = ctx.guests(&[ctx.from], REGISTERING, tally).await;
    let mut loops = JoinSet::new();
    for (c, client) in clients.into_iter().enumerate() {
        let (ctx, tally) = (ctx.clone(), tally.clone());
        loops.spawn(async move {
            let mut pacer = ctx.pacer();
            for n in 0u64.. {
                pacer.tick().await;
                if ctx.over() || n >= ctx.max_attempts {
                    return;
                }
                let msg = ClientMsg::Register {
                    name: format!("atk{stamp}x{c}x{n}"),
                    password: "attacker-password".into(),
                    bot: false,
                };
                count(&tally, client.request(msg).await);
            }
        });
    }
    while loops.join_next().await.is_some() {}
}

pub(crate) async fn logins(ctx: &Arc<Ctx>, tally: &Arc<Tally>) {
    let clients = ctx.guests(&[ctx.from], ctx.connections, tally).await;
    let mut loops = JoinSet::new();
    for (c, client) in clients.into_iter().enumerate() {
        let (ctx, tally) = (ctx.clone(), tally.clone());
        loops.spawn(async move {
            let client: Client = client;
            let mut pacer = ctx.pacer();
            for n in 0u64.. {
                pacer.tick().await;
                if ctx.over() {
                    return;
                }
                let msg = ClientMsg::Login { name: ctx.account.clone(), password: format!("guess-{c}-{n}") };
                count(&tally, client.request(msg).await);
            }
        });
    }
    while loops.join_next().await.is_some() {}
}

/// Counts an answer: served (the server did the work: an account made, a password checked and
/// found wrong), refused by a limit, or failed.
fn count<T>(tally: &Tally, answer: Result<T, ClientError>) {
    match answer {
        Ok(_) => tally.served(),
        Err(ClientError::Server(e)) if e.code == shvedka_proto::ErrorCode::BadCredentials => tally.served(),
        Err(e @ ClientError::Server(_)) => tally.refused(reason(&e)),
        Err(e) => tally.failed(reason(&e)),
    }
}
