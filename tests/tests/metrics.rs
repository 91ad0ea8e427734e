//! `/metrics` on the HTTP side: the OpenMetrics text an operator's Prometheus scrapes, parsed
//! line by line, following a match as it is played.

use shvedka_proto::{Board, EventView};
use shvedka_tests::*;

/// Every sample of the exposition: name with labels, and value. Panics on a line that is neither
/// a comment nor a sample.
fn samples(text: &str) -> Vec<(String, f64)> {
    assert!(text.trim_end().ends_with("# EOF"), "an OpenMetrics exposition ends with # EOF");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (name, value) = l.rsplit_once(' ').unwrap_or_else(|| panic!("not a sample: {l}"));
            assert!(name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()), "{l}");
            (name.to_owned(), value.parse().unwrap_or_else(|_| panic!("not a number: {l}")))
        })
        .collect()
}

fn value(samples: &[(String, f64)], name: &str) -> f64 {
    samples.iter().find(|(n, _)| n == name).map(|(_, v)| *v).unwrap_or_else(|| panic!("no {name}"))
}

#[tokio::test]
async fn metrics_follow_connections_matches_moves_and_commits() {
    let server = TestServer::start("").await;
    let (_, mut c) = server.seated_match("classic", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    let refused = c[0].play(Board::A, "e5", None).await;
    assert!(refused.is_err(), "not White-A's turn");
    wait_event(&mut c[1], |e| matches!(e.kind, EventView::Moved { .. })).await;
    let response = server.http_get("/metrics").await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("application/openmetrics-text"), "{response}");
    let body = response.split("\r\n\r\n").nth(1).expect("a body");
    let s = samples(body);
    assert_eq!(value(&s, "shvedka_live_matches"), 1.0);
    assert_eq!(value(&s, "shvedka_sessions"), 4.0);
    assert_eq!(value(&s, "shvedka_connections{transport=\"Quic\"}"), 4.0);
    assert_eq!(value(&s, "shvedka_moves_total{outcome=\"Accepted\"}"), 1.0);
    assert_eq!(value(&s, "shvedka_moves_total{outcome=\"Refused\"}"), 1.0);
    assert_eq!(value(&s, "shvedka_move_seconds_count"), 2.0);
    assert!(value(&s, "shvedka_commit_seconds_count") >= 1.0, "events were committed");
    assert_eq!(value(&s, "shvedka_storage_errors_total"), 0.0);
    server.stop().await;
}
