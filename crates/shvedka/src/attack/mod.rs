//! `shvedka attack`: one attack of the suite of issue 32, run from one attacking address against
//! a server on loopback, while honest players (`shvedka load --bind …`) play from other
//! addresses; `tools/attack.py` runs the whole suite and prints its table.
//!
//! Why from loopback addresses of their own: the server limits what one address may do (IPv4
//! whole), and all of 127.0.0.0/8 is this machine's on Linux, so an attacker at 127.0.0.66 is
//! another address than the honest players at 127.0.1.x, exactly as on the network, and the
//! server's limits stay at their defaults. Everything is bounded: every attack stops by itself
//! after `--duration` (plus a few seconds to let go), holds at most a stated number of
//! connections, and speaks only to loopback addresses — anything else is refused.
//!
//! Beside the attack an honest probe, from yet another address (`--probe-from`), opens a session
//! every `--probe-every-ms`, logs in to an honest account with its right password and creates a
//! match: each refusal it meets is an honest player refused. The last line says what the attacker
//! got and what the probe met, as `key=value` fields for the driver.

mod accounts;
mod connections;
mod handshakes;
mod malformed;
mod probe;
mod reviews;
mod spectators;
mod tally;
mod ws;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, ValueEnum};
use shvedka_client::{Client, ClientError, Trust};
use tokio::time::Instant;

use crate::Failure;
use crate::client_cmds::ConnectArgs;
pub(crate) use tally::Tally;

/// The UDP receive buffer asked for each attacking endpoint.
const RECV_BUFFER: usize = 2 << 20;

/// Sessions opened at once when an attack opens many.
const OPEN_AT_ONCE: usize = 32;

/// How long after `--duration` an attack may take to let go before it is cut off.
const GRACE: Duration = Duration::from_secs(5);

/// The attacks of the suite (`none`: only the probe, the baseline).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Kind {
    /// Nothing but the honest probe: the baseline.
    None,
    /// Open QUIC connections, then WebSocket ones, until refused; hold them.
    Connections,
    /// Start QUIC handshakes as fast as possible and drop them, most before they finish.
    Handshakes,
    /// Register new accounts in a loop.
    Registrations,
    /// Log in to the honest account with wrong passwords in a loop.
    Logins,
    /// Read every match's review pages and record parts in a loop, over many connections.
    Reviews,
    /// Watch one honest live match with a crowd of spectators.
    Spectators,
    /// Send malformed frames: garbage, oversized lengths, bad bincode, bad JSON, bad WebSocket.
    Malformed,
}

/// Arguments of `shvedka attack`.
#[derive(Debug, Args)]
pub(crate) struct AttackArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Which attack.
    #[arg(value_enum)]
    kind: Kind,
    /// The server's HTTP side (its WebSocket at /ws), HOST:PORT; without it the WebSocket parts
    /// of `connections` and `malformed` are left out.
    #[arg(long)]
    http: Option<SocketAddr>,
    /// The attacking address (a loopback address of this machine).
    #[arg(long, default_value = "127.0.0.66")]
    from: IpAddr,
    /// How long to attack, seconds.
    #[arg(long, default_value_t = 20)]
    duration: u64,
    /// Connections a request flood uses (`logins`, `reviews`), up to the server's cap per address.
    #[arg(long, default_value_t = 190)]
    connections: usize,
    /// Requests per second each connection of a request flood sends: the server's default
    /// `rate_per_second`, so the attacker goes as fast as that allows.
    #[arg(long, default_value_t = 20.0)]
    rate: f64,
    /// Spectators of the `spectators` attack.
    #[arg(long, default_value_t = 2000)]
    spectators: usize,
    /// The crowd's addresses (`spectators`): a crowd is many addresses, each within the
    /// server's cap per address.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "127.0.2.1,127.0.2.2,127.0.2.3,127.0.2.4,127.0.2.5,127.0.2.6,127.0.2.7,127.0.2.8,127.0.2.9,127.0.2.10"
    )]
    crowd: Vec<IpAddr>,
    /// Most connections or handshakes one attack opens in all (a bound, whatever the server
    /// allows).
    #[arg(long, default_value_t = 100_000)]
    max_attempts: u64,
    /// The honest probe's address.
    #[arg(long, default_value = "127.0.0.99")]
    probe_from: IpAddr,
    /// How often the probe opens a session, milliseconds.
    #[arg(long, default_value_t = 2000)]
    probe_every_ms: u64,
    /// The honest account: the probe logs in to it, the `logins` attack guesses its password. The
    /// probe registers it if it does not exist.
    #[arg(long, default_value = "honest-anna")]
    account: String,
}

/// What every attack knows: whom to attack, from where, until when.
pub(crate) struct Ctx {
    pub(crate) server: SocketAddr,
    pub(crate) http: Option<SocketAddr>,
    pub(crate) trust: Trust,
    pub(crate) from: IpAddr,
    pub(crate) until: Instant,
    pub(crate) connections: usize,
    pub(crate) rate: f64,
    pub(crate) spectators: usize,
    pub(crate) crowd: Vec<IpAddr>,
    pub(crate) max_attempts: u64,
    pub(crate) probe_from: IpAddr,
    pub(crate) probe_every: Duration,
    pub(crate) account: String,
}

impl Ctx {
    /// Whether the attack's time is up.
    pub(crate) fn over(&self) -> bool {
        Instant::now() >= self.until
    }

    /// A client endpoint (one UDP socket) speaking from `ip`.
    pub(crate) fn endpoint(&self, ip: IpAddr) -> Result<shvedka_client::quinn::Endpoint, ClientError> {
        Client::endpoint_bound(SocketAddr::new(ip, 0), &self.trust, RECV_BUFFER)
    }

    /// A guest session on `endpoint`, given up (`Err`) at the end of the attack.
    pub(crate) async fn guest(
        &self,
        endpoint: &shvedka_client::quinn::Endpoint,
        name: &str,
    ) -> Result<Client, ClientError> {
        let connect = Client::connect_on(endpoint.clone(), self.server, &self.trust, name);
        match tokio::time::timeout_at(self.until, connect).await {
            Ok(result) => result,
            Err(_) => Err(ClientError::Connection("the attack is over".into())),
        }
    }

    /// `per_ip` guest sessions from each of `ips`, opened [`OPEN_AT_ONCE`] at a time, with a
    /// few endpoints per address; each refusal or failure is counted in `tally`.
    pub(crate) async fn guests(
        self: &Arc<Self>,
        ips: &[IpAddr],
        per_ip: usize,
        tally: &Tally,
    ) -> Vec<Client> {
        let mut endpoints = Vec::new();
        for &ip in ips {
            for _ in 0..per_ip.div_ceil(100).max(1) {
                match self.endpoint(ip) {
                    Ok(e) => endpoints.push((ip, e)),
                    Err(e) => tally.failed(reason(&e)),
                }
            }
        }
        let mut jobs = Vec::new();
        for &ip in ips {
            let mine: Vec<_> = endpoints.iter().filter(|(i, _)| *i == ip).map(|(_, e)| e.clone()).collect();
            jobs.extend((0..per_ip).filter_map(|n| mine.get(n % mine.len().max(1)).cloned()));
        }
        let mut clients = Vec::with_capacity(jobs.len());
        for chunk in jobs.chunks(OPEN_AT_ONCE) {
            let mut set = tokio::task::JoinSet::new();
            for endpoint in chunk {
                let (ctx, endpoint) = (self.clone(), endpoint.clone());
                set.spawn(async move { ctx.guest(&endpoint, "").await });
            }
            while let Some(done) = set.join_next().await {
                match done {
                    Ok(Ok(c)) => clients.push(c),
                    Ok(Err(e)) if is_refusal(&e) => tally.refused(format!("connect: {}", reason(&e))),
                    Ok(Err(e)) => tally.failed(format!("connect: {}", reason(&e))),
                    Err(e) => tally.failed(e.to_string()),
                }
            }
            if self.over() {
                break;
            }
        }
        clients
    }

    /// A pacer for one connection of a request flood: `rate` ticks a second, none missed.
    pub(crate) fn pacer(&self) -> tokio::time::Interval {
        let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / self.rate.max(0.01)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick
    }
}

/// The password of the honest account (a throwaway account of a benchmark run on loopback).
pub(crate) const HONEST_PASSWORD: &str = "honest-password-1";

pub(crate) fn run(args: &AttackArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let (server, trust) = args.connect.target()?;
    let mut ips = vec![server.ip(), args.from, args.probe_from];
    ips.extend(args.http.map(|h| h.ip()));
    ips.extend(args.crowd.iter().copied());
    loopback_only(&ips)?;
    anyhow::ensure!(args.rate > 0.0 && args.connections > 0, "--rate and --connections must be positive");
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = runtime.block_on(async {
        let ctx = Arc::new(Ctx {
            server,
            http: args.http,
            trust,
            from: args.from,
            until: Instant::now() + Duration::from_secs(args.duration),
            connections: args.connections,
            rate: args.rate,
            spectators: args.spectators,
            crowd: args.crowd.clone(),
            max_attempts: args.max_attempts,
            probe_from: args.probe_from,
            probe_every: Duration::from_millis(args.probe_every_ms.max(100)),
            account: args.account.clone(),
        });
        attack(args.kind, ctx, out).await
    });
    // Whatever is still running (a connection being let go) is dropped with the runtime.
    runtime.shutdown_timeout(Duration::from_secs(1));
    result
}

/// Refuses any address that is not loopback: the suite attacks this machine only.
fn loopback_only(ips: &[IpAddr]) -> anyhow::Result<()> {
    match ips.iter().find(|ip| !ip.is_loopback()) {
        Some(ip) => Err(Failure {
            code: 2,
            message: format!("{ip} is not a loopback address: shvedka attack runs on this machine only"),
        }
        .into()),
        None => Ok(()),
    }
}

async fn attack(kind: Kind, ctx: Arc<Ctx>, out: &mut dyn Write) -> anyhow::Result<()> {
    probe::ensure_account(&ctx).await.context("the honest probe cannot log in to its account")?;
    writeln!(out, "attack: {kind:?} from {} on {} for {:.0} s", ctx.from, ctx.server, secs_left(&ctx))?;
    let probe = tokio::spawn(probe::run(ctx.clone()));
    let tally = Arc::new(Tally::default());
    let work = {
        let (ctx, tally) = (ctx.clone(), tally.clone());
        async move {
            match kind {
                Kind::None => tokio::time::sleep_until(ctx.until).await,
                Kind::Connections => connections::run(&ctx, &tally).await,
                Kind::Handshakes => handshakes::run(&ctx, &tally).await,
                Kind::Registrations => accounts::registrations(&ctx, &tally).await,
                Kind::Logins => accounts::logins(&ctx, &tally).await,
                Kind::Reviews => reviews::run(&ctx, &tally).await,
                Kind::Spectators => spectators::run(&ctx, &tally).await,
                Kind::Malformed => malformed::run(&ctx, &tally).await,
            }
        }
    };
    if tokio::time::timeout_at(ctx.until + GRACE, work).await.is_err() {
        writeln!(out, "attack: cut off {} s after its time", GRACE.as_secs())?;
    }
    let probe = probe.await.context("the probe failed")?;
    for line in tally.reasons() {
        writeln!(out, "attack: {line}")?;
    }
    for line in probe.reasons() {
        writeln!(out, "attack: probe {line}")?;
    }
    writeln!(out, "attack: kind={} {} {}", kind_name(kind), tally.fields(""), probe.fields("probe_"))?;
    Ok(())
}

fn secs_left(ctx: &Ctx) -> f64 {
    ctx.until.saturating_duration_since(Instant::now()).as_secs_f64()
}

/// The attack's name as the command line spells it.
fn kind_name(kind: Kind) -> String {
    kind.to_possible_value().map_or_else(|| format!("{kind:?}"), |v| v.get_name().to_owned())
}

/// Whether a failed connection was refused by the server (a limit), not lost otherwise.
pub(crate) fn is_refusal(e: &ClientError) -> bool {
    match e {
        ClientError::Refused(_) | ClientError::Server(_) => true,
        ClientError::Connection(text) => text.to_ascii_lowercase().contains("refused"),
        ClientError::Protocol(_) => false,
    }
}

/// A short name of a client error, for the tallies of reasons.
pub(crate) fn reason(e: &ClientError) -> String {
    match e {
        ClientError::Server(msg) => format!("{:?}", msg.code),
        other => {
            let text = other.to_string();
            text.chars().take(80).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_may_be_attacked() {
        let ok: Vec<IpAddr> = ["127.0.0.1", "127.0.2.9", "::1"].iter().map(|a| a.parse().unwrap()).collect();
        assert!(loopback_only(&ok).is_ok());
        let bad: IpAddr = "10.0.0.1".parse().unwrap();
        let e = loopback_only(&[ok[0], bad]).unwrap_err();
        assert!(e.to_string().contains("10.0.0.1 is not a loopback address"), "{e}");
        assert_eq!(crate::exit_code(&e), 2);
    }

    #[test]
    fn a_refusal_is_told_from_a_lost_connection() {
        assert!(is_refusal(&ClientError::Connection("aborted by peer: CONNECTION_REFUSED".into())));
        assert!(is_refusal(&ClientError::Refused(shvedka_proto::ErrorMsg {
            code: shvedka_proto::ErrorCode::Handshake,
            rule: None,
            message: "version".into(),
        })));
        assert!(!is_refusal(&ClientError::Connection("timed out".into())));
        assert_eq!(kind_name(Kind::Registrations), "registrations");
    }
}
