//! Bots that answer seeks (`shvedka bot --seek`): so that a lone player on a quiet server still
//! gets a game. A bot looks at the pools of seeks now and then; where a person has waited at
//! least its patience, it seeks on the same terms (casual, unless it may play rated), and when
//! the server forms the match it plays it from the seat the server gave it. The server never
//! forms a match of bots alone, and a bot withdraws its seek once no person waits in its pool.

use std::time::Duration;

use shvedka_client::{Client, Update};
use shvedka_proto::{SeekPool, SeekRequest, ServerMsg};

use crate::player::{patiently, play_seated, resume};
use crate::{BotConfig, BotError, Outcome};

/// How a bot answers seeks.
#[derive(Clone, Debug)]
pub struct SeekConfig {
    /// How long a person must have waited in a pool before the bot joins it.
    pub patience: Duration,
    /// How often the bot looks at the pools.
    pub poll: Duration,
    /// Whether it answers rated seeks too (the server must allow rated bots).
    pub rated: bool,
}

impl Default for SeekConfig {
    fn default() -> SeekConfig {
        SeekConfig { patience: Duration::from_secs(10), poll: Duration::from_secs(2), rated: false }
    }
}

/// The pool a bot answers: the one whose person has waited longest, past the bot's patience.
#[must_use]
pub fn pool_to_answer<'a>(pools: &'a [SeekPool], config: &SeekConfig) -> Option<&'a SeekPool> {
    let patience = config.patience.as_millis() as u64;
    pools
        .iter()
        .filter(|p| p.people > 0 && p.longest_wait_ms >= patience && (config.rated || !p.rated))
        .max_by_key(|p| p.longest_wait_ms)
}

fn connection(e: impl std::fmt::Display) -> BotError {
    BotError::Connection(e.to_string())
}

/// Answers seeks until it has played `games` matches (`None`: for ever).
///
/// # Errors
/// [`BotError`] when the connection is gone and cannot be resumed.
pub async fn answer_seeks(
    client: &mut Client,
    config: &BotConfig,
    seeking: &SeekConfig,
    games: Option<usize>,
) -> Result<Vec<Outcome>, BotError> {
    let _ = client.declare_bot().await;
    let mut played = Vec::new();
    while games.is_none_or(|n| played.len() < n) {
        let pools = patiently(|| client.seek_pools()).await.map_err(connection)?;
        let Some(pool) = pool_to_answer(&pools, seeking).cloned() else {
            tokio::time::sleep(seeking.poll).await;
            continue;
        };
        let request = SeekRequest {
            time_control: pool.time_control.clone(),
            rules: pool.rules.clone(),
            rated: pool.rated,
            range: None,
            partner: None,
        };
        let view = match patiently(|| client.seek(request.clone())).await {
            Ok(view) => view,
            Err(e) => {
                tracing::debug!("the bot's seek was refused: {e}");
                tokio::time::sleep(seeking.poll).await;
                continue;
            }
        };
        tracing::info!(seek = view.seek, time_control = %view.time_control, "a bot answers a seek");
        let mut look = tokio::time::interval(seeking.poll);
        look.tick().await;
        let found = loop {
            tokio::select! {
                update = client.next_update() => match update {
                    Some(Update::Server(ServerMsg::MatchFound { seek, match_id, seat, .. })) if seek == view.seek => {
                        break Some((match_id, seat));
                    }
                    Some(Update::Server(ServerMsg::SeekEnded { seek, .. })) if seek == view.seek => break None,
                    Some(Update::Server(_)) => {}
                    // The seek ended with the connection.
                    Some(Update::Disconnected(_)) => {
                        resume(client).await?;
                        break None;
                    }
                    None => return Err(BotError::Connection("the update stream ended".into())),
                },
                _ = look.tick() => {
                    let pools = patiently(|| client.seek_pools()).await.map_err(connection)?;
                    let people = pools.iter().any(|p| {
                        p.time_control == view.time_control && p.rules == view.rules && p.rated == view.rated && p.people > 0
                    });
                    // Nobody to play with any more: withdraw (a match may have formed meanwhile:
                    // then the cancel is refused and the match comes).
                    if !people && client.cancel_seek(view.seek).await.is_ok() {
                        break None;
                    }
                }
            }
        };
        let Some((match_id, seat)) = found else { continue };
        // A fresh state of the match the server seated the bot in, then play it. A match that
        // is over already (a player resigned at once) is played, with nothing for the bot to do.
        match patiently(|| client.watch(match_id)).await {
            Ok(()) => played.push(play_seated(client, match_id, seat, config).await?),
            Err(shvedka_client::ClientError::Server(e))
                if e.code == shvedka_proto::ErrorCode::NoSuchMatch =>
            {
                tracing::info!(%match_id, "the match found was over before the bot looked");
                played.push(Outcome {
                    match_id,
                    seat,
                    result: None,
                    moves: 0,
                    asked: 0,
                    draws_answered: 0,
                    fallbacks: 0,
                });
            }
            Err(e) => return Err(connection(e)),
        }
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(tc: &str, rated: bool, people: u32, waited_ms: u64) -> SeekPool {
        SeekPool {
            time_control: tc.into(),
            name: None,
            rules: "mgimo-2017".into(),
            rated,
            quick: true,
            players: people,
            people,
            longest_wait_ms: waited_ms,
        }
    }

    #[test]
    fn a_bot_answers_the_longest_waiting_person_past_its_patience_and_rated_only_if_allowed() {
        let config = SeekConfig { patience: Duration::from_secs(5), ..SeekConfig::default() };
        let pools =
            [pool("1+0", false, 1, 4_000), pool("3+0", false, 2, 6_000), pool("5+0", true, 1, 60_000)];
        assert_eq!(pool_to_answer(&pools, &config).map(|p| p.time_control.as_str()), Some("3+0"));
        let rated = SeekConfig { rated: true, ..config.clone() };
        assert_eq!(pool_to_answer(&pools, &rated).map(|p| p.time_control.as_str()), Some("5+0"));
        assert_eq!(pool_to_answer(&[pool("1+0", false, 0, 0)], &config), None, "nobody waits");
    }
}
