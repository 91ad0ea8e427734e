//! A crowd: `--spectators` sessions (2,000) watch one honest match in play, spread over the
//! `--crowd` addresses (a crowd comes from many addresses; one address may hold 200
//! connections). Each spectator reads everything the match sends it; the match task sends every
//! event to each of them, and the honest players of that match and all others should not feel it.

use std::sync::Arc;

use shvedka_client::Update;
use shvedka_proto::{MatchId, PhaseView};
use tokio::task::JoinSet;

use super::{Ctx, Tally, reason};

pub(crate) async fn run(ctx: &Arc<Ctx>, tally: &Arc<Tally>) {
    let id = match match_in_play(ctx).await {
        Ok(Some(id)) => id,
        Ok(None) => return tally.failed("no listed match in play to watch"),
        Err(e) => return tally.failed(reason(&e)),
    };
    let per_ip = ctx.spectators.div_ceil(ctx.crowd.len().max(1));
    let clients = ctx.guests(&ctx.crowd, per_ip, tally).await;
    let mut crowd = JoinSet::new();
    for mut client in clients {
        let (ctx, tally) = (ctx.clone(), tally.clone());
        crowd.spawn(async move {
            let mut updates = client.take_updates();
            match client.watch(id).await {
                Ok(()) => tally.served(),
                Err(e) if super::is_refusal(&e) => return tally.refused(format!("watch: {}", reason(&e))),
                Err(e) => return tally.failed(format!("watch: {}", reason(&e))),
            }
            loop {
                match tokio::time::timeout_at(ctx.until, updates.recv()).await {
                    Ok(Some(Update::Server(_))) => {}
                    Ok(Some(Update::Disconnected(why))) => {
                        return tally.failed(format!("lost while watching: {why}"));
                    }
                    Ok(None) | Err(_) => return,
                }
            }
        });
    }
    while crowd.join_next().await.is_some() {}
}

/// A listed match in play, from the lobby's first page.
async fn match_in_play(ctx: &Arc<Ctx>) -> Result<Option<MatchId>, shvedka_client::ClientError> {
    let endpoint = ctx.endpoint(ctx.from)?;
    let client = ctx.guest(&endpoint, "").await?;
    let (page, _) = client.list_page(None, 50, false).await?;
    Ok(page.iter().find(|m| m.phase == PhaseView::Running).map(|m| m.match_id))
}
