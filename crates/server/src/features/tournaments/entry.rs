//! What players do in a tournament themselves: enter it (invite a partner, accept, decline or
//! take back an invitation), check their team in before a round, and make their team's S3
//! choices. Each request names the session's account; the tournament checks the rest.

use shvedka_proto::{EntryRequest, ErrorMsg, TdChoice, TourChange};
use shvedka_tournament::{ColourChoice, SeatingChoice};

use super::{Tournaments, refusals, refused};
use crate::service::rooms::Rooms;
use crate::service::wall::unix_ms;

impl Tournaments {
    /// A player's entry request, by account `name` (a registered name; for an invitation the
    /// partner's account name is resolved already).
    pub(crate) async fn entry(
        &self,
        rooms: &Rooms,
        name: &str,
        req: EntryRequest,
    ) -> Result<shvedka_proto::Reply, ErrorMsg> {
        use shvedka_proto::Reply;
        self.here()?;
        let now = unix_ms();
        match req {
            EntryRequest::Invite { tournament, team, partner } => self
                .change(
                    rooms,
                    tournament,
                    |t| {
                        super::director::room_for_a_team(t)?;
                        t.invite(name, &team, &partner, now).map_err(refused)
                    },
                    |()| Some(TourChange::Invited),
                )
                .await
                .map(|()| Reply::Ok),
            EntryRequest::Accept { tournament, from } => self
                .change(
                    rooms,
                    tournament,
                    // The invitation held the team's place already (`room_for_a_team` counts it).
                    |t| t.accept(name, &from).map_err(refused),
                    |team| Some(TourChange::Registered { team: team.0 }),
                )
                .await
                .map(|team| Reply::Id(u64::from(team.0))),
            EntryRequest::Decline { tournament, other } => self
                .change(
                    rooms,
                    tournament,
                    |t| t.decline(name, &other).map_err(refused),
                    |()| Some(TourChange::InvitationEnded),
                )
                .await
                .map(|()| Reply::Ok),
            EntryRequest::CheckIn { tournament } => self
                .change(
                    rooms,
                    tournament,
                    |t| {
                        let team = t.team_of(name).ok_or_else(|| not_a_member(name, tournament))?;
                        t.check_in_team(team).map_err(refused)?;
                        Ok(team)
                    },
                    |team| Some(TourChange::CheckedIn { team: team.0 }),
                )
                .await
                .map(|_| Reply::Ok),
        }
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
                    .ok_or_else(|| not_a_member(name, id))?;
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
}

fn not_a_member(name: &str, id: u64) -> ErrorMsg {
    refusals::refusal_of(
        shvedka_proto::TourRefusal::NotAMember,
        format!("{name} plays for no team of tournament {id}"),
    )
}

/// An entry request with the partner named as his account is registered (an invitation).
pub(crate) async fn with_partner_account(
    req: shvedka_proto::EntryRequest,
    accounts: &crate::service::accounts::Accounts,
) -> Result<shvedka_proto::EntryRequest, ErrorMsg> {
    use shvedka_proto::EntryRequest;
    Ok(match req {
        EntryRequest::Invite { tournament, team, partner } => {
            EntryRequest::Invite { tournament, team, partner: accounts.player(&partner).await? }
        }
        req => req,
    })
}
