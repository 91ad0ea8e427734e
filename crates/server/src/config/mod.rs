//! The server's settings: `config/default.toml` embedded, overridden key by key by a file.
//! Plain data at the bottom of the server's layers: every layer reads the keys it needs (each
//! part builds its own settings from it, `MatchLimits::of`, `SeekSettings::of` …), and this
//! module imports none of them.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use bughouse_match::ClockConfig;
use serde::Deserialize;

pub(crate) mod cluster;
mod keys;
pub use cluster::ClusterConfig;

/// The longest `restart_wait_s` (K6).
const MAX_RESTART_WAIT_S: u64 = 3_600;

const DEFAULT_TOML: &str = include_str!("../../../../config/default.toml");

/// The fewest characters of a role's secret (`arbiter_token`, `director_token`).
pub(crate) const MIN_SECRET: usize = 16;

/// Every setting of `config/default.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// UDP address of the QUIC endpoint.
    pub listen: SocketAddr,
    /// TCP address of the web client and WebSocket transport; empty disables it.
    pub http_listen: String,
    /// UDP address of the browsers' QUIC endpoint (WebTransport); empty disables it.
    pub webtransport_listen: String,
    /// The server's state directory.
    pub data_dir: PathBuf,
    /// PostgreSQL URL; empty for SQLite in the data directory.
    pub database_url: String,
    /// The arbiters' secret; empty disables the role.
    pub arbiter_token: String,
    /// The tournament directors' secret; empty disables the role.
    pub director_token: String,
    /// PEM certificate chain; empty for the self-signed one.
    pub cert: PathBuf,
    /// PEM private key; empty for the self-signed one.
    pub key: PathBuf,
    /// The name the server is reached by; empty for the page's own host.
    pub public_host: String,
    /// TCP address of HTTPS; empty for none (then `http_listen` serves in plain HTTP).
    pub https_listen: String,
    /// An ACME CA's directory URL; empty for no ACME.
    pub acme_directory: String,
    /// A contact for the ACME account (`mailto:`); empty for none.
    pub acme_contact: String,
    /// A PEM root for the ACME CA's own HTTPS; empty for the system's roots.
    pub acme_ca_roots: PathBuf,
    /// Days before its end that an ACME certificate is renewed.
    pub acme_renew_before_days: u32,
    /// Addresses or networks whose log-ins over plain HTTP are accepted (besides loopback).
    pub plain_http_logins: Vec<String>,
    /// A clock settings file; empty for the built-in one.
    pub clock: PathBuf,
    /// Connections at once, over every transport (QUIC, WebTransport, WebSocket).
    pub max_connections: usize,
    /// Origins besides the server's own whose pages may open WebSocket sessions
    /// (`https://chess.example.org`).
    pub allowed_origins: Vec<String>,
    /// How long the HTTP side waits for a request's headers, ms (slowloris).
    pub http_header_timeout_ms: u64,
    /// Reverse proxies (addresses or networks) whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<String>,
    /// Addresses or networks that may read `/metrics`.
    pub metrics_allowed: Vec<String>,
    /// Connections at once from one address (IPv6: one /64), over every transport.
    pub max_connections_per_address: usize,
    /// QUIC handshakes in flight above which a new one must prove its address (a Retry).
    pub retry_handshakes_above: usize,
    /// New connections one address (IPv6: one /64) may open a second, after a burst of ten
    /// seconds' worth.
    pub new_connections_per_address_per_second: u32,
    /// Live matches at once.
    pub max_matches: usize,
    /// Forming matches one session may have created.
    pub max_open_matches_per_session: usize,
    /// Bots the server runs at once (`FillWithBots`).
    pub max_bots: usize,
    /// The least time a server's bot takes per move, ms.
    pub bot_pace_ms: u64,
    /// Positions waiting for the server's engine (`ClientMsg::Analyse`) at most.
    pub max_analyses_queued: usize,
    /// Of those, from one address (IPv6: one /64) at most.
    pub analyses_per_address: usize,
    /// Nodes the engine searches on each board of an analysed position.
    pub analysis_nodes: u64,
    /// Seconds a forming match may go with no seated player connected.
    pub forming_expiry_s: u64,
    /// K6: seconds a match paused by a restart waits for its missing players before its clocks
    /// start again.
    pub restart_wait_s: u64,
    /// Events of a match kept for each lane of its spectators (at most 80 each, 64 lanes); a
    /// spectator further behind is sent the match's latest state instead.
    pub spectator_events_kept: usize,
    /// Seconds a session may go unused before its token expires.
    pub session_expiry_s: u64,
    /// How often connected sessions ended in the database by another process are looked for, ms.
    pub session_check_ms: u64,
    /// Matches in one page of the lobby list.
    pub list_page_max: usize,
    /// How long after its end a match may be rematched, seconds.
    pub rematch_offer_s: u64,
    /// Rematch offers held at once.
    pub max_rematch_offers: usize,
    /// Seeks held at once, waiting or inviting.
    pub max_seeks: usize,
    /// Seeks and invitations one player is in at once.
    pub max_seeks_per_session: usize,
    /// How long an invited partner has to answer, seconds.
    pub seek_invitation_s: u64,
    /// The quick window's width at once, rating points either side.
    pub seek_range_start: u32,
    /// How much the quick window widens each second of waiting, points.
    pub seek_range_per_second: u32,
    /// The quick pools' time controls (besides the clock settings' named ones).
    pub quick_pools: Vec<String>,
    /// The quick pools' rule preset.
    pub quick_pool_rules: String,
    /// UDP receive buffer, bytes.
    pub udp_recv_buffer: usize,
    /// Idle timeout of a connection (QUIC, WebTransport, WebSocket), ms.
    pub idle_timeout_ms: u64,
    /// Keep-alive interval of a connection, ms.
    pub keep_alive_ms: u64,
    /// Requests per second per connection.
    pub rate_per_second: u32,
    /// Burst above the rate.
    pub rate_burst: u32,
    /// Seconds to wait for `Hello`.
    pub hello_timeout_s: u64,
    /// Failed log-ins allowed for one name from one address before it is locked out there.
    pub login_failures_per_name: u32,
    /// Failed log-ins allowed from one address (IPv6: one /64) before it is locked out.
    pub login_failures_per_address: u32,
    /// The first lock-out, ms; it doubles with every further failure, up to 64 times itself.
    pub login_lockout_ms: u64,
    /// How long the answer to a failed log-in is held back, ms.
    pub login_failure_delay_ms: u64,
    /// Accounts registered from one address (IPv6: one /64) within an hour.
    pub registrations_per_address_per_hour: u32,
    /// New guest sessions opened from one address (IPv6: one /64) within an hour.
    pub guest_sessions_per_address_per_hour: u32,
    /// Expensive reads (reviews, records, profiles …) served at a time.
    pub max_reads_at_once: usize,
    /// Bytes of decided matches' records kept rendered.
    pub record_cache_bytes: usize,
    /// Decided matches whose watchers are kept, so that a corrected result reaches them.
    pub decided_matches_watched: usize,
    /// The most watchers kept for one decided match.
    pub decided_watchers_kept: usize,
    /// Below this many seconds (base plus 40 increments) a time control is bullet.
    pub rating_bullet_below_s: u64,
    /// Below this many seconds (and not bullet) a time control is blitz; rapid above.
    pub rating_blitz_below_s: u64,
    /// Whether bots may sit in rated matches.
    pub rated_bots: bool,
    /// The most lines of a leaderboard.
    pub leaderboard_size: u32,
    /// `[cluster]`: this server as one node of several; `None` (no section) for one node alone.
    #[serde(default)]
    pub cluster: Option<ClusterConfig>,
}

impl ServerConfig {
    /// The settings of a command line: the file given with `--config`, or the embedded defaults.
    ///
    /// # Errors
    /// As [`ServerConfig::from_file`].
    pub fn load(file: Option<&Path>) -> anyhow::Result<ServerConfig> {
        file.map_or_else(|| Ok(ServerConfig::builtin()), ServerConfig::from_file)
    }

    /// The embedded defaults.
    pub fn builtin() -> ServerConfig {
        ServerConfig::from_overrides("").expect("the built-in configuration is valid")
    }

    /// The defaults with the keys of `text` (TOML) replacing theirs.
    ///
    /// # Errors
    /// Bad TOML, an unknown key, a bad value, or keep-alive not below the idle timeout.
    pub fn from_overrides(text: &str) -> anyhow::Result<ServerConfig> {
        let mut table: toml::Table = toml::from_str(DEFAULT_TOML)?;
        let overrides: toml::Table = toml::from_str(text).context("invalid configuration")?;
        table.extend(overrides);
        let config: ServerConfig = table.try_into().map_err(|e: toml::de::Error| {
            // The top-level keys, as serde lists them for a key that is none of them.
            let probe = toml::from_str::<ServerConfig>("no_such_key_anywhere = 0").err();
            let top = probe.map(|p| keys::expected(&p.to_string())).unwrap_or_default();
            anyhow::anyhow!("invalid configuration: {}", keys::suggest_in(&e.to_string(), &top))
        })?;
        if config.keep_alive_ms >= config.idle_timeout_ms {
            bail!("invalid configuration: keep_alive_ms must be below idle_timeout_ms");
        }
        if config.cert.as_os_str().is_empty() != config.key.as_os_str().is_empty() {
            bail!("invalid configuration: give both cert and key, or neither");
        }
        config.webtransport_addr()?;
        if config.list_page_max == 0 || config.list_page_max > 50 || config.forming_expiry_s == 0 {
            bail!(
                "invalid configuration: list_page_max is 1 to 50 (a page fits a frame), forming_expiry_s positive"
            );
        }
        if config.restart_wait_s > MAX_RESTART_WAIT_S {
            bail!(
                "invalid configuration: restart_wait_s is {}; at most {MAX_RESTART_WAIT_S} (an hour): \
                 a match must not wait longer for a player who does not come back (K6)",
                config.restart_wait_s
            );
        }
        if !(1..=10_000).contains(&config.registrations_per_address_per_hour) {
            bail!("invalid configuration: registrations_per_address_per_hour must be 1 to 10000");
        }
        for (key, secret) in
            [("arbiter_token", &config.arbiter_token), ("director_token", &config.director_token)]
        {
            if !secret.is_empty() && secret.chars().count() < MIN_SECRET {
                bail!(
                    "invalid configuration: {key} has {} characters; a role's secret needs at least \
                     {MIN_SECRET} (a long random string: it can be guessed at the log-in rate)",
                    secret.chars().count()
                );
            }
        }
        networks(&config.plain_http_logins, "plain_http_logins")?;
        config.https_addr()?;
        config.check_acme()?;
        networks(&config.trusted_proxies, "trusted_proxies")?;
        networks(&config.metrics_allowed, "metrics_allowed")?;
        if !(100..=600_000).contains(&config.http_header_timeout_ms) {
            bail!("invalid configuration: http_header_timeout_ms must be 100 to 600000");
        }
        if !(1..=64).contains(&config.max_reads_at_once) {
            bail!("invalid configuration: max_reads_at_once must be 1 to 64");
        }
        if !(16..=4096).contains(&config.spectator_events_kept) {
            bail!("invalid configuration: spectator_events_kept is 16 to 4096");
        }
        if config.decided_matches_watched > 65_536 {
            bail!("invalid configuration: decided_matches_watched is 0 to 65536");
        }
        if !(1..=1024).contains(&config.decided_watchers_kept) {
            bail!("invalid configuration: decided_watchers_kept is 1 to 1024");
        }
        if config.record_cache_bytes > 1 << 30 {
            bail!("invalid configuration: record_cache_bytes must be at most 1 GiB");
        }
        if !(1..=100_000).contains(&config.guest_sessions_per_address_per_hour) {
            bail!("invalid configuration: guest_sessions_per_address_per_hour must be 1 to 100000");
        }
        if config.login_failures_per_name == 0 || config.login_failures_per_address == 0 {
            bail!(
                "invalid configuration: login_failures_per_name and login_failures_per_address must be positive"
            );
        }
        if config.rating_bullet_below_s > config.rating_blitz_below_s || config.leaderboard_size == 0 {
            bail!(
                "invalid configuration: rating_bullet_below_s may not exceed rating_blitz_below_s, and \
                 leaderboard_size must be positive"
            );
        }
        if config.max_seeks == 0 || config.max_seeks_per_session == 0 || config.seek_invitation_s == 0 {
            bail!(
                "invalid configuration: max_seeks, max_seeks_per_session and seek_invitation_s must be positive"
            );
        }
        if bughouse::RuleOptions::preset(&config.quick_pool_rules).is_err() {
            bail!(
                "invalid configuration: quick_pool_rules {:?} is not a rule preset",
                config.quick_pool_rules
            );
        }
        if !(1..=100_000).contains(&config.new_connections_per_address_per_second) {
            bail!("invalid configuration: new_connections_per_address_per_second must be 1 to 100000");
        }
        if config.max_connections_per_address == 0 {
            bail!("invalid configuration: max_connections_per_address must be positive");
        }
        if config.rate_per_second == 0 || config.max_connections == 0 {
            bail!("invalid configuration: rate_per_second and max_connections must be positive");
        }
        database_tls(&config.database_url)?;
        if let Some(cluster) = &config.cluster {
            cluster.validate(&config.database_url)?;
        }
        Ok(config)
    }

    /// Reads a file of overrides.
    ///
    /// # Errors
    /// An unreadable file, or as [`ServerConfig::from_overrides`].
    pub fn from_file(path: &Path) -> anyhow::Result<ServerConfig> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        ServerConfig::from_overrides(&text).with_context(|| format!("in {}", path.display()))
    }

    /// The clock settings of matches.
    ///
    /// # Errors
    /// An unreadable or invalid clock file.
    pub fn clock_config(&self) -> anyhow::Result<ClockConfig> {
        if self.clock.as_os_str().is_empty() {
            return Ok(ClockConfig::builtin());
        }
        let text = std::fs::read_to_string(&self.clock)
            .with_context(|| format!("cannot read {}", self.clock.display()))?;
        Ok(ClockConfig::from_toml(&text)?)
    }

    /// The UDP address of the browsers' endpoint; `None` when WebTransport is off.
    ///
    /// # Errors
    /// Not an address.
    pub fn webtransport_addr(&self) -> anyhow::Result<Option<SocketAddr>> {
        if self.webtransport_listen.is_empty() {
            return Ok(None);
        }
        let addr = self.webtransport_listen.parse().with_context(|| {
            format!(
                "invalid configuration: webtransport_listen {:?} is not an address",
                self.webtransport_listen
            )
        })?;
        Ok(Some(addr))
    }

    /// The TCP address of HTTPS; `None` when it is off.
    ///
    /// # Errors
    /// Not an address.
    pub fn https_addr(&self) -> anyhow::Result<Option<SocketAddr>> {
        if self.https_listen.is_empty() {
            return Ok(None);
        }
        let addr = self.https_listen.parse().with_context(|| {
            format!("invalid configuration: https_listen {:?} is not an address", self.https_listen)
        })?;
        Ok(Some(addr))
    }

    /// Whether the server obtains its certificate from an ACME CA.
    pub fn acme(&self) -> bool {
        !self.acme_directory.is_empty()
    }

    /// What ACME needs: a name, HTTPS, HTTP for its challenge, and no certificate of its own.
    fn check_acme(&self) -> anyhow::Result<()> {
        let host = &self.public_host;
        if !host.is_empty()
            && (!host.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
                || host.len() > 253
                || host.starts_with('.'))
        {
            bail!(
                "invalid configuration: public_host {host:?} is not a host name (\"chess.example.org\", \
                 without scheme, port or path; an international name in its xn-- form)"
            );
        }
        if !self.acme() {
            return Ok(());
        }
        if !self.acme_directory.starts_with("https://") {
            bail!("invalid configuration: acme_directory must be an https:// URL (the CA's directory)");
        }
        let missing: Vec<&str> = [
            (host.is_empty(), "public_host (the name to certify)"),
            (self.https_listen.is_empty(), "https_listen (where the certificate is served)"),
            (self.http_listen.is_empty(), "http_listen (where the CA's HTTP-01 challenge is answered)"),
        ]
        .into_iter()
        .filter_map(|(gone, key)| gone.then_some(key))
        .collect();
        if !missing.is_empty() {
            bail!("invalid configuration: acme_directory needs {}", missing.join(", "));
        }
        if !self.cert.as_os_str().is_empty() {
            bail!("invalid configuration: acme_directory and cert/key both give the certificate; keep one");
        }
        if self.cluster.is_some() {
            bail!(
                "invalid configuration: acme_directory does not work with [cluster] yet (each node would \
                 order its own certificate, and the CA's challenge may reach another node): give every \
                 node the same cert and key (shvedka cert, or your CA's certificate for public_host)"
            );
        }
        if self.https_listen == self.http_listen && !self.https_listen.ends_with(":0") {
            bail!("invalid configuration: https_listen and http_listen are the same address");
        }
        if host.parse::<std::net::IpAddr>().is_ok() || !host.contains('.') {
            bail!(
                "invalid configuration: public_host {host:?} is not a domain name an ACME CA certifies \
                 (\"chess.example.org\")"
            );
        }
        if !(1..=365).contains(&self.acme_renew_before_days) {
            bail!("invalid configuration: acme_renew_before_days must be 1 to 365");
        }
        Ok(())
    }

    pub(crate) fn idle_timeout(&self) -> Duration {
        Duration::from_millis(self.idle_timeout_ms)
    }

    pub(crate) fn keep_alive(&self) -> Duration {
        Duration::from_millis(self.keep_alive_ms)
    }
}

/// Refuses a PostgreSQL URL to another machine that leaves TLS to chance: without `sslmode` the
/// driver "prefers" TLS and silently goes on in clear when the server offers none (so does
/// `prefer`, and `allow`), and the password, the session tokens' hashes and every game cross the
/// network readable. `require`, `verify-ca` or `verify-full` is asked for; `disable` is taken as
/// the operator's deliberate word; a Unix socket or loopback needs nothing.
///
/// # Errors
/// Such a URL, with what to add.
pub(crate) fn database_tls(url: &str) -> anyhow::Result<()> {
    let Some(rest) = url.strip_prefix("postgres://").or_else(|| url.strip_prefix("postgresql://")) else {
        return Ok(());
    };
    let (location, query) = rest.split_once('?').unwrap_or((rest, ""));
    let params: Vec<(&str, &str)> = query.split('&').filter_map(|p| p.split_once('=')).collect();
    let param = |key: &str| params.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| *v);
    let authority = location.split('/').next().unwrap_or("");
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match hostport.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => hostport.split(':').next().unwrap_or(""),
    };
    let host = param("host").unwrap_or(host);
    let local = host.is_empty()
        || host.starts_with('/')
        || host.starts_with("%2F")
        || host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    let mode = param("sslmode").unwrap_or("");
    if local || ["require", "verify-ca", "verify-full", "disable"].contains(&mode) {
        return Ok(());
    }
    bail!(
        "invalid configuration: database_url reaches {host} without sslmode=require, verify-ca or \
         verify-full: the driver would go on in clear if the server offered no TLS. Add \
         ?sslmode=verify-full (sslmode=disable if you mean it)"
    )
}

/// The networks of a list of addresses (`203.0.113.7`, a whole address) and networks
/// (`10.0.0.0/8`, `2001:db8::/32`), as `key` of the configuration has them.
///
/// # Errors
/// An entry that is neither, named.
pub(crate) fn networks(list: &[String], key: &str) -> anyhow::Result<Vec<ipnet::IpNet>> {
    list.iter()
        .map(|entry| {
            entry
                .parse::<ipnet::IpNet>()
                .or_else(|_| entry.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| {
                    anyhow::anyhow!(
                        "invalid configuration: {key} entry {entry:?} is neither an address nor a network (10.0.0.0/8)"
                    )
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::ServerConfig;

    fn refused(text: &str) -> String {
        format!("{:#}", ServerConfig::from_overrides(text).expect_err("refused"))
    }

    #[test]
    fn acme_without_what_it_needs_is_refused_naming_each_key() {
        let e = refused("acme_directory = \"https://acme.example/dir\"\nhttp_listen = \"\"");
        for key in ["public_host", "https_listen", "http_listen"] {
            assert!(e.contains(key), "{key} not named: {e}");
        }
        let acme = "acme_directory = \"https://acme.example/dir\"\nhttps_listen = \"127.0.0.1:0\"\n";
        let e = refused(&format!("{acme}public_host = \"localhost\""));
        assert!(e.contains("not a domain name"), "{e}");
        let e =
            refused(&format!("{acme}public_host = \"chess.example.org\"\ncert = \"c.pem\"\nkey = \"k.pem\""));
        assert!(e.contains("keep one"), "{e}");
        let e = refused("acme_directory = \"http://acme.example/dir\"");
        assert!(e.contains("https:// URL"), "{e}");
        let e = refused("public_host = \"https://chess.example.org/\"");
        assert!(e.contains("not a host name"), "{e}");
        let e = refused("https_listen = \"chess\"");
        assert!(e.contains("https_listen"), "{e}");
        let e = refused(
            "acme_directory = \"https://acme.example/dir\"\npublic_host = \"chess.example.org\"\n\
             https_listen = \"127.0.0.1:8443\"\nhttp_listen = \"127.0.0.1:8443\"",
        );
        assert!(e.contains("the same address"), "{e}");
        let e = refused("public_host = \"chess.example.org/?x\"");
        assert!(e.contains("not a host name"), "{e}");
        let e = refused("plain_http_logins = [\"lan\"]");
        assert!(e.contains("plain_http_logins entry \"lan\""), "{e}");
        let fine = ServerConfig::from_overrides(&format!("{acme}public_host = \"chess.example.org\""));
        assert!(fine.expect("a complete ACME configuration").acme());
    }

    #[test]
    fn a_roles_secret_shorter_than_sixteen_characters_is_refused_by_name() {
        let e = refused("arbiter_token = \"s3cret\"");
        assert!(e.contains("arbiter_token has 6 characters") && e.contains("at least 16"), "{e}");
        let e = refused("director_token = \"td\"");
        assert!(e.contains("director_token has 2 characters"), "{e}");
        // Counted in characters, not bytes: fifteen Cyrillic letters are thirty bytes.
        let e = refused(&format!("arbiter_token = \"{}\"", "ж".repeat(15)));
        assert!(e.contains("has 15 characters"), "{e}");
        let fine =
            ServerConfig::from_overrides("arbiter_token = \"sixteen-chars-ok\"\ndirector_token = \"\"");
        assert_eq!(fine.expect("sixteen, and a disabled role").arbiter_token, "sixteen-chars-ok");
    }

    #[test]
    fn decided_watchers_are_bounded_and_named_when_out_of_bounds() {
        assert!(refused("decided_matches_watched = 70000").contains("decided_matches_watched is 0 to 65536"));
        for bad in [0, 1025] {
            let e = refused(&format!("decided_watchers_kept = {bad}"));
            assert!(e.contains("decided_watchers_kept is 1 to 1024"), "{e}");
        }
        let c = ServerConfig::from_overrides("").unwrap();
        assert_eq!((c.decided_matches_watched, c.decided_watchers_kept), (256, 64));
    }

    /// K6: a match waits for a player who does not come back an hour at most.
    #[test]
    fn k6_restart_wait_is_bounded_and_named_when_out_of_bounds() {
        let e = refused("restart_wait_s = 3601");
        assert!(e.contains("restart_wait_s is 3601; at most 3600") && e.contains("(K6)"), "{e}");
        assert!(refused("restart_wait_s = -1").contains("restart_wait_s"));
        assert_eq!(ServerConfig::from_overrides("").unwrap().restart_wait_s, 120);
        assert_eq!(ServerConfig::from_overrides("restart_wait_s = 0").unwrap().restart_wait_s, 0);
    }

    #[test]
    fn spectator_events_kept_is_bounded_and_named_when_out_of_bounds() {
        for bad in ["0", "15", "4097"] {
            let e = refused(&format!("spectator_events_kept = {bad}"));
            assert!(e.contains("spectator_events_kept is 16 to 4096"), "{e}");
        }
        assert_eq!(ServerConfig::from_overrides("").unwrap().spectator_events_kept, 256);
    }

    #[test]
    fn address_lists_take_addresses_and_networks_and_name_a_bad_entry() {
        let config = ServerConfig::from_overrides(
            "trusted_proxies = [\"10.0.0.5\", \"2001:db8::/32\"]\nmetrics_allowed = [\"192.0.2.0/24\"]",
        )
        .unwrap();
        let proxies = super::networks(&config.trusted_proxies, "trusted_proxies").unwrap();
        assert!(proxies[0].contains(&"10.0.0.5".parse::<std::net::IpAddr>().unwrap()));
        assert!(!proxies[0].contains(&"10.0.0.6".parse::<std::net::IpAddr>().unwrap()));
        assert!(proxies[1].contains(&"2001:db8:1::9".parse::<std::net::IpAddr>().unwrap()));
        let e = refused("trusted_proxies = [\"proxy.example\"]");
        assert!(e.contains("trusted_proxies entry \"proxy.example\" is neither"), "{e}");
        assert!(refused("metrics_allowed = [\"10.0.0.0/33\"]").contains("metrics_allowed entry"));
        assert!(
            refused("http_header_timeout_ms = 0").contains("http_header_timeout_ms must be 100 to 600000")
        );
    }

    #[test]
    fn a_database_on_another_machine_needs_tls_said_outright() {
        use super::database_tls;
        for fine in [
            "",
            "postgres://shvedka@127.0.0.1/shvedka",
            "postgres://u:p@localhost:5432/db",
            "postgres://u@[::1]/db",
            "postgres://postgres@localhost/postgres?host=/var/tmp/pg",
            "postgres://u@/db?host=%2Fvar%2Frun%2Fpostgresql",
            "postgres://u:p@db.example/db?sslmode=verify-full",
            "postgresql://u:p@10.0.0.5/db?application_name=x&sslmode=require",
            "postgres://u:p@10.0.0.5/db?sslmode=disable",
        ] {
            assert!(database_tls(fine).is_ok(), "{fine}");
        }
        for leaky in ["postgres://u:p@db.example/db", "postgres://u:p@10.0.0.5:5432/db?sslmode=prefer"] {
            let e = format!("{:#}", database_tls(leaky).expect_err(leaky));
            assert!(e.contains("without sslmode=require") && e.contains("verify-full"), "{e}");
        }
        assert!(refused("database_url = \"postgres://u:p@db.example/db\"").contains("sslmode"));
    }

    #[test]
    fn hourly_limits_per_address_are_refused_out_of_bounds() {
        assert!(
            refused("guest_sessions_per_address_per_hour = 0")
                .contains("guest_sessions_per_address_per_hour must be 1 to 100000")
        );
        assert!(
            refused("registrations_per_address_per_hour = 0")
                .contains("registrations_per_address_per_hour must be 1 to 10000")
        );
    }
}
