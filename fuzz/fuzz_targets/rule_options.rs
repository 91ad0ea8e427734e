//! The rule presets' TOML (`RuleOptions`): options that read give rules or a refusal, never a
//! panic, and write back to TOML that reads as the same options.
#![no_main]

use bughouse::RuleOptions;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = RuleOptions::preset(text);
    let Ok(options) = RuleOptions::from_toml(text) else { return };
    let _ = options.rules();
    let written = toml::to_string(&options).expect("options write as TOML");
    let again =
        RuleOptions::from_toml(&written).unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
    assert_eq!(again, options);
});
