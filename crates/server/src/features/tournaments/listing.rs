//! What anyone may read of the tournaments: the list by pages, one round, and following one
//! (`ClientMsg::Tournaments`, `TournamentRound`, `FollowTournament`).

use shvedka_proto::ErrorMsg;

use super::{PAGE, Tournaments, refusals, view};

impl Tournaments {
    /// A page of the tournaments, newest first, after `after`; with the `after` of the next page.
    pub(super) async fn page(
        &self,
        after: Option<u64>,
        limit: u32,
    ) -> Result<(Vec<shvedka_proto::TournamentSummary>, Option<u64>), ErrorMsg> {
        self.here()?;
        let limit = usize::try_from(limit).unwrap_or(PAGE).clamp(1, PAGE);
        let all = self.all.lock().await;
        let mut ids: Vec<u64> = all.keys().copied().filter(|id| after.is_none_or(|a| *id < a)).collect();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        let next = (ids.len() > limit).then(|| ids[limit - 1]);
        let page = ids
            .into_iter()
            .take(limit)
            .filter_map(|id| all.get(&id).map(|t| view::summary(id, t, self.online(id))))
            .collect();
        Ok((page, next))
    }

    /// `out` follows tournament `id`: pushed the tournament whole now, and at every change.
    ///
    /// # Errors
    /// `BadRequest` for no such tournament; `Unavailable` on a node that does not run the
    /// tournaments (cluster mode), naming the one that does.
    pub(crate) async fn follow(
        &self,
        id: u64,
        out: &crate::service::outbound::Outbound,
    ) -> Result<(), ErrorMsg> {
        self.here()?;
        // Under the lock: no change is pushed between the state and the follower's joining.
        let all = self.all.lock().await;
        let t = all.get(&id).ok_or_else(|| refusals::no_tournament(id))?;
        self.followers.follow(id, out, view::view(id, t, self.online(id)));
        Ok(())
    }

    /// `out` follows no tournament (asked, or its connection ended).
    pub(crate) fn unfollow(&self, out: &crate::service::outbound::Outbound) {
        self.followers.unfollow(out);
    }

    /// Round `n` of tournament `id`.
    pub(super) async fn round(&self, id: u64, n: u32) -> Result<shvedka_proto::RoundView, ErrorMsg> {
        self.here()?;
        let t = self.copy_of(id).await?;
        let r = t.round(n).ok_or_else(|| {
            refusals::refusal_of(
                shvedka_proto::TourRefusal::UnknownRound { round: n },
                format!("tournament {id} has no round {n}"),
            )
        })?;
        Ok(view::round(&t, r))
    }
}
