//! A tournament director's commands: create, register and withdraw teams, open and close
//! registration, check teams in, seed, start, see the computer's pairing and pair a round (as
//! proposed, or by hand), enter and correct results, publish. Each change is logged in the
//! tournament with the director who made it (`Tournament::acts`).

use std::sync::atomic::Ordering;

use bughouse_match::Official;
use shvedka_proto::{ErrorCode, ErrorMsg, Reply, TdExport, TdRequest, TourChange};
use shvedka_tournament::{Director, DirectorAct, Format, GameRef, GameResult, Language, TeamNo, Tournament};

use super::{Tournaments, drive::linked_matches, refused, results, save, view};
use crate::service::convert::error;
use crate::service::rooms::Rooms;
use crate::service::wall::unix_ms;

impl Tournaments {
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
        official: &Official,
        req: TdRequest,
    ) -> Result<Reply, ErrorMsg> {
        self.here()?;
        let by = match official {
            Official::Account(name) => Director::Account(name.clone()),
            _ => Director::Secret,
        };
        let now = unix_ms();
        let act = |what: String| DirectorAct { at_ms: now, by: by.clone(), what };
        match req {
            TdRequest::Create { name, rules, time_control, swiss_rounds, online, check_in, chess960 } => {
                bughouse::RuleOptions::preset(&rules).map_err(|e| {
                    error(ErrorCode::Invalid(shvedka_proto::Invalid::RulePreset), e.to_string())
                })?;
                rooms.time_control(&time_control)?;
                let format = match swiss_rounds {
                    None => Format::RoundRobin,
                    Some(rounds) => Format::Swiss { rounds },
                };
                let mut t = Tournament::new(&name, &rules, &time_control, format).map_err(refused)?;
                t.set_check_in(check_in);
                t.set_chess960(chess960).map_err(refused)?;
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
            TdRequest::Result { tournament, round, table, game, outcome, reason, correct, end_game } => {
                let at = results::At { tournament, round, table, game };
                let entry = results::Entry { outcome, reason, correct, end_game };
                self.enter_result(rooms, (official, &act(String::new())), at, entry).await.map(|()| Reply::Ok)
            }
            TdRequest::ClearResult { tournament, round, table, game } => {
                let at = results::At { tournament, round, table, game };
                self.clear_result(rooms, &act(String::new()), at).await.map(|()| Reply::Ok)
            }
            TdRequest::Registration { tournament, open } => self
                .change(
                    rooms,
                    tournament,
                    |t| {
                        t.set_registration_open(open).map_err(refused)?;
                        t.note_act(act(format!("{} registration", if open { "opened" } else { "closed" })));
                        Ok(())
                    },
                    |()| Some(TourChange::Registration { open }),
                )
                .await
                .map(|()| Reply::Ok),
            TdRequest::Settings { tournament, swiss_rounds, check_in } => self
                .change(
                    rooms,
                    tournament,
                    |t| {
                        if let Some(rounds) = swiss_rounds {
                            t.set_swiss_rounds(rounds).map_err(refused)?;
                        }
                        t.set_check_in(check_in);
                        t.note_act(act(format!(
                            "settings: swiss rounds {swiss_rounds:?}, check-in {check_in}"
                        )));
                        Ok(())
                    },
                    |()| Some(TourChange::Settings),
                )
                .await
                .map(|()| Reply::Ok),
            TdRequest::CheckIn { tournament, team } => self
                .change(
                    rooms,
                    tournament,
                    |t| {
                        t.check_in_team(TeamNo(team)).map_err(refused)?;
                        t.note_act(act(format!("checked team {team} in")));
                        Ok(())
                    },
                    |()| Some(TourChange::CheckedIn { team }),
                )
                .await
                .map(|()| Reply::Ok),
            TdRequest::Preview { tournament } => {
                let t = self.copy_of(tournament).await?;
                let proposal = t.propose_next_round(now, 0).map_err(refused)?;
                Ok(Reply::TournamentRound(view::round(&t, &proposal)))
            }
            TdRequest::PairByHand { tournament, choice_window_ms, tables, byes } => {
                let tables: Vec<(TeamNo, TeamNo)> =
                    tables.iter().map(|[a, b]| (TeamNo(*a), TeamNo(*b))).collect();
                let byes: Vec<TeamNo> = byes.into_iter().map(TeamNo).collect();
                let text: Vec<String> = tables.iter().map(|(a, b)| format!("{}–{}", a.0, b.0)).collect();
                let round = self
                    .change(
                        rooms,
                        tournament,
                        |t| {
                            let round = t
                                .pair_next_round_by_hand(now, choice_window_ms, &tables, &byes, by.clone())
                                .map_err(refused)?;
                            let byes: Vec<String> = byes.iter().map(|b| b.0.to_string()).collect();
                            t.note_act(act(format!(
                                "paired round {round} by hand: {}; byes: {}",
                                text.join(", "),
                                byes.join(", ")
                            )));
                            Ok(round)
                        },
                        |&round| Some(TourChange::Paired { round }),
                    )
                    .await?;
                Ok(Reply::Id(u64::from(round)))
            }
            TdRequest::Publish { tournament, what, language } => {
                self.publish(rooms, tournament, what, Language::from_code(&language)).await
            }
        }
    }

    async fn publish(&self, rooms: &Rooms, id: u64, what: TdExport, l: Language) -> Result<Reply, ErrorMsg> {
        let t = self.copy_of(id).await?;
        Ok(Reply::Text(match what {
            TdExport::Standings => t.standings().to_text_in(l),
            TdExport::StandingsCsv => t.standings().to_csv(),
            TdExport::Crosstable => t.crosstable().to_text_in(l),
            TdExport::CrosstableCsv => t.crosstable().to_csv(),
            TdExport::Html => t.to_html_in(l),
            TdExport::Sheet { round } => t.pairing_sheet_in(round, 0, l).map_err(refused)?,
            TdExport::State => {
                serde_json::to_string_pretty(&t).map_err(|e| error(ErrorCode::Unavailable, e.to_string()))?
            }
            TdExport::Games => games(rooms, &t, 0, 0, usize::MAX).await.bpgn,
            TdExport::GamesPage { round, from } => {
                if round > 0 && t.round(round).is_none() {
                    return Err(refused(shvedka_tournament::TournamentError::UnknownRound(round)));
                }
                let page = games(rooms, &t, round, from as usize, GAMES_PAGE_BYTES).await;
                return Ok(Reply::Games { bpgn: page.bpgn, games: page.games, next: page.next });
            }
        }))
    }
}

/// The most a page of `TdExport::GamesPage` holds (whole games; one game more than this is sent
/// alone): well within a frame.
const GAMES_PAGE_BYTES: usize = 48 * 1024;

/// A page of games as `games` makes it.
#[derive(Debug, Default)]
struct GamesPage {
    bpgn: String,
    games: u32,
    next: Option<u32>,
}

impl GamesPage {
    /// Adds the `index`-th game (0 first) unless the page, holding at least one game already,
    /// would pass `most` bytes: then it notes that the next page starts there, and says no.
    fn take(&mut self, index: usize, game: &str, most: usize) -> bool {
        if self.games > 0 && self.bpgn.len() + game.len() + 1 > most {
            self.next = Some(u32::try_from(index).unwrap_or(u32::MAX));
            return false;
        }
        self.bpgn.push_str(game);
        self.bpgn.push('\n');
        self.games += 1;
        true
    }
}

/// The records of the games of round `round` (0: of every round) from the `from`-th (counting
/// the games that have a record, as a client counts the games it got), as one BPGN text of at
/// most `most` bytes (at least one game), and where the next page starts.
async fn games(rooms: &Rooms, t: &Tournament, round: u32, from: usize, most: usize) -> GamesPage {
    let mut page = GamesPage::default();
    let mut index = 0;
    for (m, at, result) in linked_matches(t, round) {
        if let Ok(Some(bpgn)) = rooms.record_of(m).await {
            index += 1;
            if index > from
                && !page.take(index - 1, &in_tournament(bpgn, t.name(), at, result.as_ref()), most)
            {
                break;
            }
        }
    }
    page
}

/// A game's record as the tournament's: its `Event` the tournament's name, its `Round`, `Table`
/// and `Game` the game's place on the pairing sheet, and the director's act on its result (one
/// he entered or corrected) as a comment of the record (`director alice: ...`, `director
/// (secret): ...`).
fn in_tournament(bpgn: String, name: &str, at: GameRef, result: Option<&GameResult>) -> String {
    let Ok(mut records) = shvedka_records::parse_bpgn(&bpgn) else { return bpgn };
    let [record] = records.as_mut_slice() else { return bpgn };
    record.set_tag("Event", name);
    record.set_tag("Round", at.round.to_string());
    record.set_tag("Table", at.table.to_string());
    record.set_tag("Game", at.game.to_string());
    if let Some(GameResult { by: Some(by), outcome, reason, .. }) = result {
        let who = match by {
            Director::Account(name) => format!("director {name}"),
            Director::Secret => "director (secret)".to_owned(),
        };
        let note = format!("{who}: tournament result {outcome:?} ({reason})").replace('}', ")");
        record.comment = Some(match record.comment.take() {
            Some(c) => format!("{c}; {note}"),
            None => note,
        });
    }
    record.to_bpgn()
}

/// Refuses a team past the most a tournament carried as data has (`TOURNAMENT_TEAMS`).
/// A pending invitation counts as a team: the view carries both, and an invitation becomes one.
pub(super) fn room_for_a_team(t: &Tournament) -> Result<(), ErrorMsg> {
    if t.teams().len() + t.invitations().len() >= shvedka_proto::TOURNAMENT_TEAMS {
        return Err(error(
            ErrorCode::Limit(shvedka_proto::Limit::TournamentTeams),
            format!(
                "a tournament has at most {} teams here, invitations waiting counted",
                shvedka_proto::TOURNAMENT_TEAMS
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_of_games_holds_whole_games_up_to_its_size_and_says_where_the_next_starts() {
        let game = |n: usize| "x".repeat(n);
        let mut page = GamesPage::default();
        assert!(page.take(4, &game(30), 64));
        assert!(page.take(5, &game(20), 64), "30 + 1 + 20 + 1 bytes fit 64");
        assert!(!page.take(6, &game(20), 64), "a third would pass 64");
        assert_eq!((page.games, page.next, page.bpgn.len()), (2, Some(6), 52));
        let mut alone = GamesPage::default();
        assert!(alone.take(0, &game(100), 64), "one game larger than a page is sent alone");
        assert_eq!((alone.games, alone.next), (1, None));
    }

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

    /// An invitation waiting holds a team's place: the view carries it, so teams and invitations
    /// together stay within the limit.
    #[test]
    fn invitations_waiting_count_toward_the_most_teams() {
        let mut t = Tournament::new("night", "mgimo-2017", "3+2", Format::RoundRobin).expect("a tournament");
        for i in 0..shvedka_proto::TOURNAMENT_TEAMS - 1 {
            t.register(&format!("team {i}"), [&format!("p{i}a"), &format!("p{i}b")]).expect("a team");
        }
        room_for_a_team(&t).expect("room for one more");
        t.invite("x", "Late", "y", 0).expect("an invitation");
        assert!(room_for_a_team(&t).is_err(), "the invitation took the last place");
    }
}
