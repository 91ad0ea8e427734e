//! New matches: created by a player (listed, or private behind an invitation code), for a
//! tournament game, a rematch, or a match found by seeking; and who may reach a match by its id.

use super::TourSeats;
use std::sync::atomic::Ordering;

use bughouse::RuleOptions;
use bughouse_match::{Match, MatchConfig, PlayerId};
use shvedka_proto::{ErrorCode, ErrorMsg, Limit, MatchId, PhaseView};
use shvedka_storage::{IdKind, NewMatch, Take};

use super::{Kind, Rooms};
use crate::service::convert::error;
use crate::service::invitations;
use crate::service::metrics::Refusal;
use crate::service::room::Reserved;
use crate::service::session::Session;
use crate::service::wall::unix_ms;

impl Rooms {
    /// A new match created by a session's player; an unlisted one is private, and its
    /// invitation code comes with its id.
    pub(crate) async fn create(
        &self,
        creator: PlayerId,
        rules: &str,
        time_control: &str,
        listed: bool,
        chess960: bool,
        rated: bool,
    ) -> Result<(MatchId, Option<String>), ErrorMsg> {
        let open = self
            .map
            .iter()
            .filter(|r| {
                r.creator == Some(creator)
                    && r.summary.lock().expect("summary lock").phase == PhaseView::Forming
            })
            .count();
        if open >= self.limits.max_open_per_session {
            self.metrics.refused(Refusal::OpenMatches);
            return Err(error(
                ErrorCode::Limit(Limit::OpenMatches),
                format!(
                    "you have {open} forming matches already, the most one session may have open \
                     (max_open_matches_per_session)"
                ),
            ));
        }
        self.create_with(rules, time_control, Kind { listed, chess960, rated }, Some(creator), None).await
    }

    /// Whether `session` may reach match `id` by its id: always unless it is private, and a
    /// private one only with its code (or as its player; the caller lets arbiters in). A refusal
    /// must look like an id that does not exist, so the caller answers as it would for one.
    ///
    /// # Errors
    /// `Unavailable` when the store cannot say.
    pub(crate) async fn reaches(&self, session: &Session, id: MatchId) -> Result<bool, ErrorMsg> {
        if self.map.contains_key(&id) || self.private.contains_key(&id) {
            return Ok(!self.hidden_from(session, id));
        }
        if session.is_invited(id) || session.room() == Some(id) {
            return Ok(true);
        }
        let row = self.store.find_match(id.0).await.map_err(|e| {
            tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
            error(ErrorCode::Unavailable, "the stored match cannot be read now")
        })?;
        Ok(row.is_none_or(|r| r.created.invite_hash.is_none()))
    }

    /// Whether the live match `id` is private and `session` holds no way in (its invitation,
    /// following it, or a seat of its account): what it asks of it is answered as of a match
    /// that does not exist.
    pub(crate) fn hidden_from(&self, session: &Session, id: MatchId) -> bool {
        self.private.contains_key(&id)
            && !session.is_invited(id)
            && session.room() != Some(id)
            && !self.account_sits_in(session, id)
    }

    /// Whether `session` is an account's that holds a seat in the live match `id`, under any
    /// session of it (a seat belongs to its account: a new device finds its private match).
    pub(crate) fn account_sits_in(&self, session: &Session, id: MatchId) -> bool {
        session.account.is_some()
            && self
                .map
                .get(&id)
                .is_some_and(|r| super::sits(&r.summary.lock().expect("summary lock"), &session.name))
    }

    /// The invitation code of a private match this process created, for the server's own bots.
    pub(crate) fn code_of(&self, id: MatchId) -> Option<String> {
        self.codes.get(&id).map(|c| c.clone())
    }

    /// Redeems an invitation code: the session may reach its match from now on.
    ///
    /// # Errors
    /// `NoSuchMatch` for a wrong code (as for a match that does not exist); `Unavailable`.
    pub(crate) async fn redeem(&self, session: &Session, code: &str) -> Result<MatchId, ErrorMsg> {
        let wrong = || error(ErrorCode::NoSuchMatch, "no match has this invitation code");
        let id = invitations::match_of(code).ok_or_else(wrong)?;
        let hash = invitations::hash(code);
        let stored = match self.private.get(&id) {
            Some(h) => Some(h.clone()),
            None => self
                .store
                .find_match(id.0)
                .await
                .map_err(|e| {
                    tracing::error!(match_id = %id, error = %e, "cannot read a stored match");
                    error(ErrorCode::Unavailable, "the stored match cannot be read now")
                })?
                .and_then(|r| r.created.invite_hash),
        };
        if stored.as_deref() != Some(hash.as_str()) {
            return Err(wrong());
        }
        session.invite(id);
        Ok(id)
    }

    /// A tournament game: a listed match whose four seats only the named players may take.
    pub(crate) async fn create_reserved(
        &self,
        rules: &str,
        time_control: &str,
        chess960: bool,
        (names, game): TourSeats,
    ) -> Result<MatchId, ErrorMsg> {
        let kind = Kind { listed: true, chess960, rated: false };
        self.create_with(rules, time_control, kind, None, Some(Reserved::Names(names, Some(Box::new(game)))))
            .await
            .map(|(id, _)| id)
    }

    /// The rematch of a decided match: a match like it, created by nobody (its players are seated
    /// by the server, [`crate::features::rematch`]).
    pub(crate) async fn create_rematch(
        &self,
        rules: &str,
        time_control: &str,
        listed: bool,
        chess960: bool,
        rated: bool,
    ) -> Result<MatchId, ErrorMsg> {
        let kind = Kind { listed, chess960, rated };
        self.create_with(rules, time_control, kind, None, None).await.map(|(id, _)| id)
    }

    /// A match found by seeking (`crate::features::seeks`): listed, created by nobody, each seat reserved
    /// for the player the seat draw gave it (the seek task seats them). `rated` is the seeks'.
    pub(crate) async fn create_sought(
        &self,
        rules: &str,
        time_control: &str,
        rated: bool,
        players: [PlayerId; 4],
    ) -> Result<MatchId, ErrorMsg> {
        let kind = Kind { listed: true, chess960: false, rated };
        self.create_with(rules, time_control, kind, None, Some(Reserved::Players(players)))
            .await
            .map(|(id, _)| id)
    }

    /// A time control by name or spec, as this server reads it.
    pub(crate) fn time_control(&self, text: &str) -> Result<bughouse_match::TimeControl, ErrorMsg> {
        self.clock
            .time_control(text)
            .map_err(|e| error(ErrorCode::Invalid(shvedka_proto::Invalid::TimeControl), e.to_string()))
    }

    async fn create_with(
        &self,
        rules: &str,
        time_control: &str,
        kind: Kind,
        creator: Option<PlayerId>,
        reserved: Option<Reserved>,
    ) -> Result<(MatchId, Option<String>), ErrorMsg> {
        let Kind { listed, chess960, rated } = kind;
        let bad = |e: String| error(ErrorCode::BadRequest, e);
        let mut rules = RuleOptions::preset(rules)
            .map_err(|e| error(ErrorCode::Invalid(shvedka_proto::Invalid::RulePreset), e.to_string()))?;
        rules.chess960 |= chess960;
        let tc = self.time_control(time_control)?;
        self.may_run()?;
        if self.map.len() >= self.limits.max_matches {
            self.metrics.refused(Refusal::MaxMatches);
            return Err(error(
                ErrorCode::Limit(Limit::Matches),
                format!("the server holds {} live matches, as many as it may (max_matches)", self.map.len()),
            ));
        }
        let config = MatchConfig {
            rules,
            time_control: tc,
            lag: self.clock.lag,
            countdown: self.clock.countdown(),
            start: None,
            window_holds_endings: true,
        };
        let mut m = Match::new(config.clone()).map_err(|e| bad(e.to_string()))?;
        m.choose_chess960(crate::service::random::chess960());
        let id = match self.store.leases() {
            // Nodes of a cluster share the ids: the database hands them out.
            Some(leases) => MatchId(leases.next_id(IdKind::Match).await.map_err(|e| {
                tracing::error!(error = %e, "cannot get a new match id");
                error(ErrorCode::Unavailable, "the server cannot record a new match now; try again")
            })?),
            None => MatchId(self.next_match.fetch_add(1, Ordering::Relaxed)),
        };
        let code = (!listed).then(|| invitations::new_code(id));
        let row = NewMatch {
            id: id.0,
            rules: config.rules.name.clone(),
            time_control: config.time_control.to_string(),
            listed,
            config: serde_json::to_string(&config).map_err(|e| bad(e.to_string()))?,
            created_ms: unix_ms(),
            invite_hash: code.as_deref().map(invitations::hash),
            rated,
        };
        self.store.add_match(&row).await.map_err(|e| {
            tracing::error!(error = %e, "cannot record a new match");
            error(ErrorCode::Unavailable, "the server cannot record a new match now; try again")
        })?;
        if let Some(leases) = self.store.leases() {
            // A new match nobody else knows yet: taken unless the database fails (then another
            // node takes it over as an orphan).
            let taken = leases.take_lease(id.0).await;
            if !matches!(taken, Ok(Take::Taken { .. })) {
                tracing::error!(match_id = %id, ?taken, "cannot take the lease of a new match");
                return Err(error(
                    ErrorCode::Unavailable,
                    "the server cannot record a new match now; try again",
                ));
            }
        }
        if let (Some(hash), Some(code)) = (&row.invite_hash, &code) {
            self.private.insert(id, hash.clone());
            self.codes.insert(id, code.clone());
        }
        self.spawn(id, m, self.setup(listed, rated, creator, reserved, None), None);
        Ok((id, code))
    }
}
