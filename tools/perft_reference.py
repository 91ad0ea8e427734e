#!/usr/bin/env python3
"""Independent perft reference counts for the chess-core test data.

Writes (relative to the repository root, i.e. run as ``python3 tools/perft_reference.py``
from /work/main):

    crates/chess-core/tests/data/chess960.perft
    crates/chess-core/tests/data/drops.perft

and prints both files to stdout.  ``--check`` recomputes everything and compares it with the
files on disk instead of writing them (exit status 1 on any difference).

The counts come from python-chess (``pip install chess``; generated with 1.11.2), a move
generator that shares no code with the Rust core, walked with a plain recursive perft (leaf
nodes counted at the last ply as the number of legal moves).  Nothing in here knows about the
Rust code.

File format
-----------
::

    # comment
    id <short-name>
    fen <FEN>
    perft <depth> <nodes>
    ...

one blank line between records.  ``perft d n``: number of leaf nodes of the legal move tree of
depth ``d``.

Chess960 conventions (chess960.perft)
------------------------------------
* Boards are built with ``chess.Board(fen, chess960=True)``.
* The castling field is Shredder-FEN (file letters of the castling rooks, upper case White)
  except for the records whose comment says "X-FEN": there ``KQkq`` means the outermost rook
  on that side of the king, and every such record has exactly one rook on that side.
* Castling follows the Chess960 rules: the king ends on the c/g file, the rook on the d/f
  file; every square between the king's start and end square (both included) must be free of
  enemy attack; every square the king or the rook crosses or lands on must be empty except for
  the castling king and rook themselves; the king may not be in check after castling (this
  matters when the castling rook was the only piece shielding the king's destination).  A
  castling move is one move even where a normal king move to the same square could exist.
* Records marked "cross-checked" reproduce published Chess960 perft numbers (the Chess
  Programming Wiki "Chess960 Perft Results" table, also used by many engines' test suites);
  the script asserts those values, so a python-chess regression would stop it.

Drop conventions (drops.perft) -- NOT plain crazyhouse
------------------------------------------------------
* FEN: crazyhouse style, the pockets in brackets right after the placement,
  ``<placement>[<pocket>] <side> <castling> <ep> <halfmove> <fullmove>``; upper case letters
  are White's pieces, lower case Black's, ``[]`` is two empty pockets.  Standard (not 960)
  castling letters ``KQkq``.
* The side to move may drop any piece type it has in its pocket on any empty square; pawns
  only on ranks 2..7 (both colours).  One move per (piece type, square): two knights in the
  pocket give the same drops as one.
* A drop may give check or mate.  No move (drop or board move) may leave the mover's king in
  check; so when in check by one slider, drops are legal only between king and checker, and
  against a contact check (knight, pawn, adjacent piece) or a double check no drop is legal.
* A pawn dropped on its own second rank may later advance two squares and can then be taken
  en passant.
* Castling only with the rights in the FEN; a rook dropped on a corner never gains rights.
* **A captured piece leaves the game: it goes to no pocket.**  Pockets only shrink.
  (This is the bughouse board-local view: in bughouse the captured piece goes to the partner,
  i.e. off this board.)
* Promotion: Q, R, B or N.

How python-chess was adapted (its CrazyhouseBoard differs from the convention above):
* After every capture CrazyhouseBoard adds the captured piece -- or a pawn if the captured
  piece had been promoted -- to the capturer's pocket.  ``push_no_recycle`` below pushes the
  move and then restores the mover's pocket to what it was before the push minus the dropped
  piece, after asserting that the push changed the pockets in exactly the expected way (drop:
  one piece of that type removed; capture: exactly one piece added, of the captured type or a
  pawn for a promoted piece; otherwise unchanged; the opponent's pocket never changes).  pop()
  restores the saved pre-push pockets, so unmaking is unaffected.
* Checked and identical to the convention (no adjustment needed): pawn drops are refused on
  ranks 1 and 8 (``BB_BACKRANKS``), for both colours; checking and mating drops are allowed;
  drops while in check are restricted to the squares between king and a single checker, none
  in double check; a dropped rook gets no castling right (python-chess only ever clears
  castling-right bits after the root position, and a right's square is occupied by its rook
  until the bit is cleared, so nothing can be dropped there); a pawn dropped on its second rank
  can double-step and be captured en passant (python-chess decides by rank, not history).
  ``self_test()`` demonstrates each point on tiny hand-checkable positions before any counting.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

try:
    import chess
    import chess.variant
except ImportError:  # pragma: no cover
    sys.exit("python-chess is required: pip install chess")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "crates", "chess-core", "tests", "data")


# --------------------------------------------------------------------------------------------
# perft walkers
# --------------------------------------------------------------------------------------------

def perft_960(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += perft_960(board, depth - 1)
        board.pop()
    return nodes


def push_no_recycle(board: chess.variant.CrazyhouseBoard, move: chess.Move) -> None:
    """Push ``move``; then take back whatever python-chess put in the capturer's pocket."""
    mover = board.turn
    mine = board.pockets[mover].copy()
    theirs = board.pockets[not mover].copy()
    capture = not move.drop and board.is_capture(move)
    board.push(move)
    expected = mine.copy()
    if move.drop:
        expected.remove(move.drop)
    got = board.pockets[mover]
    diff = [got.count(pt) - expected.count(pt) for pt in chess.PIECE_TYPES]
    if capture:
        # CrazyhouseBoard recycled exactly one piece (the captured type, or a pawn for a
        # captured promoted piece).
        assert sum(diff) == 1 and min(diff) == 0, (move, mine, got)
    else:
        assert not any(diff), (move, mine, got)
    assert str(board.pockets[not mover]) == str(theirs)
    board.pockets[mover] = expected


def perft_drops(board: chess.variant.CrazyhouseBoard, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        push_no_recycle(board, move)
        nodes += perft_drops(board, depth - 1)
        board.pop()
    return nodes


def drops_board(fen: str) -> chess.variant.CrazyhouseBoard:
    return chess.variant.CrazyhouseBoard(fen)


# --------------------------------------------------------------------------------------------
# self test of the drop adaptation, on hand-checkable positions
# --------------------------------------------------------------------------------------------

def _moves(board: chess.Board) -> set[str]:
    return {m.uci() for m in board.legal_moves}


def self_test() -> None:
    # 1. A capture puts nothing in the capturer's pocket.  Plain crazyhouse would give White a
    #    pawn (the e4xd5 capture) and White would then have pawn drops.
    b = drops_board("4k3/8/8/3p4/4P3/8/8/4K3[] w - - 0 1")
    raw = b.copy()
    raw.push(chess.Move.from_uci("e4d5"))
    assert raw.pockets[chess.WHITE].count(chess.PAWN) == 1  # what python-chess does by itself
    push_no_recycle(b, chess.Move.from_uci("e4d5"))
    assert len(b.pockets[chess.WHITE]) == 0 and len(b.pockets[chess.BLACK]) == 0
    push_no_recycle(b, chess.Move.from_uci("e8e7"))
    assert _moves(b) == {"e1d1", "e1d2", "e1e2", "e1f2", "e1f1", "d5d6"}  # no drops
    b.pop()
    b.pop()
    assert b.board_fen() == "4k3/8/8/3p4/4P3/8/8/4K3"
    # Perft over the same tree: 1 + 5 moves at depth 1 and 2 differ only if pockets leak.
    assert perft_drops(drops_board("4k3/8/8/3p4/4P3/8/8/4K3[] w - - 0 1"), 3) == \
        perft_960(chess.Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), 3)

    # 2. A captured promoted piece: python-chess gives the capturer a pawn; we give nothing.
    b = drops_board("r3k3/1P6/8/8/8/8/8/4K3[n] w - - 0 1")
    push_no_recycle(b, chess.Move.from_uci("b7b8q"))
    raw = b.copy()
    raw.push(chess.Move.from_uci("a8b8"))
    # python-chess recycles the promoted queen as a pawn:
    assert raw.pockets[chess.BLACK].count(chess.PAWN) == 1 and len(raw.pockets[chess.BLACK]) == 2
    push_no_recycle(b, chess.Move.from_uci("a8b8"))
    assert str(b.pockets[chess.BLACK]) == "n" and len(b.pockets[chess.WHITE]) == 0
    # A drop shrinks the pocket by one.
    push_no_recycle(b, chess.Move.from_uci("e1e2"))
    push_no_recycle(b, chess.Move.from_uci("N@c3"))
    assert len(b.pockets[chess.BLACK]) == 0
    # Same by the _push_capture override route, as a second opinion.
    class NoRecycle(chess.variant.CrazyhouseBoard):
        def _push_capture(self, *args) -> None:  # noqa: D401
            pass
    for fen in ("r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PPP/R3K2R[Nb] w KQkq d6 0 1",
                "4k3/8/8/3p4/4P3/8/8/4K3[Pp] w - - 0 1"):
        def perft_override(board, depth):
            if depth == 1:
                return board.legal_moves.count()
            n = 0
            for m in list(board.legal_moves):
                board.push(m)
                n += perft_override(board, depth - 1)
                board.pop()
            return n
        assert perft_override(NoRecycle(fen), 3) == perft_drops(drops_board(fen), 3), fen

    # 3. Pawn drops only on ranks 2..7 (both colours), pieces anywhere.
    b = drops_board("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    drops = [m for m in b.legal_moves if m.drop]
    assert len(drops) == 48 and all(1 <= chess.square_rank(m.to_square) <= 6 for m in drops)
    b = drops_board("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1")
    assert len([m for m in b.legal_moves if m.drop]) == 48
    b = drops_board("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
    assert len([m for m in b.legal_moves if m.drop]) == 62

    # 4. A dropped rook on a corner gives no castling right.
    b = drops_board("4k3/8/8/8/8/8/8/R3K3[R] w Q - 0 1")
    push_no_recycle(b, chess.Move.from_uci("R@h1"))
    push_no_recycle(b, chess.Move.from_uci("e8d8"))
    assert "e1c1" in _moves(b) and "e1g1" not in _moves(b)
    b = drops_board("r3k3/8/8/8/8/8/8/4K3[r] b - - 0 1")  # no rights at all in the FEN
    push_no_recycle(b, chess.Move.from_uci("r@h8"))
    push_no_recycle(b, chess.Move.from_uci("e1d1"))
    assert not any(b.is_castling(m) for m in b.legal_moves)

    # 5. Check by a distant slider: drops only between; contact check / double check: none.
    b = drops_board("4r1k1/8/8/8/8/8/8/4K3[N] w - - 0 1")
    assert {m.to_square for m in b.legal_moves if m.drop} == set(chess.SquareSet(chess.between(chess.E1, chess.E8)))
    b = drops_board("6k1/8/8/8/8/5n2/8/6K1[QRBNP] w - - 0 1")
    assert not any(m.drop for m in b.legal_moves)
    # A mating drop is legal.
    b = drops_board("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1")
    assert "R@e8" in {m.uci() for m in b.legal_moves}
    b.push(chess.Move.from_uci("R@e8"))
    assert b.is_checkmate()

    # 6. A pawn dropped on its second rank double-steps and can be taken en passant.
    b = drops_board("4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1")
    push_no_recycle(b, chess.Move.from_uci("P@e2"))
    push_no_recycle(b, chess.Move.from_uci("e8d7"))
    push_no_recycle(b, chess.Move.from_uci("e2e4"))
    assert b.ep_square == chess.E3 and "d4e3" in _moves(b)
    b = drops_board("4k3/8/8/4P3/8/8/8/4K3[p] b - - 0 1")
    push_no_recycle(b, chess.Move.from_uci("P@d7"))
    push_no_recycle(b, chess.Move.from_uci("e1d1"))
    push_no_recycle(b, chess.Move.from_uci("d7d5"))
    assert "e5d6" in _moves(b)


# --------------------------------------------------------------------------------------------
# positions
# --------------------------------------------------------------------------------------------

# (id, fen, depths, comment lines, published counts or None)
CHESS960 = [
    ("frc-wiki-1", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", [1, 2, 3, 4],
     ["cross-checked: Chess Programming Wiki Chess960 perft #1 (21, 528, 12189, 326672)"],
     [21, 528, 12189, 326672]),
    ("frc-wiki-3", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", [1, 2, 3, 4],
     ["cross-checked: Chess Programming Wiki Chess960 perft #3 (20, 479, 10471, 273318)",
      "White only: king f1 between rooks e1 and g1; O-O puts the king on the rook's square g1"],
     [20, 479, 10471, 273318]),
    ("frc-wiki-4-xfen", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w kq - 0 9", [1, 2, 3, 4],
     ["X-FEN: published as `hf`, written here as `kq` (black king g8, one rook on each side)",
      "cross-checked: Chess Programming Wiki Chess960 perft #4 (22, 593, 13440, 382958)"],
     [22, 593, 13440, 382958]),
    ("frc-wiki-5", "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", [1, 2, 3, 4],
     ["cross-checked: Chess Programming Wiki Chess960 perft #5 (28, 1120, 31058, 1171749)"],
     [28, 1120, 31058, 1171749]),
    ("start-rkrnnqbb-xfen", "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", [1, 2, 3, 4],
     ["X-FEN: start position RKRNNQBB, king b1 between rooks a1 (Q) and c1 (K)"],
     None),
    ("start-nrkbqrbn", "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w FBfb - 0 1", [1, 2, 3, 4],
     ["start position NRKBQRBN, Shredder castling FBfb"],
     None),
    ("swap-kr", "2rk3r/pppbqppp/2np1n2/4p3/4P3/2NP1N2/PPPBQPPP/R4KR1 w GAhc - 0 9", [1, 2, 3, 4],
     ["White: king f1, h-side rook g1 -> O-O swaps them (king to g1, rook to f1);",
      "        a-side rook a1 -> O-O-O king f1->c1, rook a1->d1 (crosses b1..e1).",
      "Black: king d8, a-side rook c8 -> O-O-O swaps them; h-side rook h8 -> O-O king d8->g8."],
     None),
    ("on-destination", "r1k2r2/ppp1bppp/2nq1n2/3pp3/3PP3/2NQ1N2/PPP1BPPP/1R4KR b HBfa - 0 9", [1, 2, 3, 4],
     ["White: king g1 already on its O-O square (only rook h1->f1 moves); O-O-O king g1->c1,",
      "        rook b1->d1.  Black: king c8 already on its O-O-O square (rook a8->d8);",
      "        rook f8 already on its O-O square (only king c8->g8 moves)."],
     None),
    ("attack-blocks", "1r4kr/pp1pppp1/7p/Bb6/8/8/PP1P2PP/RK4R1 w GAhb - 0 9", [1, 2, 3, 4],
     ["White O-O (king b1->g1) illegal only because Bb5 attacks f1 on the king's path;",
      "White O-O-O (king b1->c1, rook a1->d1) legal.  Black O-O-O (king g8->c8) illegal only",
      "because Ba5 attacks d8; Black O-O (rook h8->f8, king stays g8) legal."],
     None),
    ("rook-shields", "r1k4r/pp3ppp/8/8/8/8/1PP2PPP/qRK3R1 w GBha - 0 9", [1, 2, 3, 4],
     ["White king c1, a-side rook b1, black queen a1.  O-O-O would leave the king on c1 and",
      "move the rook b1->d1, exposing c1 to the queen: illegal.  O-O (king c1->g1 with rook",
      "g1->f1) is legal: the path squares d1..g1 are not attacked while b1 still blocks."],
     None),
]

DROPS = [
    ("start-empty-pockets", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", [1, 2, 3, 4],
     ["initial position, both pockets empty: the standard chess numbers"]),
    ("opening-mixed", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nnp] w KQkq - 2 3", [1, 2, 3],
     ["opening, White has a knight in hand, Black a knight and a pawn"]),
    ("middlegame-full-pockets", "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1[QRBNPqrbnp] w - - 0 8", [1, 2],
     ["one piece of every type in both pockets; captures shrink no pocket and fill none"]),
    ("captures-promo-ep", "r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PPP/R3K2R[Nb] w KQkq d6 0 1", [1, 2, 3],
     ["en passant e5xd6 at the root, b7xa8 capture-promotions, castling, drops: a captured",
      "promoted piece goes to no pocket either"]),
    ("slider-check-block", "4r1k1/5ppp/8/8/8/8/PP3PPP/R3K2R[NPbp] w KQ - 0 1", [1, 2, 3],
     ["White in check from Re8 along the e-file: drops only on e2..e7 (N and P), king moves;",
      "castling rights present but castling out of check is illegal"]),
    ("knight-check", "r1bqkb1r/pppp1ppp/2n5/4p3/4P3/5n2/PPPP1PPP/RNBQ1RK1[QRBNPp] w kq - 0 6", [1, 2, 3, 4],
     ["White in contact check from Nf3: no drop helps (full white pocket, none legal)"]),
    ("double-check", "4r1k1/8/8/8/8/3n4/PP3PPP/R3K2R[QRBNPqrbnp] w KQ - 0 1", [1, 2, 3],
     ["double check (Re8 and Nd3): king moves only, no drops, no castling"]),
    ("pawn-drop-ep", "4k3/8/8/3P4/2p1p3/8/8/4K3[Pp] b - - 0 1", [1, 2, 3, 4],
     ["pawns in hand for both sides, Black to move: ...P@c7/...P@e7, White moves, ...c7-c5/",
      "...e7-e5, then d5xc6/d5xe6 en passant (100 such captures at ply 4); pawns dropped on",
      "the own 7th rank promote at ply 3"]),
    ("pawn-drop-ep-deep", "4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1", [1, 2, 3, 4, 5],
     ["a single white pawn in hand: P@c2/P@e2, Black moves, c2-c4/e2-e4, then ...d4xc3/d4xe3",
      "en passant at ply 4; P@x7 promotions at ply 3"]),
    ("pawns-back-ranks", "4k3/8/8/8/8/8/8/4K3[PNpn] w - - 0 1", [1, 2, 3],
     ["pawns and knights in hand on an empty board: knights may go to ranks 1 and 8, pawns not;",
      "a pawn dropped on its 7th rank promotes on its next move"]),
    ("drops-only", "7k/8/8/8/8/8/2q5/K7[N] w - - 0 1", [1, 2, 3, 4],
     ["White king a1 has no move and no other piece (stalemate in chess): only N drops are legal"]),
    ("pocket-side-not-to-move", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[qn] w KQkq - 0 2", [1, 2, 3],
     ["only Black (not to move) has a pocket: depth 1 is the plain chess count"]),
    ("dropped-rook-no-castling", "r3k3/8/8/8/8/8/8/R3K3[Rr] w Qq - 0 1", [1, 2, 3],
     ["rooks in hand: R@h1 / r@h8 never gives a king-side castling right; O-O-O is available"]),
]


# --------------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------------

def render(header: list[str], records: list[tuple[str, str, list[str], list[tuple[int, int]]]]) -> str:
    out = ["# " + line if line else "#" for line in header]
    for rid, fen, comments, counts in records:
        out.append("")
        out.extend("# " + c for c in comments)
        out.append(f"id {rid}")
        out.append(f"fen {fen}")
        out.extend(f"perft {d} {n}" for d, n in counts)
    return "\n".join(out) + "\n"


def castling_note(board: chess.Board) -> str:
    moves = sorted(m.uci() for m in board.legal_moves if board.is_castling(m))
    return "root castling moves (king-takes-rook UCI): " + (", ".join(moves) if moves else "none")


def build_chess960(log) -> str:
    records = []
    for rid, fen, depths, comments, published in CHESS960:
        board = chess.Board(fen, chess960=True)
        assert board.is_valid(), (rid, board.status())
        # The FEN must have been read with the intended castling rights.
        field = fen.split()[2]
        if field != "-" and not set(field) <= set("KQkq"):
            assert board.castling_shredder_fen() == "".join(sorted(field, key=lambda c: (c.islower(), -ord(c.lower())))), rid
        counts = []
        for d in depths:
            t = time.time()
            n = perft_960(board, d)
            log(f"chess960 {rid} perft {d} = {n} ({time.time() - t:.1f}s)")
            counts.append((d, n))
        if published is not None:
            assert [n for _, n in counts] == published, (rid, counts, published)
        records.append((rid, fen, comments + [castling_note(board)], counts))
    header = [
        "Chess960 perft reference counts.  Generated by tools/perft_reference.py with python-chess",
        f"{chess.__version__} (chess.Board(fen, chess960=True), plain recursive perft); do not edit by hand.",
        "Castling field: Shredder-FEN file letters, except records marked X-FEN (KQkq = the",
        "outermost rook on that side, unambiguous in those records).",
        "Cross-checked against published numbers (Chess Programming Wiki, Chess960 perft results):",
        "frc-wiki-1, -3, -4-xfen, -5 (every listed depth).  The other records were designed here;",
        "their comments say what each one exercises.",
    ]
    return render(header, records)


def build_drops(log) -> str:
    records = []
    for rid, fen, depths, comments in DROPS:
        board = drops_board(fen)
        assert board.is_valid(), (rid, board.status())
        # The FEN must round-trip (placement, pockets, side, castling, e.p.).
        assert board.fen().split()[:3] == fen.split()[:3] or _same_pockets(board, fen), (rid, board.fen())
        counts = []
        for d in depths:
            t = time.time()
            n = perft_drops(board, d)
            log(f"drops {rid} perft {d} = {n} ({time.time() - t:.1f}s)")
            counts.append((d, n))
        records.append((rid, fen, comments, counts))
    header = [
        "Perft reference counts for positions with pockets (drops).  Generated by",
        f"tools/perft_reference.py with python-chess {chess.__version__}; do not edit by hand.",
        "Convention (see the script's docstring): the side to move drops any pocket piece on any",
        "empty square, pawns only on ranks 2..7; drops may check or mate but never leave the own",
        "king in check; a captured piece leaves the game and joins NO pocket (unlike crazyhouse);",
        "castling only from the FEN rights (a dropped rook gains none); promotion to Q/R/B/N.",
        "FEN: pockets in brackets after the placement, upper case = White, [] = both empty.",
    ]
    return render(header, records)


def _same_pockets(board: chess.variant.CrazyhouseBoard, fen: str) -> bool:
    placement = fen.split()[0]
    pocket = placement[placement.index("[") + 1:-1]
    want_w = sorted(c.lower() for c in pocket if c.isupper())
    want_b = sorted(c for c in pocket if c.islower())
    return (board.board_fen() == placement[:placement.index("[")]
            and sorted(str(board.pockets[chess.WHITE])) == want_w
            and sorted(str(board.pockets[chess.BLACK])) == want_b
            and board.fen().split()[1:3] == fen.split()[1:3])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files on disk instead of writing")
    parser.add_argument("--quiet", action="store_true", help="do not print progress or the files")
    args = parser.parse_args()

    def log(msg: str) -> None:
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    t0 = time.time()
    self_test()
    log("self test of the drop adaptation passed")
    outputs = {
        "chess960.perft": build_chess960(log),
        "drops.perft": build_drops(log),
    }
    status = 0
    os.makedirs(DATA, exist_ok=True)
    for name, text in outputs.items():
        path = os.path.join(DATA, name)
        if args.check:
            with open(path) as f:
                if f.read() != text:
                    print(f"{path}: differs from the recomputed counts", file=sys.stderr)
                    status = 1
        else:
            with open(path, "w") as f:
                f.write(text)
            log(f"wrote {path}")
        if not args.quiet:
            print(f"==> {os.path.relpath(path, ROOT)} <==")
            print(text)
    log(f"total {time.time() - t0:.0f}s")
    return status


if __name__ == "__main__":
    sys.exit(main())
