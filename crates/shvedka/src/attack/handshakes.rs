//! A handshake flood: QUIC handshakes started as fast as the attacker can, up to
//! [`IN_FLIGHT`] at once, each given up after a random 0 to 3 ms — most before they finish
//! (the server has done its part of the TLS handshake, the certificate's signature, for
//! nothing), some just after (a full handshake, then closed). Each holds a place among the
//! attacker's `max_connections_per_address` while in flight, and above `retry_handshakes_above`
//! in flight a new one must prove its address first (a Retry), everyone's included.

use std::sync::Arc;
use std::time::Duration;

use shvedka_client::quinn;
use tokio::sync::Semaphore;

use super::{Ctx, Tally};

/// Handshakes in flight at once.
const IN_FLIGHT: usize = 256;
/// Client endpoints (UDP sockets) the handshakes come from.
const ENDPOINTS: usize = 8;

pub(crate) async fn run(ctx: &Arc<Ctx>, tally: &Arc<Tally>) {
    let endpoints: Vec<quinn::Endpoint> = match (0..ENDPOINTS).map(|_| ctx.endpoint(ctx.from)).collect() {
        Ok(e) => e,
        Err(e) => return tally.failed(super::reason(&e)),
    };
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut attempts = 0u64;
    while !ctx.over() && attempts < ctx.max_attempts {
        let Ok(slot) = tokio::time::timeout_at(ctx.until, slots.clone().acquire_owned()).await else { break };
        let Ok(slot) = slot else { break };
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let patience = Duration::from_micros(rng % 3000);
        let endpoint = &endpoints[(attempts as usize) % ENDPOINTS];
        attempts += 1;
        let connecting = match endpoint.connect(ctx.server, "localhost") {
            Ok(c) => c,
            Err(e) => {
                tally.failed(e.to_string());
                continue;
            }
        };
        let tally = tally.clone();
        tokio::spawn(async move {
            let _slot = slot;
            match tokio::time::timeout(patience, connecting).await {
                Ok(Ok(conn)) => {
                    tally.served();
                    conn.close(0u32.into(), b"");
                }
                Ok(Err(e)) if e.to_string().to_ascii_lowercase().contains("refused") => {
                    tally.refused("refused")
                }
                Ok(Err(e)) => tally.failed(e.to_string()),
                // Given up before it finished: the flood's point.
                Err(_) => tally.failed("given up by the attacker before it finished"),
            }
        });
    }
    // Let the last ones finish or be given up.
    tokio::time::sleep(Duration::from_millis(50)).await;
}
