//! What the interface asks of the server; the run loop turns each into a request.

use shvedka_proto::{Board, ChatScope, ClaimKind, MatchId, ReplayReason, SeatId, TdChoice};

/// One request the player made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Fetch the lobby list again.
    Refresh,
    /// Create a match (and stay in the lobby to take a seat in it).
    Create {
        /// Rule preset.
        rules: String,
        /// Time control, as `3+0` or a configured name.
        time_control: String,
        /// Both boards from the same Chess960 position.
        chess960: bool,
        /// Rated: only accounts may sit, and the result changes their ratings.
        rated: bool,
    },
    /// Follow a match as a spectator.
    Watch(MatchId),
    /// Sit down in a match.
    TakeSeat(MatchId, SeatId),
    /// Stand up before the start.
    LeaveSeat,
    /// Say ready or withdraw it.
    Ready(bool),
    /// A move on the player's board, as text the server reads.
    Play {
        /// The board.
        board: Board,
        /// Long notation or SAN.
        text: String,
    },
    /// Offer a draw or accept the standing one.
    OfferDraw,
    /// Decline the standing offer.
    DeclineDraw,
    /// A claim.
    Claim(ClaimKind),
    /// Resign for the team.
    Resign,
    /// Stop the clocks and call the arbiter; with a reason, asking for a replay (A5, A6).
    CallArbiter(Option<ReplayReason>),
    /// A chat message.
    Chat(ChatScope, String),
    /// A team's S3 choice for a tournament game.
    Choose {
        /// The tournament.
        tournament: u64,
        /// The round.
        round: u32,
        /// The game, 1 or 2.
        game: u32,
        /// The choice.
        choice: TdChoice,
    },
    /// Sit down in the player's current tournament game.
    MyGame(u64),
    /// Fill the empty seats of a forming match with the server's bots at a level (1 to 5).
    FillWithBots(MatchId, u8),
    /// Answer the rematch offer of a decided match (accept or decline).
    Rematch(MatchId, bool),
    /// Show a rating category's leaderboard.
    Leaderboard(String),
    /// Show a player's profile.
    Profile(String),
    /// Review a decided match's record, step by step.
    Review(MatchId),
    /// Seek a game (a quick pool, or `/seek`; with a partner to invite).
    Seek(shvedka_proto::SeekRequest),
    /// Answer a partner's invitation to seek (accept or refuse).
    AnswerSeek(u64, bool),
    /// Withdraw a seek.
    CancelSeek(u64),
    /// Fetch the pools of seeks (the quick pools' time controls).
    SeekPools,
    /// Remember the language chosen with `/lang` (the interface speaks it already).
    Language(crate::Lang),
    /// Leave the program.
    Quit,
}
