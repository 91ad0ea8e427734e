//! NATS as an operator sees it: whether this node is connected, since when, and the last error
//! the NATS client or server reported — in `/metrics` (`shvedka_cluster_nats_connected`,
//! `shvedka_cluster_nats_since_seconds`, `shvedka_cluster_nats_errors_total`,
//! `shvedka_cluster_nats_last_error{error}`) and in the log. The log says each change of state
//! once, and an error repeated (a password changed on the NATS server makes every reconnection
//! fail alike) once at once and then at most once a minute with how often it came meanwhile,
//! so that the log stays readable while the node keeps trying.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

/// How often the same error is logged again while it repeats.
const REPEAT_LOGGED_EVERY: Duration = Duration::from_secs(60);

/// The longest error text kept (the label of `shvedka_cluster_nats_last_error`).
const ERROR_TEXT_MAX: usize = 200;

/// This node's NATS connection, as the client's events told it.
#[derive(Default)]
pub(crate) struct NatsState {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    connected: bool,
    since: Option<SystemTime>,
    errors: u64,
    last_error: Option<String>,
    /// When the last error was logged, and how often it came since without being logged.
    logged: Option<(Instant, u64)>,
}

/// What `/metrics` shows of NATS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NatsSnapshot {
    /// Connected now.
    pub(crate) connected: bool,
    /// Unix seconds of the last change of `connected` (0 before the first).
    pub(crate) since_unix_s: u64,
    /// Errors reported so far.
    pub(crate) errors: u64,
    /// The last of them.
    pub(crate) last_error: Option<String>,
}

/// What happened to the connection, from the client's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Happening {
    /// Connected (first, or again).
    Connected,
    /// The connection was lost; the client reconnects.
    Disconnected,
    /// The client gave up (closed).
    Closed,
    /// An error of the client or the server.
    Error(String),
    /// Nothing an operator acts on (slow consumer of one subscription, draining, lame duck).
    Other(String),
}

impl Happening {
    /// The client's event as this node reads it.
    pub(crate) fn of(event: &async_nats::Event) -> Happening {
        use async_nats::Event;
        match event {
            Event::Connected => Happening::Connected,
            Event::Disconnected => Happening::Disconnected,
            Event::Closed => Happening::Closed,
            Event::ServerError(async_nats::ServerError::AuthorizationViolation) => Happening::Error(
                "authorization violation: the NATS server refused nats_user/nats_password".into(),
            ),
            Event::ServerError(e) => Happening::Error(format!("server: {}", plain(&e.to_string()))),
            Event::ClientError(e) => Happening::Error(format!("client: {}", plain(&e.to_string()))),
            other => Happening::Other(other.to_string()),
        }
    }
}

/// The client's text without its `nats: ` prefix.
fn plain(text: &str) -> &str {
    text.strip_prefix("nats: ").unwrap_or(text)
}

impl NatsState {
    /// Not connected yet.
    pub(crate) fn new() -> Arc<NatsState> {
        Arc::new(NatsState::default())
    }

    /// The callback for `ConnectOptions::event_callback`.
    pub(crate) fn callback(
        self: &Arc<Self>,
    ) -> impl Fn(async_nats::Event) -> std::future::Ready<()> + Send + Sync + 'static {
        let state = self.clone();
        move |event| {
            state.on(Happening::of(&event), Instant::now(), crate::service::wall::now());
            std::future::ready(())
        }
    }

    /// Takes `what` in at `now` (`wall` for the metric), logging what an operator reads.
    pub(crate) fn on(&self, what: Happening, now: Instant, wall: SystemTime) -> Option<String> {
        let mut guard = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let s = &mut *guard;
        let line = match what {
            Happening::Connected => {
                let again = s.since.is_some();
                s.connected = true;
                s.since = Some(wall);
                s.logged = None;
                Some(if again { "NATS connected again" } else { "NATS connected" }.to_owned())
            }
            Happening::Disconnected | Happening::Closed => {
                let was = s.connected;
                s.connected = false;
                if was {
                    s.since = Some(wall);
                }
                if what == Happening::Closed {
                    Some("NATS connection closed: this node no longer reaches the other nodes".to_owned())
                } else {
                    was.then(|| {
                        "NATS connection lost: reconnecting; forwarded requests are answered Unavailable meanwhile"
                            .to_owned()
                    })
                }
            }
            Happening::Error(text) => {
                let text: String = text.chars().take(ERROR_TEXT_MAX).collect();
                s.errors += 1;
                let same = s.last_error.as_deref() == Some(text.as_str());
                s.last_error = Some(text.clone());
                match s.logged.as_mut() {
                    Some((at, repeats)) if same && now.duration_since(*at) < REPEAT_LOGGED_EVERY => {
                        *repeats += 1;
                        None
                    }
                    Some((at, repeats)) if same => {
                        let line = format!(
                            "NATS error (again, {} more time(s) in the last minute): {text}",
                            *repeats + 1
                        );
                        (*at, *repeats) = (now, 0);
                        Some(line)
                    }
                    _ => {
                        s.logged = Some((now, 0));
                        Some(format!("NATS error: {text}"))
                    }
                }
            }
            Happening::Other(text) => {
                tracing::info!(event = %text, "NATS");
                return None;
            }
        };
        if let Some(line) = &line {
            if s.connected {
                tracing::info!("{line}");
            } else {
                tracing::warn!("{line}");
            }
        }
        line
    }

    /// What `/metrics` shows now.
    pub(crate) fn snapshot(&self) -> NatsSnapshot {
        let s = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        NatsSnapshot {
            connected: s.connected,
            since_unix_s: s
                .since
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_secs()),
            errors: s.errors,
            last_error: s.last_error.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(s: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(s)
    }

    #[tokio::test(start_paused = true)]
    async fn the_state_changes_are_said_once_and_a_repeated_error_once_a_minute_with_its_count() {
        let state = NatsState::default();
        assert_eq!(
            state.snapshot(),
            NatsSnapshot { connected: false, since_unix_s: 0, errors: 0, last_error: None }
        );
        let t0 = Instant::now();
        assert_eq!(state.on(Happening::Connected, t0, wall(100)).as_deref(), Some("NATS connected"));
        assert!(
            state.on(Happening::Disconnected, t0, wall(200)).unwrap().starts_with("NATS connection lost")
        );
        assert_eq!(state.on(Happening::Disconnected, t0, wall(201)), None, "said once");
        let auth = || Happening::Error("authorization violation".into());
        assert_eq!(state.on(auth(), t0, wall(202)).as_deref(), Some("NATS error: authorization violation"));
        for i in 1..=14 {
            let at = t0 + Duration::from_secs(4 * i);
            assert_eq!(state.on(auth(), at, wall(202)), None, "the same error within the minute: counted");
        }
        let later = state.on(auth(), t0 + Duration::from_secs(61), wall(263)).unwrap();
        assert_eq!(later, "NATS error (again, 15 more time(s) in the last minute): authorization violation");
        let other =
            state.on(Happening::Error("client: timed out".into()), t0 + Duration::from_secs(62), wall(264));
        assert_eq!(other.as_deref(), Some("NATS error: client: timed out"), "another error at once");
        let snap = state.snapshot();
        assert_eq!((snap.connected, snap.since_unix_s, snap.errors), (false, 200, 17));
        assert_eq!(snap.last_error.as_deref(), Some("client: timed out"));
        assert_eq!(state.on(Happening::Connected, t0, wall(300)).as_deref(), Some("NATS connected again"));
        assert_eq!(state.snapshot().since_unix_s, 300);
    }

    #[test]
    fn an_authorization_violation_names_the_settings_to_check() {
        let event = async_nats::Event::ServerError(async_nats::ServerError::AuthorizationViolation);
        let Happening::Error(text) = Happening::of(&event) else { panic!("an error") };
        assert!(text.contains("nats_user/nats_password"), "{text}");
    }
}
