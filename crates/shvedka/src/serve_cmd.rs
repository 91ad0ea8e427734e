//! `shvedka serve`: the match server on embedded defaults, or with `--config FILE`.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use shvedka_server::{Server, ServerConfig};

/// Arguments of `shvedka serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// A TOML file overriding settings of config/default.toml.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Listen on this UDP address instead of the configured one.
    #[arg(long)]
    listen: Option<std::net::SocketAddr>,
    /// Serve the web client and WebSocket on this TCP address instead of the configured one
    /// (an empty value turns the HTTP side off).
    #[arg(long)]
    http_listen: Option<String>,
    /// Serve WebTransport on this UDP address instead of the configured one (an empty value
    /// turns it off).
    #[arg(long)]
    webtransport_listen: Option<String>,
    /// Keep the embedded database, the certificate and the rest in this directory instead of the
    /// configured `data_dir` (a relative path is taken from the working directory)
    #[arg(long)]
    data_dir: Option<std::path::PathBuf>,
}

/// Whether the log is coloured: on a terminal, unless `NO_COLOR` is set to anything but empty
/// (<https://no-color.org>).
fn colour_logs(terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

pub(crate) fn run(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut config = ServerConfig::load(args.config.as_deref())?;
    if let Some(dir) = &args.data_dir {
        config.data_dir.clone_from(dir);
    }
    if let Some(listen) = args.listen {
        config.listen = listen;
    }
    if let Some(http) = &args.http_listen {
        config.http_listen = http.clone();
    }
    if let Some(webtransport) = &args.webtransport_listen {
        config.webtransport_listen = webtransport.clone();
    }
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG));
    // Colour only for a person at a terminal: never into a file or the journal, nor under NO_COLOR.
    let colour =
        colour_logs(std::io::IsTerminal::is_terminal(&std::io::stderr()), std::env::var_os("NO_COLOR"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .try_init();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let config_public_host = config.public_host.clone();
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        // The handler is installed before the address is printed, so a Ctrl-C that follows the
        // printout always shuts down gracefully.
        let interrupted = interrupt()?;
        writeln!(out, "shvedka listening on {} (QUIC, ALPN shvedka/1)", server.local_addr()?)?;
        writeln!(out, "certificate sha256 {}", server.fingerprint())?;
        let line = web_line(
            &config_public_host,
            server.https_addr()?,
            server.http_addr()?,
            server.webtransport_addr()?,
        );
        writeln!(out, "{line}")?;
        writeln!(
            out,
            "join with: shvedka play --server {} --fingerprint {} --name YOUR_NAME",
            server.local_addr()?,
            server.fingerprint()
        )?;
        out.flush()?;
        let shutdown = async {
            interrupted.await;
            tracing::info!("shutting down");
        };
        server.run(shutdown).await
    })
}

/// The printed line that says where the web client is: over HTTPS (by its public name, when one
/// is configured) with plain HTTP redirecting there, or over plain HTTP.
fn web_line(
    public_host: &str,
    https: Option<std::net::SocketAddr>,
    http: Option<std::net::SocketAddr>,
    webtransport: Option<std::net::SocketAddr>,
) -> String {
    let browsers = |ws: &str| {
        webtransport.map_or_else(
            || format!("WebSocket {ws}"),
            |wt| format!("WebTransport on UDP {wt}, or WebSocket {ws}"),
        )
    };
    match (https, http) {
        (Some(https), http) => {
            let host = match public_host {
                "" => https.to_string(),
                name if https.port() == 443 => name.to_owned(),
                name => format!("{name}:{}", https.port()),
            };
            let plain = http.map(|h| format!("; plain HTTP on {h} redirects there")).unwrap_or_default();
            format!("web client on https://{host}/ ({}{plain})", browsers("wss:/ws"))
        }
        (None, Some(http)) => format!("web client on http://{http}/ ({})", browsers("/ws")),
        (None, None) => "web client off (http_listen is empty)".to_owned(),
    }
}

/// What the log says without `RUST_LOG`: shvedka's own lines from `info` up. The NATS client's
/// lines are left out: the node says NATS's state itself, each change once and a repeated error
/// once a minute (`cluster::nats_state`), where the client says each reconnection's error
/// again, several times a second; PostgreSQL's notices (`relation … already exists, skipping`
/// at each start) are left out below `warn`. `RUST_LOG` (say `RUST_LOG=info,async_nats=debug`)
/// shows them.
const DEFAULT_LOG: &str = "info,async_nats=off,sqlx::postgres::notice=warn";

/// Ctrl-C (SIGINT) or SIGTERM (what systemd, `kill` and container runtimes send to stop a
/// service), with the handlers installed now: either is the same clean shutdown.
#[cfg(unix)]
fn interrupt() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut int = signal(SignalKind::interrupt()).context("cannot install the Ctrl-C handler")?;
    let mut term = signal(SignalKind::terminate()).context("cannot install the SIGTERM handler")?;
    Ok(async move {
        tokio::select! {
            _ = int.recv() => tracing::info!("interrupted (SIGINT)"),
            _ = term.recv() => tracing::info!("asked to stop (SIGTERM)"),
        }
    })
}

/// Ctrl-C.
#[cfg(not(unix))]
fn interrupt() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

#[cfg(test)]
mod tests {
    use super::{colour_logs, web_line};

    #[test]
    fn the_web_client_is_announced_at_its_public_https_address_when_there_is_one() {
        let a = |s: &str| Some(s.parse().unwrap());
        let line = web_line("chess.example.org", a("[::]:443"), a("[::]:80"), a("[::]:443"));
        assert_eq!(
            line,
            "web client on https://chess.example.org/ (WebTransport on UDP [::]:443, or WebSocket wss:/ws; \
             plain HTTP on [::]:80 redirects there)"
        );
        let line = web_line("", a("127.0.0.1:8443"), None, None);
        assert_eq!(line, "web client on https://127.0.0.1:8443/ (WebSocket wss:/ws)");
        let line = web_line("chess.example.org", a("0.0.0.0:8443"), None, None);
        assert!(line.starts_with("web client on https://chess.example.org:8443/"), "{line}");
        assert_eq!(
            web_line("", None, a("127.0.0.1:7476"), None),
            "web client on http://127.0.0.1:7476/ (WebSocket /ws)"
        );
    }

    #[test]
    fn logs_are_coloured_only_on_a_terminal_without_no_color() {
        assert!(colour_logs(true, None));
        assert!(!colour_logs(false, None), "a file or the journal gets no escape codes");
        assert!(!colour_logs(true, Some("1".into())), "NO_COLOR");
        assert!(colour_logs(true, Some("".into())), "an empty NO_COLOR is unset (no-color.org)");
    }
}
