//! A throwaway PostgreSQL server for tests: a fresh cluster in a temporary directory, reachable
//! only through a Unix socket in that directory (no TCP port, so nothing else on the machine can
//! collide with it or reach it), stopped and deleted when dropped.
//!
//! `SHVEDKA_TEST_DATABASE_URL` points the tests at an existing server instead. Otherwise the
//! server binaries of Debian's `postgresql` package are used (`.ci/run` installs it); running as
//! root, the cluster runs as the `postgres` user, as PostgreSQL insists.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A PostgreSQL server for one test process.
pub struct TempPostgres {
    /// The connection URL.
    pub url: String,
    cluster: Option<(PathBuf, PathBuf)>,
}

impl TempPostgres {
    /// Starts a cluster (or takes `SHVEDKA_TEST_DATABASE_URL`).
    ///
    /// # Panics
    /// When no PostgreSQL is configured or installed, saying how to get one.
    pub fn start() -> TempPostgres {
        if let Ok(url) = std::env::var("SHVEDKA_TEST_DATABASE_URL") {
            return TempPostgres { url, cluster: None };
        }
        let bin = bin_dir().unwrap_or_else(|| {
            panic!(
                "PostgreSQL is needed for the storage tests: install Debian's `postgresql` package \
                 (.ci/run does) or set SHVEDKA_TEST_DATABASE_URL"
            )
        });
        let root =
            std::env::temp_dir().join(format!("shvedka-pg-{}-{}", std::process::id(), crate::unique()));
        let data = root.join("data");
        std::fs::create_dir_all(&root).expect("a temporary directory");
        if is_root() {
            run(Command::new("chown").args(["-R", "postgres:postgres"]).arg(&root));
        }
        run(pg(&bin, "initdb")
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "-D"])
            .arg(&data));
        let url = format!("postgres://postgres@localhost/postgres?host={}", root.display());
        let server = TempPostgres { url, cluster: Some((bin, root)) };
        server.start_again();
        server
    }

    /// The Unix socket the server listens on (a throwaway cluster's; `None` for one given by
    /// `SHVEDKA_TEST_DATABASE_URL`).
    pub fn socket(&self) -> Option<std::path::PathBuf> {
        self.cluster.as_ref().map(|(_, root)| root.join(".s.PGSQL.5432"))
    }

    /// Stops the server (fast shutdown: open connections are cut), as an outage would; the
    /// cluster stays for [`TempPostgres::start_again`].
    ///
    /// # Panics
    /// When the server was given by `SHVEDKA_TEST_DATABASE_URL`, or does not stop.
    pub fn stop(&self) {
        let (bin, root) = self.cluster.as_ref().expect("a cluster of this test's own");
        run(pg(bin, "pg_ctl").args(["-D"]).arg(root.join("data")).args(["-m", "fast", "-w", "stop"]));
    }

    /// Starts the stopped server again on the same socket.
    ///
    /// # Panics
    /// When the server was given by `SHVEDKA_TEST_DATABASE_URL`, or does not start.
    pub fn start_again(&self) {
        let (bin, root) = self.cluster.as_ref().expect("a cluster of this test's own");
        let options = format!("-c listen_addresses='' -k {} -c fsync=off", root.display());
        run(pg(bin, "pg_ctl")
            .args(["-D"])
            .arg(root.join("data"))
            .args(["-o", &options, "-w", "-l"])
            .arg(root.join("log"))
            .arg("start"));
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        if let Some((bin, root)) = self.cluster.take() {
            let data = root.join("data");
            let _ = pg(&bin, "pg_ctl").args(["-D"]).arg(&data).args(["-m", "immediate", "stop"]).output();
            let _ = std::fs::remove_dir_all(&root);
        }
    }
}

/// A server tool, run as the `postgres` user when we are root (PostgreSQL insists).
fn pg(bin: &Path, tool: &str) -> Command {
    let exe = bin.join(tool);
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(exe);
        c
    } else {
        Command::new(exe)
    }
}

/// The newest installed server's binaries.
fn bin_dir() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("initdb").exists() && p.join("pg_ctl").exists())
        .collect();
    dirs.sort_by_key(|p| {
        p.parent().and_then(Path::file_name).and_then(|n| n.to_str()).and_then(|n| n.parse::<u32>().ok())
    });
    dirs.pop()
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
