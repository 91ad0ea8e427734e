//! BFEN's castling field (the notation is described in `bfen.rs`): FEN's rights, then what FEN
//! cannot say — `U`/`u` for a king that never moved although no right is left, and `(bg)` for the
//! files a Chess960 position's rooks started on where no right names them. Reading splits the
//! field into the part FEN reads and [`Extensions`] applied to the position afterwards; writing
//! adds the extensions to the field FEN wrote.

use chess_core::{Castling, CastlingSide, Color, File, Position, Rank};

/// What a BFEN castling field says beyond FEN's rights.
#[derive(Default)]
pub(crate) struct Extensions {
    /// The sides marked `U`/`u`.
    unmoved: Vec<Color>,
    /// The start files in parentheses: queen side, king side.
    files: Option<[File; 2]>,
}

/// Splits a BFEN castling field into FEN's castling field (`-` when no right is left) and the
/// extensions.
///
/// # Errors
/// A message saying what is wrong with the start files.
pub(crate) fn split(field: &str) -> Result<(String, Extensions), String> {
    let (rights, files) = match field.split_once('(') {
        None => (field, None),
        Some((rights, rest)) => {
            let inner = match rest.split_once(')') {
                None => return Err("'(' without a closing ')' in the castling field".to_owned()),
                Some((inner, "")) => inner,
                Some(_) => return Err("the start files must end the castling field".to_owned()),
            };
            if rights.is_empty() {
                return Err("expected castling rights or '-' before the start files".to_owned());
            }
            (rights, Some(start_files(inner)?))
        }
    };
    let unmoved = rights
        .chars()
        .filter_map(|c| match c {
            'U' => Some(Color::White),
            'u' => Some(Color::Black),
            _ => None,
        })
        .collect();
    let fen: String = rights.chars().filter(|c| !matches!(c, 'U' | 'u')).collect();
    let fen = if fen.is_empty() { "-".to_owned() } else { fen };
    Ok((fen, Extensions { unmoved, files }))
}

/// Reads the two letters between the parentheses.
fn start_files(inner: &str) -> Result<[File; 2], String> {
    let letters: Vec<char> = inner.chars().collect();
    let [queen_side, king_side] = letters[..] else {
        return Err(format!("expected two files in '({inner})', queen side first"));
    };
    let file = |c: char| File::from_char(c).ok_or_else(|| format!("'{c}' is not a file (a-h)"));
    Ok([file(queen_side)?, file(king_side)?])
}

impl Extensions {
    /// Tells `pos` (read from FEN's part of the field) what the extensions say. Where they name
    /// no start files, those of a Chess960 `start` fill the sides no right names.
    ///
    /// # Errors
    /// A message saying what does not fit the position; `pos` may then be half changed.
    pub(crate) fn apply(&self, pos: &mut Position, start: Option<&Position>) -> Result<(), String> {
        for &color in &self.unmoved {
            let king = pos.board().king_of(color).expect("a parsed position has both kings");
            if king.rank() != Rank::FIRST.relative_to(color) {
                return Err(format!(
                    "'{}' but the {color} king is not on its back rank",
                    color.fold('U', 'u')
                ));
            }
            pos.set_king_moved(color, false);
        }
        let files = self.files.or_else(|| {
            let start = start.filter(|s| s.castling().is_chess960())?;
            let named = named_files(pos);
            Some(side_files().map(|(i, side)| named[i].unwrap_or(start.castling().rook_file(side))))
        });
        match files {
            Some([queen_side, king_side]) => {
                pos.set_chess960_start_files(queen_side, king_side).map_err(|e| e.to_string())
            }
            None => Ok(()),
        }
    }
}

/// Appends the BFEN castling field of `pos`, given the field its FEN has.
pub(crate) fn write(pos: &Position, fen_field: &str, field: &mut String) {
    let castling = pos.castling();
    let start = field.len();
    for color in Color::ALL {
        let white = color == Color::White;
        field
            .extend(fen_field.chars().filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == white));
        if !castling.king_moved(color) && castling.rooks_of(color).is_empty() {
            field.push(color.fold('U', 'u'));
        }
    }
    if field.len() == start {
        field.push('-');
    }
    // FEN's rights alone give the files of the sides they name (White's first, as `from_fen`
    // reads them), a and h elsewhere, and Chess960 only with a right left.
    let named = named_files(pos);
    let read = side_files().map(|(i, side)| named[i].unwrap_or(Castling::default().rook_file(side)));
    let files = side_files().map(|(_, side)| castling.rook_file(side));
    if castling.is_chess960() && (castling.is_empty() || read != files) {
        field.push('(');
        field.extend(files.map(|f| f.char()));
        field.push(')');
    }
}

/// The sides in the order the start files are written: queen side, king side.
fn side_files() -> [(usize, CastlingSide); 2] {
    [(0, CastlingSide::QueenSide), (1, CastlingSide::KingSide)]
}

/// The start file each side's castling rights name, White's before Black's.
fn named_files(pos: &Position) -> [Option<File>; 2] {
    let mut named = [None; 2];
    for color in Color::ALL {
        let Some(king) = pos.board().king_of(color) else { continue };
        for rook in pos.castling().rooks_of(color) {
            let i = usize::from(CastlingSide::of(king, rook) == CastlingSide::KingSide);
            named[i].get_or_insert(rook.file());
        }
    }
    named
}
