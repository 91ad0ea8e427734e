//! Helpers shared by the records tests.
#![allow(dead_code)]

use bughouse::{BoardId, Game, MatchResult, RuleOptions, Rules, Seat, Team};
use shvedka_records::{Record, RecordResult, parse_bpgn};
use testkit::SplitMix;

/// A file under tests/data.
pub(crate) fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rules of a preset.
pub(crate) fn rules(preset: &str) -> Rules {
    RuleOptions::preset(preset).unwrap().rules().unwrap()
}

/// The one game of a BPGN text.
pub(crate) fn one(text: &str) -> Record {
    let mut games = parse_bpgn(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "expected one game in\n{text}");
    games.remove(0)
}

/// The tags of the A1 checks' records (MGIMO rules, four players, 3+0), without a result.
pub(crate) const A1_TAGS: &str = r#"[Event "A1 check"]
[Site "shvedka tests"]
[Date "2025.04.01"]
[WhiteA "Anna"]
[BlackA "Boris"]
[WhiteB "Vera"]
[BlackB "Gleb"]
[TimeControl "180+0"]
[Rules "mgimo-2017"]
"#;

/// The check of A1 on a record: [`A1_TAGS`], then `bpgn` (its own tags, moves and result).
pub(crate) fn a1_check(bpgn: &str) -> shvedka_records::CheckReport {
    let rec = one(&format!("{A1_TAGS}{bpgn}"));
    shvedka_records::check_record(&rec, rec.rules().unwrap())
}

/// A check's report, a line per finding.
pub(crate) fn report_lines(report: &shvedka_records::CheckReport) -> Vec<String> {
    report.to_string().lines().map(str::to_owned).collect()
}

/// A game played by random legal moves on both boards, recorded as it went.
pub(crate) struct Played {
    pub(crate) record: Record,
    /// The BFEN before any move and after each move.
    pub(crate) bfens: Vec<String>,
    pub(crate) game: Game,
}

/// Plays up to `moves` random legal moves (a board picked at random each time; the other when it
/// has none), with clocks falling by a random number of milliseconds per move.
pub(crate) fn random_play(seed: u64, moves: usize, preset: &str, start: Option<&str>) -> Played {
    let rules = rules(preset);
    let mut rng = SplitMix(seed);
    let mut game = match start {
        Some(bfen) => Game::from_bfen(bfen, rules).unwrap(),
        None => Game::new(rules),
    };
    let mut record = Record::new();
    record.set_tag("Event", "random play");
    record.set_tag("Date", "2025.04.01");
    record.set_tag("TimeControl", "180+2");
    record.set_tag("Rules", preset);
    for (i, seat) in Seat::ALL.into_iter().enumerate() {
        record.set_player(seat, ["Anna \"the rook\"", "Boris", "Vera", "Gleb\\"][i]);
    }
    if let Some(bfen) = start {
        record.set_start_bfen(bfen);
    }
    record.comment = Some("random moves, seed and all".to_owned());
    let mut clocks = [180_000u64; 4];
    let mut bfens = vec![game.bfen()];
    for n in 0..moves {
        let first = if rng.coin() { BoardId::A } else { BoardId::B };
        let board = [first, first.other()].into_iter().find(|&b| !game.legal_moves(b).is_empty());
        let Some(board) = board else { break };
        let legal = game.legal_moves(board);
        let m = legal[rng.below(legal.len())];
        let seat = game.to_move(board);
        let clock = &mut clocks[seat.index()];
        *clock = clock.saturating_sub(rng.below(3_000) as u64);
        record.push_played(&game, &m, Some(*clock));
        if n % 7 == 3 {
            record.moves.last_mut().unwrap().comment = Some(format!("note {n}: 12.5 is not a clock here"));
        }
        game.play(m).unwrap();
        bfens.push(game.bfen());
    }
    record.result = Some(RecordResult {
        outcome: MatchResult::Win(Team::Two),
        reason: Some("flag of white-A".to_owned()),
        rule: Some("E6".to_owned()),
    });
    Played { record, bfens, game }
}
