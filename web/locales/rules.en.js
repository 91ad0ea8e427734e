// @ts-check
// The rules page in English (rules.js): docs/RULES.md rule by rule, in its order and its words,
// each rule with a short title. Ids are the rule ids the server names (`P3`, `E7`, `FIDE` …);
// the entries of sections 9 and 10 have ids of their own. A text is markdown-like: paragraphs
// apart by a blank line, a line starting "- " is a list item, `code`, *emphasis*; rule ids in it
// become links. rules.test.mjs keeps it equal to RULES.md and in step with rules.ru.js.

/** @type {import("../rules.js").RuleSection[]} */
export default [
  {
    id: "sources",
    title: "Where the rules come from",
    intro: "The rule set of the MGIMO Swedish-chess tournament of 1 April 2017 (\"no drop that mates, with removal, no pawn drops on the seventh\"), which leaves everything it does not mention to the FIDE Laws of Chess (2014 edition).",
    rules: [
      {
        id: "FIDE",
        title: "FIDE Laws of Chess",
        source: "MGIMO, FIDE",
        text: "Whatever these rules do not mention follows the FIDE Laws of Chess (2014 edition), where they apply to Swedish chess; where these rules say otherwise, these rules hold. A move that is illegal in ordinary chess too (out of turn, with a piece that is not there or cannot move so, leaving the mover's own king in check, castling that chess forbids) is refused under the rule FIDE.",
      },
    ],
  },
  {
    id: "seats",
    title: "1. Teams, seats and boards",
    rules: [
      {
        id: "S1",
        title: "Two teams on two boards",
        source: "MGIMO",
        text: "Four players in two teams of two play on two boards, A and B. Team 1 has White on A and Black on B, team 2 the other two seats. So the partner of White-A is Black-B, and the partner of Black-A is White-B.",
      },
      {
        id: "S2",
        title: "The crosswise player",
        source: "MGIMO",
        text: "A player's *crosswise* player is the one with his colour on the other board (White-A and White-B are crosswise, as are Black-A and Black-B): his partner's opponent.",
      },
      {
        id: "S3",
        title: "Seating and colours",
        source: "MGIMO",
        text: "A tournament pairing plays two games. In game 1 the team listed first decides who of its players meets whom, and the other team decides on which board it takes White; in game 2 the teams swap these choices.",
      },
      {
        id: "S4",
        title: "Reserves are public",
        source: "MGIMO",
        text: "All reserves are public: the four players and every spectator see them.",
      },
    ],
  },
  {
    id: "captures",
    title: "2. Captured pieces",
    rules: [
      {
        id: "C1",
        title: "A capture goes to the partner",
        source: "MGIMO",
        text: "A capture hands the captured piece, in its own colour, to the capturer's partner. When White-A takes a black knight, Black-B may later drop that knight.",
      },
      {
        id: "C2",
        title: "Nothing is created or lost",
        source: "ours",
        text: "Nothing is created or lost: each colour always has exactly 32 units, counting both boards and all reserves (kings are never captured, so they count too). The tests check this after every move of random games and after every event of random matches, including an arbiter's corrected position.",
      },
    ],
  },
  {
    id: "drops",
    title: "3. Dropping pieces",
    rules: [
      {
        id: "P1",
        title: "Dropping a piece",
        source: "MGIMO",
        text: "A player to move may instead put one piece of his reserve on any empty square. Like any move, a drop may not leave his own king attacked.",
      },
      {
        id: "P2",
        title: "Ranks for a pawn drop",
        source: "MGIMO",
        text: "Pawn drops are limited by rank, counted from the dropping side: never on the first or last rank, and under MGIMO never on the seventh either. Option `pawn_drop_ranks`: MGIMO allows ranks 2–6, classic bughouse 2–7.",
      },
      {
        id: "P3",
        title: "No drop that mates",
        source: "MGIMO",
        text: "A drop may not deliver mate on board (M1). A drop that mates in the chess sense but could in principle be answered by interposing — even with a piece the defender does not hold — is allowed, because it is not mate on board. Option `drop_mate`: `forbidden` or `allowed`.",
      },
      {
        id: "P4",
        title: "A dropped pawn is a normal pawn",
        source: "MGIMO",
        text: "A pawn dropped on its own second rank is a normal pawn: it may still make its double step, and then be taken en passant.",
      },
      {
        id: "P5",
        title: "Castling with a dropped rook",
        source: "MGIMO",
        text: "A rook dropped on its starting corner may castle, provided the king has never moved and the rook has stayed put since the drop; every other condition of castling still applies. Option `castle_with_dropped_rook`. In Chess960 the \"starting corner\" is the square the side's rook stood on in the start position (see section 9).",
      },
      {
        id: "P5a",
        title: "A king that never moved",
        source: "ours",
        text: "\"This king has never moved\" is state that a position must keep through export and import, since a later drop can bring castling back. BFEN writes it as `U`/`u` in the castling field (see the README). So are, in Chess960, the files the rooks started on: BFEN adds them as `(bg)` at the end of the castling field where no castling right left names them (section 9).",
      },
    ],
  },
  {
    id: "removal",
    title: "4. Promotion by removal",
    rules: [
      {
        id: "R1",
        title: "Promotion by removal",
        source: "MGIMO",
        text: "A pawn reaching the last rank does not turn into a new piece. Instead the promoting player picks a knight, bishop, rook or queen of his crosswise player; that piece is lifted off the other board and placed on the promotion square as the promoter's own piece. Pawns and kings can never be picked.",
      },
      {
        id: "R2",
        title: "Where the pawn and a captured piece go",
        source: "MGIMO, ours",
        text: "The pawn that promoted passes to the crosswise player's reserve (it has his colour). A piece the pawn captured on the promotion square goes to the promoter's partner, as in C1. (The MGIMO text names these two transfers in its fallback clause; we read the full procedure as those transfers plus the removed piece.)",
      },
      {
        id: "R3",
        title: "Which pieces may be removed",
        source: "MGIMO, ours",
        text: "A piece may be picked only if the other board is still a legal position afterwards:\n- the side that is *not* to move there may not be in check — whichever side that is. Lifting one of the crosswise player's pieces can expose his own king (when his opponent is to move), or uncover one of his own lines onto the enemy king (when he is to move himself); either removal is refused, since the side to move could then take a king;\n- when the crosswise player is to move there, the removal may leave him in check, but not in mate on board (M1). MGIMO: a pinned piece may not be removed if that creates mate on board.",
      },
      {
        id: "R4",
        title: "Nothing to remove",
        source: "MGIMO",
        text: "If no piece of the crosswise player may be picked (he has only pawns, or R3 forbids every candidate), the pawn simply leaves the board: it goes to the crosswise player's reserve, a captured piece goes to the partner, and the promotion square stays empty. Such a promotion is itself illegal if the vanishing pawn would expose the mover's own king.",
      },
      {
        id: "R5",
        title: "The removed piece on its new board",
        source: "ours",
        text: "The removed piece is an ordinary piece of its kind on its new board: captured, it goes to a reserve as what it is. Lifting a rook off its starting corner also cancels that castling right on the board it left.",
      },
      {
        id: "R6",
        title: "Removal or upgrade",
        source: "",
        text: "Option `promotion`: `removal` (MGIMO, R1–R5) or `upgrade` (classic bughouse: the pawn becomes a queen, rook, bishop or knight, and that piece, if captured, goes to the reserve as a pawn again).",
      },
      {
        id: "R7",
        title: "How promotions are written",
        source: "ours",
        text: "How promotions are written. Long form: `e7e8qd1` is the pawn from e7 to e8 taking the queen from d1 of the other board (the letter must name the piece that stands there); `e7e8` is the promotion without removal, accepted only when R4 applies. SAN: `e8=Qd1`, `exd8=Nf3+`, and bare `e8` for R4. Under `upgrade` the usual `e7e8q` / `e8=Q`. Drops are `N@f3` in both forms.",
      },
    ],
  },
  {
    id: "mate",
    title: "5. Check and mate",
    rules: [
      {
        id: "M1",
        title: "Mate on board",
        source: "MGIMO",
        text: "*Mate on board*: the side to move is in check and would still have no legal move even if its reserve held one piece of every kind. So a check from a distance with at least one empty square between the checking piece and the king is never mate on board (something could be dropped in between); a check by contact, by a knight or pawn, or a double check can be.",
      },
      {
        id: "M2",
        title: "In check without a piece to block: wait",
        source: "MGIMO",
        text: "A player in check who could block in principle but lacks the piece to do so is not mated. He has no legal move and waits: his clock runs, and his partner may send him the piece he needs.",
      },
      {
        id: "M3",
        title: "No legal move: wait, no stalemate",
        source: "ours",
        text: "A player who is not in check and has no legal move also waits rather than being stalemated, because a piece may yet arrive to drop. Option `stalemate`: `wait` (both presets) or `draw`.",
      },
      {
        id: "M4",
        title: "A king is never captured",
        source: "MGIMO",
        text: "A king is never captured; no move that would take one is legal.",
      },
    ],
  },
  {
    id: "endings",
    title: "6. How a game ends",
    intro: "A game ends for both boards at once; the result (team 1 wins, team 2 wins, or a draw) belongs to the match game, never to a single board.",
    rules: [
      {
        id: "E1",
        title: "Mate on board wins",
        source: "MGIMO",
        text: "Mate on board on either board wins for the mating player's team — even if that player's own flag had already fallen unnoticed.",
      },
      {
        id: "E2",
        title: "Mates by both teams: a draw",
        source: "MGIMO",
        text: "Mates on board by players of both teams make a draw. Over the board both can be recorded together; online only inside one flag's grace window (K4, section 10), since outside one the first mate ends the match.",
      },
      {
        id: "E3",
        title: "Draw by agreement",
        source: "MGIMO",
        text: "A draw agreed by the two players of one board draws the match. Option `draw_agreement`: `one_board` (MGIMO) or `both_boards` (all four must agree).",
      },
      {
        id: "E4",
        title: "Repetition",
        source: "MGIMO, FIDE 9.2, 9.6",
        text: "The same position three times on one board may be claimed as a draw by either player of that board. \"The same position\" includes the side to move, castling and en passant rights and — since a drop is a move — both reserves of that board. Five times draws without a claim.",
      },
      {
        id: "E5",
        title: "Fifty moves",
        source: "ours, after FIDE 9.3, 9.6",
        text: "Fifty moves per side on one board without a capture, a pawn move or a drop may be claimed as a draw; seventy-five draw by themselves. The FIDE \"dead position\" rules do not apply: material can always come from the other board.",
      },
      {
        id: "E6",
        title: "A flag counts only without mate on board",
        source: "MGIMO",
        text: "A flag counts only if there is no mate on board on either board.",
      },
      {
        id: "E7",
        title: "Flags",
        source: "MGIMO",
        text: "Flags of players of both teams (the two players of one board, or two crosswise players) make a draw; flags of one team only lose for that team.",
      },
      {
        id: "E8",
        title: "A draw and a flag: a draw",
        source: "MGIMO",
        text: "A draw on one board together with a flag on the other is a draw.",
      },
      {
        id: "E9",
        title: "Mate beats a draw, a draw beats a flag",
        source: "MGIMO",
        text: "When several endings meet in one adjudication window (section 7), mate on board beats a draw, and a draw beats a flag.",
      },
      {
        id: "E10",
        title: "Resignation",
        source: "FIDE",
        text: "Resigning ends the match at once; the resigner's team loses. See section 10 for a resignation inside a flag's grace window.",
      },
    ],
  },
  {
    id: "clocks",
    title: "7. Clocks",
    rules: [
      {
        id: "K1",
        title: "One clock per player",
        source: "MGIMO, FIDE",
        text: "One clock per player. Both White clocks start together. Finishing a move stops the mover's clock and starts his opponent's on that board.",
      },
      {
        id: "K2",
        title: "Time controls",
        source: "FIDE 6.3",
        text: "A time control is a base time with either a Fischer increment or a delay (a fixed time per move during which the base time does not run). Written `3+2` (increment), `5+d3` (delay), or with units, `30s+0`.",
      },
      {
        id: "K3",
        title: "The server's clocks and network lag",
        source: "ours",
        text: "Online the server's clocks are the truth, and network lag is forgiven from a quota, per player, after the scheme lichess uses (section 10 gives the formula). A clock counts as having reached zero only after the lag credit of the moves made since is applied — under both flag policies.",
      },
      {
        id: "K4",
        title: "Flags: automatic or claimed",
        source: "MGIMO, ours",
        text: "Option `flag`:\n- `auto` (the online default): a flag falls when a clock, lag credit included, reaches zero. It is not settled at once but after a grace window; endings recorded inside the window (a mate that was already on its way, a draw, other flags) are held and weighed together with it by E1–E9 when the window closes, whatever their order (section 10 says exactly how).\n- `claim` (as over the board): a fallen flag counts only when a player of the other team claims it — the opponent on that board or his partner, who may \"fix a flag on the neighbouring clock\". Until then the player without time may go on moving. The claim is judged by E1–E9 against the position at that instant.",
      },
      {
        id: "K5",
        title: "Stopping the clocks for the arbiter",
        source: "MGIMO",
        text: "A player may stop both clocks to call the arbiter (and has to, to claim a repetition or raise a dispute). Only the arbiter restarts them.",
      },
    ],
  },
  {
    id: "arbiter",
    title: "8. Arbiter and records",
    rules: [
      {
        id: "A1",
        title: "Impossible moves over the board",
        source: "MGIMO",
        text: "Impossible moves over the board. *Type 1* is illegal in ordinary chess too (for instance leaving one's king in check, or taking a king); recorded at once, it loses the game for the mover's team. *Type 2* is illegal only in this variant (a drop that mates on board, a pawn drop on a forbidden rank, a promotion without the removal procedure …); recorded at once, it is taken back and the other team gets one extra minute on each of its two clocks. If the impossible move is only noticed several moves later and the position on the board is then a legal one, the move stands (\"played in\"; MGIMO's example is a king that stayed in check and left it only a few moves later, unnoticed); if an impossible move or a series of them has left a position the rules do not allow, the arbiter decides. Online the server refuses both types; A1 concerns records entered from games on real boards (`shvedka arbiter check-record`). Section 10 lists how each kind of move is classified.",
      },
      {
        id: "A1a",
        title: "The king and rook changing places («нижегородская рокировка»)",
        source: "MGIMO, ours",
        text: "The *нижегородская рокировка* (\"Nizhny Novgorod castling\"), which MGIMO lists among the type 2 moves, is the king and a rook of his own, both on his first rank, exchanging squares in one move (king e1 and rook h1 end on h1 and e1), whatever stands between them. A record writes it as the king going onto his rook's square: `Kxh1`, `Kh1`, or `e1h1` where castling with that rook is not legal (where it is, `e1h1` is that castling). It is type 2; every other castling that chess forbids stays type 1. Section 10 gives the reasons.",
      },
      {
        id: "A2",
        title: "The arbiter's powers",
        source: "MGIMO",
        text: "The arbiter may stop and restart the clocks, add or take away time on any clock, correct a position, order a replay and declare a result with a reason. Each act is logged.",
      },
      {
        id: "A3",
        title: "Talking and hints",
        source: "MGIMO",
        text: "Partners may talk freely (team chat). Nobody else — spectators, other players — may comment on the game; their messages never reach the players during play.",
      },
      {
        id: "A4",
        title: "Match records",
        source: "ours",
        text: "A match record keeps every event with the server time it happened and the four clock readings, so the match can be replayed to any instant. It exports as BPGN: the moves of both boards interleaved in time order, `1A. e4 {179.870} 1a. Nc6 … 1B. d4`, capital board letter for White, small for Black, each move followed by its clock comment. A position is written as BFEN: the FEN of each board with its reserves in brackets after the placement (upper case White's, lower case Black's), the two joined by ` | `. A record that does not start from the standard position carries `[SetUp \"1\"]` and its start as `[FEN \"…\"]` (a BFEN). Each move also carries its match time (from the start of the clocks), and every act a reader must replay (the arbiter's with who made it, a call, a flag, a replay, the end) stands at its place as a machine-readable comment with its time and the four clocks after it; a move taken back stays in the record as played.",
      },
      {
        id: "A5",
        title: "A wrong initial setup",
        source: "MGIMO, ours",
        text: "A wrong initial setup found after the start does not stop the game, unless three moves or fewer have been played, or all four players insist on a replay and the arbiter agrees: then the game is played again. During play a wrong setup is never corrected, and no castling is possible from it. Online a player asks for a replay by calling the arbiter with the reason (K5); the arbiter judges the moves played and the players' insistence, and the server does not count them for him. A replay (A2) annuls the game in play and starts the same match again at once: the same four players in the same seats, the same rules, time control and Chess960 position, both boards at the start and four full clocks, after the countdown. The annulled game stays in the log; the record is the game played again, the annulled moves named in a comment before its first move.",
      },
      {
        id: "A6",
        title: "A hint from outside",
        source: "MGIMO",
        text: "A hint about a flag or an impossible move from anyone outside the game is punished by a warning or by sending its author away (online A3 keeps such words from the players). The game it concerned is played again, as in A5, at the wish of any of its four players, unless the arbiter decides otherwise (a hinted move the player would have seen anyway, say).",
      },
    ],
  },
  {
    id: "presets",
    title: "9. Presets",
    rules: [
      {
        id: "presets-table",
        title: "The two presets",
        source: "",
        text: "Mate on board (M1) is the mate of both presets. The presets live in `config/rules/*.toml`.",
        table: [
          ["option", "`mgimo-2017` (default)", "`classic`"],
          ["`promotion` (R6)", "`removal`", "`upgrade`"],
          ["`pawn_drop_ranks` (P2)", "2–6", "2–7"],
          ["`drop_mate` (P3)", "`forbidden`", "`allowed`"],
          ["`castle_with_dropped_rook` (P5)", "yes", "no"],
          ["`stalemate` (M3)", "`wait`", "`wait`"],
          ["`draw_agreement` (E3)", "`one_board`", "`both_boards`"],
          ["`flag` (K4)", "`auto`; `claim` for over-the-board play", "`auto`"],
          ["`chess960`", "no", "no"],
        ],
      },
      {
        id: "Chess960",
        title: "Chess960",
        source: "ours, FIDE appendix F",
        text: "Either preset may start from a Chess960 position (rule option `chess960`). Both boards then start from the *same* position, drawn at random for the match and fixed as its start when the countdown starts; it is logged with the match, so a replay and a restarted server start from it again, and a record carries it in its `SetUp`/`FEN` tags. Castling follows FIDE appendix F: the king and the rook end on the same squares as in standard chess (g1/f1 or c1/d1), every square they pass or land on must be empty apart from the two of them, and the king may not be in check, pass through an attacked square or land on one. Under P5 a rook dropped on the square its side's rook started on may castle toward that side if the king never moved; a rook dropped on a1 or h1 (a8, h8) gains nothing unless a rook started there. The start files are part of the position for as long as the game lasts (P5a), also once every castling right is gone: BFEN writes the rights with Shredder-FEN file letters (`GBgb`) and, where the rights left do not name both files, the files in parentheses after them, queen side first: `Uu(bg)` for the array `NRBKQBRN` with neither king moved and no right left. A standard position never carries them. A position the arbiter sets (A2) whose BFEN names no start files for a side takes that side's file from the match's start position.",
      },
    ],
  },
  {
    id: "decisions",
    title: "10. Decisions on corner cases",
    intro: "The decisions the code took on corner cases.",
    rules: [
      {
        id: "K4-grace",
        title: "K4, what a flag's grace window holds",
        source: "ours",
        text: "When `flag = auto`: a flag that falls opens a window that closes at the fall plus the flagged player's remaining quota, at most 2 s (K3); another flag falling while it is open is added to it and keeps it open until its own deadline. While the window is open the match goes on as before — moves, offers and claims are accepted and told to everyone at once — but no ending settles it: every flag, mate on board (E1) and draw recorded in it (agreed, E3; claimed, E4/E5; or by itself: fivefold repetition, 75 moves, a stalemate under `stalemate = draw`, M3) is held. When the window closes, all it holds is weighed together by E1–E9, whatever the order it came in: a mate beats a draw and a draw beats a flag (E9), so a draw recorded first does not shut out a mate that lag credit brings inside the flagged player's time a moment later; mates by both teams draw (E2); flags alone decide by E6–E7. A flag that a credited move (or time the arbiter adds) withdraws is not weighed, but the window stays open to its deadline, so a mate recorded before the withdrawal and one recorded after it still meet. The window is settled before its deadline only when nothing recorded later can change the outcome: once it holds mates by both teams (a draw nothing outranks), or at a resignation (next decision). So the result reaches the players at the latest when the window closes, and nothing else is delayed at all. A pause (K5) moves the deadline on by its length. A window whose flags were all withdrawn and that holds nothing closes without a result. What the window holds stays recorded if the arbiter takes a move back or corrects the position inside it; he can declare the result instead (A2).",
      },
      {
        id: "E10-grace",
        title: "E10 inside a flag's grace window",
        source: "ours",
        text: "When `flag = auto`: ending events already recorded in an open window happened before the resignation, so they are weighed first by E1–E9, and the resignation closes the window: a flag that fell before it decides the game by E6–E8 (if it was the flag of the resigner's opponent, the resigner's team wins on time). Only when nothing in the window decides does the resignation itself count. Events after the resignation are ignored.",
      },
      {
        id: "M1-R4",
        title: "M1 and a promotion that R4 would empty",
        source: "ours",
        text: "When the only way out of a check is a pawn promoting on a blocking square, and no piece could be removed today, the promotion would leave the square empty and block nothing. We still count it as a defence: the crosswise player may yet get a removable piece, so the position is defensible in principle and the player waits (M2) instead of being mated.",
      },
      {
        id: "removal-rights",
        title: "Rights after a removal",
        source: "ours",
        text: "On R1, R5, A2, E4 and E5: a removal, or an arbiter's take-back that returns the removed piece, changes a board between two of its own moves. Nothing chess derives from the previous move or from the board is kept from before; each is taken from the position as it then stands:\n- *En passant.* The board keeps the fact that its last move was a double step; the right is there while an en passant capture is legal now. So a capture a pin forbade becomes legal when the removal lifts the pinning piece, and one the removal makes illegal (it lifts the piece that shielded the capturer's king) is gone — and comes back if a later removal, or a take-back, makes it legal again before that board's next move. Repetition (E4) and FEN/BFEN see only the right; a double step whose capture is illegal at that moment is not written, so a BFEN taken then does not carry it (FEN has no field for it).\n- *Castling.* Rights are facts, lost only when the king or the rook moves or the rook leaves its corner (R5); a take-back that returns a removed rook to its corner returns its right, unless its king has moved since.\n- *Check, mate on board, waiting, stalemate* are recomputed after every removal (R3 may leave the crosswise player in check); pins and the conditions of castling are never stored.\n- *Repetition* (E4) counts by a hash that follows the rights as they stand; the position a removal leaves counts as an occurrence on its board.\n- *Fifty moves* (E5): a removal is not a capture, a pawn move or a drop on the board it changes, so that board's count goes on; it counts the moves made there.",
      },
      {
        id: "K3-lag",
        title: "K3, the lag formula",
        source: "ours",
        text: "A move carries the client's own measure of the thinking time. The lag is `elapsed (server) − client time`; the server charges `elapsed − min(lag, quota)`, never less than zero, so no clock runs backwards. Afterwards the quota loses what was credited and gains `gain = min(1 s, 0.15 s + (base + 40 × increment) / 250)`, up to 7 gains; it starts at 3 gains. That gives 0.39 s at 1+0, 0.87 s at 3+0 and 1 s from 3+2 up. A move without a client time gets no credit. Under `auto` a fallen flag is settled after the flagged player's remaining quota, at most 2 s; a move inside that grace that the credit brings inside his time withdraws the flag. Under `claim` such a move lifts the flag as well, so a later claim of it fails. The constants are in `config/clock.toml` (lichess's values: tuned on a great many online games).",
      },
      {
        id: "A1-types",
        title: "A1, how a move is classified",
        source: "ours",
        text: "A recorded move is first tried against ordinary chess on the board as it stands, with the variant's limits lifted (any piece may be dropped, pawns on any rank, mates allowed, a pawn on the last rank counts as promoting, a dropped rook keeps the castling right P5 would give it). Failing there makes it type 1; passing there but refused by the variant makes it type 2, with the rule the variant names.\n\nUnusual castling is thus judged by the chess question first: if chess (with P5's right given to a dropped rook) allows it, it can only be type 2 (P5 off in the preset); if chess forbids it, it is type 1 whatever the reason, and the report names the first condition that fails. The one exception is the king and rook changing places (A1a), which is no castling chess knows: type 2. A Chess960 record castles by the appendix F rules.\n\nFor the *noticed later* part of A1 the check plays each impossible move as it was made on the board (a drop from wherever the piece came, a piece where the record puts it, a promotion as written, with the transfers of C1 and R2) and then judges the position at every later point of the record, since A1 asks about the position on the board when the move is noticed. A board is legal when each side has one king, no pawn stands on a first or last rank and the side not to move is not in check. If the board is legal right after the move, or becomes legal again after a later move, the move stands, the report names that later move, and the check goes on from there to find the next impossible move. A king left in check, for instance, is legal again as soon as the other side has moved without taking it (taking it is impossible in turn, M4); if the king then still does not leave check, that is the next impossible move. Until the board is legal again, later moves are judged on it as it stands. The check takes the end of the record as the moment the move is noticed: a board still illegal there goes to the arbiter. So does a move that cannot be carried out at all (a piece that is not there, a move out of turn, a castling no rule could make, a unit from outside the game against C2, a king taken); the record is not checked past it, and impossible moves whose board was still illegal there go to the arbiter too.",
        table: [
          ["the move", "type", "rule"],
          ["by the side not to move", "1", "FIDE"],
          ["a piece that is not there, or cannot move so", "1", "FIDE"],
          ["leaves the mover's king in check", "1", "FIDE"],
          ["captures a king", "1", "M4"],
          ["castling that chess forbids (king or rook moved, path blocked or attacked, in check)", "1", "FIDE"],
          ["a pawn left unpromoted on the last rank (`upgrade`)", "1", "FIDE"],
          ["a promotion without removal whose vanishing pawn leaves the mover's king in check", "1", "FIDE"],
          ["a drop on an occupied square, or one that leaves the mover's king in check", "1", "P1"],
          ["a drop of a piece the mover does not hold (no variant allows it)", "1", "P1"],
          ["a pawn drop on a forbidden rank", "2", "P2"],
          ["a drop giving mate on board where `drop_mate = forbidden`", "2", "P3"],
          ["castling with a dropped rook where P5 is off", "2", "P5"],
          ["the king and a rook of his own on his first rank exchange squares", "2", "A1a"],
          ["`e8=Q` where a piece could be removed", "2", "R1"],
          ["removing a pawn, a king, or nothing", "2", "R1"],
          ["a removal that leaves the other board illegal", "2", "R3"],
          ["`e8` where a piece could be removed", "2", "R4"],
          ["`e8=Q` where nothing can be removed (the pawn must vanish)", "2", "R4"],
          ["a removal naming the wrong kind of piece", "2", "R7"],
          ["a removal (`e8=Qd1`) under `upgrade`", "2", "R6"],
        ],
        tableAt: 1,
      },
      {
        id: "A1a-term",
        title: "A1a, what the «нижегородская рокировка» is",
        source: "ours",
        text: "Neither the MGIMO text nor the FIDE Laws define the name, and we found no written definition of it. MGIMO lists it among the type 2 moves, \"moves in no way allowed in chess but allowed in some kinds of Swedish chess\", next to a drop that mates, a pawn dropped on the first, seventh or eighth rank, and a promoted pawn that moves like a queen. Each of those is a kind of move chess never has in any position, not a chess move made when one of its conditions fails. A castling of that kind is the king and a rook simply changing places, the \"free castling\" of the old Italian rules, where they swapped even over pieces between them; the adjective fits a home-made version of a move (as in Griboyedov's \"a mix of French and Nizhny Novgorod\"). We read the term so. A castling that chess has but forbids here (the king or the rook has moved, a square between is occupied, the king is in check or passes an attacked square) is a chess move made when it may not be, like leaving one's king in check, so it stays type 1; castling with a dropped rook is P5's question (type 2 where P5 is off).",
      },
    ],
  },
];
