//! FEN in and out, with crazyhouse-style pockets (`[QNp]` after the placement), `~` marks for
//! promoted pieces, and X-FEN / Shredder-FEN castling for Chess960.

use std::fmt;
use std::str::FromStr;

use crate::{
    Bitboard, Board, Castling, CastlingSide, Color, File, Piece, Pockets, Position, Rank, Role, Square,
};

/// The standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The part of a FEN an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The piece placement.
    Placement,
    /// The bracketed pockets.
    Pockets,
    /// The side to move.
    Turn,
    /// The castling rights.
    Castling,
    /// The en passant square.
    EnPassant,
    /// The halfmove clock.
    Halfmoves,
    /// The move number.
    Fullmoves,
    /// The position as a whole (it parses but is not a legal setup).
    Position,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::Pockets => "pockets",
            FenField::Turn => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "move number",
            FenField::Position => "position",
        })
    }
}

/// A FEN that could not be read, with the field and the character offset where it went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFenError {
    /// The field the error is in.
    pub field: FenField,
    /// Character offset into the input where the problem was found.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN: {} (in the {}, at character {})", self.message, self.field, self.offset + 1)
    }
}

impl std::error::Error for ParseFenError {}

fn err(field: FenField, offset: usize, message: impl Into<String>) -> ParseFenError {
    ParseFenError { field, offset, message: message.into() }
}

/// Splits on spaces, keeping each field's character offset.
fn fields(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        match (c.is_ascii_whitespace(), start) {
            (true, Some(st)) => {
                out.push((st, &s[st..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

fn parse_placement(text: &str, base: usize) -> Result<Board, ParseFenError> {
    let mut board = Board::empty();
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(
            FenField::Placement,
            base,
            format!("expected 8 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    let mut offset = base;
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u32).expect("8 ranks");
        let mut file = 0u32;
        let mut last: Option<Square> = None;
        for (j, c) in rank_text.char_indices() {
            let at = offset + j;
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(err(
                        FenField::Placement,
                        at,
                        format!("empty-square count must be 1-8, found '{c}'"),
                    ));
                }
                file += d;
                last = None;
            } else if c == '~' {
                match last {
                    Some(sq) => board.set_promoted(sq, true),
                    None => return Err(err(FenField::Placement, at, "'~' must follow a piece")),
                }
                last = None;
            } else if let Some(piece) = Piece::from_char(c) {
                let sq = File::new(file).map(|f| Square::from_coords(f, rank)).ok_or_else(|| {
                    err(FenField::Placement, at, format!("rank {} has more than 8 squares", rank.char()))
                })?;
                board.put(piece, sq);
                file += 1;
                last = Some(sq);
            } else {
                return Err(err(FenField::Placement, at, format!("unexpected character '{c}'")));
            }
            if file > 8 {
                return Err(err(
                    FenField::Placement,
                    at,
                    format!("rank {} has more than 8 squares", rank.char()),
                ));
            }
        }
        if file != 8 {
            return Err(err(
                FenField::Placement,
                offset + rank_text.len(),
                format!("rank {} has {file} squares, expected 8", rank.char()),
            ));
        }
        offset += rank_text.len() + 1;
    }
    Ok(board)
}

fn parse_pockets(text: &str, base: usize) -> Result<Pockets, ParseFenError> {
    let mut pockets = Pockets::default();
    for (i, c) in text.char_indices() {
        let at = base + i;
        let piece = Piece::from_char(c)
            .ok_or_else(|| err(FenField::Pockets, at, format!("unexpected character '{c}' in pockets")))?;
        pockets.of_mut(piece.color).add(piece.role).map_err(|e| err(FenField::Pockets, at, e.to_string()))?;
    }
    Ok(pockets)
}

fn parse_castling(text: &str, base: usize, board: &Board) -> Result<Castling, ParseFenError> {
    let mut castling = Castling::default();
    if text == "-" {
        return Ok(castling);
    }
    let mut shredder = false;
    for (i, c) in text.char_indices() {
        let at = base + i;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = Bitboard::back_rank(color);
        let king = board.king_of(color).filter(|k| back.contains(*k)).ok_or_else(|| {
            err(FenField::Castling, at, format!("'{c}' but the {color} king is not on its back rank"))
        })?;
        let rooks = board.by_piece(Role::Rook.of(color)) & back;
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.filter(|r| r.file() > king.file()).last(),
            'q' => rooks.into_iter().find(|r| r.file() < king.file()),
            'a'..='h' => {
                shredder = true;
                let file = File::from_char(c.to_ascii_lowercase()).expect("a-h");
                Some(Square::from_coords(file, Rank::FIRST.relative_to(color))).filter(|s| rooks.contains(*s))
            }
            _ => return Err(err(FenField::Castling, at, format!("unexpected character '{c}'"))),
        }
        .ok_or_else(|| {
            err(FenField::Castling, at, format!("'{c}' but there is no {color} rook to castle with"))
        })?;
        if castling.rooks.contains(rook) {
            return Err(err(FenField::Castling, at, format!("castling right '{c}' given twice")));
        }
        if (castling.rooks_of(color) & side_of(king, CastlingSide::of(king, rook))).is_nonempty() {
            return Err(err(FenField::Castling, at, format!("two {color} castling rights on the same side")));
        }
        castling.rooks |= rook;
        castling.king_moved[color] = false;
        if king.file() != File::E || (rook.file() != File::A && rook.file() != File::H) {
            castling.chess960 = true;
        }
    }
    // One pair of files serves both colours. Where the colours' rights disagree (no game from a
    // real start gets there), White's names the file, whatever the order of the letters, so the
    // FEN this position writes reads back as the same position.
    for color in [Color::Black, Color::White] {
        let Some(king) = board.king_of(color) else { continue };
        for rook in castling.rooks_of(color) {
            let side = CastlingSide::of(king, rook);
            castling.rook_files[usize::from(side == CastlingSide::KingSide)] = rook.file();
        }
    }
    castling.chess960 |= shredder;
    Ok(castling)
}

/// The back-rank squares on one side of a king.
fn side_of(king: Square, side: CastlingSide) -> Bitboard {
    let rank = Bitboard::rank(king.rank());
    let files = File::all().filter(|f| match side {
        CastlingSide::KingSide => *f > king.file(),
        CastlingSide::QueenSide => *f < king.file(),
    });
    files.fold(Bitboard::EMPTY, |acc, f| acc | Bitboard::file(f)) & rank
}

fn parse_number(text: &str, at: usize, field: FenField) -> Result<u32, ParseFenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(field, at, format!("expected a number, found '{text}'")));
    }
    text.parse().map_err(|_| err(field, at, format!("number '{text}' is too large")))
}

impl Position {
    /// Reads a FEN. The halfmove clock and move number may be omitted (EPD style). Pockets in
    /// brackets after the placement give the position pockets; without them it has none.
    ///
    /// # Errors
    /// A [`ParseFenError`] naming the field, the offset and the problem, also for a FEN that reads
    /// but is not a legal setup (a side without exactly one king, a pawn on a back rank, the side
    /// not to move in check).
    pub fn from_fen(fen: &str) -> Result<Position, ParseFenError> {
        let parts = fields(fen);
        let Some(&(base, first)) = parts.first() else {
            return Err(err(FenField::Placement, 0, "empty FEN"));
        };
        if parts.len() > 6 {
            return Err(err(FenField::Position, parts[6].0, "too many fields: expected at most 6"));
        }
        // Placement, with optional [pockets].
        let (placement, pockets) = match first.find('[') {
            Some(open) => {
                let rest = &first[open + 1..];
                let close = rest
                    .find(']')
                    .ok_or_else(|| err(FenField::Pockets, base + open, "'[' without a closing ']'"))?;
                if open + 1 + close + 1 != first.len() {
                    return Err(err(
                        FenField::Pockets,
                        base + open + close + 2,
                        "text after the closing ']'",
                    ));
                }
                (&first[..open], Some(parse_pockets(&rest[..close], base + open + 1)?))
            }
            None => (first, None),
        };
        let mut board = parse_placement(placement, base)?;
        if pockets.is_none() {
            // Promotion marks only matter where captured pieces can return to a pocket.
            for sq in board.promoted() {
                board.set_promoted(sq, false);
            }
        }

        let turn = match parts.get(1) {
            None => Color::White,
            Some(&(at, t)) => {
                let mut cs = t.chars();
                match (cs.next().and_then(Color::from_char), cs.next()) {
                    (Some(c), None) => c,
                    _ => return Err(err(FenField::Turn, at, format!("expected 'w' or 'b', found '{t}'"))),
                }
            }
        };
        let castling = match parts.get(2) {
            None => Castling::default(),
            Some(&(at, t)) => parse_castling(t, at, &board)?,
        };
        let ep = match parts.get(3) {
            None | Some((_, "-")) => None,
            Some(&(at, t)) => {
                let sq: Square =
                    t.parse().map_err(|_| err(FenField::EnPassant, at, format!("'{t}' is not a square")))?;
                if sq.rank() != Rank::new(5).expect("rank 6").relative_to(turn) {
                    return Err(err(
                        FenField::EnPassant,
                        at,
                        format!("{sq} cannot be an en passant square with {turn} to move"),
                    ));
                }
                let pushed = Square::from_coords(sq.file(), Rank::new(3).expect("rank").relative_to(!turn));
                let origin = Square::from_coords(sq.file(), Rank::new(1).expect("rank").relative_to(!turn));
                if !board.by_piece(Role::Pawn.of(!turn)).contains(pushed)
                    || board.occupied().contains(sq)
                    || board.occupied().contains(origin)
                {
                    return Err(err(FenField::EnPassant, at, format!("no pawn can just have passed {sq}")));
                }
                Some((at, sq))
            }
        };
        let halfmoves = match parts.get(4) {
            None => 0,
            Some(&(at, t)) => parse_number(t, at, FenField::Halfmoves)?,
        };
        let fullmoves = match parts.get(5) {
            None => 1,
            Some(&(at, t)) => parse_number(t, at, FenField::Fullmoves)?.max(1),
        };

        let mut pos = Position {
            board,
            pockets,
            turn,
            castling,
            ep_target: None,
            halfmoves,
            fullmoves,
            drop_rules: Default::default(),
            checkers: Bitboard::EMPTY,
            hash: 0,
        };
        pos.validate().map_err(|m| err(FenField::Position, 0, m))?;
        if let Some((_, sq)) = ep {
            // The FEN states the double step; the right is derived from it (and written back
            // only when a capture is legal).
            pos.set_ep_target(sq);
        }
        pos.refresh();
        Ok(pos)
    }

    /// Checks that the setup is legal enough to play from.
    fn validate(&self) -> Result<(), String> {
        for color in Color::ALL {
            let kings = self.board.by_piece(Role::King.of(color)).count();
            if kings != 1 {
                return Err(format!("{color} has {kings} kings, expected exactly 1"));
            }
        }
        if let Some(sq) = (self.board.by_role(Role::Pawn) & Bitboard::BACK_RANKS).first() {
            return Err(format!("a pawn stands on {sq}, a first or last rank"));
        }
        let them = !self.turn;
        let their_king = self.board.king_of(them).expect("checked above");
        if self.board.is_attacked(their_king, self.turn, self.board.occupied()) {
            return Err(format!("{them} is in check but it is {}'s turn", self.turn));
        }
        Ok(())
    }

    /// The position as FEN (with pockets in brackets if it has pockets).
    pub fn fen(&self) -> String {
        to_fen(self)
    }
}

/// Writes a position as FEN. Every event a server sends carries two of these, so it is built by
/// pushing characters into one string, without the formatting machinery.
pub(crate) fn to_fen(pos: &Position) -> String {
    let mut s = String::with_capacity(96);
    let board = pos.board();
    let marks_promoted = pos.pockets().is_some();
    // Each square's letter (`None`: empty), from the piece sets: cheaper than asking every square.
    let mut letters = [None; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in board.by_piece(role.of(color)) {
                letters[sq.index()] = Some(role.of(color).char());
            }
        }
    }
    for rank in Rank::all().rev() {
        let mut empty = 0;
        for file in File::all() {
            let sq = Square::from_coords(file, rank);
            match letters[sq.index()] {
                Some(letter) => {
                    if empty > 0 {
                        s.push(char::from_digit(empty, 10).expect("digit"));
                        empty = 0;
                    }
                    s.push(letter);
                    if marks_promoted && board.promoted().contains(sq) {
                        s.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from_digit(empty, 10).expect("digit"));
        }
        if rank != Rank::FIRST {
            s.push('/');
        }
    }
    if let Some(pockets) = pos.pockets() {
        s.push('[');
        s.extend(pockets.letters());
        s.push(']');
    }
    s.push(' ');
    s.push(pos.turn().char());
    s.push(' ');
    push_castling_field(pos, &mut s);
    s.push(' ');
    match pos.ep_square() {
        Some(sq) => {
            s.push(sq.file().char());
            s.push(sq.rank().char());
        }
        None => s.push('-'),
    }
    s.push(' ');
    push_decimal(&mut s, pos.halfmoves());
    s.push(' ');
    push_decimal(&mut s, pos.fullmoves());
    s
}

/// Appends a number in decimal.
fn push_decimal(s: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    s.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
}

fn push_castling_field(pos: &Position, s: &mut String) {
    let castling = pos.castling();
    let start = s.len();
    for color in Color::ALL {
        let Some(king) = pos.board().king_of(color) else { continue };
        let rooks = castling.rooks_of(color);
        for side in CastlingSide::ALL {
            let Some(rook) = (rooks & side_of(king, side)).first() else { continue };
            let letter = if castling.is_chess960() {
                rook.file().char()
            } else {
                match side {
                    CastlingSide::KingSide => 'k',
                    CastlingSide::QueenSide => 'q',
                }
            };
            s.push(color.fold(letter.to_ascii_uppercase(), letter));
        }
    }
    if s.len() == start {
        s.push('-');
    }
}

impl FromStr for Position {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Position, ParseFenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_fen(self))
    }
}
