//! A two-node cluster on loopback to try partitions by hand (issue 36): a throwaway PostgreSQL
//! and NATS, node a reaching both through faulty links (`testkit::link`), node b directly. It
//! prints how to join, then reads commands on stdin: `cut` (node a loses PostgreSQL and NATS),
//! `cut-db`, `cut-nats`, `slow MS` (node a's database link delayed MS each way), `heal`, `quit`.
//!
//! `cargo run -p shvedka-tests --example partition_lab`, then in other terminals
//! `shvedka play --server A,B --fingerprint F --name anna` (the lines it prints).

use std::io::BufRead;
use std::time::Duration;

use shvedka_tests::TestServer;
use testkit::link::{Link, Mode};
use testkit::nats::TempNats;
use testkit::postgres::TempPostgres;

fn node(db: &str, nats: &TempNats, nats_url: &str, name: &str, cert: Option<&TestServer>) -> String {
    let shared = cert.map_or_else(String::new, |first| {
        let dir = first.data_dir();
        format!("cert = {:?}\nkey = {:?}\n", dir.join("cert.pem"), dir.join("key.pem"))
    });
    let settings = nats.node_settings().replace(&nats.url, nats_url);
    format!(
        "database_url = {db:?}\n{shared}[cluster]\nnode = {name:?}\n{settings}lease_ms = 3000\nlease_renew_ms = 500\n"
    )
}

#[tokio::main]
async fn main() {
    let (pg, nats) = (TempPostgres::start(), TempNats::start());
    let pg_link = Link::start_unix(pg.socket().expect("a throwaway PostgreSQL")).await.unwrap();
    let nats_link = Link::start(nats.url.trim_start_matches("tls://").parse().unwrap()).await.unwrap();
    let linked_db = format!("postgres://postgres@{}/postgres", pg_link.addr());
    let a =
        TestServer::start(&node(&linked_db, &nats, &format!("tls://{}", nats_link.addr()), "node-a", None))
            .await;
    let b = TestServer::start(&node(&pg.url, &nats, &nats.url, "node-b", Some(&a))).await;
    let pin: String = a.pin.iter().map(|b| format!("{b:02x}")).collect();
    println!("node a {} (http {}), node b {} (http {})", a.addr, a.http, b.addr, b.http);
    println!("join: shvedka play --server {},{} --fingerprint {pin} --name NAME", a.addr, b.addr);
    println!("commands: cut, cut-db, cut-nats, slow MS, heal, quit");
    let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(8);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    while let Some(line) = rx.recv().await {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["cut"] => {
                pg_link.set(Mode::Blackhole);
                nats_link.set(Mode::Blackhole);
            }
            ["cut-db"] => pg_link.set(Mode::Blackhole),
            ["cut-nats"] => nats_link.set(Mode::Blackhole),
            ["slow", ms] => match ms.parse() {
                Ok(ms) => pg_link.set(Mode::Delay(Duration::from_millis(ms))),
                Err(_) => println!("slow MS: a number of milliseconds"),
            },
            ["heal"] => {
                pg_link.set(Mode::Pass);
                nats_link.set(Mode::Pass);
            }
            ["quit"] => break,
            _ => println!("commands: cut, cut-db, cut-nats, slow MS, heal, quit"),
        }
        println!("node a: database link {:?}, NATS link {:?}", pg_link.mode(), nats_link.mode());
    }
    a.stop().await;
    b.stop().await;
}
