//! A seek: one player, or two partners, wanting a game on given terms.

use serde::{Deserialize, Serialize};

use crate::Window;

/// A seek's number, given by the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SeekId(pub u64);

/// One player in a seek: his account and his rating in the category of the seek's time control.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seeker {
    /// The account (a guest or a bot has one too: the server's player number).
    pub account: u64,
    /// His rating in the seek's category (a newcomer's default if he has none).
    pub rating: f64,
    /// A program playing: a match is never formed of bots alone (a bot's seek waits for a
    /// person's to meet).
    pub bot: bool,
}

impl Seeker {
    /// A person seeking.
    #[must_use]
    pub fn person(account: u64, rating: f64) -> Seeker {
        Seeker { account, rating, bot: false }
    }

    /// A bot seeking.
    #[must_use]
    pub fn bot(account: u64, rating: f64) -> Seeker {
        Seeker { account, rating, bot: true }
    }
}

/// Who seeks: one player, or two partners who play together (the partner has accepted).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Party {
    /// Alone: the pool finds him a partner.
    Single(Seeker),
    /// Two partners.
    Pair([Seeker; 2]),
}

impl Party {
    /// The party's players.
    #[must_use]
    pub fn members(&self) -> &[Seeker] {
        match self {
            Party::Single(one) => std::slice::from_ref(one),
            Party::Pair(two) => two,
        }
    }

    /// Whether every player of the party is a bot.
    #[must_use]
    pub fn bots_only(&self) -> bool {
        self.members().iter().all(|m| m.bot)
    }

    /// The party's strength: its player's rating, or the mean of the pair's.
    #[must_use]
    pub fn strength(&self) -> f64 {
        let members = self.members();
        members.iter().map(|m| m.rating).sum::<f64>() / members.len() as f64
    }
}

/// What a match must be for a seek: all must be equal for seeks to meet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Terms {
    /// The time control, as the lobby writes it (`3+0`).
    pub time_control: String,
    /// The rule preset (`mgimo-2017`).
    pub rules: String,
    /// Rated or casual.
    pub rated: bool,
}

/// A seek as the pool keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Seek {
    /// Its number.
    pub id: SeekId,
    /// Who seeks.
    pub party: Party,
    /// On what terms.
    pub terms: Terms,
    /// How far from his own strength the others may be.
    pub window: Window,
    /// When it was made, in the server's milliseconds (its window widens from then).
    pub since_ms: u64,
}

impl Seek {
    /// Whether a party of `strength` is acceptable to this seek at `now_ms`.
    #[must_use]
    pub fn accepts(&self, strength: f64, now_ms: u64) -> bool {
        let reach = self.window.reach(now_ms.saturating_sub(self.since_ms));
        (strength - self.party.strength()).abs() <= reach
    }
}
