//! The UCI conversation as text, without IO: the commands the driver writes ([`Go`], and the
//! plain lines in `engine.rs`) and what it makes of each line the engine writes ([`Line`]).
//!
//! Kept apart from the process so that every odd line an engine may print is a unit test here,
//! not a race in a test with a child process.

use std::time::Duration;

use chess_core::Color;

/// How long the engine may think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// `go movetime N`: this long, whatever the clocks.
    MoveTime(Duration),
    /// `go wtime … btime … winc … binc …`: the engine shares out the clock itself.
    Clock {
        /// White's remaining time.
        white: Duration,
        /// Black's remaining time.
        black: Duration,
        /// The increment per move (the same for both).
        increment: Duration,
    },
}

impl Go {
    /// The `go` command line.
    pub fn command(&self) -> String {
        match *self {
            Go::MoveTime(t) => format!("go movetime {}", millis(t)),
            Go::Clock { white, black, increment } => format!(
                "go wtime {} btime {} winc {} binc {}",
                millis(white),
                millis(black),
                millis(increment),
                millis(increment)
            ),
        }
    }

    /// The most the engine should take with `turn` to move: the move time, or the mover's clock.
    pub fn allowance(&self, turn: Color) -> Duration {
        match *self {
            Go::MoveTime(t) => t,
            Go::Clock { white, black, .. } => turn.fold(white, black),
        }
    }
}

/// Milliseconds for a UCI command: at least 1 (`movetime 0` means "no time" to some engines).
fn millis(d: Duration) -> u128 {
    d.as_millis().max(1)
}

/// An engine's judgement of a position, from an `info` line: from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp N`: centipawns.
    Centipawns(i32),
    /// `score mate N`: mate in N moves (negative: the side to move is mated in N).
    Mate(i32),
}

/// What the last `info` lines of a search said (each field as last given).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `score`.
    pub score: Option<Score>,
    /// `nodes`.
    pub nodes: Option<u64>,
}

impl Info {
    /// Takes the fields one more `info` line gives.
    pub(crate) fn update(&mut self, newer: Info) {
        self.depth = newer.depth.or(self.depth);
        self.score = newer.score.or(self.score);
        self.nodes = newer.nodes.or(self.nodes);
    }
}

/// One line from the engine, as the driver needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// `id name …`.
    Name(String),
    /// `option name NAME type … var A var B …`: the option and its choices (a combo's vars).
    Option { name: String, vars: Vec<String> },
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info …` with a search's figures (an `info string` is [`Line::Other`]).
    Info(Info),
    /// `bestmove M [ponder P]`; `None` for `(none)` or `0000`, an engine's "no legal move".
    BestMove(Option<String>),
    /// `bestmove` without a move.
    Malformed(String),
    /// Anything else (engines print banners, `info string`s, warnings).
    Other,
}

/// Reads one line of engine output.
pub(crate) fn parse_line(line: &str) -> Line {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("uciok") => Line::UciOk,
        Some("readyok") => Line::ReadyOk,
        Some("id") if words.next() == Some("name") => Line::Name(words.collect::<Vec<_>>().join(" ")),
        Some("option") => parse_option(words.collect()),
        Some("info") => parse_info(words.collect()),
        Some("bestmove") => match words.next() {
            Some("(none)" | "0000") => Line::BestMove(None),
            Some(mv) => Line::BestMove(Some(mv.to_owned())),
            None => Line::Malformed(line.to_owned()),
        },
        _ => Line::Other,
    }
}

fn parse_option(words: Vec<&str>) -> Line {
    if words.first() != Some(&"name") {
        return Line::Other;
    }
    let type_at = words.iter().position(|w| *w == "type").unwrap_or(words.len());
    let name = words[1..type_at].join(" ");
    let vars = words.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_owned()).collect();
    Line::Option { name, vars }
}

fn parse_info(words: Vec<&str>) -> Line {
    if words.first() == Some(&"string") {
        return Line::Other;
    }
    let mut info = Info::default();
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1).copied().unwrap_or_default();
        match words[i] {
            "depth" => info.depth = next.parse().ok(),
            "nodes" => info.nodes = next.parse().ok(),
            "score" => {
                let value = words.get(i + 2).and_then(|v| v.parse().ok());
                info.score = match next {
                    "cp" => value.map(Score::Centipawns),
                    "mate" => value.map(Score::Mate),
                    _ => None,
                };
                i += 1;
            }
            // The principal variation runs to the end of the line: no figure follows it.
            "pv" => break,
            _ => {}
        }
        i += 1;
    }
    Line::Info(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_line_gives_its_name_and_its_choices() {
        let line = "option name UCI_Variant type combo default chess var 3check var bughouse var chess";
        assert_eq!(
            parse_line(line),
            Line::Option {
                name: "UCI_Variant".into(),
                vars: vec!["3check".into(), "bughouse".into(), "chess".into()]
            }
        );
        assert_eq!(
            parse_line("option name Clear Hash type button"),
            Line::Option { name: "Clear Hash".into(), vars: vec![] }
        );
    }

    #[test]
    fn info_lines_give_depth_score_and_nodes_and_info_strings_are_ignored() {
        let line = "info depth 9 seldepth 11 multipv 1 score cp -415 nodes 2464 nps 273777 pv N@g1 a1e1";
        assert_eq!(
            parse_line(line),
            Line::Info(Info { depth: Some(9), score: Some(Score::Centipawns(-415)), nodes: Some(2464) })
        );
        assert_eq!(
            parse_line("info depth 0 score mate 0"),
            Line::Info(Info { depth: Some(0), score: Some(Score::Mate(0)), nodes: None })
        );
        assert_eq!(parse_line("info string variant bughouse files 8 ranks 8"), Line::Other);
    }

    #[test]
    fn p1_bestmove_gives_the_move_drops_and_promotions_included_or_none() {
        assert_eq!(parse_line("bestmove e2e4 ponder e7e6"), Line::BestMove(Some("e2e4".into())));
        assert_eq!(parse_line("bestmove P@e4"), Line::BestMove(Some("P@e4".into())));
        assert_eq!(parse_line("bestmove e7e8q"), Line::BestMove(Some("e7e8q".into())));
        assert_eq!(parse_line("bestmove (none)"), Line::BestMove(None));
        assert_eq!(parse_line("bestmove 0000"), Line::BestMove(None));
        assert_eq!(parse_line("bestmove"), Line::Malformed("bestmove".into()));
        assert_eq!(parse_line("Fairy-Stockfish 11.1 LB 64 by Fabian Fichter"), Line::Other);
    }

    #[test]
    fn k1_go_by_move_time_or_by_both_clocks() {
        assert_eq!(Go::MoveTime(Duration::from_millis(250)).command(), "go movetime 250");
        assert_eq!(Go::MoveTime(Duration::ZERO).command(), "go movetime 1");
        let clock = Go::Clock {
            white: Duration::from_secs(60),
            black: Duration::from_millis(59_500),
            increment: Duration::from_secs(2),
        };
        assert_eq!(clock.command(), "go wtime 60000 btime 59500 winc 2000 binc 2000");
        assert_eq!(clock.allowance(Color::Black), Duration::from_millis(59_500));
    }
}
