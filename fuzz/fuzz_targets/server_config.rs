//! The server's configuration overrides (TOML over the embedded defaults): any text gives a
//! configuration or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shvedka_server::ServerConfig;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = ServerConfig::from_overrides(text);
});
