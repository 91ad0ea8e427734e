//! BPGN and PGN (the records library): the records that read write back to BPGN that reads as
//! the same records; each record's rules, replay, record check and per-board PGN run without
//! panicking, and each board's PGN is read by the same reader without panicking.
#![no_main]

use bughouse::BoardId;
use libfuzzer_sys::fuzz_target;
use shvedka_records::{check_record, parse_bpgn};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(records) = parse_bpgn(text) else { return };
    for record in &records {
        let bpgn = record.to_bpgn();
        let again =
            parse_bpgn(&bpgn).unwrap_or_else(|e| panic!("written BPGN does not read back: {e}\n{bpgn}"));
        assert_eq!(again.len(), 1, "one record wrote {} records:\n{bpgn}", again.len());
        assert_eq!(&again[0], record, "written BPGN reads as another record:\n{bpgn}");
        if let Ok(rules) = record.rules() {
            let _ = record.replay(rules);
            let _ = check_record(record, rules);
        }
        for board in [BoardId::A, BoardId::B] {
            let _ = parse_bpgn(&record.to_pgn(board));
        }
    }
});
