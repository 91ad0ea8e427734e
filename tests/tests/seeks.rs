//! Finding a game over the protocol (issue 18): players seek, alone or with an invited partner,
//! and the server forms a match as soon as compatible seeks make four, seats the four itself with
//! fair seats (partners on different boards in opposite colours), tells each his match and seat
//! (`MatchFound`) and the match starts; incompatible seeks stay apart; a seek ends when its
//! player's connection does; a guest's rated seek is refused.

use shvedka_client::{Client, ClientError};
use shvedka_proto::{
    ErrorCode, EventView, MatchId, PhaseView, SeatId, SeekEnd, SeekRequest, SeekView, ServerMsg,
};
use shvedka_tests::{TestServer, drain, wait_msg};

fn quick(tc: &str, rated: bool) -> SeekRequest {
    SeekRequest { time_control: tc.into(), rules: "mgimo-2017".into(), rated, range: None, partner: None }
}

fn with(partner: &str) -> SeekRequest {
    SeekRequest { partner: Some(partner.into()), ..quick("3+0", false) }
}

fn code<T: std::fmt::Debug>(r: Result<T, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The match a seeker found, and his seat; his client follows it, seated, and it starts (the
/// last seated may see it start before he hears of the match).
async fn found(c: &mut Client) -> (MatchId, SeatId) {
    let (mut found, mut started) = (None, Vec::new());
    loop {
        match wait_msg(c, |m| matches!(m, ServerMsg::MatchFound { .. } | ServerMsg::Event(_))).await {
            ServerMsg::MatchFound { match_id, seat, .. } => found = Some((match_id, seat)),
            ServerMsg::Event(e) if matches!(e.kind, EventView::Started) => started.push(e.match_id),
            _ => {}
        }
        if let Some((id, seat)) = found
            && started.contains(&id)
        {
            return (id, seat);
        }
    }
}

/// Nothing more than seeking happened: no match found.
fn no_match(c: &mut Client) {
    let found = drain(c)
        .into_iter()
        .filter(|u| matches!(u, shvedka_client::Update::Server(ServerMsg::MatchFound { .. })))
        .count();
    assert_eq!(found, 0, "no match was formed");
}

async fn invite_and_accept(inviter: &Client, partner: &mut Client, name: &str) -> SeekView {
    let view = inviter.seek(with(name)).await.expect("invite");
    assert!(!view.waiting && view.invited.as_deref() == Some(name), "{view:?}");
    let m = wait_msg(partner, |m| matches!(m, ServerMsg::SeekInvitation(_))).await;
    let ServerMsg::SeekInvitation(invitation) = m else { unreachable!() };
    assert_eq!(invitation.seek, view.seek);
    partner.accept_seek(view.seek).await.expect("accept")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_singles_seek_and_get_one_match_with_fair_seats() {
    let server = TestServer::start("").await;
    let names = ["anna", "boris", "clara", "dmitri"];
    let mut c = Vec::new();
    for name in names {
        c.push(server.client(name).await);
    }
    for (i, client) in c.iter().enumerate() {
        let view = client.seek(quick("blitz", false)).await.expect("seek");
        assert!(view.waiting && view.time_control == "3+0" && view.players == [names[i]], "{view:?}");
        if i < 3 {
            assert_eq!(view.reach, 150, "the quick window starts at seek_range_start");
        }
    }
    let mut seats = Vec::new();
    let mut ids = Vec::new();
    for client in &mut c {
        let (id, seat) = found(client).await;
        ids.push(id);
        seats.push(seat);
    }
    assert!(ids.iter().all(|&id| id == ids[0]), "one match: {ids:?}");
    let mut distinct = seats.clone();
    distinct.sort_by_key(|s| s.index());
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "four seats: {seats:?}");
    // The match shows who sits where, as the seat draw gave it (and its log recorded it).
    let list = c[0].list_matches().await.expect("list");
    let summary = list.iter().find(|m| m.match_id == ids[0]).expect("listed");
    assert_eq!(summary.phase, PhaseView::Running);
    for (name, seat) in names.iter().zip(&seats) {
        assert_eq!(summary.seats[seat.index()].as_deref(), Some(*name));
    }
    let pools = c[0].seek_pools().await.expect("pools");
    assert!(pools.iter().all(|p| p.players == 0), "the seeks left the pool: {pools:?}");
    assert_eq!(
        code(c[0].seek(quick("3+0", false)).await),
        ErrorCode::Busy(shvedka_proto::Busy::Playing),
        "playing: no other seek"
    );
    // A stranger cannot take a seat reserved for a seeker (none is free anyway).
    let stranger = server.client("stranger").await;
    assert!(stranger.take_seat(ids[0], SeatId::WhiteA).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pair_and_two_singles_make_a_match_and_the_pair_stays_partners() {
    let server = TestServer::start("").await;
    let mut anna = server.client("anna").await;
    let mut boris = server.client("boris").await;
    let mut clara = server.client("clara").await;
    let mut dmitri = server.client("dmitri").await;
    let pair = invite_and_accept(&anna, &mut boris, "boris").await;
    assert!(pair.waiting && pair.players == ["anna", "boris"], "{pair:?}");
    let told = wait_msg(&mut anna, |m| matches!(m, ServerMsg::Seek(_))).await;
    assert!(matches!(told, ServerMsg::Seek(v) if v.waiting), "the inviter hears the partner accepted");
    clara.seek(quick("3+0", false)).await.expect("seek");
    dmitri.seek(quick("3+0", false)).await.expect("seek");
    let a = found(&mut anna).await;
    let b = found(&mut boris).await;
    let c = found(&mut clara).await;
    let d = found(&mut dmitri).await;
    assert!(a.0 == b.0 && b.0 == c.0 && c.0 == d.0, "one match");
    assert_eq!(a.1.team(), b.1.team(), "anna and boris are partners: {a:?} {b:?}");
    assert_ne!(a.1.board(), b.1.board(), "on different boards");
    assert_eq!(c.1.team(), d.1.team(), "the singles make the other team");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incompatible_seeks_stay_apart() {
    let server = TestServer::start("").await;
    // Four seekers, but one wants another time control: no match.
    let mut c = Vec::new();
    for name in ["anna", "boris", "clara"] {
        let client = server.client(name).await;
        client.seek(quick("3+0", false)).await.expect("seek");
        c.push(client);
    }
    let other = server.client("dmitri").await;
    other.seek(quick("1+0", false)).await.expect("seek");
    c.push(other);
    // Four accounts, two rated and two casual: no match either.
    let mut rated = Vec::new();
    for (name, r) in [("erik", true), ("fanny", true), ("gleb", false), ("hanna", true)] {
        let client = server.account(name).await;
        client.seek(quick("5+0", r)).await.expect("seek");
        rated.push(client);
    }
    // The pool forms at once and at every tick (each second): wait past one.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    for client in c.iter_mut().chain(rated.iter_mut()) {
        no_match(client);
    }
    let pools = c[0].seek_pools().await.expect("pools");
    let at = |tc: &str, rated: bool| {
        pools.iter().find(|p| p.time_control == tc && p.rated == rated).map_or(0, |p| p.players)
    };
    assert_eq!((at("3+0", false), at("1+0", false)), (3, 1));
    assert_eq!((at("5+0", true), at("5+0", false)), (3, 1));
    // A guest may not seek rated.
    assert_eq!(
        code(c[0].seek(quick("3+0", false)).await),
        ErrorCode::Busy(shvedka_proto::Busy::AlreadySeeking),
        "anna seeks already"
    );
    let guest = server.client("ivan").await;
    assert_eq!(code(guest.seek(quick("3+0", true)).await), ErrorCode::LoginRequired);
    // A fourth rated 5+0 seeker: the three rated seekers and she play; the casual one waits.
    let mut julia = server.account("julia").await;
    julia.seek(quick("5+0", true)).await.expect("seek");
    let (id, _) = found(&mut julia).await;
    julia.watch(id).await.expect("watch");
    let state = wait_msg(&mut julia, |m| matches!(m, ServerMsg::State(s) if s.match_id == id)).await;
    assert!(matches!(state, ServerMsg::State(s) if s.rated), "rated seeks make a rated match");
    for i in [0, 1, 3] {
        assert_eq!(found(&mut rated[i]).await.0, id, "the three rated seekers and julia play");
    }
    no_match(&mut rated[2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_withdrawn_when_its_players_connection_ends() {
    let server = TestServer::start("").await;
    let anna = server.client("anna").await;
    let mut boris = server.client("boris").await;
    let pair = invite_and_accept(&anna, &mut boris, "boris").await;
    let lone = server.client("clara").await;
    lone.seek(quick("3+0", false)).await.expect("seek");
    anna.close().await;
    let ended = wait_msg(&mut boris, |m| matches!(m, ServerMsg::SeekEnded { .. })).await;
    assert_eq!(ended, ServerMsg::SeekEnded { seek: pair.seek, reason: SeekEnd::Disconnected });
    let pools = boris.seek_pools().await.expect("pools");
    let waiting: u32 = pools.iter().map(|p| p.players).sum();
    assert_eq!(waiting, 1, "only clara waits: {pools:?}");
    lone.close().await;
    let pools = boris.seek_pools().await.expect("pools");
    assert_eq!(pools.iter().map(|p| p.players).sum::<u32>(), 0);
    // Cancelling, and a seek that is not one's own.
    let view = boris.seek(quick("3+0", false)).await.expect("seek");
    let stranger = server.client("stranger").await;
    assert_eq!(code(stranger.cancel_seek(view.seek).await), ErrorCode::NoSuchSeek);
    boris.cancel_seek(view.seek).await.expect("cancel");
    assert_eq!(code(boris.cancel_seek(view.seek).await), ErrorCode::NoSuchSeek, "once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_answer_a_lone_seek_casual_only() {
    let server = TestServer::start("").await;
    let config = shvedka_bot::BotConfig { level: 1, chat: false, pace: std::time::Duration::ZERO };
    let seeking = shvedka_bot::SeekConfig {
        patience: std::time::Duration::ZERO,
        poll: std::time::Duration::from_millis(100),
        rated: false,
    };
    let mut bots = tokio::task::JoinSet::new();
    for i in 1..=3 {
        let mut bot = server.client(&format!("bot-{i}")).await;
        let (config, seeking) = (config.clone(), seeking.clone());
        bots.spawn(async move { shvedka_bot::answer_seeks(&mut bot, &config, &seeking, Some(1)).await });
    }
    let mut anna = server.account("anna").await;
    // A rated seek: bots are not rated on this server, so they leave it be.
    let rated = anna.seek(quick("1+0", true)).await.expect("seek");
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    no_match(&mut anna);
    anna.cancel_seek(rated.seek).await.expect("cancel");
    // A casual one: the three bots join and the match is formed at once.
    anna.seek(quick("1+0", false)).await.expect("seek");
    let (match_id, seat) = found(&mut anna).await;
    anna.watch(match_id).await.expect("watch");
    let state = wait_msg(&mut anna, |m| matches!(m, ServerMsg::State(s) if s.match_id == match_id)).await;
    let ServerMsg::State(state) = state else { unreachable!() };
    assert_eq!(state.your_seat, Some(seat));
    assert!(!state.rated, "a match with bots is casual");
    for s in SeatId::ALL.into_iter().filter(|&s| s != seat) {
        assert_eq!(state.kinds[s.index()], Some(shvedka_proto::PlayerKind::Bot), "{s} is a bot: {state:?}");
    }
    // Anna resigns; each bot has played its one match.
    anna.resign().await.expect("resign");
    let mut played = 0;
    while let Some(done) = tokio::time::timeout(std::time::Duration::from_secs(20), bots.join_next())
        .await
        .expect("the bots finish")
    {
        let outcomes = done.expect("the bot task").expect("the bot played");
        assert_eq!(outcomes.len(), 1);
        assert_eq!(outcomes[0].match_id, match_id);
        played += 1;
    }
    assert_eq!(played, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_outside_each_others_rating_range_stay_apart() {
    let dir = tempfile::tempdir().expect("a directory");
    let store = shvedka_storage::open(None, dir.path()).await.expect("a store");
    let server = TestServer::start_with_store("", store.clone()).await;
    let mut c = Vec::new();
    for name in ["anna", "boris", "clara", "dmitri", "erik"] {
        c.push(server.account(name).await);
    }
    // Erik is a 2200 in blitz (as a rated match would have left him); the others are new (1500).
    let hook = c[4].create_match("mgimo-2017", "3+0", true).await.expect("a match to hang it on");
    let erik = store.account_by_name("erik").await.unwrap().expect("erik").id;
    let after = shvedka_storage::RatingRow {
        rating: 2200.0,
        deviation: 60.0,
        volatility: 0.06,
        games: 30,
        updated_ms: 1,
    };
    let change = shvedka_storage::PlayerChange { account: erik, before: 1500.0, after };
    let rated = shvedka_storage::RatedMatch {
        match_id: hook.0,
        category: "blitz".into(),
        players: vec![change],
        pairs: Vec::new(),
        at_ms: 1,
    };
    assert!(store.apply_rated(&rated).await.expect("stored"));
    let within = |r| SeekRequest { range: Some(r), ..quick("3+0", false) };
    for i in [0, 1, 2, 4] {
        let view = c[i].seek(within(200)).await.expect("seek");
        assert_eq!((view.range, view.reach, view.widening), (Some(200), 200, 0), "a fixed range");
    }
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    for client in &mut c {
        no_match(client);
    }
    // A fourth player within 200 of the three: they play; erik, 700 away, waits on.
    c[3].seek(within(200)).await.expect("seek");
    let (id, _) = found(&mut c[3]).await;
    for i in [0, 1, 2] {
        assert_eq!(found(&mut c[i]).await.0, id);
    }
    no_match(&mut c[4]);
    let pools = c[4].seek_pools().await.expect("pools");
    assert_eq!(pools.iter().map(|p| p.players).sum::<u32>(), 1, "erik alone waits");
}

/// A seeker who sat down to play elsewhere before his seek found a match cannot be seated in it:
/// the match is given up — nobody is left seated in it, every seeker hears `SeekEnded { Failed }`
/// and no `MatchFound` — and his other match goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_one_of_whose_four_cannot_sit_is_given_up_and_each_seeker_told() {
    let server = TestServer::start("").await;
    let mut dave = server.client("dave").await;
    dave.seek(quick("1+0", false)).await.expect("dave seeks");
    // Meanwhile dave sits down to play a 3+0 with three others, and it starts.
    let others = [server.client("o1").await, server.client("o2").await, server.client("o3").await];
    let other = others[0].create_match("classic", "3+0", true).await.unwrap();
    dave.take_seat(other, SeatId::WhiteA).await.unwrap();
    for (c, seat) in others.iter().zip([SeatId::BlackA, SeatId::WhiteB, SeatId::BlackB]) {
        c.take_seat(other, seat).await.unwrap();
    }
    dave.ready(true).await.unwrap();
    for c in &others {
        c.ready(true).await.unwrap();
    }
    shvedka_tests::wait_event(&mut dave, |e| matches!(e.kind, EventView::Started)).await;
    // Three more seek 1+0: with dave's seek they make four, and dave cannot sit.
    let mut c = Vec::new();
    for name in ["s1", "s2", "s3"] {
        let client = server.client(name).await;
        client.seek(quick("1+0", false)).await.expect("seek");
        c.push(client);
    }
    for client in c.iter_mut().chain(std::iter::once(&mut dave)) {
        let m = wait_msg(client, |m| matches!(m, ServerMsg::SeekEnded { .. } | ServerMsg::MatchFound { .. }))
            .await;
        assert!(matches!(m, ServerMsg::SeekEnded { reason: SeekEnd::Failed, .. }), "{m:?}");
    }
    // Nobody sits in the given-up match; dave's own match goes on.
    let live = c[0].list_matches().await.unwrap();
    let given_up: Vec<_> = live.iter().filter(|m| m.match_id != other).collect();
    assert!(given_up.iter().all(|m| m.seats.iter().all(Option::is_none)), "{given_up:?}");
    let his = live.iter().find(|m| m.match_id == other).expect("dave's match");
    assert_eq!(his.phase, PhaseView::Running);
    for client in &mut c {
        no_match(client);
        client.seek(quick("1+0", false)).await.expect("free to seek again");
    }
    server.stop().await;
}
