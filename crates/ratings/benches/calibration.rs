//! Calibration of the rating model (issue 18's target: Spearman ρ ≥ 0.9 between the ratings and
//! the hidden strengths after 50 games each, a few hundred players in random pairings). Prints ρ
//! after every ten games for this crate's model, for Weng-Lin (compared), and for hindsight (the
//! most likely strengths given every result at once: the ceiling of what any rating could tell
//! from the same games), over several seeds; then ρ after the last game for several spreads of
//! the hidden strengths (the wider the field, the easier to order).
//!
//! `cargo bench -p shvedka-ratings --bench calibration`
//! (`SHVEDKA_CALIBRATION_PLAYERS`, `_GAMES`, `_SPREAD` change the setup).

use shvedka_ratings::calibration::{Model, Setup, simulate};

fn env(name: &str, default: f64) -> f64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const MODELS: [(Model, &str); 3] = [
    (Model::Glicko2TeamMean, "Glicko-2, team mean"),
    (Model::WengLin, "Weng-Lin (compared)"),
    (Model::Hindsight, "hindsight (ceiling)"),
];
const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

/// ρ after each game, for every seed.
fn runs(players: usize, games: usize, spread: f64, model: Model) -> Vec<Vec<f64>> {
    SEEDS.iter().map(|&seed| simulate(Setup { players, games, spread, draws: 0.02, seed }, model)).collect()
}

/// "mean (worst)" of the seeds' ρ after game `g`.
fn cell(runs: &[Vec<f64>], g: usize) -> (f64, f64, String) {
    let at: Vec<f64> = runs.iter().map(|r| r[g - 1]).collect();
    let mean = at.iter().sum::<f64>() / at.len() as f64;
    let worst = at.iter().copied().fold(f64::INFINITY, f64::min);
    (mean, worst, format!("{mean:.3} ({worst:.3})"))
}

fn main() {
    let players = env("SHVEDKA_CALIBRATION_PLAYERS", 400.0) as usize;
    let games = env("SHVEDKA_CALIBRATION_GAMES", 50.0) as usize;
    let spread = env("SHVEDKA_CALIBRATION_SPREAD", 300.0);
    println!(
        "{players} players, hidden strengths ~ N(1500, {spread}), {games} matches each in random \
         pairings (teams and opponents drawn anew each round), 2 % draws, {} seeds.",
        SEEDS.len()
    );
    println!("Spearman ρ of the ratings to the hidden strengths, mean over the seeds (worst):\n");
    let checkpoints: Vec<usize> = (10..=games).step_by(10).collect();
    print!("| model \\ games |");
    for g in &checkpoints {
        print!(" {g} |");
    }
    println!("\n|---|{}", "---|".repeat(checkpoints.len()));
    let mut glicko_mean = 0.0;
    for (model, name) in MODELS {
        let runs = runs(players, games, spread, model);
        print!("| {name} |");
        for &g in &checkpoints {
            print!(" {} |", cell(&runs, g).2);
        }
        println!();
        if model == Model::Glicko2TeamMean {
            glicko_mean = cell(&runs, games).0;
        }
    }
    println!("\nAfter {games} games, by spread of the hidden strengths:\n");
    println!("| spread | {} |", MODELS.map(|(_, name)| name).join(" | "));
    println!("|---|---|---|---|");
    for spread in [250.0, 300.0, 350.0, 400.0] {
        let cells: Vec<String> =
            MODELS.iter().map(|&(m, _)| cell(&runs(players, games, spread, m), games).2).collect();
        println!("| {spread} | {} |", cells.join(" | "));
    }
    println!(
        "\nGlicko-2, team mean, after {games} games at spread {spread}: mean ρ {glicko_mean:.3} — target at \
         least 0.9: {}",
        if glicko_mean >= 0.9 { "met" } else { "NOT met" }
    );
}
