//! A player's recent matches (`ClientMsg::RecentMatches`): the decided and annulled matches a
//! name sat in, newest first, from the players noted when each match's task ended. A private
//! match is listed only to the player himself (its id alone reaches nothing).

use shvedka_proto::{ErrorCode, ErrorMsg, MatchId, RecentMatch, Reply};

use crate::service::convert::{self, error};
use crate::service::rooms::Rooms;
use crate::service::session::Session;

/// The most matches one answer lists.
pub(crate) const RECENT: u32 = 20;

/// `name`'s recent matches, as `session` may see them.
///
/// # Errors
/// `Unavailable` when the store cannot be read.
pub(crate) async fn recent(rooms: &Rooms, session: &Session, name: &str) -> Result<Reply, ErrorMsg> {
    recent_matches(rooms, session, name).await.map(Reply::Recent)
}

/// `name`'s recent matches, as `session` may see them, newest first.
///
/// # Errors
/// `Unavailable` when the store cannot be read.
pub(crate) async fn recent_matches(
    rooms: &Rooms,
    session: &Session,
    name: &str,
) -> Result<Vec<RecentMatch>, ErrorMsg> {
    let unavailable = |e: String| {
        tracing::error!(error = %e, "cannot read a player's matches");
        error(ErrorCode::Unavailable, "the stored matches cannot be read now")
    };
    let store = &rooms.store;
    // Guests' names are not unique: a name is one's own only as an account's (which no guest may
    // take). A guest sees his private matches by the invitations his session holds.
    let own_account = session.account.is_some() && session.name.eq_ignore_ascii_case(name);
    let mut out = Vec::new();
    for id in store.player_matches(name, RECENT).await.map_err(|e| unavailable(e.to_string()))? {
        let Some(row) = store.find_match(id).await.map_err(|e| unavailable(e.to_string()))? else { continue };
        if !row.created.listed && !own_account && !session.is_invited(MatchId(id)) {
            continue;
        }
        let mut players: [String; 4] = Default::default();
        for (seat, n) in store.match_players(id).await.map_err(|e| unavailable(e.to_string()))? {
            if let Some(p) = players.get_mut(usize::from(seat)) {
                *p = n;
            }
        }
        let result = row
            .result
            .as_deref()
            .and_then(|json| serde_json::from_str::<bughouse::Adjudication>(json).ok())
            .map(|a| convert::result(&a));
        out.push(RecentMatch {
            match_id: MatchId(id),
            rules: row.created.rules,
            time_control: row.created.time_control,
            players,
            result,
            finished_ms: row.finished_ms,
        });
    }
    Ok(out)
}
