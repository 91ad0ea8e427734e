//! Differential test of the rules core against `cozy-chess`, an independent move generator.
//!
//! Random games (a SplitMix64 generator from fixed seeds, so every run plays the same games;
//! `SHVEDKA_SEED=N` plays others, and a failure says its seed to replay it) are played
//! from the standard start position, the chessprogramming wiki's perft positions (Kiwipete and
//! friends), positions built around en passant and castling corner cases, and Chess960 and Double
//! Chess960 start positions taken from cozy-chess's Scharnagl numbering. At every position the two
//! implementations must agree on:
//!
//! 1. the set of legal moves (FIDE 3.1–3.8: piece moves, en passant 3.7.4, promotion 3.7.5,
//!    castling 3.8.2 and Chess960 castling, FIDE appendix F), written as long notation;
//! 2. check (FIDE 3.9), checkmate (5.1.1) and stalemate (5.2.1);
//! 3. FEN: our FEN re-reads to the same position and the same text, cozy-chess reads our FEN into
//!    its own board, and we read cozy-chess's FEN into our position (see the en passant and
//!    "not written in FEN" notes below);
//! 4. the Zobrist hash: the incrementally updated hash equals the hash of the position read back
//!    from its FEN, and over all positions seen, positions equal under FIDE 9.2.3 hash equal and
//!    different ones hash apart (so counting repetitions by hash is FIDE 9.2).
//!
//! Two conventions differ between the implementations and are normalised, not ignored:
//!
//! - **En passant square.** Our en passant square is the right, derived from the board: set only
//!   when an en passant capture is legal (so FIDE-equal positions, 9.2.3, hash equal); cozy-chess
//!   sets it after every double pawn push. Cozy's board is compared after dropping its square when
//!   cozy itself lists no en passant capture, and our square must equal exactly the square on
//!   which cozy lists one.
//! - **State a FEN does not carry.** Our [`Position`] also records whether each king has moved
//!   (for castling with a dropped rook in bughouse), the castling rook files, the Chess960 flag,
//!   and a double step whose en passant capture is illegal for now (a pin: in bughouse a removal
//!   on the other board may lift it before the next move), which a FEN does not write since it
//!   writes the right, not the fact. A FEN only says which rooks may castle, so when a side has
//!   lost its rights without moving its king (its rooks moved or were taken), the position read
//!   back from the FEN believes the king has moved; and with no right left at all, a Chess960 FEN
//!   reads back as standard chess. Those fields may differ only in exactly those cases;
//!   everything else must be equal.
//!   The hash must not differ: without pockets and with the default drop rules, "king has moved"
//!   is not part of the position in the FIDE 9.2.3 sense and is not hashed.

use std::collections::{BTreeSet, HashMap, HashSet};

use chess_core::{CastlingSide, Color, Move, Position, Square};
use cozy_chess as cz;

/// Longest game, in plies (games also stop at mate, stalemate, or the 50-move mark, FIDE 9.3).
const MAX_PLIES: usize = 150;

use testkit::SplitMix;

/// What was compared, so a run that checks nothing cannot pass.
#[derive(Default)]
struct Stats {
    games: usize,
    positions: usize,
    distinct: HashSet<String>,
    checks: usize,
    checkmates: usize,
    stalemates: usize,
    castling_positions: usize,
    ep_positions: usize,
    promotion_positions: usize,
    castles_played: usize,
    ep_played: usize,
    promotions_played: usize,
    /// Positions where cozy-chess's en passant square had to be dropped (no legal capture).
    cozy_ep_dropped: usize,
    /// Positions whose FEN could not carry all of our state (see the module notes).
    fen_hidden_state: usize,
    /// Of those, positions where a king that never moved has no castling right left.
    unmoved_king_without_rights: usize,
    /// Position (FEN without clocks) to hash, and back: the hash must be a function of the
    /// position, and distinct positions must hash apart.
    hash_of: HashMap<String, u64>,
    position_of: HashMap<u64, String>,
}

impl Stats {
    fn report(&self, name: &str) {
        eprintln!(
            "{name}: {} games, {} positions ({} distinct); {} checks, {} mates, {} stalemates; \
             positions with castling {}, en passant {}, promotion {}; played castling {}, en passant {}, \
             promotion {}; cozy ep squares normalised {}, FEN-hidden state {} (unmoved king without \
             rights {})",
            self.games,
            self.positions,
            self.distinct.len(),
            self.checks,
            self.checkmates,
            self.stalemates,
            self.castling_positions,
            self.ep_positions,
            self.promotion_positions,
            self.castles_played,
            self.ep_played,
            self.promotions_played,
            self.cozy_ep_dropped,
            self.fen_hidden_state,
            self.unmoved_king_without_rights,
        );
    }
}

/// Where a failure happened: enough to replay it.
struct Ctx<'a> {
    label: &'a str,
    start_fen: &'a str,
    game: usize,
    history: &'a [String],
}

impl Ctx<'_> {
    fn fail(&self, fen: &str, what: &str) -> ! {
        panic!(
            "{what}\n  position: {fen}\n  start ({}): {}\n  game {}, after {} plies: {}",
            self.label,
            self.start_fen,
            self.game,
            self.history.len(),
            self.history.join(" ")
        );
    }
}

/// A move with its long notation.
type Named<M> = (String, M);

/// Cozy's board as FEN, Shredder-FEN letters in Chess960 mode.
fn cozy_fen(board: &cz::Board, chess960: bool) -> String {
    if chess960 { format!("{board:#}") } else { format!("{board}") }
}

/// Cozy's legal moves as long notation. Cozy writes castling as the king taking its own rook;
/// in standard chess we write the king's two-square step (FIDE 3.8.2), so convert there.
fn cozy_moves(board: &cz::Board, chess960: bool) -> Vec<(String, cz::Move)> {
    let us = board.colors(board.side_to_move());
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        for mv in piece_moves {
            let text = if us.has(mv.to) && !chess960 {
                let file = if mv.to.file() > mv.from.file() { cz::File::G } else { cz::File::C };
                format!("{}{}", mv.from, cz::Square::new(file, mv.from.rank()))
            } else {
                mv.to_string()
            };
            moves.push((text, mv));
        }
        false
    });
    moves
}

/// The en passant square on which cozy lists a legal en passant capture, if any.
fn cozy_effective_ep(board: &cz::Board, moves: &[(String, cz::Move)]) -> Option<cz::Square> {
    let file = board.en_passant()?;
    let sq = cz::Square::new(file, cz::Rank::Sixth.relative_to(board.side_to_move()));
    moves.iter().any(|(_, mv)| mv.to == sq && board.piece_on(mv.from) == Some(cz::Piece::Pawn)).then_some(sq)
}

/// Replaces the en passant field (the fourth) of a FEN.
fn with_ep_field(fen: &str, ep: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[3] = ep;
    fields.join(" ")
}

fn squares(bb: chess_core::Bitboard) -> Vec<String> {
    let mut v: Vec<String> = bb.map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn cozy_squares(bb: cz::BitBoard) -> Vec<String> {
    let mut v: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Whether a castling rook of `pos` stands on `side` of its king on the file `file`.
fn has_right_on(pos: &Position, side: CastlingSide, file: chess_core::File) -> bool {
    Color::ALL.iter().any(|&color| {
        let Some(king) = pos.board().king_of(color) else { return false };
        // `Iterator::any`: Bitboard also has an inherent `any()` (non-empty).
        Iterator::any(&mut pos.castling().rooks_of(color), |rook| {
            rook.file() == file && CastlingSide::of(king, rook) == side
        })
    })
}

/// Checks that `read` (a position read from a FEN of `pos`) equals `pos` in everything a FEN
/// carries, and differs at most in the state a FEN cannot carry (module notes). Returns whether
/// such hidden state differed.
fn same_modulo_fen(pos: &Position, read: &Position, what: &str) -> Result<bool, String> {
    let mut errors = Vec::new();
    let mut check = |ok: bool, field: &str| {
        if !ok {
            errors.push(field.to_owned());
        }
    };
    check(read.board() == pos.board(), "placement");
    check(read.pockets() == pos.pockets(), "pockets");
    check(read.turn() == pos.turn(), "side to move");
    check(read.castling().rooks() == pos.castling().rooks(), "castling rooks");
    check(read.ep_square() == pos.ep_square(), "en passant square");
    check(read.halfmoves() == pos.halfmoves(), "halfmove clock");
    check(read.fullmoves() == pos.fullmoves(), "move number");
    check(read.checkers() == pos.checkers(), "checkers");
    check(read.drop_rules() == pos.drop_rules(), "drop rules");
    let mut hidden = false;
    if pos.ep_target() != read.ep_target() {
        // A double step whose capture is illegal now (a pin) is kept as a fact, which a FEN
        // writes only as the right; the rights themselves must agree (checked above).
        check(pos.ep_square().is_none(), "en passant fact");
        hidden = true;
    }
    for color in Color::ALL {
        let (ours, theirs) = (pos.castling().king_moved(color), read.castling().king_moved(color));
        if ours != theirs {
            // Only legitimate when no right is left to say the king has not moved, and the FEN
            // reader then assumes it has.
            check(pos.castling().rooks_of(color).is_empty() && theirs, "king-moved flag");
            hidden = true;
        }
    }
    if pos.castling().is_chess960() != read.castling().is_chess960() {
        check(pos.castling().is_empty(), "Chess960 flag");
        hidden = true;
    }
    for side in CastlingSide::ALL {
        let (ours, theirs) = (pos.castling().rook_file(side), read.castling().rook_file(side));
        if ours != theirs {
            // Legitimate only when no castling rook on that side stands on our file any more.
            check(!has_right_on(pos, side, ours), "castling rook file");
            hidden = true;
        }
    }
    if !hidden {
        check(read == pos, "Position (all state)");
    }
    if errors.is_empty() {
        Ok(hidden)
    } else {
        Err(format!("{what}: differs in {}\n  ours: {pos:?}\n  read: {read:?}", errors.join(", ")))
    }
}

/// Compares one position; returns our legal moves with their long notation and cozy's moves by
/// the same notation.
fn compare(
    pos: &Position,
    board: &cz::Board,
    ctx: &Ctx<'_>,
    stats: &mut Stats,
) -> (Vec<Named<Move>>, Vec<Named<cz::Move>>) {
    let fen = pos.fen();
    let fail = |what: &str| -> ! { ctx.fail(&fen, what) };
    let chess960 = pos.castling().is_chess960();
    stats.positions += 1;
    let key = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    stats.distinct.insert(key.clone());

    // 1. Legal moves (FIDE 3).
    let ours: Vec<(String, Move)> = pos.legal_moves().into_iter().map(|m| (pos.uci(&m), m)).collect();
    let theirs = cozy_moves(board, chess960);
    let our_set: BTreeSet<&str> = ours.iter().map(|(s, _)| s.as_str()).collect();
    let their_set: BTreeSet<&str> = theirs.iter().map(|(s, _)| s.as_str()).collect();
    if our_set != their_set {
        let only_ours: Vec<&str> = our_set.difference(&their_set).copied().collect();
        let only_cozy: Vec<&str> = their_set.difference(&our_set).copied().collect();
        fail(&format!("legal moves differ: only ours {only_ours:?}, only cozy-chess {only_cozy:?}"));
    }
    if our_set.len() != ours.len() || their_set.len() != theirs.len() {
        fail(&format!(
            "duplicate moves: ours {}/{} distinct, cozy {}/{}",
            our_set.len(),
            ours.len(),
            their_set.len(),
            theirs.len()
        ));
    }
    if pos.count_legal() != ours.len() {
        fail(&format!("count_legal() = {} but legal_moves() lists {}", pos.count_legal(), ours.len()));
    }
    for (text, m) in &ours {
        match pos.parse_uci(text) {
            Ok(parsed) if parsed == *m => {}
            other => fail(&format!("parse_uci({text:?}) = {other:?}, expected {m:?}")),
        }
        if let Move::Normal { role, from, to, capture, .. } = *m {
            let on = |sq: Square| {
                let cz_sq: cz::Square = sq.to_string().parse().expect("square");
                board.piece_on(cz_sq).map(char::from)
            };
            if on(from) != Some(role.char()) || on(to) != capture.map(|r| r.char()) {
                fail(&format!("move {text}: role/capture {role:?}/{capture:?} disagree with cozy's board"));
            }
        }
    }
    let castles = ours.iter().any(|(_, m)| matches!(m, Move::Castle { .. }));
    let ep = ours.iter().any(|(_, m)| matches!(m, Move::EnPassant { .. }));
    let promotion = ours.iter().any(|(_, m)| matches!(m, Move::Normal { promotion: Some(_), .. }));
    stats.castling_positions += usize::from(castles);
    stats.ep_positions += usize::from(ep);
    stats.promotion_positions += usize::from(promotion);

    // 2. Check, checkmate and stalemate (FIDE 3.9, 5.1.1, 5.2.1). Cozy's `Drawn` also covers the
    // 50-move mark when moves remain, so stalemate there is `Drawn` with no legal move.
    let cozy_check = !board.checkers().is_empty();
    if pos.is_check() != cozy_check || squares(pos.checkers()) != cozy_squares(board.checkers()) {
        fail(&format!(
            "checkers differ: ours {:?} (is_check {}), cozy {:?}",
            squares(pos.checkers()),
            pos.is_check(),
            cozy_squares(board.checkers())
        ));
    }
    let status = board.status();
    let cozy_mate = status == cz::GameStatus::Won;
    let cozy_stalemate = status == cz::GameStatus::Drawn && theirs.is_empty();
    if pos.is_checkmate() != cozy_mate || pos.is_stalemate() != cozy_stalemate {
        fail(&format!(
            "game end differs: ours checkmate {} stalemate {}, cozy status {status:?} with {} moves",
            pos.is_checkmate(),
            pos.is_stalemate(),
            theirs.len()
        ));
    }
    stats.checks += usize::from(cozy_check);
    stats.checkmates += usize::from(cozy_mate);
    stats.stalemates += usize::from(cozy_stalemate);

    // 3. FEN round trips.
    let read = Position::from_fen(&fen).unwrap_or_else(|e| fail(&format!("our FEN does not read back: {e}")));
    if read.fen() != fen {
        fail(&format!("FEN read back writes {:?}", read.fen()));
    }
    let hidden = same_modulo_fen(pos, &read, "our FEN read back").unwrap_or_else(|e| fail(&e));
    stats.fen_hidden_state += usize::from(hidden);

    // En passant: ours must be exactly the square cozy can capture on.
    let effective = cozy_effective_ep(board, &theirs);
    if pos.ep_square().map(|s| s.to_string()) != effective.map(|s| s.to_string()) {
        fail(&format!(
            "en passant square: ours {:?}, cozy {:?} (legal capture on {:?})",
            pos.ep_square(),
            board.en_passant(),
            effective
        ));
    }
    let their_fen = cozy_fen(board, chess960);
    let normalised = if board.en_passant().is_some() && effective.is_none() {
        stats.cozy_ep_dropped += 1;
        cz::Board::from_fen(&with_ep_field(&their_fen, "-"), chess960)
            .unwrap_or_else(|e| fail(&format!("cozy does not read its own FEN {their_fen:?}: {e}")))
    } else {
        board.clone()
    };
    let cozy_read = cz::Board::from_fen(&fen, chess960)
        .unwrap_or_else(|e| fail(&format!("cozy-chess rejects our FEN: {e}")));
    if cozy_read != normalised {
        fail(&format!(
            "cozy reads our FEN as {:?}, its own board is {:?}",
            cozy_fen(&cozy_read, chess960),
            cozy_fen(&normalised, chess960)
        ));
    }
    let from_cozy = Position::from_fen(&their_fen)
        .unwrap_or_else(|e| fail(&format!("we reject cozy-chess's FEN {their_fen:?}: {e}")));
    same_modulo_fen(pos, &from_cozy, &format!("cozy's FEN {their_fen:?} read by us"))
        .unwrap_or_else(|e| fail(&e));
    if from_cozy.fen() != fen {
        fail(&format!("cozy's FEN {their_fen:?} reads back as {:?}", from_cozy.fen()));
    }

    // 4. Zobrist. Without pockets and with the default drop rules, the hash covers exactly what
    // FIDE 9.2.3 compares (placement, side to move, castling and en passant rights), so the
    // incremental hash must equal the hash of the position read from the FEN even where the FEN
    // could not carry the king-moved flag; and across all positions seen, equal FEN positions
    // must hash equal and different ones apart (a repetition count by hash is then FIDE 9.2).
    if pos.zobrist() != read.zobrist() {
        fail(&format!("Zobrist: incremental {:#018x}, from FEN {:#018x}", pos.zobrist(), read.zobrist()));
    }
    if Color::ALL.iter().any(|&c| pos.castling().rooks_of(c).is_empty() && !pos.castling().king_moved(c)) {
        stats.unmoved_king_without_rights += 1;
    }
    match stats.hash_of.get(&key) {
        Some(&h) if h != pos.zobrist() => {
            fail(&format!("the same position hashed {h:#018x} before, {:#018x} now", pos.zobrist()))
        }
        Some(_) => {}
        None => {
            stats.hash_of.insert(key.clone(), pos.zobrist());
        }
    }
    match stats.position_of.get(&pos.zobrist()) {
        Some(other) if *other != key => {
            fail(&format!("hash collision: {other} and this position both hash {:#018x}", pos.zobrist()))
        }
        Some(_) => {}
        None => {
            stats.position_of.insert(pos.zobrist(), key);
        }
    }

    (ours, theirs)
}

/// Picks a move. Even games play uniformly at random; odd games prefer castling, en passant,
/// promotions and captures (each taken with probability 1/2 when available) so the special moves
/// and sparse endgames (mates, stalemates) are reached more often.
fn choose(rng: &mut SplitMix, moves: &[(String, Move)], biased: bool) -> usize {
    if biased {
        let classes: [fn(&Move) -> bool; 4] = [
            |m| matches!(m, Move::Castle { .. }),
            |m| matches!(m, Move::EnPassant { .. }),
            |m| matches!(m, Move::Normal { promotion: Some(_), .. }),
            |m| matches!(m, Move::Normal { capture: Some(_), .. }),
        ];
        for class in classes {
            let picks: Vec<usize> = (0..moves.len()).filter(|&i| class(&moves[i].1)).collect();
            if !picks.is_empty() && rng.coin() {
                return picks[rng.below(picks.len())];
            }
        }
    }
    rng.below(moves.len())
}

/// Plays `games` random games from `fen` in both implementations, comparing every position.
fn play_games(label: &str, fen: &str, games: usize, seed: u64, stats: &mut Stats) {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{label}: we reject {fen}: {e}"));
    let chess960 = start.castling().is_chess960();
    let cozy_start = cz::Board::from_fen(fen, chess960)
        .unwrap_or_else(|e| panic!("{label}: cozy-chess rejects {fen}: {e}"));
    // SHVEDKA_SEED varies every game (the same for every label); unset, the games are the same
    // on every run.
    let (base, _say) = testkit::seeded(0);
    let seed = seed ^ base;
    for game in 0..games {
        let mut rng = SplitMix(seed ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut pos = start;
        let mut board = cozy_start.clone();
        let mut history: Vec<String> = Vec::new();
        stats.games += 1;
        loop {
            let ctx = Ctx { label, start_fen: fen, game, history: &history };
            let (ours, theirs) = compare(&pos, &board, &ctx, stats);
            if ours.is_empty() || pos.halfmoves() >= 100 || history.len() >= MAX_PLIES {
                break;
            }
            let (text, m) = ours[choose(&mut rng, &ours, game % 2 == 1)].clone();
            let cozy_move = theirs.iter().find(|(t, _)| *t == text).expect("move sets are equal").1;
            stats.castles_played += usize::from(matches!(m, Move::Castle { .. }));
            stats.ep_played += usize::from(matches!(m, Move::EnPassant { .. }));
            stats.promotions_played += usize::from(matches!(m, Move::Normal { promotion: Some(_), .. }));
            pos.play_unchecked(m);
            if board.try_play(cozy_move).is_err() {
                ctx.fail(&pos.fen(), &format!("cozy-chess refuses {text} ({cozy_move})"));
            }
            history.push(text);
        }
    }
}

/// The chessprogramming wiki's perft positions.
const PERFT_POSITIONS: [(&str, &str); 7] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPPPNnPP/RNBQK2R w KQ - 1 8"),
    ("position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/2NP1N2/PPP1QPPP/R4RK1 w - - 0 10"),
];

/// En passant and castling corner cases (FIDE 3.7.4 en passant, 3.8.2 castling through or out of
/// check): pins along ranks and diagonals that make an en passant capture illegal, en passant
/// that answers a check, castling under attack.
const TRICKY_POSITIONS: [(&str, &str); 9] = [
    ("ep rank pin", "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
    ("ep diagonal pin", "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1"),
    ("ep evades check", "8/8/8/4k3/2pP4/8/8/3K4 b - d3 0 1"),
    ("two ep captures", "8/8/4k3/8/2pPp3/8/B7/7K b - d3 0 1"),
    ("ep pinned capturer", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1"),
    ("castling through attack", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1"),
    ("castling rook attacked", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1"),
    ("promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
    ("bare kings and pawns", "8/2k1p3/3pP3/3P2K1/8/8/8/8 w - - 0 1"),
];

/// Chess960 start positions by Scharnagl number (518 is the standard array, in Chess960 mode).
const CHESS960: [u32; 10] = [0, 1, 100, 226, 359, 443, 518, 638, 777, 959];

/// Double Chess960 start positions (White's and Black's Scharnagl numbers).
const DOUBLE_CHESS960: [(u32, u32); 3] = [(0, 959), (100, 518), (705, 36)];

/// Standard start position and the wiki perft positions, incl. Kiwipete (FIDE 3, 3.8 castling).
#[test]
fn perft_positions_agree_with_cozy_chess() {
    let mut stats = Stats::default();
    for (i, (label, fen)) in PERFT_POSITIONS.iter().enumerate() {
        let games = if i == 0 { 120 } else { 40 };
        play_games(label, fen, games, 0x5348_5645_0000 + i as u64, &mut stats);
    }
    stats.report("perft positions");
    assert!(stats.distinct.len() >= 40_000, "only {} distinct positions compared", stats.distinct.len());
    assert!(
        stats.checkmates > 0
            && stats.castles_played > 0
            && stats.ep_played > 0
            && stats.promotions_played > 0
    );
}

/// En passant (FIDE 3.7.4) and castling (FIDE 3.8.2) corner cases.
#[test]
fn en_passant_and_castling_corner_cases_agree_with_cozy_chess() {
    let mut stats = Stats::default();
    for (i, (label, fen)) in TRICKY_POSITIONS.iter().enumerate() {
        play_games(label, fen, 30, 0x7417_0000 + i as u64, &mut stats);
    }
    stats.report("corner cases");
    assert!(stats.distinct.len() >= 25_000, "only {} distinct positions compared", stats.distinct.len());
    assert!(stats.cozy_ep_dropped > 0, "no position exercised the en passant normalisation");
    assert!(stats.ep_played > 0 && stats.castles_played > 0 && stats.promotions_played > 0);
}

/// Chess960 and Double Chess960 (FIDE appendix F castling; Shredder-FEN castling letters).
#[test]
fn chess960_agrees_with_cozy_chess() {
    let mut stats = Stats::default();
    for (i, &n) in CHESS960.iter().enumerate() {
        let fen = cozy_fen(&cz::Board::chess960_startpos(n), true);
        play_games(&format!("Chess960 #{n}"), &fen, 30, 0x0960_0000 + i as u64, &mut stats);
    }
    for (i, &(white, black)) in DOUBLE_CHESS960.iter().enumerate() {
        let fen = cozy_fen(&cz::Board::double_chess960_startpos(white, black), true);
        play_games(
            &format!("Double Chess960 #{white}/#{black}"),
            &fen,
            12,
            0xD960_0000 + i as u64,
            &mut stats,
        );
    }
    stats.report("Chess960");
    assert!(stats.distinct.len() >= 40_000, "only {} distinct positions compared", stats.distinct.len());
    assert!(stats.castles_played > 0 && stats.checkmates > 0);
}
