//! A match's events for review (`ClientMsg::Review`): the stored log as its followers saw it —
//! each event's wire view, with the position and the four clocks after it — read from the
//! database, so a decided match is reviewed without bringing it back to life, and a match in
//! play is read as far as it is stored (write-ahead: everything already delivered). A client
//! rebuilds any move or instant from it by applying the events, as it does live.

use shvedka_proto::{ErrorCode, ErrorMsg, MatchEvent, MatchId, Reply};

use crate::service::convert::error;
use crate::service::rooms::Rooms;
use crate::service::session::Session;

/// The most events one page carries (their JSON stays well within a frame).
pub(crate) const REVIEW_PAGE: usize = 100;

/// The page of match `id`'s events after `after`, for a session that may reach the match.
///
/// # Errors
/// `NoSuchMatch` for a match that does not exist or that the session may not reach (a private
/// one without its code), `Unavailable` when the store cannot be read.
pub(crate) async fn page(
    rooms: &Rooms,
    session: &Session,
    id: MatchId,
    after: Option<u64>,
) -> Result<Reply, ErrorMsg> {
    let none = || error(ErrorCode::NoSuchMatch, format!("no match {id}"));
    if !rooms.reaches(session, id).await? {
        return Err(none());
    }
    let unavailable = |e: String| {
        tracing::error!(match_id = %id, error = %e, "cannot read a stored match for review");
        error(ErrorCode::Unavailable, "the stored match cannot be read now")
    };
    let store = &rooms.store;
    let row = store.find_match(id.0).await.map_err(|e| unavailable(e.to_string()))?.ok_or_else(none)?;
    let first = after.map_or(0, |a| a.saturating_add(1));
    // The page and one event more, which says whether another page follows: never the whole log.
    let rows = store
        .events_page(id.0, first, REVIEW_PAGE as u32 + 1)
        .await
        .map_err(|e| unavailable(e.to_string()))?;
    let mut events = Vec::new();
    for r in rows.iter().take(REVIEW_PAGE) {
        let view: MatchEvent = serde_json::from_str(&r.view).map_err(|e| unavailable(e.to_string()))?;
        events.push(view);
    }
    let last = events.last().map(|e| e.seq);
    let next = last.filter(|_| rows.len() > REVIEW_PAGE);
    Ok(Reply::Review {
        match_id: id,
        rules: row.created.rules,
        time_control: row.created.time_control,
        events,
        next,
    })
}
