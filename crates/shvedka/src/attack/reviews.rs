//! Reading matches back, as fast as the rate limit lets every connection: the attacker finds the
//! listed matches in the lobby, then over many connections (`--connections`, up to the cap per
//! address) reads the review pages (`Review`, 100 events a page) and the BPGN record in parts
//! (`RecordPart`) of matches picked at random among every id up to the newest — the honest
//! matches in play and those already decided, the longest the server holds. Each request makes
//! the server read the match's whole stored log (a review page) or build its whole record (a
//! live match's in its own task, a decided one by replaying its log).

use std::sync::Arc;

use shvedka_client::Client;
use shvedka_proto::{ClientMsg, MatchId, Reply};
use tokio::task::JoinSet;

use super::{Ctx, Tally, reason};

pub(crate) async fn run(ctx: &Arc<Ctx>, tally: &Arc<Tally>) {
    let newest = match newest_match(ctx).await {
        Ok(Some(id)) => id,
        Ok(None) => return tally.failed("no listed match to read"),
        Err(e) => return tally.failed(reason(&e)),
    };
    let clients = ctx.guests(&[ctx.from], ctx.connections, tally).await;
    let mut loops = JoinSet::new();
    for (c, client) in clients.into_iter().enumerate() {
        let (ctx, tally) = (ctx.clone(), tally.clone());
        loops.spawn(async move {
            let mut rng = (c as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            while !ctx.over() {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let id = MatchId(1 + rng % newest);
                read_match(&ctx, &tally, &client, id).await;
            }
        });
    }
    while loops.join_next().await.is_some() {}
}

/// The newest listed match's id (ids are handed out in order, so every id below it is a match
/// of this server, listed or private, in play or decided).
async fn newest_match(ctx: &Arc<Ctx>) -> Result<Option<u64>, shvedka_client::ClientError> {
    let endpoint = ctx.endpoint(ctx.from)?;
    let client = ctx.guest(&endpoint, "").await?;
    let (mut after, mut newest) = (None, None);
    loop {
        let (page, next) = client.list_page(after, 50, false).await?;
        newest = page.iter().map(|m| m.match_id.0).chain(newest).max();
        match next {
            Some(n) => after = Some(n),
            None => return Ok(newest),
        }
    }
}

/// Every review page of match `id`, then its whole record in parts, each request paced.
async fn read_match(ctx: &Ctx, tally: &Tally, client: &Client, id: MatchId) {
    let mut pacer = ctx.pacer();
    let mut after = None;
    loop {
        pacer.tick().await;
        if ctx.over() {
            return;
        }
        match client.request(ClientMsg::Review { match_id: id, after }).await {
            Ok(Reply::Review { next: Some(next), .. }) => {
                tally.served();
                after = Some(next);
            }
            Ok(_) => {
                tally.served();
                break;
            }
            Err(e) => return count_error(tally, &e),
        }
    }
    let mut offset = 0u64;
    loop {
        pacer.tick().await;
        if ctx.over() {
            return;
        }
        match client.request(ClientMsg::RecordPart { match_id: id, offset }).await {
            Ok(Reply::RecordPart { text, total, .. }) => {
                tally.served();
                offset += text.len() as u64;
                if text.is_empty() || offset >= total {
                    return;
                }
            }
            Ok(other) => return tally.failed(format!("unexpected answer {other:?}")),
            Err(e) => return count_error(tally, &e),
        }
    }
}

fn count_error(tally: &Tally, e: &shvedka_client::ClientError) {
    if super::is_refusal(e) {
        tally.refused(reason(e));
    } else {
        tally.failed(reason(e));
    }
}
