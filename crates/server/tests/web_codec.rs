//! The web client's JavaScript tests in Node's test runner: the codec (`web/codec.js`) against the
//! Rust encoder's golden JSON vectors, and the client's pure modules: BFEN and squares
//! (`board.js`), seats and orientation (`seats.js`), move texts from legal moves and promotion
//! by removal (`moves.js`), clock interpolation (`clocks.js`) and the match model
//! (`match-state.js`). `.ci/run` installs Node.js when the machine lacks it.

#[test]
fn browser_codec_matches_the_golden_json_vectors_and_helpers_pass() {
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut tests: Vec<_> = std::fs::read_dir(&web)
        .expect("web/")
        .map(|entry| entry.expect("web/ entry").path())
        .filter(|path| path.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    tests.sort();
    assert!(tests.len() >= 6, "the web client's test files: {tests:?}");
    let out = std::process::Command::new("node").arg("--test").args(&tests).output().unwrap_or_else(|e| {
        panic!("Node.js is needed for the browser codec's tests (apt-get install nodejs): {e}")
    });
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
