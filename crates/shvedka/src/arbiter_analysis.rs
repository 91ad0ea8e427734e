//! How `shvedka arbiter analyse` prints the engine's view of one board: the evaluation from
//! White's side (`+1.35`, `White mates in 2`), the best move and the line after it, the piece the
//! side to move would most like from its partner, and time trouble.

use std::io::Write;

use shvedka_proto::{BoardAnalysis, Colour, Evaluation, PieceKind};

/// Writes one board's analysis in a few lines.
pub(crate) fn write(out: &mut dyn Write, view: &BoardAnalysis) -> std::io::Result<()> {
    let side = colour(view.to_move);
    writeln!(out, "analysis of board {} ({side} to move): {}", view.board, evaluation(&view.evaluation))?;
    if let Some(best) = &view.best {
        let line =
            if view.line.is_empty() { String::new() } else { format!(", then {}", view.line.join(" ")) };
        writeln!(out, "  best: {}{line} (depth {}, {} nodes)", best.san, view.depth, view.nodes)?;
    }
    if let Some(piece) = view.wish {
        writeln!(out, "  {side} wants a {} from the partner", piece_name(piece))?;
    }
    if view.short_of_time {
        writeln!(out, "  {side} is short of time (under 10 s): the evaluation may not be playable")?;
    }
    Ok(())
}

/// `+0.35` (pawns for White), `White mates in 2`, `mate on board: White won (M1)`.
fn evaluation(e: &Evaluation) -> String {
    match *e {
        Evaluation::Centipawns { white } => format!("{:+.2}", f64::from(white) / 100.0),
        Evaluation::MateIn { white } if white > 0 => format!("White mates in {white}"),
        Evaluation::MateIn { white } => format!("Black mates in {}", white.unsigned_abs()),
        Evaluation::Mated { winner } => format!("mate on board: {} won (M1)", colour(winner)),
        Evaluation::Waiting => "no legal move: the side to move waits for a piece (M2)".to_owned(),
        Evaluation::Drawn => "stalemate: drawn under these rules (M3)".to_owned(),
    }
}

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

fn piece_name(p: PieceKind) -> &'static str {
    match p {
        PieceKind::Pawn => "pawn",
        PieceKind::Knight => "knight",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        PieceKind::Queen => "queen",
        PieceKind::King => "king",
    }
}
