//! The cluster's golden bytes: a sample of every variant of every message the nodes send each
//! other over NATS (`wire.rs`' enums, the forwarded match and tournament requests, who acted, a
//! lobby part, a take-over), bincode as on NATS, and how many variants each enum has, recorded
//! in `wire_golden.txt` under the [`WIRE`] version they were recorded at. A changed sample or
//! count is a change to the cluster's wire — a node of the last build would misread it, or fail
//! to read a new variant — so the test fails until [`WIRE`] is raised, and `SHVEDKA_BLESS=1`
//! records it only then. A sample added beside unchanged ones is recorded without a raise.
//! [`every_variant_has_a_sample`] fails until a new variant has its sample.

use std::collections::BTreeSet;

use bughouse_match::Official;
use serde::Serialize;
use serde::de::DeserializeOwned;
use shvedka_proto::{
    ArbiterRequest, Board, ClientMsg, EntryRequest, ErrorCode, ErrorMsg, MatchId, MatchSummary, PhaseView,
    PlayerKind, RematchView, Reply, SeatId, ServerMsg, TdChoice, TdRequest,
};

use super::listings::Part;
use super::wire::{About, Answer, Ask, Forward, Relay, WIRE, Who};
use crate::features::tournaments::TourAsk;

/// One sample: its name, its bytes, and its bytes read back and written again as its own type.
struct Sample {
    name: String,
    bytes: Vec<u8>,
    again: Option<Vec<u8>>,
}

fn sample<T: Serialize + DeserializeOwned>(name: impl Into<String>, value: &T) -> Sample {
    let bytes = shvedka_proto::encode(value).expect("a sample encodes");
    let again = shvedka_proto::decode::<T>(&bytes).ok().map(|v| shvedka_proto::encode(&v).unwrap());
    Sample { name: name.into(), bytes, again }
}

fn asks() -> Vec<(&'static str, Ask)> {
    vec![
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
    ]
}

fn officials() -> Vec<(&'static str, Official)> {
    vec![
        ("account", Official::Account("ivan".into())),
        ("secret", Official::Secret),
        ("server", Official::Server),
        ("unrecorded", Official::Unrecorded),
    ]
}

fn tours() -> Vec<(&'static str, TourAsk)> {
    let start = TdRequest::Start { tournament: 2 };
    let mut tours: Vec<(&'static str, TourAsk)> = officials()
        .into_iter()
        .map(|(name, by)| {
            let name = match name {
                "account" => "director",
                "secret" => "director-secret",
                "server" => "director-server",
                _ => "director-unrecorded",
            };
            (name, TourAsk::Director { by, req: start.clone() })
        })
        .collect();
    let anna = || "anna".to_owned();
    tours.extend([
        (
            "choose",
            TourAsk::Choose { name: anna(), tournament: 2, round: 3, game: 4, choice: TdChoice::Crossed },
        ),
        ("assignment", TourAsk::Assignment { name: anna(), tournament: 2 }),
        ("list", TourAsk::List { after: Some(9), limit: 20 }),
        (
            "entry",
            TourAsk::Entry { name: anna(), req: EntryRequest::Accept { tournament: 2, from: "olga".into() } },
        ),
        ("round", TourAsk::Round { tournament: 2, round: 1 }),
    ]);
    tours
}

fn abouts() -> Vec<(String, About)> {
    let mut abouts: Vec<(String, About)> = asks()
        .into_iter()
        .map(|(name, ask)| (format!("ask-{name}"), About::Match(MatchId(7), ask)))
        .collect();
    abouts.extend(tours().into_iter().map(|(name, t)| (format!("tournament-{name}"), About::Tournament(t))));
    abouts.push(("seek".into(), About::Seek(ClientMsg::SeekPools)));
    abouts.push(("seek-gone".into(), About::SeekGone));
    abouts.push(("rematch".into(), About::Rematch { match_id: MatchId(7), accept: Some(false) }));
    abouts
}

fn answers() -> Vec<(&'static str, Answer)> {
    let view = RematchView {
        match_id: MatchId(7),
        players: ["a".into(), "b".into(), "c".into(), "d".into()],
        kinds: [PlayerKind::Account, PlayerKind::Guest, PlayerKind::Bot, PlayerKind::Account],
        accepted: [true, false, false, true],
        declined: [false, true, false, false],
        rematch: Some(MatchId(8)),
    };
    let refused = ErrorMsg { code: ErrorCode::Unavailable, rule: Some("K5".into()), message: "no".into() };
    vec![
        ("done", Answer::Done),
        ("legal", Answer::Legal(vec!["e2e4".into(), "Q@f7".into()])),
        ("reply", Answer::Reply(Reply::Id(5))),
        ("rematch", Answer::Rematch { view, seat: SeatId::WhiteB }),
        ("not-here", Answer::NotHere),
        ("refused", Answer::Refused(refused)),
        ("spectator", Answer::Spectator),
    ]
}

fn relays() -> Vec<(&'static str, Relay)> {
    let pong = |nonce| ServerMsg::Pong { nonce, server_time_us: nonce + 1 };
    vec![
        ("msg", Relay::Msg { key: "ab".into(), match_id: MatchId(7), msg: pong(1) }),
        ("behind", Relay::Behind { key: "ab".into(), match_id: MatchId(7) }),
        ("push", Relay::Push { key: "ab".into(), msg: pong(3) }),
    ]
}

/// Every sample, each as it goes on NATS.
fn samples() -> Vec<Sample> {
    let who = Who { key: "ab".into(), bot: true, arbiter: Some("p1".into()), director: None };
    let mut out: Vec<Sample> = abouts()
        .into_iter()
        .map(|(name, about)| sample(name, &Forward { from: "node-b".into(), who: who.clone(), about }))
        .collect();
    out.extend(answers().iter().map(|(name, answer)| sample(format!("answer-{name}"), answer)));
    out.extend(relays().iter().map(|(name, relay)| sample(format!("relay-{name}"), relay)));
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
    let part = Part { node: "node-a".into(), tick: 12, part: 0, parts: 1, matches: vec![(summary, true)] };
    out.push(sample("lobby-part", &part));
    out.push(sample("taken", &MatchId(7)));
    out
}

/// Each enum sent on NATS, with its variants' count and the variant indices its samples cover.
fn enums() -> Vec<(&'static str, usize, BTreeSet<usize>)> {
    vec![
        ("About", variants::<About>(), covered(abouts().into_iter().map(|(_, v)| v))),
        ("Ask", variants::<Ask>(), covered(asks().into_iter().map(|(_, v)| v))),
        ("TourAsk", variants::<TourAsk>(), covered(tours().into_iter().map(|(_, v)| v))),
        ("Official", variants::<Official>(), covered(officials().into_iter().map(|(_, v)| v))),
        ("Answer", variants::<Answer>(), covered(answers().into_iter().map(|(_, v)| v))),
        ("Relay", variants::<Relay>(), covered(relays().into_iter().map(|(_, v)| v))),
    ]
}

/// `wire N`, the enums' variant counts, then a `name bytes` line a sample.
fn text(wire: u32, samples: &[Sample]) -> String {
    let counts: Vec<String> = enums().iter().map(|(name, n, _)| format!("{name}={n}")).collect();
    let mut text = format!("wire {wire}\nvariants {}\n", counts.join(" "));
    for s in samples {
        let hex: String = s.bytes.iter().map(|b| format!("{b:02x}")).collect();
        text.push_str(&format!("{} {hex}\n", s.name));
    }
    text
}

#[test]
fn the_cluster_wire_changes_only_with_its_version() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cluster/wire_golden.txt");
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let recorded_wire: Option<u32> =
        recorded.lines().next().and_then(|l| l.strip_prefix("wire ")).and_then(|n| n.parse().ok());
    let now = text(WIRE, &samples());
    // Every recorded line (a count, a sample by name and bytes) is still there: only additions.
    let kept: BTreeSet<&str> = now.lines().skip(1).collect();
    let only_added = recorded.lines().skip(1).all(|line| kept.contains(line));
    if std::env::var_os("SHVEDKA_BLESS").is_some() && recorded != now {
        assert!(
            only_added || recorded_wire != Some(WIRE),
            "the cluster's messages changed but wire::WIRE is still {WIRE}: raise it, then bless; gone: {:?}",
            recorded.lines().skip(1).filter(|line| !kept.contains(line)).collect::<Vec<_>>()
        );
        std::fs::write(&path, &now).unwrap();
        return;
    }
    assert_eq!(recorded_wire, Some(WIRE), "wire::WIRE was raised: record its samples with SHVEDKA_BLESS=1");
    assert!(
        only_added,
        "the cluster's messages changed (a node of the last build would misread them): raise wire::WIRE, then \
         record the samples with SHVEDKA_BLESS=1\nrecorded:\n{recorded}\nnow:\n{now}"
    );
    assert_eq!(recorded, now, "samples were added: record them with SHVEDKA_BLESS=1");
}

/// Every sample reads back, as its own type, to the same bytes.
#[test]
fn every_sample_reads_back_as_itself() {
    for s in samples() {
        assert_eq!(s.again.as_deref(), Some(&s.bytes[..]), "{}", s.name);
    }
}

/// How many variants the enum `T` has, as its derived `Deserialize` says when asked for one
/// past the last (bincode writes a variant's index first, as a varint: one byte below 251).
fn variants<T: DeserializeOwned + std::fmt::Debug>() -> usize {
    let e = shvedka_proto::decode::<T>(&[250]).expect_err("no enum here has 251 variants").to_string();
    let count = e.split("0 <= i < ").nth(1).and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next());
    count.and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("not a variant count: {e}"))
}

/// The variant indices `values` cover.
fn covered<T: Serialize>(values: impl IntoIterator<Item = T>) -> BTreeSet<usize> {
    values.into_iter().map(|v| usize::from(shvedka_proto::encode(&v).unwrap()[0])).collect()
}

/// Each enum sent on NATS has a sample of every variant: a variant added to one fails here
/// until it has its sample (and its count fails the golden test until `WIRE` is raised).
#[test]
fn every_variant_has_a_sample() {
    for (name, n, covered) in enums() {
        assert_eq!(
            covered,
            (0..n).collect(),
            "{name} has {n} variants: give each a sample (then raise wire::WIRE)"
        );
    }
}
