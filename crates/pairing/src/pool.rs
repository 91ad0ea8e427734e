//! The seeks waiting, and forming matches from them.
//!
//! Oldest first: the longest-waiting seek is matched first, with the oldest seeks that fit it.
//! Seeks fit when their terms are equal and each accepts every other's strength (its window,
//! widened by its waiting, reaches it). Four players make a match: two pairs; a pair against two
//! singles, who become a team; or four singles, paired into teams of close strength (the
//! strongest with the weakest). A player is in one seek at a time. Bots answer people: four bots
//! never make a match.

use crate::seats;
use crate::{Party, Seek, SeekId, Seeker, Terms, Window};

/// Why a seek was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The player is in a seek already (his own or his partner's).
    #[error("player {0} is already seeking a game")]
    AlreadySeeking(u64),
    /// A pair of one player twice.
    #[error("a partner must be another player")]
    SamePartner,
    /// The pool holds as many seeks as it may.
    #[error("the pool holds as many seeks as it may ({0})")]
    Full(usize),
}

/// A match the pool formed: the server creates it, seats the four and starts the countdown.
#[derive(Clone, Debug, PartialEq)]
pub struct Formed {
    /// Its terms.
    pub terms: Terms,
    /// The seeks it took (no longer in the pool).
    pub seeks: Vec<SeekId>,
    /// The players in the protocol's seat order: White A, Black A, White B, Black B.
    pub seats: [Seeker; 4],
}

/// The seeks waiting.
#[derive(Debug)]
pub struct Pool {
    seeks: Vec<Seek>,
    next: u64,
    limit: usize,
}

impl Pool {
    /// An empty pool holding at most `limit` seeks.
    #[must_use]
    pub fn new(limit: usize) -> Pool {
        Pool { seeks: Vec::new(), next: 1, limit }
    }

    /// The seeks waiting, oldest first.
    #[must_use]
    pub fn seeks(&self) -> &[Seek] {
        &self.seeks
    }

    /// Adds a seek made at `now_ms`.
    ///
    /// # Errors
    /// [`Refusal`]: a player already seeking, a pair of one player, a full pool.
    pub fn add(
        &mut self,
        party: Party,
        terms: Terms,
        window: Window,
        now_ms: u64,
    ) -> Result<SeekId, Refusal> {
        if let Party::Pair([a, b]) = party
            && a.account == b.account
        {
            return Err(Refusal::SamePartner);
        }
        for member in party.members() {
            if self.seeking(member.account) {
                return Err(Refusal::AlreadySeeking(member.account));
            }
        }
        if self.seeks.len() >= self.limit {
            return Err(Refusal::Full(self.limit));
        }
        let id = SeekId(self.next);
        self.next += 1;
        self.seeks.push(Seek { id, party, terms, window, since_ms: now_ms });
        Ok(id)
    }

    /// Whether `account` is in a waiting seek.
    #[must_use]
    pub fn seeking(&self, account: u64) -> bool {
        self.seeks.iter().any(|s| s.party.members().iter().any(|m| m.account == account))
    }

    /// Takes a seek back (its player cancelled it).
    pub fn cancel(&mut self, id: SeekId) -> Option<Seek> {
        let at = self.seeks.iter().position(|s| s.id == id)?;
        Some(self.seeks.remove(at))
    }

    /// Takes back every seek `account` is in (he disconnected): a pair's seek goes with either
    /// partner.
    pub fn withdraw(&mut self, account: u64) -> Vec<Seek> {
        let (gone, kept) = std::mem::take(&mut self.seeks)
            .into_iter()
            .partition(|s| s.party.members().iter().any(|m| m.account == account));
        self.seeks = kept;
        gone
    }

    /// Forms every match the waiting seeks make at `now_ms`, oldest seeks first; `random` gives
    /// each match's seat draw.
    pub fn form(&mut self, now_ms: u64, mut random: impl FnMut() -> u64) -> Vec<Formed> {
        let mut formed = Vec::new();
        while let Some((taken, teams)) = self.find(now_ms) {
            let terms = self.seeks[taken[0]].terms.clone();
            let seeks = taken.iter().map(|&i| self.seeks[i].id).collect();
            let mut remove = taken;
            remove.sort_unstable_by(|a, b| b.cmp(a));
            for i in remove {
                self.seeks.remove(i);
            }
            formed.push(Formed { terms, seeks, seats: seats::assign(teams, random()) });
        }
        formed
    }

    /// The oldest group of seeks that makes a match, and its two teams. A bot's seek never
    /// anchors a group: every match formed has a person in it (the anchor), so bots answer
    /// people and never fill a match among themselves.
    fn find(&self, now_ms: u64) -> Option<(Vec<usize>, [[Seeker; 2]; 2])> {
        (0..self.seeks.len())
            .filter(|&anchor| !self.seeks[anchor].party.bots_only())
            .find_map(|anchor| self.around(anchor, now_ms))
    }

    /// A match for the seek at `anchor` with the oldest seeks that fit it.
    fn around(&self, anchor: usize, now_ms: u64) -> Option<(Vec<usize>, [[Seeker; 2]; 2])> {
        let me = &self.seeks[anchor];
        let fits = |a: &Seek, b: &Seek| {
            a.terms == b.terms
                && a.accepts(b.party.strength(), now_ms)
                && b.accepts(a.party.strength(), now_ms)
        };
        let others: Vec<usize> =
            (0..self.seeks.len()).filter(|&i| i != anchor && fits(me, &self.seeks[i])).collect();
        let pairs = || others.iter().copied().filter(|&i| matches!(self.seeks[i].party, Party::Pair(_)));
        let singles = || others.iter().copied().filter(|&i| matches!(self.seeks[i].party, Party::Single(_)));
        let single = |i: usize| match self.seeks[i].party {
            Party::Single(s) => s,
            Party::Pair(_) => unreachable!("a single"),
        };
        let pair = |i: usize| match self.seeks[i].party {
            Party::Pair(p) => p,
            Party::Single(_) => unreachable!("a pair"),
        };
        // Two singles that fit each other, and `besides` if given (the anchor fits all of
        // `others` already).
        let fits_besides = |i: usize, besides: Option<usize>| {
            besides.is_none_or(|b| i != b && fits(&self.seeks[i], &self.seeks[b]))
        };
        let two_singles = |besides: Option<usize>| {
            singles().filter(|&i| fits_besides(i, besides)).find_map(|i| {
                singles()
                    .filter(|&j| j != i && fits_besides(j, besides))
                    .find(|&j| fits(&self.seeks[i], &self.seeks[j]))
                    .map(|j| (i, j))
            })
        };
        match me.party {
            Party::Pair(mine) => {
                if let Some(p) = pairs().next() {
                    return Some((vec![anchor, p], [mine, pair(p)]));
                }
                let (i, j) = two_singles(None)?;
                Some((vec![anchor, i, j], [mine, [single(i), single(j)]]))
            }
            Party::Single(mine) => {
                for p in pairs() {
                    if let Some(s) = singles().find(|&s| fits(&self.seeks[s], &self.seeks[p])) {
                        return Some((vec![anchor, p, s], [pair(p), [mine, single(s)]]));
                    }
                }
                // Four singles: three more that all fit each other.
                for i in singles() {
                    if let Some((j, k)) = two_singles(Some(i)) {
                        let four = [mine, single(i), single(j), single(k)];
                        return Some((vec![anchor, i, j, k], balanced(four)));
                    }
                }
                None
            }
        }
    }
}

/// Four singles into two teams of close strength: the strongest with the weakest.
fn balanced(mut four: [Seeker; 4]) -> [[Seeker; 2]; 2] {
    four.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    [[four[0], four[3]], [four[1], four[2]]]
}
