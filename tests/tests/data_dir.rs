//! The data directory holds the database (password and token hashes), the TLS private key and the
//! QUIC stateless-reset key: a
//! server that creates it makes it readable by its own user alone, whatever the umask (issue 32).

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;

use shvedka_server::{Server, ServerConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_directory_the_server_creates_is_its_users_alone() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path().join("club").join("data");
    let config = ServerConfig::from_overrides(&format!(
        "listen = \"127.0.0.1:0\"\nhttp_listen = \"\"\nwebtransport_listen = \"\"\ndata_dir = {dir:?}\n"
    ))
    .expect("a valid configuration");
    let server = Server::bind(config).await.expect("the server binds");
    let mode = |p: &std::path::Path| std::fs::metadata(p).expect("it exists").permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700, "the data directory");
    assert_eq!(mode(&dir.join("key.pem")) & 0o077, 0, "the private key");
    assert_eq!(mode(&dir.join("stateless-reset.key")) & 0o077, 0, "the QUIC reset key");
    drop(server);
}
