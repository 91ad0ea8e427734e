//! The repository's systemd unit (`deploy/shvedka.service`, issue 58: "a systemd unit with the
//! usual hardening … checked by `systemd-analyze verify`"): systemd reads it without a warning,
//! with this build's binary in place of `/usr/local/bin/shvedka`, and its command line is one
//! `shvedka serve` accepts.

use std::process::Command;

const UNIT: &str = include_str!("../../../deploy/shvedka.service");
const INSTALLED: &str = "/usr/local/bin/shvedka";

#[test]
fn the_systemd_unit_passes_systemd_analyze_verify_with_its_hardening() {
    let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("the unit test needs systemd-analyze (Debian's systemd package; ./test installs it)");
    for hardening in [
        "DynamicUser=yes",
        "StateDirectory=shvedka",
        "PrivateTmp=yes",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
    ] {
        assert!(UNIT.lines().any(|l| l == hardening), "the unit says {hardening}");
    }
    let dir = tempfile::tempdir().unwrap();
    let unit = dir.path().join("shvedka.service");
    assert!(UNIT.contains(INSTALLED));
    std::fs::write(&unit, UNIT.replace(INSTALLED, env!("CARGO_BIN_EXE_shvedka"))).unwrap();
    let out = Command::new(analyze).arg("verify").arg(&unit).output().expect("systemd-analyze runs");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // Lines about other units of this machine (its own setup) are not the unit's.
    let ours: Vec<&str> = said.lines().filter(|l| l.contains("shvedka")).collect();
    assert!(out.status.success() && ours.is_empty(), "systemd-analyze verify: {said}");

    // Its command line is one the server takes: `serve --help` knows both options.
    let exec = UNIT.lines().find_map(|l| l.strip_prefix("ExecStart=")).expect("ExecStart");
    let help = Command::new(env!("CARGO_BIN_EXE_shvedka")).args(["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for option in exec.split_whitespace().filter(|w| w.starts_with("--")) {
        assert!(help.contains(option), "serve knows {option}: {help}");
    }
}
