//! Time controls: a spec that reads writes back (`Display`) to a spec that reads as the same
//! control; the configured names and the PGN tag readers never panic, and a control's PGN tag
//! reads back as its base and increment.
#![no_main]

use std::time::Duration;

use bughouse_match::{Bonus, ClockConfig, TimeControl};
use libfuzzer_sys::fuzz_target;
use shvedka_records::{parse_seconds, time_control_ms};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_seconds(text);
    let _ = time_control_ms(text);
    let config = ClockConfig::builtin();
    let by_config = config.time_control(text);
    let Ok(tc) = text.parse::<TimeControl>() else { return };
    assert!(tc.base > Duration::ZERO);
    if config.time_control(&tc.to_string()).is_ok() {
        // A configured name wins over a spec only when the name is the text itself.
        assert!(by_config.is_ok());
    }
    let written = tc.to_string();
    assert_eq!(written.parse::<TimeControl>().ok(), Some(tc), "{text:?} written {written:?}");
    if let Bonus::Increment(inc) = tc.bonus {
        let pgn = tc.pgn();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap();
        assert_eq!(time_control_ms(&pgn), Some((ms(tc.base), ms(inc))), "{text:?} as PGN {pgn:?}");
    }
});
