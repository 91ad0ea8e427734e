//! The engine process and the waits: [`UciEngine`].
//!
//! Every read waits until a deadline: the handshake's ([`UciSettings::handshake`]), or a search's
//! allowance plus [`UciSettings::margin`], after which the driver says `stop` and waits one margin
//! more for the `bestmove` a well-behaved engine then sends at once. An engine that still says
//! nothing, closes its output, or writes an over-long line is killed and its driver answers
//! [`UciError::Unusable`] from then on. A search whose caller gave up (its future dropped half-way)
//! is stopped and its `bestmove` drained before the next request, so a stale answer is never read
//! as a new one.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use bughouse::{BoardId, BughouseMove, Game};
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::Instant;

use crate::lines::LineReader;
use crate::position::{engine_fen, read_move};
use crate::protocol::{Line, parse_line};
use crate::{Go, Info, UciError};

/// How the driver treats its engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSettings {
    /// The engine's hash table, in MiB (sent only if the engine has a `Hash` option).
    pub hash_mb: u32,
    /// How long the engine may take to start and answer `uciok` and `readyok`.
    pub handshake: Duration,
    /// How long past its allowance a search may take to answer (start-up of the search, the pipe,
    /// a loaded machine), and again after `stop`.
    pub margin: Duration,
}

impl Default for UciSettings {
    fn default() -> UciSettings {
        UciSettings { hash_mb: 16, handshake: Duration::from_secs(10), margin: Duration::from_secs(1) }
    }
}

/// The engine's move, with what its search said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move, legal on the board asked about.
    pub mv: BughouseMove,
    /// The move as the engine wrote it.
    pub text: String,
    /// The last depth, score and node count its `info` lines gave.
    pub info: Info,
}

/// A running UCI engine that plays bughouse, spoken to over its standard input and output.
#[derive(Debug)]
pub struct UciEngine {
    /// Killed when the driver is dropped (`kill_on_drop`).
    child: Child,
    stdin: ChildStdin,
    lines: LineReader<ChildStdout>,
    name: String,
    settings: UciSettings,
    /// A `go` was sent and its `bestmove` not yet read.
    searching: bool,
    /// Why the engine is unusable, once it is.
    broken: Option<String>,
}

impl UciEngine {
    /// Starts `program` with `args`, shakes hands and sets it up for bughouse with one thread.
    ///
    /// # Errors
    /// [`UciError::Spawn`] when it cannot be started; [`UciError::NoBughouse`] when it offers no
    /// `UCI_Variant` `bughouse`; a timeout, exit or malformed output during the handshake.
    pub async fn start(program: &Path, args: &[&str], settings: &UciSettings) -> Result<UciEngine, UciError> {
        let path = program.display().to_string();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| UciError::Spawn { path: path.clone(), reason: e.to_string() })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(UciError::Spawn { path, reason: "no pipes to the process".into() });
        };
        let mut engine = UciEngine {
            child,
            stdin,
            lines: LineReader::new(stdout),
            name: path,
            settings: settings.clone(),
            searching: false,
            broken: None,
        };
        let result = engine.handshake().await;
        engine.guard(result)?;
        Ok(engine)
    }

    /// The engine's name (its `id name`, else the program's path).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Tells the engine a new game starts (`ucinewgame`) and waits until it is ready.
    ///
    /// # Errors
    /// As [`UciEngine::best_move`], for the wait for `readyok`.
    pub async fn new_game(&mut self) -> Result<(), UciError> {
        self.usable()?;
        let result = async {
            self.settle().await?;
            self.send("ucinewgame").await?;
            self.sync().await
        }
        .await;
        self.guard(result)
    }

    /// Asks for the side to move's move on `board` of `game`, within `go`'s time.
    ///
    /// `Ok(None)` when the engine has no legal move (`bestmove (none)`): in shvedka's game that is
    /// waiting (M2, M3), since the engine's mate is not always mate on board (M1).
    ///
    /// # Errors
    /// [`UciError::Incompatible`] before asking, for rules the engine does not play;
    /// [`UciError::Refused`] for a move shvedka refuses (the engine stays usable); a timeout,
    /// exit, over-long or malformed line, after which the engine is killed and unusable.
    pub async fn best_move(
        &mut self,
        game: &Game,
        board: BoardId,
        go: Go,
    ) -> Result<Option<Answer>, UciError> {
        self.usable()?;
        let fen = engine_fen(game, board).map_err(UciError::Incompatible)?;
        let turn = game.board(board).turn();
        let result = self.search(&fen, go, go.allowance(turn)).await;
        let (text, info) = match self.guard(result)? {
            Some(found) => found,
            None => return Ok(None),
        };
        let mv = read_move(game, board, &text).map_err(UciError::Refused)?;
        Ok(Some(Answer { mv, text, info }))
    }

    /// Sends the position and `go`, and reads to `bestmove`: the move's text and the last info.
    async fn search(
        &mut self,
        fen: &str,
        go: Go,
        allowance: Duration,
    ) -> Result<Option<(String, Info)>, UciError> {
        self.settle().await?;
        self.send(&format!("position fen {fen}")).await?;
        self.send(&go.command()).await?;
        self.searching = true;
        let deadline = Instant::now() + allowance + self.settings.margin;
        let mut info = Info::default();
        match self.until_bestmove(deadline, &mut info).await {
            Err(UciError::Timeout { .. }) => {
                // Past its time: `stop` makes a sound engine answer at once.
                self.send("stop").await?;
                let waited = allowance + self.settings.margin * 2;
                let late = Instant::now() + self.settings.margin;
                match self.until_bestmove(late, &mut info).await {
                    Err(UciError::Timeout { .. }) => {
                        Err(UciError::Timeout { waiting_for: "bestmove", after: waited })
                    }
                    other => other.map(|mv| mv.map(|m| (m, info))),
                }
            }
            other => other.map(|mv| mv.map(|m| (m, info))),
        }
    }

    /// Reads lines until `bestmove`, keeping the figures of the `info` lines on the way.
    async fn until_bestmove(
        &mut self,
        deadline: Instant,
        info: &mut Info,
    ) -> Result<Option<String>, UciError> {
        loop {
            match self.read_line(deadline, "bestmove").await? {
                Line::Info(newer) => info.update(newer),
                Line::BestMove(mv) => {
                    self.searching = false;
                    return Ok(mv);
                }
                Line::Malformed(line) => return Err(UciError::Malformed { line }),
                _ => {}
            }
        }
    }

    /// Stops a search a dropped request left running and drains its `bestmove`.
    async fn settle(&mut self) -> Result<(), UciError> {
        if self.searching {
            self.send("stop").await?;
            let deadline = Instant::now() + self.settings.margin;
            self.until_bestmove(deadline, &mut Info::default()).await?;
        }
        Ok(())
    }

    async fn handshake(&mut self) -> Result<(), UciError> {
        let deadline = Instant::now() + self.settings.handshake;
        self.send("uci").await?;
        let mut options: Vec<(String, Vec<String>)> = Vec::new();
        loop {
            match self.read_line(deadline, "uciok").await? {
                Line::Name(name) if !name.is_empty() => self.name = name,
                Line::Option { name, vars } => options.push((name, vars)),
                Line::UciOk => break,
                _ => {}
            }
        }
        let has = |wanted: &str| options.iter().any(|(name, _)| name.eq_ignore_ascii_case(wanted));
        let bughouse = options.iter().any(|(name, vars)| {
            name.eq_ignore_ascii_case("UCI_Variant") && vars.iter().any(|v| v == "bughouse")
        });
        if !bughouse {
            return Err(UciError::NoBughouse { engine: self.name.clone() });
        }
        self.send("setoption name UCI_Variant value bughouse").await?;
        if has("Threads") {
            self.send("setoption name Threads value 1").await?;
        }
        if has("Hash") {
            self.send(&format!("setoption name Hash value {}", self.settings.hash_mb)).await?;
        }
        self.sync_until(deadline).await
    }

    /// `isready`, then waits for `readyok`.
    async fn sync(&mut self) -> Result<(), UciError> {
        let deadline = Instant::now() + self.settings.handshake;
        self.sync_until(deadline).await
    }

    async fn sync_until(&mut self, deadline: Instant) -> Result<(), UciError> {
        self.send("isready").await?;
        while self.read_line(deadline, "readyok").await? != Line::ReadyOk {}
        Ok(())
    }

    async fn read_line(&mut self, deadline: Instant, waiting_for: &'static str) -> Result<Line, UciError> {
        let started = Instant::now();
        match tokio::time::timeout_at(deadline, self.lines.next_line()).await {
            Ok(Ok(Some(line))) => {
                tracing::trace!(engine = %self.name, "< {line}");
                Ok(parse_line(&line))
            }
            Ok(Ok(None)) => Err(UciError::Exited { waiting_for }),
            Ok(Err(e)) => Err(e),
            Err(_) => {
                Err(UciError::Timeout { waiting_for, after: deadline.saturating_duration_since(started) })
            }
        }
    }

    async fn send(&mut self, line: &str) -> Result<(), UciError> {
        tracing::trace!(engine = %self.name, "> {line}");
        let write = async {
            self.stdin.write_all(format!("{line}\n").as_bytes()).await?;
            self.stdin.flush().await
        };
        // A pipe the engine does not read fills up: a write is bounded like a read.
        match tokio::time::timeout(self.settings.handshake, write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(UciError::Write { reason: e.to_string() }),
            Err(_) => Err(UciError::Timeout {
                waiting_for: "the engine to read its input",
                after: self.settings.handshake,
            }),
        }
    }

    fn usable(&self) -> Result<(), UciError> {
        match &self.broken {
            Some(cause) => Err(UciError::Unusable { cause: cause.clone() }),
            None => Ok(()),
        }
    }

    /// Passes a result on; a fatal error kills the engine and leaves it unusable.
    fn guard<T>(&mut self, result: Result<T, UciError>) -> Result<T, UciError> {
        if let Err(e) = &result
            && e.is_fatal()
        {
            tracing::warn!(engine = %self.name, "UCI engine unusable: {e}");
            self.broken = Some(e.to_string());
            let _ = self.child.start_kill();
        }
        result
    }
}
