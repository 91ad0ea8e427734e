//! A client given several server addresses (the nodes of a cluster, issue 22): it connects to the
//! first that answers, an address that never answers costing it at most `CONNECT_TIMEOUT`; it
//! resumes on its current node first, then on the others in order, each tried once. (Resuming on
//! another node after its own stopped, with the events missed, is in `cluster.rs`.)

use std::net::UdpSocket;
use std::time::{Duration, Instant};

use shvedka_client::{CONNECT_TIMEOUT, Client, ClientError, Trust, Update};
use shvedka_tests::{TestServer, next};

/// An address that never answers: a UDP socket bound on loopback and held open, never read.
fn dead() -> UdpSocket {
    UdpSocket::bind("127.0.0.1:0").expect("a loopback socket")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_given_a_dead_address_first_connects_to_the_next_within_the_bounded_time() {
    let server = TestServer::start("").await;
    let silent = dead();
    let list = [silent.local_addr().unwrap(), server.addr];
    let start = Instant::now();
    let mut c = Client::connect_any(&list, Trust::Fingerprint(server.pin), "alice")
        .await
        .expect("the second address answers");
    let took = start.elapsed();
    println!("connected to the second address after {} ms", took.as_millis());
    assert!(took >= CONNECT_TIMEOUT, "the dead address is tried first: {took:?}");
    assert!(took < CONNECT_TIMEOUT + Duration::from_secs(4), "and given up in time: {took:?}");
    // The node that answered is the current one; the dead one comes after it.
    assert_eq!(c.server(), server.addr);
    assert_eq!(c.servers(), [server.addr, list[0]]);
    c.create_match("classic", "blitz", true).await.expect("the session works");

    // A lost connection is resumed on the current node first: the dead one costs nothing.
    c.drop_connection();
    let start = Instant::now();
    c.resume().await.expect("the session resumes on the live node");
    assert!(start.elapsed() < CONNECT_TIMEOUT, "the current node is tried first: {:?}", start.elapsed());
    assert_eq!(c.servers(), [server.addr, list[0]]);
    assert!(c.is_connected());
    drop(silent);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_port_first_in_the_list_does_not_hang_the_client() {
    let server = TestServer::start("").await;
    // Nothing listens there any more: the datagrams are refused (ICMP), which QUIC does not hear.
    let closed = dead().local_addr().unwrap();
    let start = Instant::now();
    let c = Client::connect_any(&[closed, server.addr], Trust::Fingerprint(server.pin), "bob")
        .await
        .expect("the second address answers");
    assert!(start.elapsed() < CONNECT_TIMEOUT + Duration::from_secs(4), "{:?}", start.elapsed());
    assert_eq!(c.server(), server.addr);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_tries_each_address_once_and_fails_with_the_last_error_when_none_answers() {
    let server = TestServer::start("").await;
    let silent = dead();
    let list = [server.addr, silent.local_addr().unwrap()];
    let mut c = Client::connect_any(&list, Trust::Fingerprint(server.pin), "carol").await.unwrap();
    assert_eq!(c.server(), server.addr, "the first address answers at once");
    server.stop().await;
    match next(&mut c).await {
        Update::Disconnected(_) => {}
        other => panic!("expected the connection lost, got {other:?}"),
    }
    let start = Instant::now();
    let err = c.resume().await.expect_err("no node answers");
    let took = start.elapsed();
    // The silent address costs its whole timeout; the stopped node either refuses at once (its
    // socket may still answer while it closes) or is silent too: never more than each once.
    assert!(took >= CONNECT_TIMEOUT, "the silent address is tried to its timeout: {took:?}");
    assert!(took < CONNECT_TIMEOUT * 2 + Duration::from_secs(4), "once: {took:?}");
    let ClientError::Connection(text) = err else { panic!("{err:?}") };
    assert!(text.starts_with(&list[1].to_string()), "the last address tried is named: {text}");
    // Nothing moved: the stopped node is still the current one, to be tried first next time.
    assert_eq!(c.servers(), list);
    drop(silent);
}
