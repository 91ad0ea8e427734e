//! The connections following a tournament (`ClientMsg::FollowTournament`): each is pushed the
//! tournament whole at every change, encoded once for all of them. A connection follows one
//! tournament at a time, and leaves when it ends, so what is held is bounded by the connections
//! open. A push never waits: a connection whose queue is full is one that cannot keep up, and
//! closes as any does (its client resumes and follows again); a closed one is forgotten.

use std::collections::HashMap;
use std::sync::Mutex;

use shvedka_proto::{ServerMsg, TourChange, TournamentView};

use crate::service::encoding::Shared;
use crate::service::outbound::Outbound;

/// Followers by tournament.
#[derive(Default)]
pub(crate) struct Followers(Mutex<HashMap<u64, Vec<Outbound>>>);

impl Followers {
    /// `out` follows tournament `id` from now on (and no other), and is pushed `view` first.
    pub(crate) fn follow(&self, id: u64, out: &Outbound, view: TournamentView) {
        let mut all = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        leave(&mut all, out);
        out.push(ServerMsg::Tournament { change: TourChange::Followed, view: Box::new(view) });
        all.entry(id).or_default().push(out.clone());
    }

    /// `out` follows no tournament.
    pub(crate) fn unfollow(&self, out: &Outbound) {
        leave(&mut self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner), out);
    }

    /// Whether anyone follows tournament `id` (a view is built only for someone).
    pub(crate) fn any(&self, id: u64) -> bool {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).contains_key(&id)
    }

    /// Pushes tournament `id`'s change to its followers.
    pub(crate) fn push(&self, id: u64, change: TourChange, view: TournamentView) {
        let mut all = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(followers) = all.get_mut(&id) else { return };
        let msg = Shared::new(ServerMsg::Tournament { change, view: Box::new(view) });
        followers.retain(|out| {
            out.push_shared(&msg);
            !out.is_closed()
        });
        if followers.is_empty() {
            all.remove(&id);
        }
    }

    /// Connections following, all tournaments together.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).values().map(Vec::len).sum()
    }
}

fn leave(all: &mut HashMap<u64, Vec<Outbound>>, out: &Outbound) {
    all.retain(|_, followers| {
        followers.retain(|f| !f.same(out));
        !followers.is_empty()
    });
}

#[cfg(test)]
mod tests {
    use shvedka_proto::{TournamentFormat, TournamentPhase, TournamentSummary};

    use super::*;
    use crate::service::outbound::OutboundRx;

    fn view(id: u64) -> TournamentView {
        TournamentView {
            summary: TournamentSummary {
                id,
                name: "night".into(),
                phase: TournamentPhase::Registering,
                format: TournamentFormat::RoundRobin,
                rules: "mgimo-2017".into(),
                time_control: "3+2".into(),
                online: true,
                chess960: false,
                teams: 0,
                rounds_paired: 0,
            },
            teams: Vec::new(),
            round: None,
            standings: Vec::new(),
            registration_open: true,
            check_in: false,
            checked_in: Vec::new(),
            invitations: Vec::new(),
            most_rounds: 0,
            now_ms: 0,
        }
    }

    /// The tournament pushes waiting in `rx`, as (id, change).
    fn pushes(rx: &mut OutboundRx) -> Vec<(u64, TourChange)> {
        std::iter::from_fn(|| rx.try_recv())
            .filter_map(|o| match o.msg() {
                ServerMsg::Tournament { change, view } => Some((view.summary.id, *change)),
                _ => None,
            })
            .collect()
    }

    /// A connection follows one tournament at a time; a closed one is forgotten at the next push;
    /// what is held is bounded by the connections open.
    #[tokio::test]
    async fn a_connection_follows_one_tournament_and_is_forgotten_when_closed() {
        let followers = Followers::default();
        let (anna, mut anna_rx) = Outbound::channel(8);
        let (boris, mut boris_rx) = Outbound::channel(8);
        followers.follow(1, &anna, view(1));
        followers.follow(1, &boris, view(1));
        assert_eq!(pushes(&mut anna_rx), [(1, TourChange::Followed)], "the state comes first");
        followers.push(1, TourChange::Started, view(1));
        assert_eq!(pushes(&mut anna_rx), [(1, TourChange::Started)]);
        assert_eq!(pushes(&mut boris_rx), [(1, TourChange::Followed), (1, TourChange::Started)]);

        followers.follow(2, &boris, view(2));
        followers.push(1, TourChange::Seeded, view(1));
        assert_eq!(pushes(&mut boris_rx), [(2, TourChange::Followed)], "following 2 left 1");
        assert_eq!(followers.len(), 2);

        drop(anna_rx);
        followers.push(1, TourChange::Seeded, view(1));
        assert!(!followers.any(1), "a closed connection is forgotten");
        followers.unfollow(&boris);
        assert_eq!(followers.len(), 0);
        followers.push(2, TourChange::Seeded, view(2));
        assert!(pushes(&mut boris_rx).is_empty(), "following none, nothing comes");
    }

    /// A push never waits: a follower whose queue is full is told it has fallen behind (its
    /// connection closes as one that cannot keep up).
    #[tokio::test]
    async fn a_follower_that_cannot_keep_up_is_told_and_nobody_waits() {
        let followers = Followers::default();
        let (slow, _rx) = Outbound::channel(1);
        followers.follow(1, &slow, view(1));
        followers.push(1, TourChange::Started, view(1));
        tokio::time::timeout(std::time::Duration::from_secs(1), slow.fallen_behind())
            .await
            .expect("the full queue raised the signal");
    }
}
