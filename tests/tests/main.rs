//! The end-to-end suite, one test binary: each file beside this one is a module (`accounts`,
//! `cluster`, `browser` …). One binary links the server once instead of once per file: a debug
//! link of the whole server is about 100 MB of disk and seconds of linker time, and twenty-eight
//! of them filled a CI machine's disk. Run one file's tests with a filter:
//! `cargo nextest run -p shvedka-tests -E 'test(/^cluster::/)'`.

mod accounts;
mod address_limits;
mod analysis;
mod arbiter;
mod bots;
mod browser;
mod browser_https;
mod chess960;
mod cli_perft;
mod client_addresses;
mod cluster;
mod cluster_gallery;
mod data_dir;
mod disk_full;
mod fill_with_bots;
mod http_side;
mod https;
mod import_cycles;
mod lifecycle;
mod metrics;
mod officials;
mod partition;
mod player_kinds;
mod private_matches;
mod ratings;
mod rematch;
mod restart_wait;
mod review;
mod seat_takeover;
mod seeks;
mod server_bad_input;
mod server_match;
mod tournament;
mod tournament_entry;
mod tournament_results;
mod tournament_view;
mod transport_limits;
mod web_socket;
mod web_socket_limits;
mod web_transport;
