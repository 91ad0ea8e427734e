//! Leaderboards and profiles (`ClientMsg::Leaderboard`, `ClientMsg::Profile`): what the store
//! keeps of ratings, shaped as players read it — rounded numbers with the provisional mark, a
//! rating's recent history, the partnerships played most, and the recent matches.

use shvedka_proto::{
    CategoryProfile, ErrorCode, ErrorMsg, HistoryPoint, LeaderRow, MatchId, PartnerView, PlayerKind,
    ProfileView, Reply,
};
use shvedka_ratings::{Category, PROVISIONAL_ABOVE};
use shvedka_storage::StoreError;

use crate::features::rater::{shown, view};
use crate::service::convert::error;
use crate::service::rooms::Rooms;
use crate::service::session::Session;

/// History points a profile shows per category.
pub(crate) const HISTORY: u32 = 30;

/// Partnerships a profile shows per category.
pub(crate) const PARTNERS: u32 = 5;

fn unavailable(e: &StoreError) -> ErrorMsg {
    tracing::error!(error = %e, "cannot read ratings");
    error(ErrorCode::Unavailable, "the ratings cannot be read now")
}

fn category(name: &str) -> Result<Category, ErrorMsg> {
    Category::parse(name).ok_or_else(|| {
        let known: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
        error(
            ErrorCode::Invalid(shvedka_proto::Invalid::RatingCategory),
            format!("no rating category {name:?}; there are {}", known.join(", ")),
        )
    })
}

/// The ranked players of a category, best first.
///
/// # Errors
/// `BadRequest` for an unknown category; `Unavailable`.
pub(crate) async fn leaderboard(rooms: &Rooms, size: u32, name: &str) -> Result<Reply, ErrorMsg> {
    let category = category(name)?.as_str();
    let store = &rooms.store;
    let rows = store.leaderboard(category, PROVISIONAL_ABOVE, size).await.map_err(|e| unavailable(&e))?;
    let rows = rows
        .iter()
        .zip(1..)
        .map(|(r, rank)| LeaderRow { rank, name: r.name.clone(), rating: view(category, &r.rating) })
        .collect();
    Ok(Reply::Leaderboard { category: category.to_owned(), rows })
}

/// An account's profile.
///
/// # Errors
/// `NoSuchAccount` when no enabled account has the name; `Unavailable`.
pub(crate) async fn profile(rooms: &Rooms, session: &Session, name: &str) -> Result<Reply, ErrorMsg> {
    let store = &rooms.store;
    let none = || error(ErrorCode::NoSuchAccount, format!("no account is named {name:?}"));
    let key = crate::service::accounts::name_key(name).map_err(|_| none())?;
    let account = store.account_by_name(&key).await.map_err(|e| unavailable(&e))?;
    let account = account.filter(|a| !a.disabled).ok_or_else(none)?;
    let mut categories = Vec::new();
    for (category, rating) in store.ratings_of(account.id).await.map_err(|e| unavailable(&e))? {
        let mut history = store.history(account.id, &category, HISTORY).await.map_err(|e| unavailable(&e))?;
        // A private match is nobody else's business: its point is shown to its player alone
        // (the rating itself is public; the match's id would lead to it).
        if session.account != Some(account.id) {
            let mut shown = Vec::with_capacity(history.len());
            for h in history {
                let found = store.find_match(h.match_id).await.map_err(|e| unavailable(&e))?;
                if found.is_some_and(|m| m.created.listed) {
                    shown.push(h);
                }
            }
            history = shown;
        }
        let history = history
            .iter()
            .map(|h| HistoryPoint {
                match_id: MatchId(h.match_id),
                at_ms: h.at_ms,
                before: shown(h.before),
                after: shown(h.after),
            })
            .collect();
        let mut partners = Vec::new();
        for (partner, pair) in
            store.partners(account.id, &category, PARTNERS).await.map_err(|e| unavailable(&e))?
        {
            if let Some(p) = store.account(partner).await.map_err(|e| unavailable(&e))? {
                partners.push(PartnerView { name: p.name, rating: view(&category, &pair) });
            }
        }
        categories.push(CategoryProfile { rating: view(&category, &rating), history, partners });
    }
    // Bullet, blitz, rapid: the order players know.
    categories.sort_by_key(|c| Category::parse(&c.rating.category));
    let recent = crate::features::played::recent_matches(rooms, session, &account.name).await?;
    Ok(Reply::Profile(ProfileView {
        kind: if account.bot { PlayerKind::Bot } else { PlayerKind::Account },
        name: account.name,
        created_ms: account.created_ms,
        categories,
        recent,
    }))
}
