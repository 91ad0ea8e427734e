//! Cluster mode: several nodes serving one lobby, PostgreSQL holding everything durable (and each
//! match's lease, so exactly one node runs a match at a time), NATS carrying messages between the
//! nodes. Configured by `[cluster]` (`config/cluster.rs`); without it the server is one node.
//!
//! A node keeps itself alive in the database (a heartbeat every `lease_renew_ms`, by the
//! database's clock), and looks as often for matches no live node runs — their node stopped and
//! its lease ran out, or their lease was never taken — and takes them over: each is rebuilt from
//! its log and paused as after a restart, so the outage is charged to nobody. A stale node's
//! appends are refused by the database (`shvedka_storage::Leases`), so it can never write a
//! match another node took over.
//!
//! Over NATS the nodes hear each other's heartbeats (`peers.rs`), which the metrics show, and
//! any node serves any player: a request about a match another node runs is forwarded to it
//! (`relay/`, reached through the server's `Placement`, `placement.rs`), which answers it (`owner.rs`) and relays what the match sends that player back
//! to the player's node (`wire.rs` has the messages). Who runs a match is never NATS's say: a
//! node starts while NATS is down and connects when it can.

mod arbiter_act;
mod lease;
mod listings;
mod nats_state;
mod owner;
mod peers;
mod placement;
mod relay;
pub(crate) mod wire;
#[cfg(test)]
mod wire_golden;

use std::sync::{Arc, Weak};
use std::time::Duration;

use anyhow::Context;
use shvedka_storage::{PgStore, Store};
use tokio::sync::watch;

pub(crate) use crate::config::ClusterConfig;
pub(crate) use owner::Here;
pub(crate) use peers::Peers;
pub(crate) use relay::Seeking;

/// How long a stopping node waits for its own tasks before it marks itself gone.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// Opens the database as this node, and marks the node alive (before it takes any match).
///
/// # Errors
/// The database cannot be reached or migrated.
pub(crate) async fn open_store(
    database_url: &str,
    cluster: &ClusterConfig,
) -> anyhow::Result<Arc<dyn Store>> {
    let store = PgStore::connect_node(database_url, &cluster.node, cluster.lease())
        .await
        .context("cannot open the database")?;
    let leases = store.leases().expect("a node's store has leases");
    leases.heartbeat().await.context("cannot register this node in the database")?;
    let wire = wire::version();
    tracing::info!(node = %cluster.node, lease_ms = cluster.lease_ms, %wire, "cluster node registered");
    Ok(Arc::new(store))
}

/// This node's links to the other nodes: one NATS connection, the requests it forwards and the
/// followers it relays for.
pub(crate) struct Cluster {
    nats: async_nats::Client,
    /// Other nodes' sessions following this node's matches.
    pub(crate) owner: Arc<owner::Owner>,
    /// This node's sessions following other nodes' matches.
    pub(crate) relays: Arc<relay::Relays>,
    /// The other nodes' live matches, for the lobby.
    pub(crate) listings: Arc<listings::Listings>,
    /// The nodes heard lately, this one included.
    peers: Arc<Peers>,
    /// The NATS connection as its events told it (`/metrics`).
    nats_state: Arc<nats_state::NatsState>,
}

impl Cluster {
    /// Connects to NATS (in the background: NATS may be down at start). Where other nodes'
    /// ended matches ran is kept as long and as many as rematch offers (`rematches`); this
    /// node's galleries of other nodes' matches keep `spectator_events_kept` posts a lane.
    ///
    /// # Errors
    /// A NATS URL the client cannot read.
    pub(crate) async fn connect(
        config: &ClusterConfig,
        store: Arc<dyn Store>,
        rematches: (Duration, usize),
        peers: Arc<Peers>,
        roles: crate::service::roles::Roles,
        spectator_events_kept: usize,
    ) -> anyhow::Result<Arc<Cluster>> {
        let nats_state = nats_state::NatsState::new();
        let nats = connect_nats(config, &nats_state).await?;
        Ok(Arc::new(Cluster {
            owner: owner::Owner::new(nats.clone()),
            relays: Arc::new(
                relay::Relays::new(
                    config.node.clone(),
                    nats.clone(),
                    store,
                    rematches,
                    roles,
                    peers.clone(),
                    config.lease(),
                )
                .with_gallery_kept(spectator_events_kept),
            ),
            listings: Arc::new(listings::Listings::new(
                config.node.clone(),
                config.lease(),
                config.max_nodes,
            )),
            nats,
            peers,
            nats_state,
        }))
    }
}

/// How long the first connection to NATS may take before the node waits for it in the
/// background (a NATS server not up yet is not a fault of the node's settings).
const NATS_FIRST_WITHIN: Duration = Duration::from_secs(10);

/// Connects to NATS. A first attempt is not retried: credentials the server refuses, or a TLS
/// connection that fails (a CA that did not sign the server's certificate), stop the node at
/// once, naming which setting to check. A server that does not answer yet is waited for in the
/// background, as before (the node starts; the relays come up when NATS does).
async fn connect_nats(
    config: &ClusterConfig,
    state: &Arc<nats_state::NatsState>,
) -> anyhow::Result<async_nats::Client> {
    use async_nats::ConnectErrorKind as Kind;
    let url = config.nats_url.as_str();
    let options = || config.nats_options().map(|o| o.name(&config.node).event_callback(state.callback()));
    // The error and its sources, each said once: async-nats repeats its kind in its sources
    // ("authorization violation: nats: authorization violation").
    let why = |e: &async_nats::ConnectError| {
        let mut text = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            let more = s.to_string();
            let said = more.trim_start_matches("nats: ");
            if !text.to_lowercase().contains(&said.to_lowercase()) {
                text = format!("{text}: {more}");
            }
            source = s.source();
        }
        text
    };
    match tokio::time::timeout(NATS_FIRST_WITHIN, options()?.connect(url)).await {
        Ok(Ok(client)) => return Ok(client),
        // Said by its kind alone: the client's text repeats it ("authorization violation: nats:
        // authorization violation").
        Ok(Err(e)) if matches!(e.kind(), Kind::AuthorizationViolation | Kind::Authentication) => {
            anyhow::bail!(
                "the NATS server at {url} refused this node's credentials (nats_user {:?}): {}; check nats_user \
                 and nats_password against the NATS server's authorization block",
                config.nats_user,
                if e.kind() == Kind::Authentication {
                    "authentication failed"
                } else {
                    "authorization violation"
                }
            )
        }
        // rustls's refusal of the server's certificate comes as an IO error naming it.
        Ok(Err(e)) if e.kind() == Kind::Tls || why(&e).contains("certificate") => anyhow::bail!(
            "the TLS connection to the NATS server at {url} failed: {}; check nats_ca (the CA that signed the \
             NATS server's certificate, {:?}) and that the URL's host is named in that certificate",
            why(&e),
            config.nats_ca
        ),
        Ok(Err(e)) if e.kind() == Kind::ServerParse => {
            anyhow::bail!("nats_url {url:?} does not read: {}", why(&e))
        }
        Ok(Err(e)) => {
            tracing::warn!(nats = url, error = %why(&e), "NATS does not answer yet; the node starts and keeps trying")
        }
        Err(_) => {
            tracing::warn!(nats = url, "NATS did not answer within 10 s; the node starts and keeps trying")
        }
    }
    options()?
        .retry_on_initial_connect()
        .connect(url)
        .await
        .with_context(|| format!("cannot use the NATS server at {url}"))
}

impl Cluster {
    /// Says that sessions were ended in the database (a log-out, a password change): every node
    /// looks for its connections of ended sessions at once.
    pub(crate) async fn sessions_ended(&self) {
        if let Err(e) = self.nats.publish(wire::SESSIONS_ENDED, Vec::new().into()).await {
            tracing::debug!(error = %e, "cannot say sessions ended; the nodes see it at their next look");
        }
    }
}

/// The node's background work: its heartbeat and the take-over of orphaned matches.
pub(crate) struct NodeTasks {
    stop: watch::Sender<bool>,
    /// Stops the take-overs alone, first: a stopping node takes no more matches.
    stop_taking: watch::Sender<bool>,
    taking: Option<tokio::task::JoinHandle<()>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    store: Arc<dyn Store>,
}

impl NodeTasks {
    /// Starts the heartbeat in the database and the take-overs, every `lease_renew_ms`, and the
    /// heartbeats over NATS (connecting in the background: NATS may be down at start).
    ///
    /// # Errors
    /// A NATS URL the client cannot read.
    pub(crate) fn spawn(
        store: Arc<dyn Store>,
        config: &ClusterConfig,
        here: Arc<Here>,
        cluster: &Cluster,
        standing: crate::service::standing::StandingTx,
    ) -> NodeTasks {
        let every = config.lease_renew();
        let (stop, stopped) = watch::channel(false);
        let (stop_taking, stopped_taking) = watch::channel(false);
        let weak = Arc::downgrade(&here);
        cluster.relays.set_rooms(Arc::downgrade(&here.rooms));
        let taking = tokio::spawn(take_overs(
            store.clone(),
            every,
            weak.clone(),
            cluster.nats.clone(),
            stopped_taking,
        ));
        let tasks = vec![
            tokio::spawn(
                lease::Keeper {
                    store: store.clone(),
                    every,
                    lease: config.lease(),
                    standing,
                    here: weak.clone(),
                }
                .run(stopped.clone()),
            ),
            tokio::spawn(seek_role(store.clone(), cluster.relays.clone(), every, stopped.clone())),
            tokio::spawn(peers::run(
                cluster.nats.clone(),
                config.node.clone(),
                every,
                weak.clone(),
                stopped.clone(),
            )),
            tokio::spawn(owner::serve(
                cluster.owner.clone(),
                config.node.clone(),
                here.clone(),
                stopped.clone(),
            )),
            tokio::spawn(listings::run(
                cluster.nats.clone(),
                config.node.clone(),
                Arc::downgrade(&here.rooms),
                cluster.listings.clone(),
                stopped.clone(),
            )),
            tokio::spawn(ended_sessions(
                cluster.nats.clone(),
                Arc::downgrade(&here.sessions),
                stopped.clone(),
            )),
            tokio::spawn(relay::run(cluster.relays.clone(), every, stopped)),
        ];
        NodeTasks { stop, stop_taking, taking: Some(taking), tasks, store }
    }

    /// Takes over no more matches (a stopping node, before its matches stop).
    pub(crate) async fn stop_taking_over(&mut self) {
        let _ = self.stop_taking.send(true);
        if let Some(task) = self.taking.take() {
            let _ = tokio::time::timeout(STOP_WAIT, task).await;
        }
    }

    /// Stops everything, then marks the node gone, so the others take whatever it still holds
    /// at once (its matches have stopped and stored their last events by then).
    pub(crate) async fn stop(mut self) {
        self.stop_taking_over().await;
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = tokio::time::timeout(STOP_WAIT, task).await;
        }
        if let Some(leases) = self.store.leases()
            && let Err(e) = leases.leave().await
        {
            tracing::warn!(error = %e, "cannot mark this node gone; its leases run out by themselves");
        }
    }
}

/// Closes this node's connections of sessions another node ended, as soon as it says so.
async fn ended_sessions(
    nats: async_nats::Client,
    sessions: Weak<crate::service::session::Sessions>,
    mut stopped: watch::Receiver<bool>,
) {
    use futures_util::StreamExt;
    let mut said = match nats.subscribe(wire::SESSIONS_ENDED).await {
        Ok(sub) => sub,
        Err(e) => {
            tracing::error!(error = %e, "cannot hear of sessions ended on other nodes");
            return;
        }
    };
    loop {
        let stop = async {
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        tokio::select! {
            () = stop => return,
            msg = said.next() => {
                if msg.is_none() {
                    return;
                }
                let Some(sessions) = sessions.upgrade() else { return };
                sessions.sweep().await;
            }
        }
    }
}

/// The role of the node that runs the seeks (one pool for the cluster).
const SEEKS: &str = "seeks";

/// Takes the seeks' role when nobody alive holds it, and notes who does, every `every`.
async fn seek_role(
    store: Arc<dyn Store>,
    relays: Arc<relay::Relays>,
    every: Duration,
    mut stopped: watch::Receiver<bool>,
) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopped.wait_for(|stop| *stop) => return,
        }
        let Some(leases) = store.leases() else { return };
        let now = match leases.take_role(SEEKS).await {
            Ok(shvedka_storage::Take::Taken { .. }) => Seeking::Here,
            Ok(shvedka_storage::Take::Held { node }) => Seeking::There(node),
            Err(e) => {
                tracing::warn!(error = %e, "cannot check which node runs the seeks");
                Seeking::Unknown
            }
        };
        relays.set_seeking(now);
    }
}

/// Takes over the matches no live node runs.
async fn take_overs(
    store: Arc<dyn Store>,
    every: Duration,
    here: Weak<Here>,
    nats: async_nats::Client,
    mut stopped: watch::Receiver<bool>,
) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopped.wait_for(|stop| *stop) => return,
        }
        let Some(leases) = store.leases() else { return };
        if here.upgrade().is_none_or(|here| here.rooms.may_run().is_err()) {
            // Its lease lost: this node takes nothing until it rejoins.
            continue;
        }
        let orphans = match leases.orphans().await {
            Ok(orphans) => orphans,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for orphaned matches; trying again");
                continue;
            }
        };
        // The matches this node let go when it lost its lease are still its own in the database
        // (no orphans): taken back unless another node took them over meanwhile.
        let let_go = here.upgrade().map(|here| here.rooms.let_go()).unwrap_or_default();
        let ids = orphans.into_iter().map(shvedka_proto::MatchId).chain(let_go.iter().copied());
        for id in ids {
            if *stopped.borrow() {
                return;
            }
            let Some(here) = here.upgrade() else { return };
            // A tournament game keeps its reserved seats (as known to this node's tournaments:
            // the driver's are read back from the database when it takes the role).
            let reserved = here.tournaments.reservations().await.remove(&id);
            match here.rooms.take_over(id, reserved).await {
                Ok(true) => {
                    tracing::info!(match_id = %id, "match taken over from a stopped node");
                    // Its server's bots sit again, on this node.
                    here.bots.resume_restored(&here.rooms, &here.metrics);
                    // The nodes whose players follow it ask this node from now on.
                    let said = shvedka_proto::encode(&id).expect("an id encodes");
                    if let Err(e) = nats.publish(wire::TAKEN, said.into()).await {
                        tracing::debug!(error = %e, "cannot say a match was taken over");
                    }
                }
                // Not taken back because this node lost its lease again while it looked (a
                // link about as slow as the lease makes a node lose and renew by turns): kept.
                Ok(false) if let_go.contains(&id) && here.rooms.take_back_later(id) => {
                    here.rooms.keep_let_go(id)
                }
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(match_id = %id, error = %e, "cannot take a match over; trying again");
                    if let_go.contains(&id) {
                        here.rooms.keep_let_go(id);
                    }
                }
            }
        }
    }
}
