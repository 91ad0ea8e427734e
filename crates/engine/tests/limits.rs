//! Time management per level: never more than a tenth of the clock, monotone in the clock.

use std::time::Duration;

use shvedka_engine::Engine;

const CLOCKS_MS: [u64; 12] = [0, 1, 10, 50, 200, 1_000, 5_000, 20_000, 60_000, 180_000, 300_000, 3_600_000];
const INCREMENTS_MS: [u64; 4] = [0, 500, 2_000, 10_000];

#[test]
fn never_more_than_a_tenth_of_the_remaining_time() {
    for level in 1..=5 {
        let engine = Engine::new(level);
        for remaining in CLOCKS_MS.map(Duration::from_millis) {
            for increment in INCREMENTS_MS.map(Duration::from_millis) {
                let time = engine.limits_for(remaining, increment).time.expect("a time limit");
                assert!(time <= remaining / 10, "level {level}: {time:?} of {remaining:?} (+{increment:?})");
            }
        }
    }
}

#[test]
fn more_clock_never_means_less_time() {
    for level in 1..=5 {
        let engine = Engine::new(level);
        for increment in INCREMENTS_MS.map(Duration::from_millis) {
            let times: Vec<Duration> = CLOCKS_MS
                .map(|ms| engine.limits_for(Duration::from_millis(ms), increment).time.expect("a time limit"))
                .to_vec();
            assert!(times.windows(2).all(|w| w[0] <= w[1]), "level {level}, +{increment:?}: {times:?}");
        }
    }
}

#[test]
fn higher_levels_think_longer_and_deeper_but_level_3_stays_quick() {
    let clock = Duration::from_secs(60);
    let limits: Vec<_> = (1..=5).map(|l| Engine::new(l).limits_for(clock, Duration::ZERO)).collect();
    assert!(limits.windows(2).all(|w| w[0].time <= w[1].time && w[0].depth <= w[1].depth), "{limits:?}");
    assert!(limits[0].depth.is_some_and(|d| d <= 2));
    assert!(limits[2].time.is_some_and(|t| t < Duration::from_secs(1)));
    assert!(limits[1].time.is_some_and(|t| t >= Duration::from_millis(20)));
}

#[test]
fn levels_are_clamped() {
    assert_eq!(Engine::new(0).level(), 1);
    assert_eq!(Engine::new(3).level(), 3);
    assert_eq!(Engine::new(200).level(), 5);
}
