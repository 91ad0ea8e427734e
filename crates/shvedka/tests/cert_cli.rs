//! `shvedka cert` (issue 58, one certificate for a cluster): one command makes the certificate and
//! key every node serves; a server configured with them serves exactly that certificate (the
//! fingerprint printed is the one clients pin); the key is its owner's alone; nothing is ever
//! overwritten.

use std::process::Command;

fn cert(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_shvedka")).arg("cert").args(args).output().expect("shvedka runs")
}

#[tokio::test]
async fn one_command_makes_the_nodes_certificate_and_a_server_serves_its_fingerprint() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("etc");
    let made = cert(&["--name", "chess.example.org", "--name", "127.0.0.1", "--out", out.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&made.stdout).into_owned();
    assert!(made.status.success(), "{said}{}", String::from_utf8_lossy(&made.stderr));
    let printed = said
        .lines()
        .find_map(|l| l.strip_prefix("certificate sha256 "))
        .unwrap_or_else(|| panic!("no fingerprint printed: {said}"))
        .to_owned();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(out.join("key.pem")).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the key is its owner's alone");
    }
    let config = shvedka_server::ServerConfig::from_overrides(&format!(
        "listen = \"127.0.0.1:0\"\nhttp_listen = \"\"\nwebtransport_listen = \"\"\ndata_dir = {:?}\n\
         cert = {:?}\nkey = {:?}\n",
        dir.path().join("data"),
        out.join("cert.pem"),
        out.join("key.pem")
    ))
    .unwrap();
    let server = shvedka_server::Server::bind(config).await.expect("a server with the made certificate");
    assert_eq!(server.fingerprint(), printed, "the server serves the certificate made");
    // A second run would replace the nodes' certificate under their clients' pins: refused.
    let again = cert(&["--name", "chess.example.org", "--out", out.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwritten"), "{again:?}");
    let no_name = cert(&["--out", out.to_str().unwrap()]);
    assert_eq!(no_name.status.code(), Some(2), "a name is needed");
}
