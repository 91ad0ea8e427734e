# The terminal client's words in English (Project Fluent). ru.ftl has the same ids; a test checks.
# Rule ids (E1, P3 …), squares, SAN and piece letters are identifiers: the same in every language.

## The game's words

seat-white-a = white-A
    .of = white-A
seat-black-a = black-A
    .of = black-A
seat-white-b = white-B
    .of = white-B
seat-black-b = black-B
    .of = black-B
team = team { $n }
team-with-seats = team { $n }: { $first } + { $second }
kind-guest = (guest)
kind-bot = (bot)
you-mark = (you)
seat-empty = (empty)
piece-pawn = pawn
    .of = pawn
piece-knight = knight
    .of = knight
piece-bishop = bishop
    .of = bishop
piece-rook = rook
    .of = rook
piece-queen = queen
    .of = queen
piece-king = king
    .of = king
phase-forming = forming
phase-countdown = countdown
phase-running = running
phase-paused = paused
phase-ended = ended
phase-annulled = annulled
moves-count = { $n ->
    [one] { $n } move
   *[other] { $n } moves
}
games-count = { $n ->
    [one] { $n } game
   *[other] { $n } games
}
clock-tenths = { $seconds }.{ $tenths }
datetime = { $year }-{ $month }-{ $day } { $hour }:{ $minute } UTC
category-bullet = bullet
category-blitz = blitz
category-rapid = rapid

## The rules (docs/RULES.md), by id: what a refusal or a result names

rule-with-id = { $title } ({ $rule })
rule-FIDE = not a legal chess move here
rule-S1 = seats: taken, or fixed once all four are ready
rule-S2 = the crosswise player
rule-S3 = the seating and colours of a tournament game
rule-S4 = reserves are public
rule-C1 = a captured piece goes to the partner
rule-C2 = no piece is created or lost
rule-P1 = a drop: a piece of your reserve on an empty square, your king not left attacked
rule-P2 = no pawn drop on this rank
rule-P3 = a drop may not give mate on board
rule-P4 = a dropped pawn is an ordinary pawn
rule-P5 = castling with a dropped rook
rule-R1 = promotion is by removal: name a knight, bishop, rook or queen of the crosswise player
rule-R2 = where the promoted pawn and a captured piece go
rule-R3 = the removal would leave the other board illegal
rule-R4 = promotion without removal only when nothing can be removed
rule-R5 = a removed piece is an ordinary piece
rule-R6 = promotion by removal or by upgrade
rule-R7 = the removal names a piece that is not there
rule-M1 = mate on board
rule-M2 = in check without a piece to block: wait
rule-M3 = no legal move
rule-M4 = a king is never captured
rule-E1 = mate on board
rule-E2 = mate on board by both teams
rule-E3 = a draw agreed
rule-E4 = threefold repetition
rule-E5 = the fifty-move rule
rule-E6 = a flag counts only without a mate on board
rule-E7 = flag: time ran out
rule-E8 = a draw on one board and a flag on the other
rule-E9 = mate on board beats a draw, a draw beats a flag
rule-E10 = resignation
rule-K1 = not your turn
rule-K2 = the time control
rule-K3 = lag credit
rule-K4 = the flag: time has run out
rule-K5 = the clocks are stopped for the arbiter
rule-K6 = no match waits for ever after a restart
rule-A1 = an impossible move
rule-A1a = the king and a rook changing places («нижегородская рокировка»)
rule-A2 = the arbiter's decision
rule-A3 = only partners talk during play
rule-A4 = the match record
rule-A5 = a wrong initial setup
rule-A6 = a hint from outside

## Results

result-win = { $team } wins: { $why }
result-draw = draw: { $why }
result-with-note = { $result }: «{ $note }»
result-also = { $result }; decided also by { $rules }
result-leave = /lobby to leave
match-over = match over: { $result }
match-result-corrected = the result is corrected: { $result }
last-match = last match: { $result }
demo-result = result: { $result }
demo-annulled = result: the match was annulled
demo-record = record: { $path }

## Refusals, from the server's codes

error-bad-request = the server did not understand the request
error-rejected = refused: { $why }
error-handshake = the session was not opened properly
error-no-such-match = no such match
error-not-in-match = this needs a match you watch or sit in
error-rate-limited = too many requests: slow down
error-full = the server is full (matches or connections): try again later
error-forbidden = you may not do that
error-too-large = the answer is too large for one message
error-unavailable = the server cannot do this now (its storage refuses writes): try again later
error-bad-credentials = wrong name or password
error-name-taken = this name is registered: choose another, or log in
error-login-required = log in to an account for this
error-account-disabled = the account is disabled
error-no-such-account = no such account
error-not-ratable = a seat of a rated match is for an account: not for a guest, nor a bot
error-unencrypted = a password or an official's secret may not cross the network unencrypted: connect to the server's https:// address (or ask its operator for HTTPS)
error-storage-full = the server's disk is full: this was not stored (a move is not played); the match is paused until the server's operator frees space, then it goes on by itself
error-no-such-seek = no such seek: it ended, or found its match
limit-matches = the server holds as many matches as it may
limit-open-matches = you have created as many open matches as you may
limit-chat-length = the message is too long: { $max } characters at most
limit-bots = the server runs as many bots as it may
limit-login-attempts = too many failed log-ins from your address: wait, then try again
limit-seeks = you are in as many seeks as you may be
limit-seek-pool = the server holds as many seeks as it may
limit-registrations = too many accounts were registered from your address this hour
limit-tournament-teams = the server carries tournaments of { $max } teams at most
limit-analyses = the server's engine is busy: ask again in a moment
limit-connections = the server holds as many connections as it may: try again in a while
limit-connections-per-address = your address holds as many connections as the server allows it: close one, or try again in a while
tour-game = round { $round }, table { $table }, game { $game }
choice-seating = seating
choice-colours = colours
tour-no-such-tournament = no such tournament
tour-invalid-name = a name must be 1 to { $max } characters, without control characters
tour-same-player-twice = a team's two players must be two people
tour-duplicate-team-name = another team has this name
tour-too-many-teams = the tournament has { $max } teams at most
tour-bad-seeding = the seeding must name every registered team exactly once
tour-no-swiss-rounds = a Swiss needs at least one round
tour-already-started = the tournament has started
tour-not-started = the tournament has not started
tour-too-few-teams = too few active teams: { $active } (at least 2)
tour-unknown-team = no team number { $team }
tour-already-withdrawn = team { $team } has withdrawn already
tour-round-incomplete = round { $round } still has games without a result
tour-no-rounds-left = all { $rounds } rounds are paired
tour-unknown-round = no round { $round }
tour-unknown-table = round { $round } has no table { $table }
tour-unknown-game = a pairing has games 1 and 2 only, not { $game }
tour-bye = table { $table } of round { $round } is a bye: no games
tour-not-paired = team { $team } is not paired in round { $round }
tour-not-a-member = you play for no team of this tournament
tour-not-your-choice = the { $choice } of { $game } is the other team's choice (S3)
tour-deadline-passed = the choices of { $game } were due at { $time }: the defaults apply (S3)
tour-game-started = { $game } has started or has a result
tour-already-chosen = the { $choice } of { $game } is chosen already: a choice is final (S3)
tour-choices-pending = the seats of { $game } are not known yet: a choice is missing
tour-already-decided = { $game } has a result: a director corrects it
tour-not-decided = { $game } has no result to correct
tour-game-in-play = { $game } is in play (match { $id }): to end the match with this result, confirm it (--end-game)
tour-played-online = { $game } was played online: its result is its match's, correct it instead of clearing it
tour-game-two-started = { $game }: game 2 of the pairing has started, so game 1's result stays
tour-registration-closed = registration is closed: only a director registers a team now
tour-already-in-team = you are in a team already, or an invitation of yours is pending
tour-no-invitation = no such invitation is pending
tour-check-in-not-required = this tournament does not ask teams to check in
tour-not-a-swiss = only a Swiss has a number of rounds to set
tour-not-in-field = team { $team } is not in this round's field (withdrawn, or not checked in)
tour-placed-twice = team { $team } is placed twice, or against itself
session-refused = the server refused the session: { $detail }
session-open-failed = cannot open a session with { $server }: { $detail }
session-open-hint = without --fingerprint the server's certificate must be valid for its name in the web PKI; a server with its own certificate prints its fingerprint at start (the line `certificate sha256 …`): give it as --fingerprint
password-prompt = password of { $name }:{" "}
connection-failed = connection: { $detail }
protocol-failed = the server's answer is not the protocol: { $detail }
move-impossible = impossible move { $san } on board { $board }: { $why }
move-refused = move { $san } on board { $board } refused: { $why }
bots-forbidden = only the match's creator or one of its seated players may fill it with bots
bots-not-ratable = the server's bots have no accounts: they may not sit in a rated match

## The server's own pauses, a session's and a seek's end, a match closed

clocks-stopped = clocks stopped: { $reason }
clocks-resumed = the clocks run again
pause-restart = the server restarted; they run again when all four players are back
bot-missing-max-bots = the server's bot in the seat of { $seat } could not sit again after the restart: the server runs as many bots as it may (max_bots); its clock runs once the wait is over (K6)
bot-missing-failed = the server's bot in the seat of { $seat } could not sit again after the restart; its clock runs once the wait is over (K6)
restart-wait = the server restarted: the clocks wait for all four players, at most { $time } more; then they run with whoever is here (K6)
pause-shutdown = the server is shutting down
pause-storage = the server cannot store moves now; they run again when it can
session-logged-out = the session was logged out; log in again
session-password-changed = the account's password was changed; log in again
session-account-disabled = the account was disabled
seek-end-cancelled = your seek was cancelled
seek-end-disconnected = your seek ended: a player's connection was lost
seek-end-declined = your partner declined
seek-end-expired = your partner did not answer in time
seek-end-failed = the match found could not be created; seek again
match-closed-expired = match { $id } expired: no seated player was there
match-closed-failed = match { $id } stopped on the server; it is restored when the server restarts
match-closed-taken-over = match { $id }: your seat was taken over by another session of your account (another device); this one can no longer move there
match-elsewhere-lease-lost = match { $id } moves to another node (this one lost touch with the database): resuming there, nothing is lost

## Match events

seat-taken = { $name } takes the seat { $seat }
seat-taken-bot = a bot takes the seat { $seat }: { $name }
seat-left = the seat { $seat } is free again
arbiter-called = { $seat } stopped the clocks and called the arbiter (K5)
arbiter-called-replay = { $seat } stopped the clocks and asks the arbiter for a replay: { $reason }
arbiter-why = /arbiter calls the arbiter; /arbiter setup, /arbiter hint or /arbiter other asks him for a replay
arbiter-words = the arbiter: { $text }
arbiter-paused = the arbiter stopped the clocks
arbiter-resumed = the arbiter restarted the clocks
arbiter-clock = the arbiter changed a clock: { $seat } { $delta }
arbiter-take-back = the arbiter took back the last move on board { $board }
arbiter-position = the arbiter corrected the position
arbiter-declared-win = the arbiter declared the result: { $team } wins ({ $reason })
arbiter-declared-draw = the arbiter declared the result: a draw ({ $reason })
arbiter-annulled = the arbiter annulled the match: { $reason }
arbiter-replayed = the arbiter ordered a replay: { $reason }; the game starts again
arbiter-replayed-note = the arbiter ordered a replay: { $reason } ({ $note }); the game starts again
arbiter-done = done: { $act } (match { $id })
arbiter-bad-seat = seat «{ $text }»: expected white-A, black-A, white-B or black-B
replay-wrong-setup = wrong initial setup (A5)
replay-outside-hint = a hint from outside (A6)
replay-other = another reason (A2)
draw-declined = { $seat } declined the draw
match-found = match { $id } found{ $rated ->
    [yes] {" "}(rated)
   *[no] {""}
}: you play { $seat }

## Quick messages to the partner (they travel in English; each reader sees his language)

quick-need-knight = need a knight
quick-need-bishop = need a bishop
quick-need-rook = need a rook
quick-need-queen = need a queen
quick-need-pawn = need a pawn
quick-sit = sit
quick-go = go
quick-no-trade = don't trade

## Ratings

rating-change = { $category } { $name }: { $seat } { $before } → { $after } ({ $diff })
leaderboard-title = { $category } leaderboard ({ $n } ranked)
profile-summary = { $name }: { $categories ->
    [one] { $categories } rated category
   *[other] { $categories } rated categories
}, { $recent ->
    [one] { $recent } recent match
   *[other] { $recent } recent matches
}
profile-category = {"  "}{ $category } { $rating } ±{ $deviation } in { $games ->
    [one] { $games } game
   *[other] { $games } games
}; last: { $last }
profile-recent = {"  "}match { $id } ({ $rules } { $clock }): team 1 ({ $team1 }) against team 2 ({ $team2 }): { $result }
profile-partner = {"    "}with { $name }: pair { $rating } in { $games ->
    [one] { $games } game
   *[other] { $games } games
}

## Seeking a game

seek-started = seeking a { $clock } game; x (or /cancel) withdraws it
seek-your-partner = your partner
seek-a-player = a player
seek-waiting-partner = waiting for { $partner } to accept a { $clock } { $rated ->
    [yes] rated
   *[no] casual
} game ({ $left } left) · x cancels
seek-seeking = seeking a { $clock } { $rated ->
    [yes] rated
   *[no] casual
} game · waiting { $waited } · rating ±{ $reach } · x cancels
seek-seeking-together = seeking a { $clock } { $rated ->
    [yes] rated
   *[no] casual
} game ({ $players }) · waiting { $waited } · rating ±{ $reach } · x cancels
seek-invited = { $from } invites you to play a { $clock } { $rated ->
    [yes] rated
   *[no] casual
} game as partners ({ $left } left) · /accept or /refuse
seek-invitation = { $from } invites you to play a { $clock } game as partners: /accept or /refuse
seek-partner-accepted = your partner accepted: seeking a { $clock } game together
seek-already = you seek a { $clock } game already: x cancels it
seek-none = you seek no game
seek-cancelled = seek cancelled
seek-ended-connection = your seek ended with the connection: seek again

## Rematch

rematch-made = rematch: match { $id }, colours swapped on each board
rematch-declined = no rematch of match { $id }: declined by { $names } ({ $n } of 4)
rematch-wait-others = waiting for the others
rematch-how = /rematch to accept, /norematch to decline
rematch-nobody = nobody accepted yet
rematch-accepted = { $n } of 4 accepted ({ $names })
rematch-status = rematch of match { $id }: { $who }; { $next }
rematch-offer = /rematch to play it again (colours swapped on each board), /norematch to decline
rematch-not-yet = a rematch is agreed after the match is over

## The screen

link-connected-to = connected to { $server }
link-connected = connected
link-reconnecting = connection lost — reconnecting (attempt { $attempt })
link-ended = session ended
lobby = lobby
lobby-match = match
lobby-rules = rules
lobby-clock = clock
lobby-phase = phase
lobby-empty = no open matches: press c to create one, or F1-F4 to seek a game
lobby-your-match = your match { $id } is in play: you are { $seat } — select it and press Enter to go back to it
lobby-keys = ↑↓ select a match · Enter or w watch it · 1-4 sit at white-A, black-A, white-B, black-B · c create a match · F1-F4 seek a game · r refresh · /help · q quit
match-number = match { $id }
you-play = you play { $seat }
you-play-team = you play { $seat } ({ $team })
watching = watching
board-title = Board { $board }
board-title-last = Board { $board } · last: { $seat } { $san }
board-title-last-short = Board { $board } · { $san }
flag-fell = flag
ready = ready
not-ready = not ready
reserve = reserve: { $pieces }
reserve-empty = reserve: —
annulled = annulled by the arbiter
draw-offered = { $seat } offers a draw: /draw accepts, /decline declines
ready-prompt = press Enter (or /ready) when you are ready to start
paused-for-arbiter = the clocks are stopped for the arbiter
promotion-prompt = promotion: press the number of the piece to remove (marked on the other board)
messages = messages
messages-back = messages ({ $n } lines back · PgDn)
chat-team = team
chat-all = all
hint-lobby = { $pools } seek · ↑↓ select · Enter watch · 1-4 sit · c create · r refresh · q quit
hint-lobby-short = F1-F4 seek · ↑↓ · Enter watch · 1-4 sit · c create · q quit
hint-match = move + Enter · F1-F8 quick messages · /help · Ctrl-C quits
hint-watch = watching · /lobby back to the lobby · /help · Ctrl-C quits
hint-help-only = /help · Ctrl-C quits
hint-help = Esc closes the help · PgUp PgDn scroll
help-title = help

## What the player is told

welcome = welcome: F1-F4 seek a game in a quick pool; or pick a match with ↑↓ and press 1-4 to sit, or c to create; /help
connection-lost = connection lost: { $detail }
reconnected = reconnected: the session is resumed
reconnected-to = reconnected to { $server }: the session is resumed
reconnect-failed = reconnect failed: { $detail }
not-connected = not connected: wait for the reconnection
match-created = created match { $id }: press 1-4 to take a seat
match-cannot-show = cannot show this match: { $detail }
bots-coming = bots at level { $level } take the empty seats of match { $id }
choice-taken = choice taken
tournament-over = tournament { $id } is over
tournament-no-game = no game of yours is on now; try again when the round is paired
promotion-cancelled = promotion cancelled
promotion-which = which piece is removed? press its number (Esc cancels)
promotion-choice = {"  "}{ $n }) { $piece } { $square }
unknown-input = unknown input “{ $text }”: type /help
unknown-command = unknown command /{ $verb }: type /help
watching-cannot-move = you are watching; sit down to play
bots-which-match = which match? select one in the lobby, or sit in one
bots-which-level = bots at which level? /bots 1 to /bots 5
resign-confirm = resign the match for your team? type /resign again to confirm
claim-what = claim what? /claim rep, /claim 50 or /claim flag black-A
need-what = need what? /need n, b, r, q or p
choose-what = choose what? /choose TOURNAMENT ROUND GAME straight|crossed|white-a|white-b
mygame-which = which tournament? /mygame TOURNAMENT
partner-not-yet = /partner plays again with your partner once your match is over
invitation-none = nobody invited you to seek a game
lang-set = language: English
lang-what = which language? /lang en or /lang ru
lang-not-saved = the language could not be remembered in { $path }: { $detail }

## /help

help-moves = moves: e4, Nf3, N@f3 (a drop), e8=Qd1 (promotion by removal), or e8 and then pick the removed piece; Enter sends
help-pieces = pieces are letters as moves write them: K king, Q queen, R rook, B bishop, N knight, P pawn (White upper case, Black lower)
help-match = /ready /unready /leave · /draw (offer or accept) /decline · /claim rep|50|flag SEAT (white-A … black-B)
help-resign = /resign (twice: it asks) · /arbiter [setup|hint|other] · /t TEXT team chat · /say TEXT match chat · /need n|b|r|q|p
help-rematch = /rematch or /norematch after the match: when all four accept, the same match again, colours swapped
help-keys = F1-F5 need N B R Q P · F6 sit · F7 go · F8 don't trade · /lobby · /quit (Ctrl-C)
help-lobby = lobby: ↑↓ select · Enter or w watch · 1-4 sit at white-A black-A white-B black-B · c create
help-create = /create [mgimo-2017|classic] [CLOCK] [960] [rated] creates a match; 960: a Chess960 start; rated: accounts only
help-bots = /bots [LEVEL] fills the empty seats with the server's bots, level 1-5 (2): the match's creator or a player seated in it may, before the start, in a casual match only; in the lobby it fills the selected match
help-ratings = /top [bullet|blitz|rapid] shows the leaderboard · /profile [NAME] a player's ratings, partners and matches
help-seek-quick = finding a game: F1-F4 in the lobby seek in the quick pools (casual) · x or /cancel withdraws
help-seek = /seek [CLOCK] [rated] [with NAME] seeks (inviting a partner) · /accept /refuse an invitation · /partner after a match
help-tournaments = tournaments: /mygame T sits you at your game · /choose T ROUND GAME straight|crossed|white-a|white-b
help-lang = /lang ru or /lang en: the language, remembered for next time (the --lang flag overrides it)
help-scroll = PgUp PgDn scroll the messages

## A match's refusals (protocol version 9), without their rule ids (added after them)

match-not-seated = you hold no seat in this match
match-seat-taken = the seat { $seat } is taken
match-already-seated = you sit at { $seat } already
match-seats-locked = the seats are fixed: all four are ready
match-not-started = the match has not started
match-paused = the clocks are stopped for the arbiter
match-not-paused = the match is not paused
match-over-already = the match is over
match-not-your-board = you play { $seat }, not on board { $board }
match-not-your-turn = not your turn
match-flag-fell = the flag of { $seat_of } has fallen: time ran out
match-already-offered = your draw offer stands already
match-no-draw-offer = there is no draw offer to decline
match-illegal = impossible move on board { $board }: { $why }
match-unreadable = a move on board { $board } not read: { $why }
match-no-arbiter = this server has no arbiter to call; the clocks keep running
illegal-in-check = not a legal chess move here: your king is in check
illegal-not-in-reserve = the reserve of { $seat_of } holds no { $piece_of }
illegal-occupied = the square { $square } is not empty
illegal-drop-leaves-check = the drop would leave your king in check
illegal-pawn-rank = a pawn is dropped on ranks { $first } to { $last } only
illegal-not-removable = { $square } on board { $board } holds no knight, bishop, rook or queen of the crosswise player ({ $crosswise })
illegal-removal-leaves-illegal = removing the { $piece } on { $square } would leave board { $board } illegal
illegal-must-remove = the crosswise player ({ $crosswise }) has a piece to remove: name it (e8=Qd1)
illegal-vanishing-leaves-check = the pawn would leave the board and uncover your king
illegal-wrong-piece = { $square } on board { $board } holds another piece: a { $piece }
text-not-a-move = not a move: write e2e4, Nf3 or N@f3
text-removal-square-missing = a promotion by removal names the removed piece's square: e8=Qd1
text-square-after-move = only a promotion by removal ends with a square
text-ambiguous = several moves fit: name the square it starts from
claim-repetition = the position on board { $board } has occurred { $seen ->
    [one] once
   *[other] { $seen } times
}; { $needed } are needed
claim-fifty-moves = { $halfmoves ->
    [one] { $halfmoves } halfmove
   *[other] { $halfmoves } halfmoves
} on board { $board } without a capture, a pawn move or a drop; { $needed } are needed
claim-flags-fall-by-themselves = flags fall by themselves in this match
claim-own-team-flag = only a player of the other team may claim the flag of { $seat_of }
claim-flag-not-fallen = the flag of { $seat_of } has not fallen
take-back-no-move = no move on board { $board } to take back
take-back-changed-since = the pieces of board { $board } changed since: set the corrected position instead
take-back-piece-dropped = the { $piece } the move passed to board { $board } has been dropped since
take-back-square-occupied = { $square } on board { $board } is occupied: the removed { $piece } cannot return
take-back-would-be-illegal = the position on board { $board } would not be legal
position-unreadable = not a legal position of this match's rules
position-units = { $colour } would own { $would } units instead of { $was }: no piece is created or lost
colour-white = White
colour-black = Black
move-unreadable-why = cannot read the move { $san } on board { $board }: { $why }

## What a person typed wrong, a refused session, what the state refuses (protocol version 9)

invalid-time-control = this server does not read that time control (3+2, blitz …)
invalid-rule-preset = no rule preset has this name (mgimo-2017, classic)
invalid-bot-level = a bot's level is { $min } to { $max }
invalid-same-partner = a partner must be another player
invalid-account-name = an account name has { $min } to { $max } letters, digits, _ or -, and starts with a letter
invalid-password = a password has { $min } to { $max } characters
invalid-guest-name = a name has at most { $max } characters, none of them invisible, and no ★ (the mark of the server's bots)
invalid-chat-text = a message needs text, without invisible characters
invalid-note-length = at most { $max } characters
invalid-rating-category = no rating category has this name (bullet, blitz, rapid)
invalid-bot-too-late = a bot says it is one before it follows a match
invalid-position = the position does not read (BFEN: both boards and the reserves)
invalid-record = the text is not a BPGN record, or has no such game
invalid-record-at = the text is not BPGN from line { $line }, column { $column }
invalid-no-such-game = the text has { $games ->
    [one] one game
   *[other] { $games } games
}: no such game
session-not-hello = the session did not open
session-unknown-token = the session is unknown: a new one starts
session-expired = the session went unused for { $days ->
    [one] { $days } day
   *[other] { $days } days
}: a new one starts
session-name-registered = this name belongs to an account: log in, or take another name
session-too-many-guests = too many guest sessions from your address: log in, or try later
session-connection-lost = the connection was lost while the session opened
busy-started = the match has started: its seats are taken
busy-playing = you sit in a match in play: finish it (or leave the seat) first
busy-already-seeking = a player of this seek is seeking a game already: cancel that seek first
busy-partner-seeking = your partner is seeking a game already
busy-not-over = the match is not over: no rematch yet
busy-rematch-declined = the rematch was declined
busy-reserved = the seats of this match are reserved for its players: no bot takes one
official-arbiter = an arbiter
official-director = a tournament director
official-needed = only { $role } may do this: log in as an account with the role, or present the role's secret
official-wrong-secret = not the secret of { $role }, or the server has none
official-secret-differs = the node you are connected to accepted your secret as { $role }, but the node that runs this match is configured with another `{ $key }` (or none): every node of a cluster needs the same one (docs/operators.md, Secrets); until then log in as an account with the role

## How a match was decided (protocol version 9)

cause-mate-on-board = mate on board by { $seat }
cause-mutual-mate = mate on board by both teams
cause-draw-agreement = a draw agreed on board { $board }
cause-draw-repetition = threefold repetition on board { $board }
cause-draw-fifty-moves = fifty moves without a capture, a pawn move or a drop on board { $board }
cause-draw-stalemate = no move on board { $board }, nor any to come
cause-draw-arbiter = the arbiter drew board { $board }
cause-flag = { $seat } lost on time
cause-flags-of-both-teams = flags of both teams fell
cause-resignation = { $seat } resigned
cause-arbiter = declared by the arbiter

## shvedka arbiter explain: why a match ended as it did
explain-result-win = result: { $team } wins ({ $rule })
explain-result-draw = result: a draw ({ $rule })
explain-no-result = the record has no result yet
explain-nothing = nothing ended the match in the record
explain-mate = { $at } { $by }: { $seat } is mated on board (M1)
explain-flag = { $at } the flag of { $seat } fell (K4)
explain-resigned = { $at } { $seat } resigned (E10)
explain-draw = { $at } board { $board } drew ({ $why }); held in the flag's window, weighed at its close
explain-flag-credit = { $at } { $by }: the lag credit of { $credit } s brought the move of { $seat } inside the time; the flag is withdrawn (K3)
explain-flag-arbiter = { $at } { $who } gave { $seat } time; the flag is withdrawn (A2)
explain-declared-win = { $at } { $who } declared the result: { $team } wins: { $note } (A2)
explain-declared-draw = { $at } { $who } declared the result: a draw: { $note } (A2)
explain-annulled = { $at } { $who } annulled the match: { $note } (A2)
explain-ended = { $at } the match ended
explain-in-window = { $line } · inside the flag's grace window (K4)
explain-weigh-mate-flag = weighed: a mate on board counts, a flag in the same window does not (E6, E9)
explain-weigh-mate-draw = weighed: a mate on board beats a draw in the same window (E9)
explain-weigh-mates = weighed: mates on board by both teams in one window make a draw (E2, E9)
explain-weigh-draw-flag = weighed: a draw beats a flag in the same window (E8, E9)
explain-weigh-flags-both = weighed: flags of both teams make a draw (E7)
explain-weigh-flags-one = weighed: flags of one team only lose for that team (E7)
explain-rules = rules that decided it: { $rules }
explain-who-arbiter = the arbiter
explain-who-secret = an arbiter (secret)
explain-who-server = the server
explain-who-named = arbiter { $name }

## shvedka arbiter check-record: the impossible moves of a record (A1)
check-clean = no impossible move
check-found = impossible move found
check-impossible = { $label }: type { $kind } ({ $rule }): { $reason }; { $consequence }; noticed later: { $later }
check-type1-loses = the team of { $seat } loses the game (A1)
check-type2-taken-back = the move is taken back and { $team } receives one minute on each of its two clocks (A1)
check-later-stands = the move stands, the position after it is legal (A1)
check-later-legal-again = the move stands, the position is legal again after { $label } (A1)
check-later-arbiter = the arbiter decides, { $why } (A1)
check-unreadable = { $label }: cannot be checked: { $why }

## shvedka arbiter show: a record at an instant
show-after-start = after move 0 (the start)
show-after-move = after move { $n } ({ $label })
show-at = at { $time }
show-end = at the end of the record
show-moves-made = moves made: { $n } of { $total }, the last { $last }
show-no-moves-made = moves made: 0 of { $total }
show-impossible = impossible move { $label }: { $why }; shown as it was made (A1)
show-note = note after { $label }: { $text }
show-act-failed = {"  "}it cannot be replayed: { $why }
show-act-at = act at { $at }: { $what }
show-act = act: { $what }
show-act-played = { $label } was played, then taken back or annulled
show-act-takeback = { $who } took back the last move on board { $board } (A2)
show-act-added = { $who } added { $amount } on { $seat }'s clock (A2)
show-act-removed = { $who } removed { $amount } on { $seat }'s clock (A2)
show-act-position = { $who } set the position { $position } (A2)
show-act-pause = { $who } stopped the clocks (A2)
show-act-pause-server = the server stopped the clocks (a restart, a shutdown or a take-over, K6; or its storage)
show-act-resume = { $who } restarted the clocks
show-act-flag = { $seat }'s flag fell (K4)
show-act-resign = { $seat } resigned (E10)
show-act-draw = board { $board } drew ({ $why }) inside a flag's window: weighed when it closes (K4)
draw-agreed = the players agreed, E3
draw-repetition = repetition, E4
draw-move-rule = the fifty-move rule, E5
draw-stalemate = stalemate, M3
show-act-call = { $seat } stopped the clocks and called the arbiter (K5)
show-act-call-replay = { $seat } stopped the clocks and called the arbiter, asking for a replay ({ $rule })
show-act-replay = { $who } had the game played again from the start ({ $rule })
show-act-replay-note = { $who } had the game played again from the start ({ $rule }): { $note }
show-act-start = the clocks started
show-act-result = { $who } declared the result { $result } (A2)
show-act-result-note = { $who } declared the result { $result } (A2): { $note }
show-act-annul = { $who } annulled the match (A2)
show-act-annul-note = { $who } annulled the match (A2): { $note }
show-act-end = the match ended
show-act-end-why = the match ended: { $why }
show-time = match time: { $time }
show-time-mate = match time: { $time } (clocks stopped at { $at } by mate on board, E1)
show-time-ended = match time: { $time } (clocks stopped at { $at }: the match ended)
show-time-paused = match time: { $time } (clocks stopped at { $at }: paused, K5)
show-time-unknown = match time: unknown ({ $why }); clocks as last recorded
show-untimed-no-base = the TimeControl tag ({ $tc }) gives no base time
show-untimed-no-clock = { $label } has no clock comment
show-untimed-incomplete = the record's times are incomplete
show-at-needs-times = { $file }: --at needs every move's clock comment and a base time: { $why }; use --after-move N instead
show-board = board { $board }: { $seat } to move, mate on board: no
show-board-mated = board { $board }: { $seat } to move, mate on board: yes, { $seat } is mated (M1)
show-seat-player = { $seat } ({ $player })
show-seat = { $who }: clock { $clock }{ $state }, reserve { $reserve }
show-clock-running = {" "}running
show-clock-fallen = , flag fell

## What is wrong with a record (check-record, show): a colour comes as a code, white or black
wrong-any-piece = piece
wrong-out-of-turn = moved out of turn: it is { $side ->
        [white] White
       *[black] Black
    }'s move on board { $board }
wrong-captures-king = it captures the { $side ->
        [white] white
       *[black] black
    } king on { $square }: a king is never captured
wrong-dropped-rook-castles = castling with a dropped rook is not allowed under these rules
wrong-takes-new-piece = a promotion removes a piece of { $crosswise_of } from board { $board }; it may not take a new { $piece }
wrong-nothing-to-remove = no piece of { $crosswise_of } can be removed, so the pawn leaves the board; it may not become a { $piece }
wrong-upgrade-removes-nothing = these rules promote by upgrade; nothing is removed from the other board
wrong-castling = castling is not possible here
wrong-castling-why = castling is not possible here: { $why }
castling-king-moved = the { $side ->
        [white] white
       *[black] black
    } king has moved
castling-no-rook = no { $side ->
        [white] white
       *[black] black
    } rook may castle { $written }: it has moved or is gone
castling-in-check = the { $side ->
        [white] white
       *[black] black
    } king is in check
castling-blocked = { $square } is not empty
castling-attacked = the king would pass or land on { $square }, which { $side ->
        [white] White
       *[black] Black
    } attacks
wrong-must-promote = a pawn reaching the last rank must be promoted
wrong-vanishing-leaves-check = the pawn leaves the board (R4) and that leaves the { $side ->
        [white] white
       *[black] black
    } king in check
wrong-king-rook-swap = the { $side ->
        [white] white
       *[black] black
    } king on { $king } and rook on { $rook } exchange squares («нижегородская рокировка»), which chess never allows
wrong-no-such-piece = there is no { $side ->
        [white] white
       *[black] black
    } { $piece_of }
wrong-no-such-piece-on = there is no { $side ->
        [white] white
       *[black] black
    } { $piece_of } on { $square }
wrong-cannot-reach = no { $side ->
        [white] white
       *[black] black
    } { $piece } can { $capture ->
        [yes] capture on
       *[no] move to
    } { $square }
wrong-cannot-reach-any = no { $side ->
        [white] white
       *[black] black
    } piece can { $capture ->
        [yes] capture on
       *[no] move to
    } { $square }
wrong-leaves-check = it leaves the { $side ->
        [white] white
       *[black] black
    } king in check
wrong-unreadable = the move does not read as one move
wrong-ambiguous = the move fits more than one legal move
wrong-bad-position = its position does not read
stuck-out-of-turn = { $seat } moved out of turn; the moves cannot be put in order
stuck-drop-occupied = { $square } is occupied: the drop cannot be carried out
stuck-from-outside = the { $piece } came from outside the game (C2)
stuck-castling = the castling cannot be carried out
stuck-units = { $side ->
        [white] White
       *[black] Black
    } would own { $is } units instead of { $was } (C2)
stuck-nothing-on = nothing stands on { $square }
stuck-own-piece = { $square } holds a { $side ->
        [white] white
       *[black] black
    } piece
stuck-king-captured = the { $side ->
        [white] white
       *[black] black
    } king on { $square } was captured (M4)
stuck-nothing-to-take = nothing stands on { $square } of board { $board }
stuck-king-removed = the king on { $square } of board { $board } cannot leave it
stuck-not-crosswises = the piece on { $square } of board { $board } is not { $crosswise_of }'s
stuck-piece-not-there = the piece the record names is not on the board
stuck-which-piece = which piece moved cannot be told from the record
broken-kings = { $count } { $side ->
        [white] white
       *[black] black
    } kings on the board
broken-pawn-on-edge = a pawn stands on { $square }
broken-waiting-in-check = the { $side ->
        [white] white
       *[black] black
    } king is in check with { $mover ->
        [white] White
       *[black] Black
    } to move
undecided-stuck = { $why }, and the record is not checked further
undecided-at-stuck = board { $board } is still no legal position at { $label }, past which the record cannot be followed: { $now }
undecided-at-unreadable = board { $board } is still no legal position at { $label }, which cannot be read: { $now }
undecided-at-end = board { $board } is still no legal position when the record ends: { $now }
check-label-start = BFEN tag
check-label-act = the act after { $label }
check-label-act-start = the act before the first move
notread-start = the start position does not read

# The review of a decided match (`/review N`): its record stepped through.
review-title = review of match { $id }
review-which-match = which match? /review N, or select one in the lobby
review-unreadable = match { $id }: its record does not read: { $detail }
review-no-game = match { $id }: its record holds no game
review-unplayable = match { $id }: its record cannot be replayed: { $detail }
review-nothing-yet = nothing recorded yet but the moves
hint-review = ←→ a move · ↑↓ a step (acts too) · Home End · Esc back · /help
hint-review-short = ←→ ↑↓ Home End · Esc back
help-review = /review [N] steps through a decided match's record (the followed or selected one): ←→ a move, ↑↓ every step with the arbiter's acts, Home End, Esc back; the same moves, match times and clocks as `shvedka arbiter show`
review-offer = /review { $id } steps through its record: every move and act, at its match time
review-board-mated = Board { $board } · mate
