//! The seek desk on tokio's paused clock: invitations answered or lapsing, seeks withdrawn when
//! their player's last connection ends, the limits, and partners who invite each other.

use std::sync::Arc;
use std::time::Duration;

use shvedka_pairing::{Terms, Window};
use shvedka_proto::{ErrorCode, Limit, SeekEnd, ServerMsg};
use tokio::time::Instant;

use super::desk::{Desk, Member, SeekSettings};
use crate::service::outbound::{Outbound, OutboundRx};
use crate::service::session::{Session, Sessions};
use crate::test_store::MemStore;

fn settings() -> SeekSettings {
    SeekSettings {
        max_seeks: 3,
        per_session: 2,
        invitation: Duration::from_secs(60),
        window: Window::quick(),
        quick: vec![("3+0".into(), Some("blitz".into()))],
        quick_rules: "mgimo-2017".into(),
    }
}

fn terms(rated: bool) -> Terms {
    Terms { time_control: "3+0".into(), rules: "mgimo-2017".into(), rated }
}

struct Player {
    session: Arc<Session>,
    out: Outbound,
    rx: OutboundRx,
}

impl Player {
    fn member(&self) -> Member {
        Member { session: self.session.clone(), out: self.out.clone(), rating: 1500.0, remote: false }
    }

    fn told(&mut self) -> Vec<ServerMsg> {
        let mut got = Vec::new();
        while let Some(m) = self.rx.try_recv() {
            got.push(m.into_msg());
        }
        got
    }
}

async fn players(desk: &mut Desk, names: &[&str]) -> Vec<Player> {
    let sessions = Sessions::new(Arc::new(MemStore::default()), 0, Duration::from_secs(3600));
    let mut all = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let (session, _) = sessions.open((*name).into(), Some(i as u64 + 1)).await.unwrap();
        let (out, rx) = Outbound::channel(64);
        desk.connected(session.clone(), out.clone());
        all.push(Player { session, out, rx });
    }
    all
}

fn no_random() -> u64 {
    0
}

#[tokio::test(start_paused = true)]
async fn an_invitation_reaches_the_partner_and_lapses_unanswered_after_seek_invitation_s() {
    let mut desk = Desk::new(settings(), Instant::now());
    let mut p = players(&mut desk, &["anna", "boris"]).await;
    let (view, _) =
        desk.seek(p[0].member(), terms(false), None, Some("BORIS"), Instant::now(), no_random).unwrap();
    assert_eq!(view.invited.as_deref(), Some("boris"));
    assert!(!view.waiting);
    assert_eq!(view.expires_in_ms, Some(60_000));
    let told = p[1].told();
    assert!(
        matches!(&told[..], [ServerMsg::SeekInvitation(v)] if v.seek == view.seek && v.players == ["anna"]),
        "{told:?}"
    );
    tokio::time::advance(Duration::from_secs(59)).await;
    desk.tick(Instant::now(), no_random);
    assert_eq!(desk.len(), 1, "not yet");
    tokio::time::advance(Duration::from_secs(1)).await;
    desk.tick(Instant::now(), no_random);
    assert_eq!(desk.len(), 0);
    let expired = ServerMsg::SeekEnded { seek: view.seek, reason: SeekEnd::Expired };
    assert_eq!(p[0].told(), vec![expired.clone()]);
    assert_eq!(p[1].told(), vec![expired]);
    let late = desk.accept(view.seek, p[1].member(), Instant::now(), no_random).unwrap_err();
    assert_eq!(late.code, ErrorCode::NoSuchSeek);
}

#[tokio::test(start_paused = true)]
async fn an_accepted_invitation_waits_in_the_pool_and_a_declined_one_ends() {
    let mut desk = Desk::new(settings(), Instant::now());
    let mut p = players(&mut desk, &["anna", "boris", "clara"]).await;
    let (view, _) =
        desk.seek(p[0].member(), terms(false), None, Some("boris"), Instant::now(), no_random).unwrap();
    tokio::time::advance(Duration::from_secs(5)).await;
    let (accepted, found) = desk.accept(view.seek, p[1].member(), Instant::now(), no_random).unwrap();
    assert!(found.is_empty());
    assert!(accepted.waiting && accepted.players == ["anna", "boris"] && accepted.invited.is_none());
    assert!(matches!(&p[0].told()[..], [ServerMsg::Seek(v)] if v.waiting), "the inviter hears of it");
    assert!(matches!(&p[1].told()[..], [ServerMsg::SeekInvitation(_)]));
    let busy =
        desk.seek(p[2].member(), terms(false), None, Some("anna"), Instant::now(), no_random).unwrap_err();
    assert_eq!(busy.code, ErrorCode::Busy(shvedka_proto::Busy::PartnerSeeking), "anna seeks already");
    let again =
        desk.seek(p[0].member(), terms(false), None, Some("clara"), Instant::now(), no_random).unwrap_err();
    assert_eq!(again.code, ErrorCode::Busy(shvedka_proto::Busy::AlreadySeeking), "one seek at a time");
    desk.cancel(accepted.seek, p[0].session.player).unwrap();
    assert_eq!(p[1].told(), vec![ServerMsg::SeekEnded { seek: accepted.seek, reason: SeekEnd::Cancelled }]);
    let (view, _) =
        desk.seek(p[2].member(), terms(false), None, Some("anna"), Instant::now(), no_random).unwrap();
    desk.decline(view.seek, p[0].session.player).unwrap();
    assert!(p[2].told().contains(&ServerMsg::SeekEnded { seek: view.seek, reason: SeekEnd::Declined }));
    assert_eq!(desk.len(), 0);
}

#[tokio::test(start_paused = true)]
async fn partners_who_invite_each_other_are_a_pair_at_once() {
    let mut desk = Desk::new(settings(), Instant::now());
    let p = players(&mut desk, &["anna", "boris"]).await;
    let (first, _) =
        desk.seek(p[0].member(), terms(false), None, Some("boris"), Instant::now(), no_random).unwrap();
    let (second, _) =
        desk.seek(p[1].member(), terms(false), None, Some("anna"), Instant::now(), no_random).unwrap();
    assert_eq!(second.seek, first.seek, "the same seek");
    assert!(second.waiting && second.players == ["anna", "boris"]);
    assert_eq!(desk.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_seek_is_withdrawn_when_its_players_last_connection_ends() {
    let mut desk = Desk::new(settings(), Instant::now());
    let mut p = players(&mut desk, &["anna", "boris", "clara"]).await;
    let (second_out, _second_rx) = Outbound::channel(8);
    desk.connected(p[0].session.clone(), second_out.clone());
    let (pair, _) =
        desk.seek(p[0].member(), terms(false), None, Some("boris"), Instant::now(), no_random).unwrap();
    desk.accept(pair.seek, p[1].member(), Instant::now(), no_random).unwrap();
    let (alone, _) = desk.seek(p[2].member(), terms(false), None, None, Instant::now(), no_random).unwrap();
    p[0].told();
    p[1].told();
    desk.disconnected(&p[0].session, &second_out);
    assert_eq!(desk.len(), 2, "anna is still connected");
    desk.disconnected(&p[0].session, &p[0].out.clone());
    assert_eq!(desk.len(), 1, "the pair's seek went with anna");
    assert_eq!(p[1].told(), vec![ServerMsg::SeekEnded { seek: pair.seek, reason: SeekEnd::Disconnected }]);
    desk.disconnected(&p[2].session, &p[2].out.clone());
    assert_eq!(desk.len(), 0);
    assert!(p[2].told().is_empty(), "nobody left to tell of seek {}", alone.seek);
}

#[tokio::test(start_paused = true)]
async fn seeks_are_bounded_per_player_and_in_all() {
    let mut desk = Desk::new(settings(), Instant::now());
    let p = players(&mut desk, &["anna", "boris", "clara", "dora", "emil"]).await;
    let now = Instant::now();
    desk.seek(p[0].member(), terms(false), None, Some("boris"), now, no_random).unwrap();
    desk.seek(p[2].member(), terms(false), None, Some("boris"), now, no_random).unwrap();
    let third = desk.seek(p[3].member(), terms(false), None, Some("boris"), now, no_random).unwrap_err();
    assert_eq!(
        third.code,
        ErrorCode::Limit(Limit::Seeks),
        "boris is invited twice already (max_seeks_per_session 2)"
    );
    desk.seek(p[3].member(), terms(false), Some(100), None, now, no_random).unwrap();
    let full = desk.seek(p[4].member(), terms(false), None, None, now, no_random).unwrap_err();
    assert_eq!(full.code, ErrorCode::Limit(Limit::SeekPool), "max_seeks 3");
    let pools = desk.pools(now);
    let quick = pools.iter().find(|p| p.quick && !p.rated).unwrap();
    assert_eq!((quick.players, quick.people, quick.name.as_deref()), (1, 1, Some("blitz")));
}

#[test]
fn quick_pools_are_the_configured_four_then_the_clock_settings_named_ones_each_once() {
    let clock = bughouse_match::ClockConfig::builtin();
    let settings = SeekSettings::of(&crate::config::ServerConfig::builtin(), &clock).unwrap();
    let pools: Vec<(&str, Option<&str>)> =
        settings.quick.iter().map(|(tc, name)| (tc.as_str(), name.as_deref())).collect();
    assert_eq!(
        pools,
        [
            ("1+0", Some("bullet")),
            ("2+0", None),
            ("3+0", Some("blitz")),
            ("5+0", None),
            ("3+2", Some("blitz-increment")),
            ("5+d3", Some("delay")),
            ("10+5", Some("rapid")),
        ]
    );
    let bad = crate::config::ServerConfig::from_overrides("quick_pools = [\"soon\"]").unwrap();
    let refused = SeekSettings::of(&bad, &clock).unwrap_err();
    assert!(format!("{refused:#}").contains("quick pool \"soon\""), "{refused:#}");
    assert!(crate::config::ServerConfig::from_overrides("max_seeks = 0").is_err());
    assert!(crate::config::ServerConfig::from_overrides("quick_pool_rules = \"chaos\"").is_err());
}
