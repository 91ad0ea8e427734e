//! The `shvedka` command run as a process, one test binary: each file beside this one is a
//! module (`cli`, `play_tty`, `restart` …), so the binary under test's tests link once, not once
//! per file (a debug link is about 100 MB of disk). Run one file's tests with a filter:
//! `cargo nextest run -p shvedka -E 'test(/^play_tty::/)'`.

mod admin_cli;
mod arbiter_cli;
mod arbiter_online_cli;
mod backup_cli;
mod backup_load;
mod board_cli;
mod bot_demo_cli;
mod cert_cli;
mod cli;
mod failover;
mod load_cli;
mod one_writer;
mod play_tty;
mod restart;
mod serve_cli;
mod systemd_unit;
mod td_cli;
