//! Tournaments on the server: the director's commands, the teams' S3 choices, the online games
//! (a match created with its four seats reserved once both choices are known, game 2 after game 1
//! is decided), and their results recorded as the matches end. The logic is `shvedka-tournament`;
//! this module persists each tournament whole after every change (a change that cannot be stored
//! is refused and leaves the tournament as it was) and drives the games from a ticker.
//!
//! In cluster mode one node runs the tournaments: the holder of the `tournaments` role (a lease
//! in the database, [`ROLE`]), checked at every turn of the ticker. A node that takes the role
//! reads every tournament back from the database first; the others refuse tournament requests,
//! naming the node that runs them.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

use bughouse_match::Official;
use shvedka_proto::{ErrorCode, ErrorMsg, MatchId, SeatId, TdChoice, TdRequest, TourChange};
use shvedka_tournament::Tournament;
use tokio::sync::Mutex;

use crate::service::convert::error;
use crate::service::rooms::Rooms;

mod director;
mod drive;
mod entry;
mod followers;
mod listing;
mod refusals;
mod results;
mod view;

pub(crate) use drive::spawn_ticker;
pub(crate) use entry::with_partner_account;
use followers::Followers;

/// A tournament request, as the node that drives the tournaments answers it: from its own
/// players, or forwarded from another node's (cluster mode).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum TourAsk {
    /// A director's command, by `by` (known to be a director).
    Director { by: Official, req: TdRequest },
    /// A player's choice for his game, by his account name.
    Choose { name: String, tournament: u64, round: u32, game: u32, choice: TdChoice },
    /// A player's game now, by his account name.
    Assignment { name: String, tournament: u64 },
    /// A page of the tournaments, newest first.
    List { after: Option<u64>, limit: u32 },
    /// A player's entry request, by his account name.
    Entry { name: String, req: shvedka_proto::EntryRequest },
    /// One round of a tournament.
    Round { tournament: u64, round: u32 },
}

/// The most tournaments one page lists.
pub(crate) const PAGE: usize = 50;

/// The most characters of a director's words on a result (`TdRequest::Result::reason`): they
/// travel in every view of the tournament.
pub(crate) const MAX_NOTE: usize = 100;

/// The cluster role of the node that runs the tournaments.
pub(crate) const ROLE: &str = "tournaments";

/// Which node runs the tournaments.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Driver {
    /// This one (always, outside cluster mode).
    Here,
    /// Another node of the cluster.
    Elsewhere(String),
    /// Not known yet, or the database cannot say now.
    Unknown,
}

/// Every tournament of the server.
pub(crate) struct Tournaments {
    all: Mutex<HashMap<u64, Tournament>>,
    next: AtomicU64,
    /// Tournaments played over the board: no online matches are created for their games.
    offline: std::sync::Mutex<HashSet<u64>>,
    driver: std::sync::Mutex<Driver>,
    /// The rating categories (seeding by rating).
    categories: shvedka_ratings::Categories,
    /// The connections following a tournament.
    followers: Followers,
}

fn refused(e: shvedka_tournament::TournamentError) -> ErrorMsg {
    refusals::refused(&e)
}

impl Tournaments {
    /// The stored tournaments; `clustered` for a node of a cluster, which runs them only once it
    /// holds the role.
    pub(crate) fn new(
        stored: Stored,
        clustered: bool,
        categories: shvedka_ratings::Categories,
    ) -> Tournaments {
        let next = stored.iter().map(|(id, ..)| id + 1).max().unwrap_or(1);
        let offline = stored.iter().filter(|(_, online, _)| !online).map(|(id, ..)| *id).collect();
        Tournaments {
            all: Mutex::new(stored.into_iter().map(|(id, _, t)| (id, t)).collect()),
            next: AtomicU64::new(next),
            offline: std::sync::Mutex::new(offline),
            driver: std::sync::Mutex::new(if clustered { Driver::Unknown } else { Driver::Here }),
            categories,
            followers: Followers::default(),
        }
    }

    /// Answers a tournament request.
    pub(crate) async fn answer(&self, rooms: &Rooms, ask: TourAsk) -> Result<shvedka_proto::Reply, ErrorMsg> {
        use shvedka_proto::Reply;
        match ask {
            TourAsk::Director { by, req } => self.director(rooms, &by, req).await,
            TourAsk::Choose { name, tournament, round, game, choice } => {
                self.choose(rooms, &name, tournament, round, game, choice).await.map(|()| Reply::Ok)
            }
            TourAsk::Assignment { name, tournament } => {
                let (game, finished) = self.assignment(tournament, &name).await?;
                Ok(Reply::Assigned { game, finished })
            }
            TourAsk::List { after, limit } => {
                let (tournaments, next) = self.page(after, limit).await?;
                Ok(Reply::TournamentPage { tournaments, next })
            }
            TourAsk::Round { tournament, round } => {
                self.round(tournament, round).await.map(Reply::TournamentRound)
            }
            TourAsk::Entry { name, req } => self.entry(rooms, &name, req).await,
        }
    }

    /// The node that drives the tournaments, when it is another one (cluster mode).
    pub(crate) fn driver_elsewhere(&self) -> Option<String> {
        match &*self.driver.lock().expect("driver lock") {
            Driver::Elsewhere(node) => Some(node.clone()),
            _ => None,
        }
    }

    /// Refuses a request unless this node runs the tournaments.
    fn here(&self) -> Result<(), ErrorMsg> {
        match &*self.driver.lock().expect("driver lock") {
            Driver::Here => Ok(()),
            Driver::Elsewhere(node) => Err(error(
                ErrorCode::Unavailable,
                format!("the tournaments are run by node {node} of this cluster; connect to it"),
            )),
            Driver::Unknown => Err(error(
                ErrorCode::Unavailable,
                "this node cannot tell now which node runs the tournaments; try again",
            )),
        }
    }

    /// Cluster mode: checks that this node holds the tournaments' role, taking it when nobody
    /// alive does; a node that takes it reads every tournament back from the database first.
    /// `true` when this node runs them now.
    async fn hold_role(&self, rooms: &Rooms) -> bool {
        let Some(leases) = rooms.store.leases() else { return true };
        let driver = match leases.take_role(ROLE).await {
            Ok(shvedka_storage::Take::Taken { .. }) => Driver::Here,
            Ok(shvedka_storage::Take::Held { node }) => Driver::Elsewhere(node),
            Err(e) => {
                tracing::warn!(error = %e, "cannot check which node runs the tournaments");
                Driver::Unknown
            }
        };
        let was = self.driver.lock().expect("driver lock").clone();
        if driver == Driver::Here && was != Driver::Here {
            // Another node may have changed them since this one read them.
            let rows = match rooms.store.tournaments().await {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read the tournaments back; trying again");
                    return false;
                }
            };
            let fresh = Tournaments::new(load(rows), false, self.categories);
            let mut all = self.all.lock().await;
            *all = fresh.all.into_inner();
            self.next.store(fresh.next.into_inner(), Ordering::SeqCst);
            *self.offline.lock().expect("offline lock") = fresh.offline.into_inner().expect("offline lock");
            tracing::info!(tournaments = all.len(), "this node runs the tournaments now");
        }
        let here = driver == Driver::Here;
        *self.driver.lock().expect("driver lock") = driver;
        here
    }

    fn online(&self, id: u64) -> bool {
        !self.offline.lock().expect("offline lock").contains(&id)
    }

    /// The reserved seats of every linked tournament game, by match.
    pub(crate) async fn reservations(&self) -> HashMap<MatchId, crate::service::rooms::TourSeats> {
        let all = self.all.lock().await;
        let mut out = HashMap::new();
        for (&id, t) in all.iter() {
            for r in t.rounds() {
                for (table, p) in r.pairings() {
                    for (game, g) in (1..).zip(&p.games) {
                        if let (Some(seats), Some(m)) = (g.seats, g.match_id) {
                            let at = shvedka_tournament::GameRef { round: r.number, table, game };
                            out.insert(MatchId(m), drive::tour_seats(id, t, at, p, seats));
                        }
                    }
                }
            }
        }
        out
    }

    /// Applies `f` to a copy of tournament `id`, stores the copy, and only then keeps it.
    /// Its followers are pushed the tournament as it now stands, with `what(&T)` (`None`: nothing
    /// they see changed).
    async fn change<T>(
        &self,
        rooms: &Rooms,
        id: u64,
        f: impl FnOnce(&mut Tournament) -> Result<T, ErrorMsg>,
        what: impl FnOnce(&T) -> Option<TourChange>,
    ) -> Result<T, ErrorMsg> {
        let mut all = self.all.lock().await;
        let current = all.get(&id).ok_or_else(|| refusals::no_tournament(id))?;
        let mut copy = current.clone();
        let out = f(&mut copy)?;
        save(rooms, id, &copy, self.online(id)).await?;
        if let Some(change) = what(&out)
            && self.followers.any(id)
        {
            self.followers.push(id, change, view::view(id, &copy, self.online(id)));
        }
        all.insert(id, copy);
        Ok(out)
    }

    /// A copy of tournament `id` as it stands.
    async fn copy_of(&self, id: u64) -> Result<Tournament, ErrorMsg> {
        self.all.lock().await.get(&id).cloned().ok_or_else(|| refusals::no_tournament(id))
    }

    /// Where player `name` plays now: a linked game without a result that seats him.
    pub(crate) async fn assignment(
        &self,
        id: u64,
        name: &str,
    ) -> Result<(Option<(MatchId, SeatId)>, bool), ErrorMsg> {
        self.here()?;
        let all = self.all.lock().await;
        let t = all.get(&id).ok_or_else(|| refusals::no_tournament(id))?;
        let Some(round) = t.rounds().last() else { return Ok((None, t.is_finished())) };
        for (_, p) in round.pairings() {
            for g in &p.games {
                let (Some(seats), Some(m), None) = (g.seats, g.match_id, &g.result) else { continue };
                if let Some(i) = seats.iter().position(|s| t.player_name(*s) == Some(name)) {
                    return Ok((Some((MatchId(m), SeatId::ALL[i])), false));
                }
            }
        }
        Ok((None, t.is_finished()))
    }
}

async fn save(rooms: &Rooms, id: u64, t: &Tournament, online: bool) -> Result<(), ErrorMsg> {
    let json = serde_json::json!({ "online": online, "tournament": t }).to_string();
    rooms.store.save_tournament(id, &json).await.map_err(|e| {
        tracing::error!(tournament = id, error = %e, "cannot store the tournament");
        if matches!(e, shvedka_storage::StoreError::RoleFenced { .. }) {
            // Cluster mode: another node took the tournaments over; this one learns which at
            // its ticker's next turn.
            return error(
                ErrorCode::Unavailable,
                "another node drives the tournaments now; nothing changed here, try again",
            );
        }
        error(ErrorCode::Full, "the tournament cannot be stored now; nothing changed")
    })
}

/// Stored tournaments: id, played online, state.
pub(crate) type Stored = Vec<(u64, bool, Tournament)>;

#[derive(serde::Deserialize)]
struct Persisted {
    online: bool,
    tournament: Tournament,
}

/// Reads the stored tournaments; one that no longer reads is skipped with an error in the log.
pub(crate) fn load(rows: Vec<(u64, String)>) -> Stored {
    rows.into_iter()
        .filter_map(|(id, json)| match serde_json::from_str::<Persisted>(&json) {
            Ok(p) => Some((id, p.online, p.tournament)),
            Err(e) => {
                tracing::error!(tournament = id, error = %e, "cannot read a stored tournament; skipped");
                None
            }
        })
        .collect()
}
