//! Does the model rank players right? A simulation the calibration benchmark and a test share:
//! players with hidden strengths play random pairings, each match won by a team with the
//! probability its hidden mean gives (the Elo curve), and the ratings the model gives them are
//! compared with the hidden order (Spearman's rank correlation).

use skillratings::Outcomes;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_two_teams};

use crate::{Outcome, Rating, rate_match};

/// A model under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// This crate's: Glicko-2 with a team as strong as the mean of its partners.
    Glicko2TeamMean,
    /// Weng-Lin's Bayesian team model (OpenSkill), through `skillratings`, for comparison.
    WengLin,
    /// Not a rating system: the most likely strengths given every result at once (the team-mean
    /// Elo curve fitted to all the games so far, with a weak prior), the ceiling of what any
    /// rating could tell from these games.
    Hindsight,
}

/// The simulation's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// Players (a multiple of four plays every round).
    pub players: usize,
    /// Matches each player plays.
    pub games: usize,
    /// Spread of the hidden strengths (a normal distribution around 1500), rating points.
    pub spread: f64,
    /// Chance that a match is drawn.
    pub draws: f64,
    /// The random seed.
    pub seed: u64,
}

/// Spearman's ρ after each round, for one model.
pub fn simulate(setup: Setup, model: Model) -> Vec<f64> {
    let mut rng = Rng(setup.seed);
    let hidden: Vec<f64> = (0..setup.players).map(|_| 1500.0 + setup.spread * rng.normal()).collect();
    let mut glicko = vec![Rating::default(); setup.players];
    let mut weng_lin = vec![WengLinRating::new(); setup.players];
    let mut order: Vec<usize> = (0..setup.players).collect();
    let mut rho = Vec::with_capacity(setup.games);
    let mut played: Vec<([usize; 4], f64)> = Vec::new();
    for _ in 0..setup.games {
        rng.shuffle(&mut order);
        for four in order.chunks_exact(4) {
            let strength = |a: usize, b: usize| (hidden[four[a]] + hidden[four[b]]) / 2.0;
            let p_first = 1.0 / (1.0 + 10f64.powf((strength(2, 3) - strength(0, 1)) / 400.0));
            let roll = rng.unit();
            let outcome = if roll < setup.draws {
                Outcome::Draw
            } else if rng.unit() < p_first {
                Outcome::FirstWins
            } else {
                Outcome::SecondWins
            };
            let score = match outcome {
                Outcome::FirstWins => 1.0,
                Outcome::SecondWins => 0.0,
                Outcome::Draw => 0.5,
            };
            played.push(([four[0], four[1], four[2], four[3]], score));
            match model {
                Model::Hindsight => {}
                Model::Glicko2TeamMean => {
                    let teams = [[glicko[four[0]], glicko[four[1]]], [glicko[four[2]], glicko[four[3]]]];
                    let after = rate_match(teams, outcome);
                    for (slot, &p) in four.iter().enumerate() {
                        glicko[p] = after[slot / 2][slot % 2];
                    }
                }
                Model::WengLin => {
                    let one = [weng_lin[four[0]], weng_lin[four[1]]];
                    let two = [weng_lin[four[2]], weng_lin[four[3]]];
                    let result = match outcome {
                        Outcome::FirstWins => Outcomes::WIN,
                        Outcome::SecondWins => Outcomes::LOSS,
                        Outcome::Draw => Outcomes::DRAW,
                    };
                    let (one, two) = weng_lin_two_teams(&one, &two, &result, &WengLinConfig::new());
                    for (slot, &p) in four.iter().enumerate() {
                        weng_lin[p] = if slot < 2 { one[slot] } else { two[slot - 2] };
                    }
                }
            }
        }
        let rated: Vec<f64> = match model {
            Model::Glicko2TeamMean => glicko.iter().map(|r| r.rating).collect(),
            Model::WengLin => weng_lin.iter().map(|r| r.rating).collect(),
            Model::Hindsight => fit(setup.players, &played),
        };
        rho.push(spearman(&hidden, &rated));
    }
    rho
}

/// The strengths that make `games` most likely under the team-mean Elo curve, with a normal prior
/// (1500, 350) so that a player who won everything stays finite: gradient ascent to a standstill.
fn fit(players: usize, games: &[([usize; 4], f64)]) -> Vec<f64> {
    const SCALE: f64 = 400.0 / std::f64::consts::LN_10;
    let mut x = vec![0.0f64; players]; // (rating − 1500) / SCALE
    let prior = (SCALE / 350.0).powi(2);
    for _ in 0..300 {
        let mut grad: Vec<f64> = x.iter().map(|v| -prior * v).collect();
        for (four, score) in games {
            let d = (x[four[0]] + x[four[1]] - x[four[2]] - x[four[3]]) / 2.0;
            let expected = 1.0 / (1.0 + (-d).exp());
            let pull = (score - expected) / 2.0;
            grad[four[0]] += pull;
            grad[four[1]] += pull;
            grad[four[2]] -= pull;
            grad[four[3]] -= pull;
        }
        for (v, g) in x.iter_mut().zip(&grad) {
            *v += 0.5 * g / (1.0 + prior);
        }
    }
    x.iter().map(|v| 1500.0 + v * SCALE).collect()
}

/// Spearman's rank correlation of two equally long samples (ties take their mean rank).
#[must_use]
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - mean) * (y - mean);
        va += (x - mean).powi(2);
        vb += (y - mean).powi(2);
    }
    cov / (va * vb).sqrt()
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
    let mut ranks = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            ranks[k] = rank;
        }
        i = j + 1;
    }
    ranks
}

/// SplitMix64: small, seeded, the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    fn shuffle(&mut self, v: &mut [usize]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_is_one_for_the_same_order_minus_one_for_the_reverse_and_handles_ties() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((spearman(&a, &[10.0, 20.0, 30.0, 40.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(ranks(&[5.0, 1.0, 5.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
    }
}
