//! One board of a record as ordinary PGN, for ordinary chess tools: the seven-tag roster with
//! that board's two players, `[Variant "bughouse"]`, `[SetUp]`/`[FEN]` for a custom start, and
//! that board's moves only, each with `{[%clk 0:02:59.870]}`. A comment at the start says what a
//! drop (`N@f3`) and a promotion by removal (`e8=Qd1`) mean, since the other board is missing.

use bughouse::{BoardId, MatchResult, Seat, Team};
use chess_core::Color;

use crate::clock::format_hms;
use crate::export::{Wrapper, comment_text, write_tag};
use crate::record::Record;

impl Record {
    /// One board as PGN. The result is the match result as that board's players score it: when
    /// team 1 (White on A, Black on B) wins, board A reads `1-0` and board B `0-1`. The board
    /// itself may not have ended (the match ends when either board does).
    pub fn to_pgn(&self, board: BoardId) -> String {
        let mut out = String::new();
        let tag = |name: &str| self.tag(name).unwrap_or("?");
        let result = match self.result.as_ref().map(|r| r.outcome) {
            Some(MatchResult::Win(team)) => {
                let white_won = Seat::new(board, Color::White).team() == team;
                if white_won { "1-0" } else { "0-1" }
            }
            Some(MatchResult::Draw) => "1/2-1/2",
            None => "*",
        };
        write_tag(&mut out, "Event", tag("Event"));
        write_tag(&mut out, "Site", tag("Site"));
        write_tag(&mut out, "Date", tag("Date"));
        write_tag(&mut out, "Round", tag("Round"));
        write_tag(&mut out, "White", self.player(Seat::new(board, Color::White)).unwrap_or("?"));
        write_tag(&mut out, "Black", self.player(Seat::new(board, Color::Black)).unwrap_or("?"));
        write_tag(&mut out, "Result", result);
        write_tag(&mut out, "Variant", "bughouse");
        write_tag(&mut out, "Board", &board.to_string());
        if let Some(tc) = self.tag("TimeControl") {
            write_tag(&mut out, "TimeControl", tc);
        }
        if let Some(fen) = self.start_bfen().and_then(|bfen| board_fen(&bfen, board)) {
            write_tag(&mut out, "SetUp", "1");
            write_tag(&mut out, "FEN", &fen);
        }
        if let Some(r) = &self.result {
            let team = match r.outcome {
                MatchResult::Win(Team::One) => "team 1 (White-A, Black-B) won".to_owned(),
                MatchResult::Win(Team::Two) => "team 2 (Black-A, White-B) won".to_owned(),
                MatchResult::Draw => "drawn".to_owned(),
            };
            let why = r.reason.as_deref().map(|s| format!(": {s}")).unwrap_or_default();
            write_tag(&mut out, "Termination", &format!("match {team}{why}"));
        }
        out.push('\n');
        let other = board.other();
        let mut text = Wrapper::default();
        text.comment(&format!(
            "Board {board} of a bughouse (Swedish chess) match; board {other} is not shown. N@f3 drops a \
             knight from the reserve; e8=Qd1 promotes by taking the queen on d1 of board {other}."
        ));
        let mut after_comment = true;
        for m in self.moves.iter().filter(|m| m.board == board) {
            match m.color {
                Color::White => text.word(&format!("{}. {}", m.number, m.text)),
                Color::Black if after_comment => text.word(&format!("{}... {}", m.number, m.text)),
                Color::Black => text.word(&m.text),
            }
            let clock = m.clock_ms.map(|ms| format!("[%clk {}]", format_hms(ms)));
            let note = m.comment.as_deref().map(comment_text).unwrap_or_default();
            after_comment = clock.is_some() || !note.is_empty();
            if after_comment {
                text.comment_after(clock.as_deref(), &note);
            }
        }
        text.word(result);
        out.push_str(&text.finish());
        out.push('\n');
        out
    }
}

/// The FEN of one board of a BFEN, without the reserve brackets and the BFEN `U`/`u` marks that
/// plain FEN does not know.
fn board_fen(bfen: &str, board: BoardId) -> Option<String> {
    let part = bfen.split('|').nth(board.index())?.trim();
    let mut fields: Vec<String> = part.split_whitespace().map(str::to_owned).collect();
    let placement = fields.first_mut()?;
    if let Some(open) = placement.find('[') {
        placement.truncate(open);
    }
    if let Some(castling) = fields.get_mut(2) {
        castling.retain(|c| c != 'U' && c != 'u');
        if castling.is_empty() {
            castling.push('-');
        }
    }
    Some(fields.join(" "))
}
