//! The driver against fake engines: small shell scripts written into a temporary directory, each
//! logging what it was told. They cover the protocol and every way an engine can fail; the real
//! Fairy-Stockfish is exercised by `shvedka bench-strength` (docs/benchmarks.md), not by the suite,
//! which must pass where only Rust is installed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bughouse::{BoardId, Game, RuleOptions};
use chess_core::{Move, Role, Square};
use shvedka_uci::{Go, Score, UciEngine, UciError, UciSettings};

/// The handshake of a Fairy-Stockfish-like engine.
const HANDSHAKE: &str = r#"echo "id name Fake Fairy"
    echo "option name Hash type spin default 16 min 1 max 1024"
    echo "option name Threads type spin default 1 min 1 max 8"
    echo "option name UCI_Variant type combo default chess var bughouse var crazyhouse"
    echo uciok"#;

/// A fake engine: `handshake` answers `uci`, `on_go` answers `go`; every line received is logged.
struct Fake {
    dir: tempfile::TempDir,
    script: PathBuf,
}

impl Fake {
    fn new(handshake: &str, on_go: &str) -> Fake {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("engine.sh");
        let text = format!(
            "#!/bin/sh\nlog=\"$(dirname \"$0\")/log\"\nwhile IFS= read -r line; do\n  echo \"$line\" >> \"$log\"\n  \
             case \"$line\" in\n    uci) {handshake} ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    \
             quit) exit 0 ;;\n  esac\ndone\n"
        );
        std::fs::write(&script, text).unwrap();
        Fake { dir, script }
    }

    fn answering(on_go: &str) -> Fake {
        Fake::new(HANDSHAKE, on_go)
    }

    async fn start(&self, settings: &UciSettings) -> Result<UciEngine, UciError> {
        // Run through /bin/sh: executing a file just written races with other tests' forks
        // (ETXTBSY); the driver does not care how the program is started.
        let script = self.script.to_str().unwrap();
        UciEngine::start(Path::new("/bin/sh"), &[script], settings).await
    }

    fn log(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default();
        text.lines().map(str::to_owned).collect()
    }
}

fn quick() -> UciSettings {
    UciSettings {
        handshake: Duration::from_secs(5),
        margin: Duration::from_millis(300),
        ..UciSettings::default()
    }
}

fn classic(bfen: &str) -> Game {
    Game::from_bfen(bfen, RuleOptions::classic().rules().unwrap()).unwrap()
}

const START_B: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

fn with_a_pawn_in_hand() -> Game {
    classic(&format!("8/2k1P3/8/8/8/8/8/4K3[Pn] w - - 0 30 | {START_B}"))
}

const MOVE_TIME: Go = Go::MoveTime(Duration::from_millis(50));

#[tokio::test]
async fn s4_the_handshake_sets_bughouse_one_thread_and_the_hash_and_the_fen_carries_the_reserves() {
    let fake = Fake::answering(
        r#"echo "info depth 3 score cp 42 nodes 100 pv P@e4"; echo "bestmove P@e4 ponder e8d7""#,
    );
    let mut engine = fake.start(&UciSettings { hash_mb: 32, ..quick() }).await.expect("started");
    assert_eq!(engine.name(), "Fake Fairy");
    engine.new_game().await.expect("new game");
    let answer = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap().unwrap();
    assert_eq!(answer.info.score, Some(Score::Centipawns(42)));
    assert_eq!(answer.info.depth, Some(3));
    let log = fake.log();
    let want = [
        "uci",
        "setoption name UCI_Variant value bughouse",
        "setoption name Threads value 1",
        "setoption name Hash value 32",
        "isready",
        "ucinewgame",
        "isready",
        "position fen 8/2k1P3/8/8/8/8/8/4K3[Pn] w - - 0 30",
        "go movetime 50",
    ];
    assert_eq!(log, want);
}

#[tokio::test]
async fn p1_a_drop_answer_is_played_as_a_drop() {
    let fake = Fake::answering(r#"echo "bestmove P@e4""#);
    let mut engine = fake.start(&quick()).await.unwrap();
    let answer = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap().unwrap();
    assert_eq!(answer.mv.mv, Move::Drop { role: Role::Pawn, to: "e4".parse::<Square>().unwrap() });
    assert_eq!(answer.mv.board, BoardId::A);
}

#[tokio::test]
async fn r6_an_upgrade_promotion_answer_is_played_as_one() {
    let fake = Fake::answering(r#"echo "bestmove e7e8q""#);
    let mut engine = fake.start(&quick()).await.unwrap();
    let answer = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap().unwrap();
    assert_eq!(answer.mv.mv.promotion(), Some(Role::Queen));
}

#[tokio::test]
async fn m2_bestmove_none_is_no_move() {
    let fake = Fake::answering(r#"echo "info depth 0 score mate 0"; echo "bestmove (none)""#);
    let mut engine = fake.start(&quick()).await.unwrap();
    let none = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap();
    assert!(none.is_none());
}

#[tokio::test]
async fn k1_the_clock_form_of_go_gives_both_clocks() {
    let fake = Fake::answering(r#"echo "bestmove e7e8r""#);
    let mut engine = fake.start(&quick()).await.unwrap();
    let go = Go::Clock {
        white: Duration::from_millis(900),
        black: Duration::from_millis(800),
        increment: Duration::from_millis(100),
    };
    engine.best_move(&with_a_pawn_in_hand(), BoardId::A, go).await.unwrap().unwrap();
    assert_eq!(fake.log().last().map(String::as_str), Some("go wtime 900 btime 800 winc 100 binc 100"));
}

#[tokio::test]
async fn p2_a_move_shvedka_refuses_is_a_typed_error_and_the_engine_stays_usable() {
    // A pawn dropped on the eighth rank: the engine is wrong, the position is not.
    let fake = Fake::answering(
        r#"if [ -e "$(dirname "$0")/asked" ]; then echo "bestmove e7e8q"; else touch "$(dirname "$0")/asked"; echo "bestmove P@a8"; fi"#,
    );
    let mut engine = fake.start(&quick()).await.unwrap();
    let game = with_a_pawn_in_hand();
    match engine.best_move(&game, BoardId::A, MOVE_TIME).await {
        Err(UciError::Refused(refused)) => {
            assert_eq!(refused.text, "P@a8");
            assert!(refused.reason.contains("P2"), "{refused}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let again = engine.best_move(&game, BoardId::A, MOVE_TIME).await.unwrap().unwrap();
    assert_eq!(again.mv.mv.promotion(), Some(Role::Queen));
}

#[tokio::test]
async fn a_silent_engine_is_a_timeout_within_the_margin_and_then_unusable() {
    let fake = Fake::answering("true");
    let mut engine = fake.start(&quick()).await.unwrap();
    let started = Instant::now();
    let err = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap_err();
    assert!(matches!(err, UciError::Timeout { waiting_for: "bestmove", .. }), "{err:?}");
    // The move time, the margin, and the margin again after `stop`: well under two seconds.
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert!(fake.log().contains(&"stop".to_owned()), "{:?}", fake.log());
    let next = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap_err();
    assert!(matches!(next, UciError::Unusable { .. }), "{next:?}");
}

#[tokio::test]
async fn an_engine_that_dies_on_go_is_a_typed_error() {
    let fake = Fake::answering("exit 3");
    let mut engine = fake.start(&quick()).await.unwrap();
    let err = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap_err();
    assert!(matches!(err, UciError::Exited { .. } | UciError::Write { .. }), "{err:?}");
    assert!(err.is_fatal());
}

#[tokio::test]
async fn an_endless_line_is_refused_not_buffered() {
    let fake = Fake::answering("head -c 100000 /dev/zero | tr '\\0' 'x'; echo");
    let mut engine = fake.start(&quick()).await.unwrap();
    let err = engine.best_move(&with_a_pawn_in_hand(), BoardId::A, MOVE_TIME).await.unwrap_err();
    assert!(matches!(err, UciError::LineTooLong { .. }), "{err:?}");
}

#[tokio::test]
async fn an_engine_without_bughouse_is_refused_at_the_handshake() {
    let handshake = r#"echo "id name Plain Chess"; echo "option name UCI_Variant type combo default chess var chess var crazyhouse"; echo uciok"#;
    let fake = Fake::new(handshake, "true");
    let err = fake.start(&quick()).await.unwrap_err();
    assert_eq!(err, UciError::NoBughouse { engine: "Plain Chess".into() });
}

#[tokio::test]
async fn a_handshake_without_uciok_times_out() {
    let fake = Fake::new(r#"echo "id name Mute""#, "true");
    let settings = UciSettings { handshake: Duration::from_millis(300), ..quick() };
    let started = Instant::now();
    let err = fake.start(&settings).await.unwrap_err();
    assert!(matches!(err, UciError::Timeout { waiting_for: "uciok", .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn a_missing_program_is_a_spawn_error_naming_it() {
    let err = UciEngine::start(Path::new("/nonexistent/fairy-stockfish"), &[], &quick()).await.unwrap_err();
    assert!(
        matches!(&err, UciError::Spawn { path, .. } if path == "/nonexistent/fairy-stockfish"),
        "{err:?}"
    );
}

#[tokio::test]
async fn r1_an_mgimo_position_is_refused_before_the_engine_is_asked() {
    let fake = Fake::answering(r#"echo "bestmove e2e4""#);
    let mut engine = fake.start(&quick()).await.unwrap();
    let game = Game::new(RuleOptions::mgimo_2017().rules().unwrap());
    let err = engine.best_move(&game, BoardId::A, MOVE_TIME).await.unwrap_err();
    assert!(matches!(err, UciError::Incompatible(_)), "{err:?}");
    assert!(!err.is_fatal());
    assert!(!fake.log().iter().any(|l| l.starts_with("position")), "{:?}", fake.log());
}
