//! The seek desk: every seek the server holds — waiting for an invited partner's answer, or in
//! the pool of `shvedka-pairing` — the connections its players may be told on, and the rules of
//! seeking (one seek per player, the limits, who may answer or cancel). Synchronous and owned by
//! the seek task alone (`mod.rs`), which gives it the time and the ratings; what it decides to
//! tell goes straight onto the players' outbound queues, and the matches the pool forms are
//! handed back for the task to create.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bughouse_match::PlayerId;
use shvedka_pairing::{Formed, Party, Pool, Refusal, SeekId, Seeker, Terms, Window};
use shvedka_proto::{ErrorCode, ErrorMsg, Limit, PlayerKind, SeekEnd, SeekPool, SeekView, ServerMsg};
use tokio::time::Instant;

use anyhow::Context as _;

use crate::config::ServerConfig;
use crate::service::convert::error;
use crate::service::outbound::Outbound;
use crate::service::session::Session;

/// The limits and settings of seeking (config/default.toml).
#[derive(Clone, Debug)]
pub(crate) struct SeekSettings {
    /// `max_seeks`: seeks held at once, waiting or inviting.
    pub(crate) max_seeks: usize,
    /// `max_seeks_per_session`: seeks (and invitations) one player is in at once.
    pub(crate) per_session: usize,
    /// `seek_invitation_s`: how long an invitation waits for the partner's answer.
    pub(crate) invitation: Duration,
    /// The quick pools' widening window (`seek_range_start`, `seek_range_per_second`).
    pub(crate) window: Window,
    /// The quick pools: normalised time control and its configured name, if any.
    pub(crate) quick: Vec<(String, Option<String>)>,
    /// The quick pools' rule preset (`quick_pool_rules`).
    pub(crate) quick_rules: String,
}

/// One player of a seek, with the connection he is told on.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub(crate) session: Arc<Session>,
    pub(crate) out: Outbound,
    pub(crate) rating: f64,
    /// A seeker on another node of a cluster (`out` reaches that node): his node seats him.
    pub(crate) remote: bool,
}

impl Member {
    fn seeker(&self) -> Seeker {
        Seeker {
            account: key(&self.session),
            rating: self.rating,
            bot: self.session.kind() == PlayerKind::Bot,
        }
    }
}

/// The pool's number for a player: his account (so an account seeks once, from however many
/// sessions), or for a guest his session's player number, kept apart from account numbers.
pub(crate) fn key(session: &Session) -> u64 {
    session.account.unwrap_or(session.player.0 | 1 << 63)
}

/// A partner invited and not yet answering.
#[derive(Clone, Debug)]
struct Invited {
    session: Arc<Session>,
    expires: Instant,
}

/// A seek the desk holds.
#[derive(Clone, Debug)]
pub(crate) struct Open {
    pub(crate) id: u64,
    pub(crate) terms: Terms,
    range: Option<u32>,
    pub(crate) members: Vec<Member>,
    invited: Option<Invited>,
    /// Its number in the pool, once it waits there.
    pool: Option<SeekId>,
    /// When it entered the pool (or was made, while it invites).
    since: Instant,
}

impl Open {
    fn window(&self, quick: Window) -> Window {
        self.range.map_or(quick, |r| Window::fixed(f64::from(r)))
    }

    fn involves(&self, player: PlayerId) -> bool {
        self.members.iter().any(|m| m.session.player == player)
            || self.invited.as_ref().is_some_and(|i| i.session.player == player)
    }
}

/// A match the pool formed, with the seekers in seat order.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) terms: Terms,
    /// The seek each seat's player came with, and the player.
    pub(crate) seats: [(u64, Member); 4],
}

/// The seeks and the connections of their players.
pub(crate) struct Desk {
    settings: SeekSettings,
    pool: Pool,
    open: HashMap<u64, Open>,
    next: u64,
    /// Every connection by player: an invitation reaches a partner on these, and a player whose
    /// last connection ends leaves every seek he is in.
    connections: HashMap<PlayerId, Vec<(Arc<Session>, Outbound)>>,
    /// The desk's clock starts here (the pool counts milliseconds from it).
    epoch: Instant,
}

/// Refused as a seek.
fn refusal(r: &Refusal) -> ErrorMsg {
    match r {
        Refusal::AlreadySeeking(_) => error(
            ErrorCode::Busy(shvedka_proto::Busy::AlreadySeeking),
            "a player of this seek is seeking a game already; cancel that seek first",
        ),
        Refusal::SamePartner => {
            error(ErrorCode::Invalid(shvedka_proto::Invalid::SamePartner), "a partner must be another player")
        }
        Refusal::Full(n) => error(
            ErrorCode::Limit(Limit::SeekPool),
            format!("the server holds {n} seeks, as many as it may (max_seeks); try again soon"),
        ),
    }
}

impl Desk {
    pub(crate) fn new(settings: SeekSettings, now: Instant) -> Desk {
        Desk {
            pool: Pool::new(settings.max_seeks),
            settings,
            open: HashMap::new(),
            next: 1,
            connections: HashMap::new(),
            epoch: now,
        }
    }

    fn ms(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.epoch).as_millis() as u64
    }

    /// Whether anything waits (the task ticks only then).
    pub(crate) fn busy(&self) -> bool {
        !self.open.is_empty()
    }

    /// A connection now serves `session`.
    pub(crate) fn connected(&mut self, session: Arc<Session>, out: Outbound) {
        let list = self.connections.entry(session.player).or_default();
        if !list.iter().any(|(_, o)| o.same(&out)) {
            list.push((session, out));
        }
    }

    /// A connection of `session` ended (or serves another session now): when it was his last,
    /// every seek he is in ends (`Disconnected`), and so does every invitation he has not
    /// answered.
    pub(crate) fn disconnected(&mut self, session: &Session, out: &Outbound) {
        let player = session.player;
        if let Some(list) = self.connections.get_mut(&player) {
            list.retain(|(_, o)| !o.same(out));
            if !list.is_empty() {
                return;
            }
            self.connections.remove(&player);
        }
        let gone: Vec<u64> = self.open.values().filter(|o| o.involves(player)).map(|o| o.id).collect();
        for id in gone {
            self.end(id, SeekEnd::Disconnected, Some(player));
        }
    }

    /// The seek `id` as its players see it now.
    pub(crate) fn view(&self, open: &Open, now: Instant) -> SeekView {
        let waited = now.saturating_duration_since(open.since);
        let waiting = open.pool.is_some();
        let window = open.window(self.settings.window);
        let reach = window.reach(if waiting { waited.as_millis() as u64 } else { 0 });
        SeekView {
            seek: open.id,
            time_control: open.terms.time_control.clone(),
            rules: open.terms.rules.clone(),
            rated: open.terms.rated,
            range: open.range,
            players: open.members.iter().map(|m| m.session.name.clone()).collect(),
            invited: open.invited.as_ref().map(|i| i.session.name.clone()),
            waiting,
            waited_ms: if waiting { waited.as_millis() as u64 } else { 0 },
            reach: reach.min(f64::from(u32::MAX)) as u32,
            widening: window.per_second.min(f64::from(u32::MAX)) as u32,
            expires_in_ms: open
                .invited
                .as_ref()
                .map(|i| i.expires.saturating_duration_since(now).as_millis() as u64),
        }
    }

    /// The terms of seek `id` and whether `player` is the partner it invites.
    pub(crate) fn invitation_terms(&self, id: u64, player: PlayerId) -> Option<Terms> {
        let open = self.open.get(&id)?;
        open.invited.as_ref().filter(|i| i.session.player == player).map(|_| open.terms.clone())
    }

    fn count_of(&self, player: PlayerId) -> usize {
        self.open.values().filter(|o| o.involves(player)).count()
    }

    fn check_limits(&self, player: PlayerId) -> Result<(), ErrorMsg> {
        let mine = self.count_of(player);
        if mine >= self.settings.per_session {
            return Err(error(
                ErrorCode::Limit(Limit::Seeks),
                format!(
                    "you are in {mine} seeks or invitations, the most one player may be (max_seeks_per_session)"
                ),
            ));
        }
        if self.open.len() >= self.settings.max_seeks {
            return Err(refusal(&Refusal::Full(self.settings.max_seeks)));
        }
        Ok(())
    }

    /// A connected player named `name` (any case) other than `me`: an account before a guest of
    /// the name.
    fn find_partner(&self, name: &str, me: PlayerId) -> Result<(Arc<Session>, Vec<Outbound>), ErrorMsg> {
        let mut found: Vec<&Vec<(Arc<Session>, Outbound)>> = self
            .connections
            .iter()
            .filter(|(p, list)| {
                **p != me && list.first().is_some_and(|(s, _)| s.name.eq_ignore_ascii_case(name))
            })
            .map(|(_, list)| list)
            .collect();
        found.sort_by_key(|list| (list[0].0.account.is_none(), std::cmp::Reverse(list[0].0.player)));
        let list = found.first().ok_or_else(|| {
            error(
                ErrorCode::NoSuchAccount,
                format!("no connected player is named {name}: he must be online to be invited"),
            )
        })?;
        Ok((list[0].0.clone(), list.iter().map(|(_, o)| o.clone()).collect()))
    }

    /// A new seek by `me` on `terms`: into the pool at once, or inviting `partner` (by name).
    /// Gives its view, and whatever matches the pool now forms.
    pub(crate) fn seek(
        &mut self,
        me: Member,
        terms: Terms,
        range: Option<u32>,
        partner: Option<&str>,
        now: Instant,
        random: impl FnMut() -> u64,
    ) -> Result<(SeekView, Vec<Found>), ErrorMsg> {
        let player = me.session.player;
        if self.pool.seeking(key(&me.session)) {
            return Err(refusal(&Refusal::AlreadySeeking(key(&me.session))));
        }
        let Some(name) = partner else {
            self.check_limits(player)?;
            let window = range.map_or(self.settings.window, |r| Window::fixed(f64::from(r)));
            let pool = self
                .pool
                .add(Party::Single(me.seeker()), terms.clone(), window, self.ms(now))
                .map_err(|r| refusal(&r))?;
            let id = self.take_id();
            let open =
                Open { id, terms, range, members: vec![me], invited: None, pool: Some(pool), since: now };
            let view = self.view(&open, now);
            self.open.insert(id, open);
            return Ok((view, self.form(now, random)));
        };
        let (partner, outs) = self.find_partner(name, player)?;
        // Two partners who invite each other on the same terms: a pair at once.
        let crossing = self.open.values().find(|o| {
            o.terms == terms
                && o.range == range
                && o.members.len() == 1
                && o.members[0].session.player == partner.player
                && o.invited.as_ref().is_some_and(|i| i.session.player == player)
        });
        if let Some(id) = crossing.map(|o| o.id) {
            return self.accept(id, me, now, random);
        }
        if self.pool.seeking(key(&partner)) {
            return Err(error(
                ErrorCode::Busy(shvedka_proto::Busy::PartnerSeeking),
                format!("{} is seeking a game already", partner.name),
            ));
        }
        self.check_limits(player)?;
        self.check_limits(partner.player).map_err(|_| {
            error(
                ErrorCode::Limit(Limit::Seeks),
                format!("{} has as many invitations as he may", partner.name),
            )
        })?;
        let id = self.take_id();
        let invited = Invited { session: partner, expires: now + self.settings.invitation };
        let open =
            Open { id, terms, range, members: vec![me], invited: Some(invited), pool: None, since: now };
        let view = self.view(&open, now);
        for out in outs {
            out.push(ServerMsg::SeekInvitation(view.clone()));
        }
        self.open.insert(id, open);
        Ok((view, Vec::new()))
    }

    fn take_id(&mut self) -> u64 {
        let id = self.next;
        self.next += 1;
        id
    }

    /// The invited partner accepts seek `id`: the pair enters the pool.
    pub(crate) fn accept(
        &mut self,
        id: u64,
        me: Member,
        now: Instant,
        random: impl FnMut() -> u64,
    ) -> Result<(SeekView, Vec<Found>), ErrorMsg> {
        let player = me.session.player;
        let open =
            self.open.get(&id).filter(|o| o.invited.as_ref().is_some_and(|i| i.session.player == player));
        let open = open.ok_or_else(|| no_seek(id))?;
        let party = Party::Pair([open.members[0].seeker(), me.seeker()]);
        let (terms, window) = (open.terms.clone(), open.window(self.settings.window));
        let pool = self.pool.add(party, terms, window, self.ms(now)).map_err(|r| refusal(&r))?;
        let open = self.open.get_mut(&id).expect("found above");
        open.members.push(me);
        open.invited = None;
        open.pool = Some(pool);
        open.since = now;
        let open = open.clone();
        let view = self.view(&open, now);
        open.members[0].out.push(ServerMsg::Seek(view.clone()));
        Ok((view, self.form(now, random)))
    }

    /// The invited partner declines seek `id`.
    pub(crate) fn decline(&mut self, id: u64, player: PlayerId) -> Result<(), ErrorMsg> {
        if self.invitation_terms(id, player).is_none() {
            return Err(no_seek(id));
        }
        self.end(id, SeekEnd::Declined, Some(player));
        Ok(())
    }

    /// A player of seek `id` (or its invited partner) withdraws it.
    pub(crate) fn cancel(&mut self, id: u64, player: PlayerId) -> Result<(), ErrorMsg> {
        if !self.open.get(&id).is_some_and(|o| o.involves(player)) {
            return Err(no_seek(id));
        }
        self.end(id, SeekEnd::Cancelled, Some(player));
        Ok(())
    }

    /// Ends seek `id` and tells its players (but `by`, who asked or is gone).
    fn end(&mut self, id: u64, reason: SeekEnd, by: Option<PlayerId>) {
        let Some(open) = self.open.remove(&id) else { return };
        if let Some(pool) = open.pool {
            self.pool.cancel(pool);
        }
        for m in open.members.iter().filter(|m| Some(m.session.player) != by) {
            m.out.push(ServerMsg::SeekEnded { seek: id, reason });
        }
        if let Some(i) = open.invited.filter(|i| Some(i.session.player) != by)
            && let Some(list) = self.connections.get(&i.session.player)
        {
            for (_, out) in list {
                out.push(ServerMsg::SeekEnded { seek: id, reason });
            }
        }
    }

    /// Time passes: invitations not answered in time end (`Expired`), and the pool, whose
    /// windows have widened, forms what it now can.
    pub(crate) fn tick(&mut self, now: Instant, random: impl FnMut() -> u64) -> Vec<Found> {
        let lapsed: Vec<u64> = self
            .open
            .values()
            .filter(|o| o.invited.as_ref().is_some_and(|i| i.expires <= now))
            .map(|o| o.id)
            .collect();
        for id in lapsed {
            self.end(id, SeekEnd::Expired, None);
        }
        self.form(now, random)
    }

    fn form(&mut self, now: Instant, random: impl FnMut() -> u64) -> Vec<Found> {
        let formed = self.pool.form(self.ms(now), random);
        formed.into_iter().filter_map(|f| self.found(f)).collect()
    }

    /// The seeks a formed match took leave the desk; its seats get their players.
    fn found(&mut self, f: Formed) -> Option<Found> {
        let opens: Vec<Open> = f
            .seeks
            .iter()
            .filter_map(|pool| {
                let id = self.open.values().find(|o| o.pool == Some(*pool))?.id;
                self.open.remove(&id)
            })
            .collect();
        let seat = |s: &Seeker| {
            opens.iter().find_map(|o| {
                o.members.iter().find(|m| key(&m.session) == s.account).map(|m| (o.id, m.clone()))
            })
        };
        let seats = [seat(&f.seats[0])?, seat(&f.seats[1])?, seat(&f.seats[2])?, seat(&f.seats[3])?];
        Some(Found { terms: f.terms, seats })
    }

    /// The pools: every quick pool (casual and rated), and any other terms somebody seeks now.
    pub(crate) fn pools(&self, now: Instant) -> Vec<SeekPool> {
        let mut pools: Vec<SeekPool> = Vec::new();
        for (tc, name) in &self.settings.quick {
            for rated in [false, true] {
                pools.push(SeekPool {
                    time_control: tc.clone(),
                    name: name.clone(),
                    rules: self.settings.quick_rules.clone(),
                    rated,
                    quick: true,
                    players: 0,
                    people: 0,
                    longest_wait_ms: 0,
                });
            }
        }
        let mut waiting: Vec<&Open> = self.open.values().filter(|o| o.pool.is_some()).collect();
        waiting.sort_by_key(|o| o.id);
        for o in waiting {
            let at = pools.iter().position(|p| {
                p.time_control == o.terms.time_control && p.rules == o.terms.rules && p.rated == o.terms.rated
            });
            let at = at.unwrap_or_else(|| {
                pools.push(SeekPool {
                    time_control: o.terms.time_control.clone(),
                    name: None,
                    rules: o.terms.rules.clone(),
                    rated: o.terms.rated,
                    quick: false,
                    players: 0,
                    people: 0,
                    longest_wait_ms: 0,
                });
                pools.len() - 1
            });
            let p = &mut pools[at];
            p.players += o.members.len() as u32;
            let people = o.members.iter().filter(|m| m.session.kind() != PlayerKind::Bot).count() as u32;
            p.people += people;
            if people > 0 {
                p.longest_wait_ms =
                    p.longest_wait_ms.max(now.saturating_duration_since(o.since).as_millis() as u64);
            }
        }
        pools
    }

    /// The seeks held now (waiting or inviting).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.open.len()
    }
}

fn no_seek(id: u64) -> ErrorMsg {
    error(ErrorCode::NoSuchSeek, format!("no seek {id} of yours (it ended, or found its match)"))
}

impl SeekSettings {
    /// The seek settings, with the quick pools' time controls read by `clock` (the four of
    /// `quick_pools`, then every named one of the clock settings, each once).
    ///
    /// # Errors
    /// A quick pool that is not a time control.
    pub(crate) fn of(
        config: &ServerConfig,
        clock: &bughouse_match::ClockConfig,
    ) -> anyhow::Result<SeekSettings> {
        let mut quick: Vec<(String, Option<String>)> = Vec::new();
        let named = clock.time_controls.iter().map(|(name, tc)| (tc.to_string(), Some(name.clone())));
        let listed = config.quick_pools.iter().map(|text| {
            clock
                .time_control(text)
                .map(|tc| (tc.to_string(), None))
                .with_context(|| format!("invalid configuration: quick pool {text:?}"))
        });
        for pool in listed.collect::<anyhow::Result<Vec<_>>>()?.into_iter().chain(named) {
            match quick.iter_mut().find(|(tc, _)| *tc == pool.0) {
                Some(known) => known.1 = known.1.take().or(pool.1),
                None => quick.push(pool),
            }
        }
        Ok(SeekSettings {
            max_seeks: config.max_seeks,
            per_session: config.max_seeks_per_session,
            invitation: Duration::from_secs(config.seek_invitation_s),
            window: shvedka_pairing::Window {
                start: f64::from(config.seek_range_start),
                per_second: f64::from(config.seek_range_per_second),
                widest: f64::INFINITY,
            },
            quick,
            quick_rules: config.quick_pool_rules.clone(),
        })
    }
}
