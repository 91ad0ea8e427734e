//! Finding a game on the wire (version 5): a seek (alone, or with a partner who must accept), the
//! seek as it stands, how it ended, the match it found, and the pools of seeks waiting. The
//! server forms a match as soon as compatible seeks make four players, seats them itself and
//! tells each seeker his match and seat ([`crate::ServerMsg::MatchFound`]).

use serde::{Deserialize, Serialize};

/// What a player seeks (`ClientMsg::Seek`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekRequest {
    /// A configured name (`blitz`) or a spec (`3+0`); seeks meet on the time control it names,
    /// however written.
    pub time_control: String,
    /// Rule preset: `mgimo-2017` or `classic`.
    pub rules: String,
    /// Rated (accounts only) or casual; rated and casual seeks never meet.
    pub rated: bool,
    /// How far from the seeker's rating (a pair's: the mean) the other seekers may be, points
    /// either side, fixed. `None`: the quick pools' window, which starts close and widens the
    /// longer the seek waits (`seek_range_start`, `seek_range_per_second` in the server's
    /// configuration).
    pub range: Option<u32>,
    /// A partner to play with, by name (a connected player): he is invited and the seek waits
    /// for his answer (`ClientMsg::AnswerSeek`) before it enters the pool. Two players who
    /// invite each other on the same terms are a pair at once (play again with my partner).
    pub partner: Option<String>,
}

/// A seek as it stands (`Reply::Seek`, `ServerMsg::Seek`, `ServerMsg::SeekInvitation`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekView {
    /// Its number.
    pub seek: u64,
    /// The time control, normalised (`3+0`).
    pub time_control: String,
    /// The rule preset.
    pub rules: String,
    /// Rated or casual.
    pub rated: bool,
    /// A fixed range, or `None` for the widening window.
    pub range: Option<u32>,
    /// Who seeks: the seeker, and his partner once the partner accepted.
    pub players: Vec<String>,
    /// The invited partner who has not answered yet.
    pub invited: Option<String>,
    /// Whether it waits in the pool (not for a partner's answer).
    pub waiting: bool,
    /// How long it has waited in the pool, milliseconds.
    pub waited_ms: u64,
    /// How far its rating range reaches now, points either side.
    pub reach: u32,
    /// How many points a second the range widens while it waits (0: a fixed range), so that a
    /// client shows it widening without asking.
    pub widening: u32,
    /// Until the invitation lapses, milliseconds (`seek_invitation_s`), while it waits for the
    /// partner.
    pub expires_in_ms: Option<u64>,
}

/// Why a seek ended without a match (`ServerMsg::SeekEnded`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeekEnd {
    /// A seeker cancelled it (`ClientMsg::CancelSeek`).
    Cancelled,
    /// A seeker's connection ended (or his session did): a seek lives only while its players
    /// are connected.
    Disconnected,
    /// The invited partner declined.
    Declined,
    /// The invited partner did not answer within `seek_invitation_s`.
    Expired,
    /// The match it found could not be created (the server is at `max_matches`, or its storage
    /// refuses writes), or one of its four could not be seated in it (he sat down to play
    /// elsewhere meanwhile): the match is given up, and the seeker may seek again.
    Failed,
}

/// Seeks waiting on the same terms (`Reply::SeekPools`): the quick pools always, and any other
/// terms somebody seeks now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekPool {
    /// The time control, normalised (`3+0`).
    pub time_control: String,
    /// The name the server's clock configuration gives it, if any (`blitz`).
    pub name: Option<String>,
    /// The rule preset.
    pub rules: String,
    /// Rated or casual.
    pub rated: bool,
    /// One of the server's quick pools (`quick_pools`).
    pub quick: bool,
    /// Players waiting in it.
    pub players: u32,
    /// Of them, people (not bots): bots answer pools where people wait.
    pub people: u32,
    /// How long its longest-waiting person has waited, milliseconds (0 when none waits).
    pub longest_wait_ms: u64,
}
