//! The bincode decoder of both directions' messages: whatever decodes encodes again, and that
//! encoding decodes to the same message and is the canonical one (encoding it again changes
//! nothing).
#![no_main]

use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;
use shvedka_proto::{ClientFrame, ServerMsg, decode, encode};

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(data: &[u8]) {
    let Ok(msg) = decode::<T>(data) else { return };
    let bytes = encode(&msg).expect("a decoded message encodes");
    assert!(bytes.len() <= data.len(), "the canonical encoding is never longer");
    let again: T = decode(&bytes).expect("an encoded message decodes");
    assert_eq!(again, msg);
    assert_eq!(encode(&again).expect("encodes"), bytes);
}

fuzz_target!(|data: &[u8]| {
    round_trip::<ClientFrame>(data);
    round_trip::<ServerMsg>(data);
});
