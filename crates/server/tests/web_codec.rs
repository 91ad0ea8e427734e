//! The web client's JavaScript tests in Node's test runner: the codec (`web/codec.js`) against the
//! Rust encoder's golden JSON vectors, and the pure board and clock helpers (`web/board.js`).
//! `.ci/run` installs Node.js when the machine lacks it.

#[test]
fn browser_codec_matches_the_golden_json_vectors_and_helpers_pass() {
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let out = std::process::Command::new("node")
        .arg("--test")
        .arg(web.join("codec.test.mjs"))
        .arg(web.join("board.test.mjs"))
        .output()
        .unwrap_or_else(|e| {
            panic!("Node.js is needed for the browser codec's tests (apt-get install nodejs): {e}")
        });
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
