//! The honest probe: from an address of its own, what any player does on arriving — open a
//! session (the handshake and `Hello`), log in to an account with its right password, create a
//! match — once every `--probe-every-ms` while the attack runs. Whatever refuses it is an honest
//! player refused; the slowest arrival is told too.

use shvedka_client::{Client, ClientError};
use shvedka_proto::ErrorCode;
use tokio::time::Instant;

use super::{Ctx, HONEST_PASSWORD, Tally, is_refusal, reason};

/// Makes sure the honest account exists: logs in to it, registering it the first time.
pub(crate) async fn ensure_account(ctx: &Ctx) -> Result<(), ClientError> {
    let endpoint = ctx.endpoint(ctx.probe_from)?;
    let mut client = Client::connect_on(endpoint, ctx.server, &ctx.trust, "").await?;
    match client.login(&ctx.account, HONEST_PASSWORD).await {
        Err(ClientError::Server(e)) if e.code == ErrorCode::BadCredentials => {
            client.register(&ctx.account, HONEST_PASSWORD, false).await?;
        }
        other => {
            other?;
        }
    }
    client.close().await;
    Ok(())
}

/// Arrives every `probe_every` until the attack is over; what it met.
pub(crate) async fn run(ctx: std::sync::Arc<Ctx>) -> Tally {
    let tally = Tally::default();
    let mut tick = tokio::time::interval(ctx.probe_every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if ctx.over() {
            return tally;
        }
        let started = Instant::now();
        match tokio::time::timeout(std::time::Duration::from_secs(10), arrive(&ctx)).await {
            Ok(Ok(())) => tally.served_in(started.elapsed()),
            Ok(Err(e)) if is_refusal(&e) => tally.refused(reason(&e)),
            Ok(Err(e)) => tally.failed(reason(&e)),
            Err(_) => tally.failed("no answer within 10 s"),
        }
    }
}

/// One arrival: a session, a log-in, a match created.
async fn arrive(ctx: &Ctx) -> Result<(), ClientError> {
    let endpoint = ctx.endpoint(ctx.probe_from)?;
    let mut client = Client::connect_on(endpoint, ctx.server, &ctx.trust, "").await?;
    client.login(&ctx.account, HONEST_PASSWORD).await?;
    client.create_private("classic", "5+0").await?;
    // Closed at once, not waited for: the probe's time is the arrival's.
    client.drop_connection();
    Ok(())
}
