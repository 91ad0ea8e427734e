//! The cluster's golden bytes: a sample of every message the nodes send each other over NATS
//! (every variant of `wire.rs`' enums, of the forwarded match and tournament requests, a lobby
//! part, a take-over), bincode as on NATS, recorded in `wire_golden.txt` under the [`WIRE`]
//! version they were recorded at. A change to any of them is a change to the cluster's wire: a
//! node of the old build would misread it. So the test fails until [`WIRE`] is raised, and
//! `SHVEDKA_BLESS=1` rewrites the file only then (or when nothing but the samples' order moved).

use bughouse_match::Official;
use shvedka_proto::{
    ArbiterRequest, Board, ClientMsg, EntryRequest, ErrorCode, ErrorMsg, MatchId, MatchSummary, PhaseView,
    PlayerKind, RematchView, Reply, SeatId, ServerMsg, TdChoice, TdRequest,
};

use super::listings::Part;
use super::wire::{About, Answer, Ask, Forward, Relay, WIRE, Who};
use crate::features::tournaments::TourAsk;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `name bytes` lines, one a sample.
fn samples() -> Vec<(String, Vec<u8>)> {
    let enc = |v: &dyn erased::Encode| v.bytes();
    let who = Who { key: "ab".into(), bot: true, arbiter: Some("p1".into()), director: None };
    let forward = |about: About| Forward { from: "node-b".into(), who: who.clone(), about };
    let asks = [
        ("follow", Ask::Follow { last_seq: Some(300) }),
        (
            "command",
            Ask::Command(ClientMsg::Move { board: Board::B, text: "Q@f7".into(), think_ms: Some(5) }),
        ),
        ("unfollow", Ask::Unfollow),
        ("away", Ask::Away),
        ("legal", Ask::Legal(Board::A)),
        ("arbiter", Ask::Arbiter(ArbiterRequest::AdjustClock { seat: SeatId::BlackB, delta_ms: -1500 })),
        ("bots", Ask::FillWithBots(3)),
        ("watch", Ask::Watch { last_seq: None }),
    ];
    let tours = [
        (
            "director",
            TourAsk::Director {
                by: Official::Account("ivan".into()),
                req: TdRequest::Start { tournament: 2 },
            },
        ),
        (
            "choose",
            TourAsk::Choose {
                name: "anna".into(),
                tournament: 2,
                round: 3,
                game: 4,
                choice: TdChoice::Crossed,
            },
        ),
        ("assignment", TourAsk::Assignment { name: "anna".into(), tournament: 2 }),
        ("list", TourAsk::List { after: Some(9), limit: 20 }),
        (
            "entry",
            TourAsk::Entry {
                name: "anna".into(),
                req: EntryRequest::Accept { tournament: 2, from: "olga".into() },
            },
        ),
        ("round", TourAsk::Round { tournament: 2, round: 1 }),
    ];
    let rematch = RematchView {
        match_id: MatchId(7),
        players: ["a".into(), "b".into(), "c".into(), "d".into()],
        kinds: [PlayerKind::Account, PlayerKind::Guest, PlayerKind::Bot, PlayerKind::Account],
        accepted: [true, false, false, true],
        declined: [false, true, false, false],
        rematch: Some(MatchId(8)),
    };
    let refused = ErrorMsg { code: ErrorCode::Unavailable, rule: Some("K5".into()), message: "no".into() };
    let summary = MatchSummary {
        match_id: MatchId(7),
        rules: "mgimo-2017".into(),
        time_control: "3+2".into(),
        chess960: false,
        seats: [Some("a".into()), None, Some("c".into()), None],
        kinds: [Some(PlayerKind::Account), None, Some(PlayerKind::Bot), None],
        phase: PhaseView::Running,
        rated: true,
    };
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, ask) in asks {
        out.push((format!("ask-{name}"), enc(&forward(About::Match(MatchId(7), ask)))));
    }
    for (name, tour) in tours {
        out.push((format!("tournament-{name}"), enc(&forward(About::Tournament(tour)))));
    }
    out.push(("seek".into(), enc(&forward(About::Seek(ClientMsg::SeekPools)))));
    out.push(("seek-gone".into(), enc(&forward(About::SeekGone))));
    out.push(("rematch".into(), enc(&forward(About::Rematch { match_id: MatchId(7), accept: Some(false) }))));
    let answers = [
        ("done", Answer::Done),
        ("legal", Answer::Legal(vec!["e2e4".into(), "Q@f7".into()])),
        ("reply", Answer::Reply(Reply::Id(5))),
        ("rematch", Answer::Rematch { view: rematch, seat: SeatId::WhiteB }),
        ("not-here", Answer::NotHere),
        ("refused", Answer::Refused(refused)),
        ("spectator", Answer::Spectator),
    ];
    for (name, answer) in answers {
        out.push((format!("answer-{name}"), enc(&answer)));
    }
    let relays = [
        (
            "msg",
            Relay::Msg {
                key: "ab".into(),
                match_id: MatchId(7),
                msg: ServerMsg::Pong { nonce: 1, server_time_us: 2 },
            },
        ),
        ("behind", Relay::Behind { key: "ab".into(), match_id: MatchId(7) }),
        ("push", Relay::Push { key: "ab".into(), msg: ServerMsg::Pong { nonce: 3, server_time_us: 4 } }),
    ];
    for (name, relay) in relays {
        out.push((format!("relay-{name}"), enc(&relay)));
    }
    let part = Part { node: "node-a".into(), tick: 12, part: 0, parts: 1, matches: vec![(summary, true)] };
    out.push(("lobby-part".into(), enc(&part)));
    out.push(("taken".into(), enc(&MatchId(7))));
    out
}

/// Serializable values of several types in one list.
mod erased {
    pub(super) trait Encode {
        fn bytes(&self) -> Vec<u8>;
    }
    impl<T: serde::Serialize> Encode for T {
        fn bytes(&self) -> Vec<u8> {
            shvedka_proto::encode(self).expect("a sample encodes")
        }
    }
}

/// `wire N`, then the samples.
fn text(wire: u32, samples: &[(String, Vec<u8>)]) -> String {
    let mut text = format!("wire {wire}\n");
    for (name, bytes) in samples {
        text.push_str(&format!("{name} {}\n", hex(bytes)));
    }
    text
}

#[test]
fn the_cluster_wire_changes_only_with_its_version() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cluster/wire_golden.txt");
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let recorded_wire: Option<u32> =
        recorded.lines().next().and_then(|l| l.strip_prefix("wire ")).and_then(|n| n.parse().ok());
    let samples = samples();
    let now = text(WIRE, &samples);
    let same_bytes = recorded.lines().skip(1).eq(now.lines().skip(1));
    if std::env::var_os("SHVEDKA_BLESS").is_some() && recorded != now {
        assert!(!same_bytes || recorded_wire != Some(WIRE), "nothing to bless");
        assert!(
            same_bytes || recorded_wire != Some(WIRE),
            "the cluster's messages changed but wire::WIRE is still {WIRE}: raise it, then bless"
        );
        std::fs::write(&path, &now).unwrap();
        return;
    }
    assert_eq!(recorded_wire, Some(WIRE), "wire::WIRE was raised: record its samples with SHVEDKA_BLESS=1");
    for (want, got) in recorded.lines().zip(now.lines()) {
        assert_eq!(
            got, want,
            "the cluster's messages changed (a node of the last build would misread them): raise wire::WIRE, \
             then record the samples with SHVEDKA_BLESS=1"
        );
    }
    assert_eq!(recorded.lines().count(), now.lines().count(), "samples added or removed: raise wire::WIRE");
}

/// Every sample reads back as what it was: the bytes are the messages, not only their shape.
#[test]
fn every_sample_decodes_to_itself() {
    for (name, bytes) in samples() {
        let again = shvedka_proto::decode::<Forward>(&bytes)
            .ok()
            .map(|m| shvedka_proto::encode(&m).unwrap())
            .or_else(|| {
                shvedka_proto::decode::<Answer>(&bytes).ok().map(|m| shvedka_proto::encode(&m).unwrap())
            })
            .or_else(|| {
                shvedka_proto::decode::<Relay>(&bytes).ok().map(|m| shvedka_proto::encode(&m).unwrap())
            })
            .or_else(|| {
                shvedka_proto::decode::<Part>(&bytes).ok().map(|m| shvedka_proto::encode(&m).unwrap())
            })
            .or_else(|| {
                shvedka_proto::decode::<MatchId>(&bytes).ok().map(|m| shvedka_proto::encode(&m).unwrap())
            });
        assert_eq!(again.as_deref(), Some(&bytes[..]), "{name}");
    }
}
