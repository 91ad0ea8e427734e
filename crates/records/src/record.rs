//! The record of one match: tags, the moves of both boards in time order, the result.

use bughouse::{BughouseMove, Game, OptionsError, RuleOptions, Rules, Seat};

use crate::act::{Act, ActKind, RecordMove};
use crate::result::RecordResult;

/// A tag pair, `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The tag name (letters, digits and `_`).
    pub name: String,
    /// The value, unescaped.
    pub value: String,
}

impl Tag {
    /// A tag.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Tag {
        Tag { name: name.into(), value: value.into() }
    }
}

/// A match record (RULES.md A4).
///
/// `tags` keeps every tag in file order except the result: `Result` (and, when the game has a
/// result, `Termination` and `TerminationRule`) live in [`Record::result`] and are written from
/// it. Team 1 is White-A with Black-B, team 2 Black-A with White-B (RULES.md S1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tags in order (see the type's documentation for the result tags).
    pub tags: Vec<Tag>,
    /// Commentary before the first move.
    pub comment: Option<String>,
    /// What happened before the first move of the record, in order.
    pub acts: Vec<Act>,
    /// The moves of both boards, in the order they were made.
    pub moves: Vec<RecordMove>,
    /// The match result; `None` for an unfinished or unknown one (`*`).
    pub result: Option<RecordResult>,
}

/// The tag holding each seat's player name, in [`Seat::ALL`] order.
const PLAYER_TAGS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

impl Default for Record {
    fn default() -> Record {
        Record::new()
    }
}

impl Record {
    /// An empty record with the standard tags, unknown values written `?`: Event, Site, Date,
    /// the four players, TimeControl (`-`) and Rules (`mgimo-2017`, the default preset).
    pub fn new() -> Record {
        let tags = [
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("WhiteA", "?"),
            ("BlackA", "?"),
            ("WhiteB", "?"),
            ("BlackB", "?"),
            ("TimeControl", "-"),
            ("Rules", bughouse::PRESETS[0]),
        ];
        Record {
            tags: tags.iter().map(|(n, v)| Tag::new(*n, *v)).collect(),
            comment: None,
            acts: Vec::new(),
            moves: Vec::new(),
            result: None,
        }
    }

    /// The value of the first tag of that name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|t| t.name == name).map(|t| t.value.as_str())
    }

    /// Sets the first tag of that name, or appends it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|t| t.name == name) {
            Some(t) => t.value = value,
            None => self.tags.push(Tag::new(name, value)),
        }
    }

    /// The player in a seat (tags WhiteA, BlackA, WhiteB, BlackB).
    pub fn player(&self, seat: Seat) -> Option<&str> {
        self.tag(PLAYER_TAGS[seat.index()])
    }

    /// Names the player in a seat.
    pub fn set_player(&mut self, seat: Seat, name: impl Into<String>) {
        self.set_tag(PLAYER_TAGS[seat.index()], name);
    }

    /// The start position when it is not the standard one: the `BFEN` tag, else the `FEN` tag —
    /// a BFEN, or one board's FEN that both boards start from (a Chess960 start).
    pub fn start_bfen(&self) -> Option<String> {
        if let Some(bfen) = self.tag("BFEN") {
            return Some(bfen.to_owned());
        }
        let fen = self.tag("FEN")?;
        Some(if fen.contains('|') { fen.to_owned() } else { format!("{fen} | {fen}") })
    }

    /// Sets a custom start position: tags `SetUp "1"` and `BFEN`.
    pub fn set_start_bfen(&mut self, bfen: impl Into<String>) {
        self.set_tag("SetUp", "1");
        self.set_tag("BFEN", bfen);
    }

    /// Sets a Chess960 start, the same on both boards: tags `SetUp "1"` and `FEN` (one board's
    /// FEN with Shredder castling letters, as chess tools write Chess960 starts).
    pub fn set_chess960_start(&mut self, n: u16) {
        let fen = bughouse::chess960_fen(n).replacen("[]", "", 1);
        self.set_tag("SetUp", "1");
        self.set_tag("FEN", fen);
    }

    /// The rules named by the `Rules` tag (a preset name); the default preset, `mgimo-2017`,
    /// when the tag is absent. Files from other servers carry no such tag: they are usually
    /// classic bughouse, which the caller then names itself.
    ///
    /// # Errors
    /// [`OptionsError::UnknownPreset`] for a name that is not a preset.
    pub fn rules(&self) -> Result<Rules, OptionsError> {
        RuleOptions::preset(self.tag("Rules").unwrap_or(bughouse::PRESETS[0]))?.rules()
    }

    /// Appends a move about to be played: `before` is the game before it, which gives its SAN,
    /// colour and number. `clock_ms` is the mover's time left after it.
    pub fn push_played(&mut self, before: &Game, m: &BughouseMove, clock_ms: Option<u64>) {
        let pos = before.board(m.board);
        let mut rm = RecordMove::new(m.board, pos.turn(), pos.fullmoves(), before.san(m));
        rm.clock_ms = clock_ms;
        self.moves.push(rm);
    }

    /// Appends an act after the last move (or before the first).
    pub fn push_act(&mut self, act: Act) {
        match self.moves.last_mut() {
            Some(m) => m.acts.push(act),
            None => self.acts.push(act),
        }
    }

    /// Takes the move at `index` out of the moves and leaves it, as [`ActKind::Played`], at its
    /// place among the acts: a move later taken back or annulled. What followed it stays in
    /// order after it.
    ///
    /// # Panics
    /// If there is no move at `index`.
    pub fn unplay(&mut self, index: usize) {
        let mut m = self.moves.remove(index);
        let after = std::mem::take(&mut m.acts);
        let at_ms = m.at_ms;
        let slot = match index.checked_sub(1) {
            Some(i) => &mut self.moves[i].acts,
            None => &mut self.acts,
        };
        slot.push(Act { at_ms, ..Act::new(ActKind::Played(Box::new(m))) });
        slot.extend(after);
    }

    /// Every act of the record, in order.
    pub fn all_acts(&self) -> impl Iterator<Item = &Act> {
        self.acts.iter().chain(self.moves.iter().flat_map(|m| m.acts.iter()))
    }
}
