//! What a match is set up with: the rule preset, the time control, the lag constants, the
//! countdown and the start position. Clock settings are data (`config/clock.toml`).

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use bughouse::{Game, RuleOptions};
use serde::Deserialize;

use crate::{LagSettings, TimeControl};

const CLOCK_TOML: &str = include_str!("../../../config/clock.toml");

/// The clock settings of a server (`config/clock.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockConfig {
    /// Milliseconds between the fourth "ready" and the start.
    pub countdown_ms: u64,
    /// K3 lag credit constants.
    pub lag: LagSettings,
    /// Named time controls the server offers.
    pub time_controls: BTreeMap<String, TimeControl>,
}

/// A configuration that could not be loaded or used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The TOML is malformed or has unknown or missing keys.
    Toml(String),
    /// A time control that is neither a configured name nor a valid spec.
    TimeControl(String),
    /// The start position is not a valid BFEN.
    Start(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Toml(e) => write!(f, "invalid clock configuration: {}", e.trim_end()),
            ConfigError::TimeControl(e) => f.write_str(e),
            ConfigError::Start(e) => write!(f, "invalid start position: {e}"),
        }
    }
}

impl std::error::Error for ConfigError {}

impl ClockConfig {
    /// The built-in settings, `config/clock.toml` as shipped.
    pub fn builtin() -> ClockConfig {
        ClockConfig::from_toml(CLOCK_TOML).expect("the built-in clock configuration is valid")
    }

    /// Reads settings from TOML text.
    ///
    /// # Errors
    /// [`ConfigError::Toml`] for bad syntax, unknown or missing keys or an invalid time control.
    pub fn from_toml(text: &str) -> Result<ClockConfig, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))
    }

    /// A time control by configured name (`blitz`) or as a spec (`3+2`).
    ///
    /// # Errors
    /// [`ConfigError::TimeControl`] naming the configured controls when neither applies.
    pub fn time_control(&self, name_or_spec: &str) -> Result<TimeControl, ConfigError> {
        if let Some(tc) = self.time_controls.get(name_or_spec) {
            return Ok(*tc);
        }
        name_or_spec.parse().map_err(|e| {
            let names: Vec<&str> = self.time_controls.keys().map(String::as_str).collect();
            ConfigError::TimeControl(format!("{e}; configured names: {}", names.join(", ")))
        })
    }

    /// The countdown before the start.
    pub fn countdown(&self) -> Duration {
        Duration::from_millis(self.countdown_ms)
    }
}

/// Everything a match is created with. Replaying a match's event log needs the same config.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct MatchConfig {
    /// The rule preset.
    pub rules: RuleOptions,
    /// The same for all four clocks.
    pub time_control: TimeControl,
    /// K3 constants.
    pub lag: LagSettings,
    /// Between the fourth "ready" and the start (K1).
    pub countdown: Duration,
    /// The start position as BFEN; the standard one on both boards when `None`.
    pub start: Option<String>,
    /// K4 `auto` (RULES.md section 10): a mate or a draw recorded while a flag's grace window is
    /// open is held and weighed with everything the window holds when it closes. `false` only for
    /// matches stored before that decision (their stored config lacks the field): their logs
    /// replay as they were played, the window settled by the first ending recorded in it.
    #[serde(default)]
    pub window_holds_endings: bool,
}

impl MatchConfig {
    /// A match under a preset and time control with the built-in clock settings.
    pub fn new(rules: RuleOptions, time_control: TimeControl) -> MatchConfig {
        let clock = ClockConfig::builtin();
        MatchConfig {
            rules,
            time_control,
            lag: clock.lag,
            countdown: clock.countdown(),
            start: None,
            window_holds_endings: true,
        }
    }

    /// The start game this config describes.
    ///
    /// # Errors
    /// [`ConfigError::Start`] for an invalid preset or start BFEN.
    pub fn start_game(&self) -> Result<Game, ConfigError> {
        let rules = self.rules.rules().map_err(|e| ConfigError::Start(e.to_string()))?;
        match &self.start {
            None => Ok(Game::new(rules)),
            Some(bfen) => Game::from_bfen(bfen, rules).map_err(|e| ConfigError::Start(e.to_string())),
        }
    }
}
