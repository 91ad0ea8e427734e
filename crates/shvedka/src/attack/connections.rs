//! Connections until refused: the attacker opens QUIC sessions (a handshake and a `Hello`
//! each), a few at a time, until the server has refused a run of them, then WebSocket sessions on
//! the HTTP side the same way, and holds everything it got until the attack is over. The server's
//! cap per address (`max_connections_per_address`, over every transport together) should stop it
//! at 200, with room left for everyone else.

use std::sync::Arc;

use shvedka_proto::{ClientFrame, ClientMsg, PROTOCOL_VERSION};
use tokio::task::JoinSet;

use super::{Ctx, Tally, is_refusal, reason, ws};

/// Connections opened at once.
const BATCH: usize = 16;
/// Refusals in a row after which a transport is taken as closed to the attacker.
const REFUSED_IN_A_ROW: usize = 32;
/// QUIC endpoints (UDP sockets) the attacker's connections share.
const ENDPOINTS: usize = 4;

pub(crate) async fn run(ctx: &Arc<Ctx>, tally: &Arc<Tally>) {
    let endpoints: Vec<_> = match (0..ENDPOINTS).map(|_| ctx.endpoint(ctx.from)).collect() {
        Ok(e) => e,
        Err(e) => return tally.failed(reason(&e)),
    };
    let mut held = Vec::new();
    let (mut in_a_row, mut attempts) = (0, 0u64);
    while !ctx.over() && in_a_row < REFUSED_IN_A_ROW && attempts < ctx.max_attempts {
        let mut batch = JoinSet::new();
        for i in 0..BATCH {
            let (ctx, endpoint) = (ctx.clone(), endpoints[i % ENDPOINTS].clone());
            batch.spawn(async move { ctx.guest(&endpoint, "").await });
            attempts += 1;
        }
        while let Some(done) = batch.join_next().await {
            match done {
                Ok(Ok(client)) => {
                    tally.served();
                    held.push(client);
                    in_a_row = 0;
                }
                Ok(Err(e)) if is_refusal(&e) => {
                    tally.refused(format!("QUIC: {}", reason(&e)));
                    in_a_row += 1;
                }
                Ok(Err(e)) => tally.failed(format!("QUIC: {}", reason(&e))),
                Err(e) => tally.failed(e.to_string()),
            }
        }
    }
    let mut sockets = JoinSet::new();
    if let Some(http) = ctx.http {
        let hello = ClientFrame {
            req: 0,
            msg: ClientMsg::Hello { version: PROTOCOL_VERSION, name: String::new(), resume: None },
        };
        let hello = serde_json::to_vec(&hello).unwrap_or_default();
        let mut in_a_row = 0;
        while !ctx.over() && in_a_row < REFUSED_IN_A_ROW && attempts < ctx.max_attempts {
            attempts += 1;
            match ws::open(ctx.from, http).await {
                Ok(Ok(mut stream)) => {
                    use tokio::io::AsyncWriteExt;
                    if stream.write_all(&ws::frame(ws::TEXT, &hello, [9, 8, 7, 6])).await.is_err() {
                        tally.failed("WebSocket: lost before its Hello");
                        continue;
                    }
                    tally.served();
                    in_a_row = 0;
                    sockets.spawn(ws::hold(stream, ctx.until));
                }
                Ok(Err(status)) => {
                    tally.refused(format!("WebSocket: HTTP {status}"));
                    in_a_row += 1;
                }
                Err(e) => tally.failed(format!("WebSocket: {e}")),
            }
        }
    }
    tokio::time::sleep_until(ctx.until).await;
    let mut closed_early = 0;
    while let Some(closed) = sockets.join_next().await {
        closed_early += usize::from(closed.unwrap_or(false));
    }
    if closed_early > 0 {
        tally.failed(format!("{closed_early} WebSockets closed by the server while held"));
    }
    let lost = held.iter().filter(|c| !c.is_connected()).count();
    if lost > 0 {
        tally.failed(format!("{lost} QUIC sessions closed by the server while held"));
    }
}
