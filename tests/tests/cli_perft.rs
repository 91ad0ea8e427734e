//! The command line driven in-process through `shvedka::run`, as the end-to-end suite will drive
//! it alongside a real server.

fn run(args: &[&str]) -> Result<String, String> {
    let mut out = Vec::new();
    let mut argv = vec!["shvedka"];
    argv.extend_from_slice(args);
    shvedka::run(argv, &mut out).map(|()| String::from_utf8(out).unwrap()).map_err(|e| format!("{e:#}"))
}

#[test]
fn perft_from_the_initial_position_and_from_fens() {
    assert_eq!(run(&["perft", "--depth", "4"]).unwrap().trim_end(), "197281");
    let pos5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
    assert_eq!(run(&["perft", "--fen", pos5, "--depth", "3"]).unwrap().trim_end(), "62379");
}

#[test]
fn errors_come_back_as_values() {
    let err = run(&["perft", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--depth", "1"]).unwrap_err();
    assert!(err.contains("white has 0 kings"), "{err}");
    assert!(run(&["no-such-command"]).unwrap_err().contains("unrecognized subcommand"));
    assert!(run(&["--help"]).unwrap().contains("perft"));
}
