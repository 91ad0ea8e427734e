//! What a move written in a record may look like, checked without a position: SAN (`Nf3`,
//! `exd5`, `O-O`, `N@f3`, `e8=Q`), SAN of a promotion by removal (`e8=Qd1`: the removed piece's
//! square on the other board, RULES.md R7) and long notation (`g1f3`, `e7e8qd1`), each with
//! optional `+`, `#`, `!`, `?` marks.

use chess_core::{San, Square, UciMove};

/// The text after the first `chars` characters.
pub(crate) fn after_chars(text: &str, chars: usize) -> &str {
    text.char_indices().nth(chars).map_or("", |(i, _)| &text[i..])
}

/// Whether the text after a move is empty or a removal square, up to annotation marks.
fn tail_ok(rest: &str) -> bool {
    let rest = rest.trim_end_matches(['+', '#', '!', '?']);
    rest.is_empty() || rest.parse::<Square>().is_ok()
}

/// Whether `text` reads as a move (legal or not).
pub(crate) fn is_move_text(text: &str) -> bool {
    if let Ok((_, used)) = UciMove::parse_prefix(text)
        && tail_ok(after_chars(text, used))
    {
        return true;
    }
    matches!(San::parse_prefix(text), Ok((_, used)) if tail_ok(after_chars(text, used)))
}

/// What the parser says it expected where a move did not read.
pub(crate) const MOVE_EXPECTED: &str = "a move in SAN (Nf3, N@f3, e8=Qd1) or long notation (g1f3)";

#[cfg(test)]
mod tests {
    use super::is_move_text;

    #[test]
    fn move_texts() {
        for ok in ["e4", "Nf3", "exd5", "O-O", "0-0-0", "N@f3", "@e4", "e8=Qd1", "e8=Qd1+", "e8", "g1f3"] {
            assert!(is_move_text(ok), "{ok}");
        }
        for ok in ["e7e8qd1", "Qxf7#", "Nbd7!?", "e8=Q"] {
            assert!(is_move_text(ok), "{ok}");
        }
        for bad in ["", "xyz", "e9", "K@e4", "e8=Qd9", "Nf3 x", "1-0", "e4e"] {
            assert!(!is_move_text(bad), "{bad}");
        }
    }
}
