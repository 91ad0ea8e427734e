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
use shvedka_proto::{
    ErrorCode, ErrorMsg, MatchId, SeatId, TdChoice, TdExport, TdOutcome, TdRequest, TourChange,
};
use shvedka_tournament::{
    ColourChoice, Director, DirectorAct, Format, GameResult, Outcome, ResultSource, SeatingChoice, TeamNo,
    Tournament,
};
use tokio::sync::Mutex;

use crate::service::convert::error;
use crate::service::rooms::Rooms;
use crate::service::wall::unix_ms;

mod drive;
mod followers;
mod listing;
mod refusals;
mod view;

use drive::linked_matches;
pub(crate) use drive::spawn_ticker;
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
    pub(crate) async fn reservations(&self) -> HashMap<MatchId, [String; 4]> {
        let all = self.all.lock().await;
        let mut out = HashMap::new();
        for t in all.values() {
            for r in t.rounds() {
                for (_, p) in r.pairings() {
                    for g in &p.games {
                        if let (Some(seats), Some(m)) = (g.seats, g.match_id) {
                            out.insert(MatchId(m), seats.map(|s| t.player_name(s).unwrap_or("?").to_owned()));
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

    /// The registered teams of tournament `id`, strongest first by the mean of their players'
    /// ratings in the category of its time control (1500 for a player without a rating there,
    /// or without an account), ties by team number; each with that mean.
    async fn rating_order(&self, rooms: &Rooms, id: u64) -> Result<Vec<(TeamNo, f64)>, ErrorMsg> {
        let t = self.copy_of(id).await?;
        let tc = rooms.time_control(t.time_control())?;
        let category = crate::features::rater::category_of(&self.categories, &tc);
        let unavailable = |e: shvedka_storage::StoreError| {
            tracing::error!(error = %e, "cannot read ratings to seed a tournament");
            error(ErrorCode::Unavailable, "the ratings cannot be read now")
        };
        let mut order = Vec::with_capacity(t.teams().len());
        for team in t.teams() {
            let mut sum = 0.0;
            for name in &team.players {
                let account = match crate::service::accounts::name_key(name) {
                    Ok(key) => rooms.store.account_by_name(&key).await.map_err(unavailable)?,
                    Err(_) => None,
                };
                let rating = match account {
                    Some(a) => rooms.store.rating(a.id, category).await.map_err(unavailable)?,
                    None => None,
                };
                sum += rating.map_or(shvedka_ratings::Rating::default().rating, |r| r.rating);
            }
            order.push((team.id, sum / 2.0));
        }
        order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(order)
    }

    /// A director's command, by `by`: each change is logged in the tournament with who made it
    /// (`Tournament::acts`), and a result entered names its director.
    pub(crate) async fn director(
        &self,
        rooms: &Rooms,
        by: &Official,
        req: TdRequest,
    ) -> Result<shvedka_proto::Reply, ErrorMsg> {
        use shvedka_proto::Reply;
        self.here()?;
        let by = match by {
            Official::Account(name) => Director::Account(name.clone()),
            _ => Director::Secret,
        };
        let now = unix_ms();
        let act = |what: String| DirectorAct { at_ms: now, by: by.clone(), what };
        match req {
            TdRequest::Create { name, rules, time_control, swiss_rounds, online } => {
                bughouse::RuleOptions::preset(&rules)
                    .map_err(|e| error(ErrorCode::BadRequest, e.to_string()))?;
                rooms.time_control(&time_control)?;
                let format = match swiss_rounds {
                    None => Format::RoundRobin,
                    Some(rounds) => Format::Swiss { rounds },
                };
                let mut t = Tournament::new(&name, &rules, &time_control, format).map_err(refused)?;
                t.note_act(act(format!("created the tournament {name}")));
                let id = self.next.fetch_add(1, Ordering::Relaxed);
                save(rooms, id, &t, online).await?;
                if !online {
                    self.offline.lock().expect("offline lock").insert(id);
                }
                self.all.lock().await.insert(id, t);
                Ok(Reply::Id(id))
            }
            TdRequest::Register { tournament, team, players } => {
                let [a, b] = &players;
                self.change(
                    rooms,
                    tournament,
                    |t| {
                        room_for_a_team(t)?;
                        let n = t.register(&team, [a, b]).map_err(refused)?;
                        t.note_act(act(format!("registered team {} {team} ({a}, {b})", n.0)));
                        Ok(n)
                    },
                    |n| Some(TourChange::Registered { team: n.0 }),
                )
                .await
                .map(|n| Reply::Id(u64::from(n.0)))
            }
            TdRequest::Withdraw { tournament, team } => self
                .change(
                    rooms,
                    tournament,
                    |t| {
                        t.withdraw(TeamNo(team)).map_err(refused)?;
                        t.note_act(act(format!("withdrew team {team}")));
                        Ok(())
                    },
                    |()| Some(TourChange::Withdrew { team }),
                )
                .await
                .map(|()| Reply::Ok),
            TdRequest::SeedByRating { tournament } => {
                let order = self.rating_order(rooms, tournament).await?;
                let text: Vec<String> = order.iter().map(|(t, r)| format!("{} ({r:.0})", t.0)).collect();
                let teams: Vec<TeamNo> = order.iter().map(|(t, _)| *t).collect();
                self.change(
                    rooms,
                    tournament,
                    |t| {
                        t.seed(&teams).map_err(refused)?;
                        t.note_act(act(format!("seeded the teams by rating: {}", text.join(", "))));
                        Ok(())
                    },
                    |()| Some(TourChange::Seeded),
                )
                .await
                .map(|()| Reply::Ok)
            }
            TdRequest::Start { tournament } => self
                .change(
                    rooms,
                    tournament,
                    |t| {
                        t.start().map_err(refused)?;
                        t.note_act(act("started the tournament".to_owned()));
                        Ok(())
                    },
                    |()| Some(TourChange::Started),
                )
                .await
                .map(|()| Reply::Ok),
            TdRequest::PairNext { tournament, choice_window_ms } => {
                let round = self
                    .change(
                        rooms,
                        tournament,
                        |t| {
                            let round = t.pair_next_round(now, choice_window_ms).map_err(refused)?;
                            t.note_act(act(format!("paired round {round}")));
                            Ok(round)
                        },
                        |&round| Some(TourChange::Paired { round }),
                    )
                    .await?;
                Ok(Reply::Id(u64::from(round)))
            }
            TdRequest::Result { tournament, round, table, game, outcome, reason, correct } => {
                if reason.chars().count() > MAX_NOTE {
                    return Err(error(
                        ErrorCode::BadRequest,
                        format!("the reason of a result has at most {MAX_NOTE} characters"),
                    ));
                }
                let what = format!(
                    "{} the result of round {round} table {table} game {game}: {outcome:?} ({reason})",
                    if correct { "corrected" } else { "entered" }
                );
                let result =
                    GameResult::new(outcome_of(outcome), ResultSource::OverTheBoard, reason).by(by.clone());
                self.change(
                    rooms,
                    tournament,
                    |t| {
                        if correct {
                            t.correct_result(round, table, game, result).map_err(refused)?;
                        } else {
                            t.record_result(round, table, game, result).map_err(refused)?;
                        }
                        t.note_act(act(what));
                        Ok(())
                    },
                    |()| {
                        Some(if correct {
                            TourChange::Corrected { round, table, game }
                        } else {
                            TourChange::Result { round, table, game }
                        })
                    },
                )
                .await
                .map(|()| Reply::Ok)
            }
            TdRequest::Publish { tournament, what } => {
                self.publish(rooms, tournament, what).await.map(Reply::Text)
            }
        }
    }

    async fn publish(&self, rooms: &Rooms, id: u64, what: TdExport) -> Result<String, ErrorMsg> {
        let t = self.copy_of(id).await?;
        Ok(match what {
            TdExport::Standings => t.standings().to_text(),
            TdExport::StandingsCsv => t.standings().to_csv(),
            TdExport::Crosstable => t.crosstable().to_text(),
            TdExport::CrosstableCsv => t.crosstable().to_csv(),
            TdExport::Html => t.to_html(),
            TdExport::Sheet { round } => t.pairing_sheet(round, 0).map_err(refused)?,
            TdExport::State => {
                serde_json::to_string_pretty(&t).map_err(|e| error(ErrorCode::Rejected, e.to_string()))?
            }
            TdExport::Games => {
                let mut all = String::new();
                for (m, result) in linked_matches(&t) {
                    if let Ok(Some(bpgn)) = rooms.record_of(m).await {
                        all.push_str(&with_director(bpgn, result.as_ref()));
                        all.push('\n');
                    }
                }
                all
            }
        })
    }

    /// A player's S3 choice: the session's name must be a player of the team whose turn it is.
    pub(crate) async fn choose(
        &self,
        rooms: &Rooms,
        name: &str,
        id: u64,
        round: u32,
        game: u32,
        choice: TdChoice,
    ) -> Result<(), ErrorMsg> {
        self.here()?;
        let now = unix_ms();
        self.change(
            rooms,
            id,
            |t| {
                let team = t
                    .teams()
                    .iter()
                    .find(|team| team.players.iter().any(|p| p == name))
                    .map(|team| team.id)
                    .ok_or_else(|| {
                        refusals::refusal_of(
                            shvedka_proto::TourRefusal::NotAMember,
                            format!("{name} plays for no team of tournament {id}"),
                        )
                    })?;
                match choice {
                    TdChoice::Straight => t.choose_seating(now, round, team, game, SeatingChoice::Straight),
                    TdChoice::Crossed => t.choose_seating(now, round, team, game, SeatingChoice::Crossed),
                    TdChoice::WhiteOnA => t.choose_colours(now, round, team, game, ColourChoice::WhiteOnA),
                    TdChoice::WhiteOnB => t.choose_colours(now, round, team, game, ColourChoice::WhiteOnB),
                }
                .map_err(refused)?;
                Ok(t.round(round).and_then(|r| r.pairing_of(team)).map_or(0, |(table, _)| table))
            },
            |&table| Some(TourChange::Chose { round, table, game }),
        )
        .await
        .map(|_| ())
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

/// A game's record with the director's act on its result as a comment of the record (a result a
/// director entered or corrected: `director alice: ...`, `director (secret): ...`).
fn with_director(bpgn: String, result: Option<&GameResult>) -> String {
    let Some(GameResult { by: Some(by), outcome, reason, .. }) = result else { return bpgn };
    let Ok(mut records) = shvedka_records::parse_bpgn(&bpgn) else { return bpgn };
    let [record] = records.as_mut_slice() else { return bpgn };
    let who = match by {
        Director::Account(name) => format!("director {name}"),
        Director::Secret => "director (secret)".to_owned(),
    };
    let note = format!("{who}: tournament result {outcome:?} ({reason})").replace('}', ")");
    record.comment = Some(match record.comment.take() {
        Some(c) => format!("{c}; {note}"),
        None => note,
    });
    record.to_bpgn()
}

/// Refuses a team past the most a tournament carried as data has (`TOURNAMENT_TEAMS`).
fn room_for_a_team(t: &Tournament) -> Result<(), ErrorMsg> {
    if t.teams().len() >= shvedka_proto::TOURNAMENT_TEAMS {
        return Err(error(
            ErrorCode::Limit(shvedka_proto::Limit::TournamentTeams),
            format!("a tournament has at most {} teams here", shvedka_proto::TOURNAMENT_TEAMS),
        ));
    }
    Ok(())
}

fn outcome_of(o: TdOutcome) -> Outcome {
    match o {
        TdOutcome::FirstWins => Outcome::FirstWins,
        TdOutcome::SecondWins => Outcome::SecondWins,
        TdOutcome::Draw => Outcome::Draw,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A tournament takes teams up to the most the server carries as data, and the next is
    /// refused with the limit named.
    #[test]
    fn the_team_past_the_most_a_view_carries_is_refused_with_its_limit() {
        let mut t = Tournament::new("night", "mgimo-2017", "3+2", Format::RoundRobin).expect("a tournament");
        for i in 0..shvedka_proto::TOURNAMENT_TEAMS {
            room_for_a_team(&t).expect("room");
            t.register(&format!("team {i}"), [&format!("p{i}a"), &format!("p{i}b")]).expect("a team");
        }
        let refused = room_for_a_team(&t).unwrap_err();
        assert_eq!(refused.code, ErrorCode::Limit(shvedka_proto::Limit::TournamentTeams));
    }
}
