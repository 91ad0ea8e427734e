//! The JSON decoder of the WebSocket transport (the web client's encoding): whatever reads as a
//! client frame (or a server message) writes back to JSON that reads as the same value.
#![no_main]

use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;
use shvedka_proto::{ClientFrame, ServerMsg};

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(data: &[u8]) {
    let Ok(msg) = serde_json::from_slice::<T>(data) else { return };
    let text = serde_json::to_string(&msg).expect("a read message writes");
    let again: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text} does not read back: {e}"));
    assert_eq!(again, msg);
}

fuzz_target!(|data: &[u8]| {
    round_trip::<ClientFrame>(data);
    round_trip::<ServerMsg>(data);
});
