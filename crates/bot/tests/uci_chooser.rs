//! The UCI chooser against fake engines (shell scripts): whatever the engine does wrong, the bot
//! still gets a legal move from its own search, or waits where shvedka has no move; it never hangs.

use std::path::Path;
use std::time::Duration;

use bughouse::{BoardId, Game, RuleOptions};
use shvedka_bot::{Budget, Chooser};
use shvedka_uci::{UciEngine, UciSettings};

/// A fake engine answering `go` with `on_go`, logging what it is told into `dir/log`.
async fn fake(dir: &Path, on_go: &str) -> UciEngine {
    let script = dir.join("engine.sh");
    let text = format!(
        "#!/bin/sh\nlog=\"$(dirname \"$0\")/log\"\nwhile IFS= read -r line; do\n  echo \"$line\" >> \"$log\"\n  \
         case \"$line\" in\n    uci) echo \"id name Fake\"; echo \"option name UCI_Variant type combo default chess \
         var bughouse\"; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n  esac\ndone\n"
    );
    std::fs::write(&script, text).unwrap();
    let settings = UciSettings { margin: Duration::from_millis(200), ..UciSettings::default() };
    UciEngine::start(Path::new("/bin/sh"), &[script.to_str().unwrap()], &settings).await.unwrap()
}

fn asked(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("go"))
        .count()
}

fn classic(bfen: &str) -> Game {
    Game::from_bfen(bfen, RuleOptions::classic().rules().unwrap()).unwrap()
}

const PER_MOVE: Budget = Budget::PerMove(Duration::from_millis(30));

#[tokio::test]
async fn p1_a_move_shvedka_refuses_is_played_by_the_own_search_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    // No pawn in hand at the start: the drop is refused (P1).
    let chooser = Chooser::uci(fake(dir.path(), r#"echo "bestmove P@e4""#).await, None, 1);
    let game = Game::new(RuleOptions::classic().rules().unwrap());
    let (chooser, choice) = chooser.choose(game, BoardId::A, PER_MOVE).await.unwrap();
    let choice = choice.expect("the own search moves");
    assert!(game.legal_moves(BoardId::A).contains(&choice.mv));
    assert_eq!(chooser.fallbacks(), 1);
    // The engine stays in use: it is asked again next time.
    let (chooser, _) = chooser.choose(game, BoardId::B, PER_MOVE).await.unwrap();
    assert_eq!((asked(dir.path()), chooser.fallbacks()), (2, 2));
}

#[tokio::test]
async fn a_dead_engine_is_not_asked_again_and_the_own_search_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let chooser = Chooser::uci(fake(dir.path(), "exit 1").await, None, 1);
    let game = Game::new(RuleOptions::classic().rules().unwrap());
    let (chooser, first) = chooser.choose(game, BoardId::A, PER_MOVE).await.unwrap();
    let (chooser, second) = chooser.choose(game, BoardId::B, PER_MOVE).await.unwrap();
    assert!(first.is_some() && second.is_some());
    assert_eq!((asked(dir.path()), chooser.fallbacks()), (1, 2));
}

#[tokio::test]
async fn m2_where_shvedka_has_no_move_the_engine_is_not_asked() {
    let dir = tempfile::tempdir().unwrap();
    let chooser = Chooser::uci(fake(dir.path(), r#"echo "bestmove e2e4""#).await, None, 1);
    // White on A is checked along the first rank with nothing to drop (M2: it waits, not mated).
    let game = classic(
        "6k1/5ppp/8/8/8/8/6PP/r6K[] w - - 0 30 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    );
    let (chooser, choice) = chooser.choose(game, BoardId::A, PER_MOVE).await.unwrap();
    assert_eq!(choice, None);
    assert_eq!((asked(dir.path()), chooser.fallbacks()), (0, 0));
}

#[tokio::test]
async fn r1_p3_a_uci_chooser_refuses_the_mgimo_preset_and_the_own_search_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let chooser = Chooser::uci(fake(dir.path(), r#"echo "bestmove e2e4""#).await, None, 1);
    let mgimo = Game::new(RuleOptions::mgimo_2017().rules().unwrap());
    let err = chooser.accepts(&mgimo).unwrap_err();
    assert!(err.to_string().contains("classic"), "{err}");
    assert!(chooser.accepts(&Game::new(RuleOptions::classic().rules().unwrap())).is_ok());
    assert!(Chooser::search(1).accepts(&mgimo).is_ok());
}
