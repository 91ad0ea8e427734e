//! Issue 58, backups while serving, shown under load: `shvedka admin backup FILE` taken while the
//! server's own bots play several matches at once (some decided by then, the others moving
//! every few tens of milliseconds) holds every event the server had acknowledged before it
//! began, and nothing it had not by its end; restored (the file as `shvedka.db` in a data
//! directory of its own), a server serves every account, every decided match's record as the
//! live server wrote it, and resumes each match that was in play from the backup's last
//! acknowledged move: paused as after a restart (K6), its bots sit again and play on.
//!
//! What was acknowledged is what spectators were sent: the server sends an event only once it
//! is stored (write-ahead), so every event a watcher of the live server had received before the
//! backup began must be in the backup, and every event in the backup is in the live server's
//! log (its review, read after the backup ended) at the same place.

use std::collections::BTreeMap;
use std::time::Duration;

use shvedka_client::{Client, Trust, Update};
use shvedka_proto::{ClientMsg, EventView, MatchEvent, MatchId, PauseReason, PhaseView, Reply, ServerMsg};
use shvedka_tests::process::Served;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The short controls are decided within seconds, mostly on time (a bot spends a share of what is
/// left on its clock, never under the pace); the long ones are still in play at the backup (a bot
/// takes about a fortieth of its clock a move) and after the restore.
const TIME_CONTROLS: [&str; 6] = ["1s+0", "2s+0", "4s+0", "6s+0", "20s+0", "30s+0"];

/// Settings of both servers: bots for every seat (and again after the restore), a fast pace,
/// and the per-address limits lifted (every client and bot comes from 127.0.0.1).
const SETTINGS: &str = "max_bots = 40\nbot_pace_ms = 10\nmax_open_matches_per_session = 10\n\
    registrations_per_address_per_hour = 10000\nguest_sessions_per_address_per_hour = 100000\n\
    new_connections_per_address_per_second = 100000\n";

/// The accounts, registered while the bots play.
const ACCOUNTS: [(&str, &str); 3] =
    [("alice", "alice-password-1"), ("boris", "boris-password-1"), ("vera", "vera-password-1")];

/// The bound of every wait for the live server's matches (a start, two decisions).
const LOAD_WAIT: Duration = Duration::from_secs(60);

/// The bound of the wait for a restored match's bots to play on.
const RESUME_WAIT: Duration = Duration::from_secs(30);

/// What one match's spectator had been sent.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// The highest `seq` sent (an event, or a state's `last_seq`).
    last_seq: Option<u64>,
    started: bool,
    decided: bool,
    moves: usize,
}

impl Seen {
    fn took(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Event(e) => {
                self.last_seq = self.last_seq.max(Some(e.seq));
                match e.kind {
                    EventView::Started => self.started = true,
                    EventView::Moved { .. } => self.moves += 1,
                    EventView::Ended(_) => self.decided = true,
                    _ => {}
                }
            }
            // A spectator too far behind is sent the latest state instead of the events missed.
            ServerMsg::State(s) => {
                self.last_seq = self.last_seq.max(s.last_seq);
                self.started |= !matches!(s.phase, PhaseView::Forming | PhaseView::Countdown);
                self.decided |= s.result.is_some();
                self.moves = self.moves.max(s.moves.len());
            }
            _ => {}
        }
    }

    fn in_play(&self) -> bool {
        self.started && !self.decided
    }
}

fn restart_pause(e: &MatchEvent) -> bool {
    e.kind == EventView::Paused { reason: PauseReason::Restart }
}

/// Every event of match `id` that `c`'s server has stored, by pages of its review.
async fn review(c: &Client, id: MatchId) -> Vec<MatchEvent> {
    let mut events = Vec::new();
    let mut after = None;
    loop {
        let reply = c.request(ClientMsg::Review { match_id: id, after }).await;
        let Ok(Reply::Review { events: page, next, .. }) = reply else {
            panic!("the review of match {id}: {reply:?}");
        };
        events.extend(page);
        match next {
            Some(n) => after = Some(n),
            None => return events,
        }
    }
}

fn sans(events: &[MatchEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventView::Moved { san, .. } => Some(san.as_str()),
            _ => None,
        })
        .collect()
}

/// The next update of `c` before `deadline`, or a panic saying what was awaited.
async fn update_before(c: &mut Client, deadline: Instant, what: &str) -> Update {
    match tokio::time::timeout_at(deadline, c.next_update()).await {
        Ok(Some(u)) => u,
        Ok(None) => panic!("the connection ended while awaiting {what}"),
        Err(_) => panic!("no {what} within its bound"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_a_backup_under_a_bot_load_restores_every_decided_record_every_account_and_resumes_play() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let Served { child: mut server, addr, pin, .. } =
        crate::restart::serve_with(dir.path(), "127.0.0.1:0", "", SETTINGS);
    let trust = || Trust::Fingerprint(pin);

    // The load: six matches of four of the server's bots each, watched from their creation.
    let host = Client::connect(addr, trust(), "host").await.unwrap();
    let (tx, mut seen_rx) = mpsc::unbounded_channel::<(usize, ServerMsg)>();
    let mut watchers = tokio::task::JoinSet::new();
    let mut ids = Vec::new();
    for (i, tc) in TIME_CONTROLS.into_iter().enumerate() {
        let id = host.create_match("mgimo-2017", tc, true).await.unwrap();
        let mut watcher = Client::connect(addr, trust(), &format!("watcher-{i}")).await.unwrap();
        watcher.watch(id).await.unwrap();
        let tx = tx.clone();
        watchers.spawn(async move {
            while let Some(Update::Server(msg)) = watcher.next_update().await {
                if tx.send((i, msg)).is_err() {
                    return;
                }
            }
        });
        host.request(ClientMsg::FillWithBots { match_id: id, level: 1 }).await.expect("four bots sit");
        ids.push(id);
    }
    drop(tx);
    let mut seen = vec![Seen::default(); ids.len()];
    let took = |seen: &mut Vec<Seen>, (i, msg): (usize, ServerMsg)| seen[i].took(&msg);

    // Accounts registered while the bots play.
    let mut accounts = Vec::new();
    for (name, password) in ACCOUNTS {
        let mut c = Client::connect(addr, trust(), "").await.unwrap();
        c.register(name, password, false).await.expect("an account");
        accounts.push(c);
    }

    // The backup's moment: every match started, two decided, and one in play with moves played.
    let deadline = Instant::now() + LOAD_WAIT;
    let ready = |seen: &[Seen]| {
        seen.iter().all(|s| s.started)
            && seen.iter().filter(|s| s.decided).count() >= 2
            && seen.iter().any(|s| s.in_play() && s.moves >= 4)
    };
    while !ready(&seen) {
        match tokio::time::timeout_at(deadline, seen_rx.recv()).await {
            Ok(Some(m)) => took(&mut seen, m),
            Ok(None) => panic!("the watchers' connections ended: {seen:?}"),
            Err(_) => panic!("not two matches decided and one in play within {LOAD_WAIT:?}: {seen:?}"),
        }
    }
    // Just before the backup: everything the spectators had been sent by now.
    while let Ok(m) = seen_rx.try_recv() {
        took(&mut seen, m);
    }
    let before = seen.clone();
    let file = dir.path().join("under-load.db");
    let started = std::time::Instant::now();
    let out = tokio::task::spawn_blocking({
        let (data, file) = (data.clone(), file.clone());
        move || crate::backup_cli::backup(&data, &file)
    })
    .await
    .unwrap();
    let backup_took = started.elapsed();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}{said}", String::from_utf8_lossy(&out.stderr));
    let accounts_said = format!("{} accounts", ACCOUNTS.len());
    assert!(said.contains(&format!("{} matches, ", ids.len())) && said.contains(&accounts_said), "{said}");
    // Just after: what the live server had stored, read now (a backup holds nothing it had not).
    while let Ok(m) = seen_rx.try_recv() {
        took(&mut seen, m);
    }
    let mut live = Vec::new();
    let mut records = BTreeMap::new();
    for (i, &id) in ids.iter().enumerate() {
        let log = review(&host, id).await;
        assert!(
            log.len() as u64 > before[i].last_seq.expect("every match has events"),
            "match {id}: the live review is shorter than what its spectator was sent"
        );
        if log.iter().any(|e| matches!(e.kind, EventView::Ended(_))) {
            records.insert(i, host.record(id).await.expect("a decided match's record"));
        }
        live.push(log);
    }
    let moved_during: usize =
        seen.iter().zip(&before).map(|(after, before)| after.moves - before.moves).sum();
    // Dropped, not closed: the server is killed, as a crashed one would be.
    drop((accounts, host));
    watchers.shutdown().await;
    server.kill().unwrap();
    server.wait().unwrap();

    // Restored as the operators' guide says: the file as shvedka.db, the owner's alone.
    let restored = tempfile::tempdir().unwrap();
    std::fs::create_dir(restored.path().join("data")).unwrap();
    let db = restored.path().join("data/shvedka.db");
    std::fs::copy(&file, &db).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let Served { child: mut server, addr, pin, .. } =
        crate::restart::serve_with(restored.path(), "127.0.0.1:0", "", SETTINGS);
    let trust = || Trust::Fingerprint(pin);
    let mut logins = tokio::task::JoinSet::new();
    for (name, password) in ACCOUNTS {
        logins.spawn(async move {
            (name, Client::connect_as(addr, Trust::Fingerprint(pin), name, password).await)
        });
    }
    while let Some(joined) = logins.join_next().await {
        let (name, login) = joined.unwrap();
        login.unwrap_or_else(|e| panic!("the account {name} logs in on the restored server: {e}"));
    }

    let reader = Client::connect(addr, trust(), "reader").await.unwrap();
    let (mut decided, mut resumed, mut flagged_after) = (0, 0, 0);
    let (mut checked_events, mut checked_moves) = (0, 0);
    for (i, &id) in ids.iter().enumerate() {
        let restored_log = review(&reader, id).await;
        // The backup's part of the log: up to the pause the restore added, if any.
        let cut = restored_log.iter().position(restart_pause).unwrap_or(restored_log.len());
        let backed = &restored_log[..cut];
        let log = &live[i];
        assert!(
            backed.len() <= log.len(),
            "match {id}: the backup holds events the live server had not stored"
        );
        if let Some(at) = backed.iter().zip(log).position(|(b, l)| b != l) {
            panic!("match {id}: event {at} differs from the live one:\n{:?}\n{:?}", backed[at], log[at]);
        }
        let acknowledged = before[i].last_seq.unwrap();
        assert!(
            backed.len() as u64 > acknowledged,
            "match {id}: the backup holds its events up to seq {:?}, but event {acknowledged} was \
             acknowledged before the backup began",
            backed.last().map(|e| e.seq)
        );
        checked_events += backed.len();
        checked_moves += sans(backed).len();
        let backed_decided = backed.iter().any(|e| matches!(e.kind, EventView::Ended(_)));
        assert!(backed_decided || !before[i].decided, "match {id} was decided before the backup");
        if backed_decided {
            let record = reader.record(id).await.expect("the restored record");
            assert_eq!(record, records[&i], "match {id}: its record, restored");
            assert_eq!(cut, restored_log.len(), "match {id}: a decided match is not resumed");
            decided += usize::from(before[i].decided);
            continue;
        }

        // In play at the backup: restored paused right after its last backed-up event, from
        // the position every acknowledged move made; its bots sit again and play on.
        assert_eq!(restored_log.get(cut).map(|e| e.seq), Some(cut as u64), "match {id}: the restart pause");
        let mut watcher = Client::connect(addr, trust(), &format!("restored-watcher-{i}")).await.unwrap();
        let deadline = Instant::now() + RESUME_WAIT;
        // A short control whose clock was nearly out at the backup may have resumed and ended on
        // time while the matches before it were checked: it is not live to watch then.
        let watched = watcher.watch(id).await;
        if watched.is_ok() {
            let state = loop {
                if let Update::Server(ServerMsg::State(s)) =
                    update_before(&mut watcher, deadline, "the restored match's state").await
                {
                    break s;
                }
            };
            let played: Vec<&str> = state.moves.iter().map(|m| m.san.as_str()).collect();
            assert!(
                played.starts_with(&sans(backed)),
                "match {id}: the restored position's moves {played:?} do not start with the backup's {:?}",
                sans(backed)
            );
            // A move after the restart's pause, in the state already or awaited (or its end).
            let mut done = played.len() > sans(backed).len() || state.result.is_some();
            while !done {
                match update_before(&mut watcher, deadline, "a move of the restored match's bots").await {
                    Update::Server(ServerMsg::Event(e)) => {
                        done = matches!(e.kind, EventView::Moved { .. } | EventView::Ended(_));
                    }
                    Update::Server(_) => {}
                    Update::Disconnected(why) => {
                        panic!("the restored match's watcher lost its connection: {why}")
                    }
                }
            }
        }
        watcher.close().await;
        let resumed_log = review(&reader, id).await;
        assert_eq!(&resumed_log[..=cut], &restored_log[..=cut], "match {id}: its log, restored, is kept");
        let after = &resumed_log[cut..];
        let over = after.iter().any(|e| matches!(e.kind, EventView::Ended(_)));
        assert!(watched.is_ok() || over, "match {id} cannot be watched on the restored server: {watched:?}");
        let again = after
            .iter()
            .position(|e| e.kind == EventView::Resumed { reason: PauseReason::Restart })
            .unwrap_or_else(|| panic!("match {id}: not resumed after the restore: {after:?}"));
        if after[again..].iter().any(|e| matches!(e.kind, EventView::Moved { .. })) {
            resumed += 1;
        } else {
            // No move: then it is over, on the clock that was nearly out.
            assert!(
                after[again..].iter().any(|e| matches!(e.kind, EventView::FlagFell { .. })),
                "match {id}: resumed after the restore, but with neither a move nor a flag: {after:?}"
            );
            flagged_after += 1;
        }
    }
    assert!(decided >= 2 && resumed >= 1, "{decided} decided, {resumed} resumed");
    eprintln!(
        "{} matches: {decided} decided before the backup with their records, {resumed} resumed \
         and played on ({flagged_after} more flagged on resuming); {checked_events} events \
         ({checked_moves} moves) of the backup checked against the live log; {moved_during} moves \
         seen during the {backup_took:?} of the backup; {} accounts",
        ids.len(),
        ACCOUNTS.len()
    );
    server.kill().unwrap();
    server.wait().unwrap();
}
