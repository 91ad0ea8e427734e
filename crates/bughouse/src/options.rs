//! Rule options and presets as data (RULES.md section 9): `config/rules/*.toml`, loaded into a
//! typed struct; unknown keys are an error.

use std::fmt;

use chess_core::DropRules;
use serde::Deserialize;

/// How a pawn reaching the last rank is promoted (R1–R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Promotion {
    /// MGIMO: a piece of the crosswise player is removed from the other board (R1–R5).
    Removal,
    /// Classic: promote to Q, R, B or N; the promoted piece returns to a reserve as a pawn (R6).
    Upgrade,
}

/// Whether a drop may give mate on board (P3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropMate {
    /// MGIMO: a drop that gives mate on board is illegal.
    Forbidden,
    /// Classic: any drop may mate.
    Allowed,
}

/// What a player with no legal move who is not in check does (M3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stalemate {
    /// He waits for material from his partner.
    Wait,
    /// The match is drawn.
    Draw,
}

/// Who must agree to a draw (E3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAgreement {
    /// The two players of one board.
    OneBoard,
    /// All four players.
    BothBoards,
}

/// How fallen flags count (K4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagMode {
    /// A flag falls by itself when a clock reaches zero.
    Auto,
    /// A flag counts only when a player of the other team claims it.
    Claim,
}

/// A complete rule set, as in a preset file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOptions {
    /// The preset's name.
    pub name: String,
    /// R1–R6.
    pub promotion: Promotion,
    /// P2: the ranks (inclusive, from the dropper's side) a pawn may be dropped on.
    pub pawn_drop_ranks: [u8; 2],
    /// P3.
    pub drop_mate: DropMate,
    /// P5.
    pub castle_with_dropped_rook: bool,
    /// M3.
    pub stalemate: Stalemate,
    /// E3.
    pub draw_agreement: DrawAgreement,
    /// K4.
    pub flag: FlagMode,
    /// Chess960 start positions.
    pub chess960: bool,
}

/// The preset names, default first.
pub const PRESETS: [&str; 2] = ["mgimo-2017", "classic"];

const MGIMO_2017: &str = include_str!("../../../config/rules/mgimo-2017.toml");
const CLASSIC: &str = include_str!("../../../config/rules/classic.toml");

impl RuleOptions {
    /// A built-in preset by name (`mgimo-2017` or `classic`).
    ///
    /// # Errors
    /// [`OptionsError::UnknownPreset`] for any other name.
    pub fn preset(name: &str) -> Result<RuleOptions, OptionsError> {
        let text = match name {
            "mgimo-2017" => MGIMO_2017,
            "classic" => CLASSIC,
            _ => return Err(OptionsError::UnknownPreset(name.to_owned())),
        };
        RuleOptions::from_toml(text)
    }

    /// The default preset, MGIMO-2017.
    pub fn mgimo_2017() -> RuleOptions {
        RuleOptions::preset("mgimo-2017").expect("the built-in preset is valid")
    }

    /// The classic online bughouse preset.
    pub fn classic() -> RuleOptions {
        RuleOptions::preset("classic").expect("the built-in preset is valid")
    }

    /// Reads options from TOML text (a preset file).
    ///
    /// # Errors
    /// [`OptionsError::Toml`] for bad syntax, unknown or missing keys, or bad values;
    /// [`OptionsError::PawnDropRanks`] for a rank range outside 1..=8.
    pub fn from_toml(text: &str) -> Result<RuleOptions, OptionsError> {
        let options: RuleOptions = toml::from_str(text).map_err(|e| OptionsError::Toml(e.to_string()))?;
        options.rules()?;
        Ok(options)
    }

    /// The compact rules value the game uses.
    ///
    /// # Errors
    /// [`OptionsError::PawnDropRanks`] for a rank range outside 1..=8.
    pub fn rules(&self) -> Result<Rules, OptionsError> {
        let [lo, hi] = self.pawn_drop_ranks;
        let drops = DropRules::new(lo..=hi, self.castle_with_dropped_rook)
            .map_err(|e| OptionsError::PawnDropRanks(e.to_string()))?;
        Ok(Rules {
            promotion: self.promotion,
            drop_mate: self.drop_mate,
            stalemate: self.stalemate,
            draw_agreement: self.draw_agreement,
            flag: self.flag,
            drops,
        })
    }
}

/// The rule options a game consults on every move, as one small copyable value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// R1–R6.
    pub promotion: Promotion,
    /// P3.
    pub drop_mate: DropMate,
    /// M3.
    pub stalemate: Stalemate,
    /// E3.
    pub draw_agreement: DrawAgreement,
    /// K4.
    pub flag: FlagMode,
    /// P2 and P5, as the chess core applies them.
    pub drops: DropRules,
}

impl Default for Rules {
    fn default() -> Rules {
        RuleOptions::mgimo_2017().rules().expect("the built-in preset is valid")
    }
}

/// Options that could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionsError {
    /// No preset of that name.
    UnknownPreset(String),
    /// The TOML does not describe a rule set (syntax, unknown key, missing key, bad value).
    Toml(String),
    /// The pawn-drop ranks are not a range within 1..=8.
    PawnDropRanks(String),
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionsError::UnknownPreset(name) => {
                write!(f, "unknown rules preset {name:?}: expected one of {}", PRESETS.join(", "))
            }
            OptionsError::Toml(e) => write!(f, "invalid rule options: {}", e.trim_end()),
            OptionsError::PawnDropRanks(e) => write!(f, "invalid rule options: {e}"),
        }
    }
}

impl std::error::Error for OptionsError {}
