//! The web client end to end in real headless Chromium (Debian's `chromium`, driven by
//! `playwright-core` from `web/e2e/`): four pages play a match to its end through WebTransport,
//! the same through the WebSocket fallback, a page that loses its connection resumes, and a page
//! fills its match with the server's bots and plays beside them, and a page joins a private match
//! by its invitation code, and four pages find a match by quick pairing. The
//! server runs in this process; the pages reach it at `http://127.0.0.1:PORT/`. Screenshots of
//! the match view land in `target/e2e/<test>/`.
//!
//! `.ci/run` installs Chromium; the first test to run installs `web/node_modules` from the
//! committed lock file (`npm ci`) when it is missing.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use shvedka_tests::TestServer;

pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";

pub(crate) fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../web")
}

/// `npm ci` once, under a file lock (nextest runs each test in its own process).
pub(crate) fn ensure_node_modules() {
    let web = web_dir();
    let lock = std::fs::File::create(std::env::temp_dir().join("shvedka-web-npm.lock")).expect("a lock file");
    lock.lock().expect("the npm lock");
    if !web.join("node_modules/playwright-core/package.json").exists() {
        let out = std::process::Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&web)
            .output()
            .unwrap_or_else(|e| panic!("npm is needed for the browser tests (apt-get install npm): {e}"));
        assert!(
            out.status.success(),
            "npm ci failed in web/:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    lock.unlock().expect("unlock");
}

/// Runs `web/e2e/match.mjs` against a fresh server; panics with its output unless it passed.
async fn run_e2e(test: &str, transport: &str, extra: &[&str]) {
    run_script("match.mjs", "", test, transport, extra).await;
}

/// Runs `web/e2e/SCRIPT` against a fresh server with the config `overrides`.
async fn run_script(script: &str, overrides: &str, test: &str, transport: &str, extra: &[&str]) {
    let server = TestServer::start(overrides).await;
    run_at(script, &server, test, transport, extra).await;
    server.stop().await;
}

/// Runs `web/e2e/SCRIPT` against `server`; panics with its output unless it passed.
async fn run_at(script: &str, server: &TestServer, test: &str, transport: &str, extra: &[&str]) {
    assert!(
        Path::new(CHROMIUM).exists(),
        "the browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    );
    ensure_node_modules();
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e").join(test);
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).expect("the screenshot directory");
    let url = format!("http://{}/", server.http);
    let mut command = tokio::process::Command::new("node");
    command
        .arg(web_dir().join("e2e").join(script))
        .args(["--url", &url, "--transport", transport, "--out"])
        .arg(&out_dir)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let child = command.spawn().expect("node runs");
    let output = tokio::time::timeout(Duration::from_secs(180), child.wait_with_output())
        .await
        .expect("the browser test ends within 3 minutes")
        .expect("node's output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(output.status.success(), "the browser test failed:\n{stdout}\n{stderr}");
    let shots = std::fs::read_dir(&out_dir)
        .expect("the screenshot directory")
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "png"))
        .count();
    assert!(shots >= 2, "expected screenshots in {}, found {shots}", out_dir.display());
}

/// Issue 22: two nodes of a cluster (one PostgreSQL, one NATS server); Anna's and Boris's pages
/// are served by node a, which runs the match Anna creates, Vera's and Gleb's (a phone) by node
/// b, which lists it, seats them, and forwards their every move to node a and relays every event
/// back. The whole match is played by gestures to mate, as on one node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e1_four_browser_pages_on_two_nodes_of_a_cluster_play_a_match_to_mate() {
    let (pg, nats) = (testkit::postgres::TempPostgres::start(), testkit::nats::TempNats::start());
    let node = |name: &str, cert: Option<&TestServer>| {
        let shared = cert.map_or_else(String::new, |first| {
            let dir = first.data_dir();
            format!("cert = {:?}\nkey = {:?}\n", dir.join("cert.pem"), dir.join("key.pem"))
        });
        format!(
            "database_url = {:?}\n{shared}[cluster]\nnode = {name:?}\n{}lease_ms = 2000\nlease_renew_ms = 250\n",
            pg.url,
            nats.node_settings()
        )
    };
    let a = TestServer::start(&node("node-a", None)).await;
    let b = TestServer::start(&node("node-b", Some(&a))).await;
    let url_b = format!("http://{}/", b.http);
    run_at("match.mjs", &a, "cluster", "websocket", &["--url2", &url_b]).await;
    a.stop().await;
    b.stop().await;
}

/// Issue 36: a spectator's page (Russian) on node a of a cluster follows a match; node a is cut
/// off from PostgreSQL and NATS and lets the match go; the page says so in Russian, keeps its
/// session while node a cannot reach its storage, and once the links heal follows the match again
/// with the move played on node b meanwhile (`web/e2e/elsewhere.mjs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_told_its_match_moved_says_so_in_russian_and_follows_it_again_after_the_heal() {
    use shvedka_proto::Board;
    use testkit::link::Mode;
    assert!(Path::new(CHROMIUM).exists(), "the browser tests need Debian's Chromium at {CHROMIUM}");
    ensure_node_modules();
    let c = crate::partition::cluster().await;
    let (id, mut players) = crate::partition::started(&c).await;
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/elsewhere");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).expect("the screenshot directory");
    let url = format!("http://{}/", c.a.http);
    let child = tokio::process::Command::new("node")
        .arg(web_dir().join("e2e/elsewhere.mjs"))
        .args(["--url", &url, "--transport", "websocket", "--out"])
        .arg(&out_dir)
        .args(["--match", &id.0.to_string(), "--then", "c5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs");
    // The page follows the match: node a is cut off.
    marker(&out_dir.join("watching")).await;
    for p in &mut players {
        p.drain().await;
    }
    c.pg_link.set(Mode::Blackhole);
    c.nats_link.set(Mode::Blackhole);
    for p in &mut players {
        p.move_on().await;
    }
    crate::partition::play_until_accepted(&mut players, 1, Board::A, "c5").await;
    // A few seconds of node a refusing the page's resumes, then the heal.
    tokio::time::sleep(Duration::from_secs(3)).await;
    c.pg_link.set(Mode::Pass);
    c.nats_link.set(Mode::Pass);
    script_passed(child).await;
}

/// Waits (bounded: 3 minutes) for a browser script started by a test and fails with its output
/// unless it passed.
pub(crate) async fn script_passed(child: tokio::process::Child) {
    let output = tokio::time::timeout(Duration::from_secs(180), child.wait_with_output())
        .await
        .expect("the browser test ends within 3 minutes")
        .expect("node's output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(output.status.success(), "the browser test failed:\n{stdout}\n{stderr}");
}

/// Waits (bounded: 60 s) for the marker file `path` a browser script writes.
async fn marker(path: &Path) {
    for _ in 0..600 {
        if path.exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the browser script never wrote {}", path.display());
}

/// Issue 36: a page whose session cannot be read back (the database does not answer) keeps it:
/// refused `Unavailable` on resuming, it says why and tries again, and resumes the same session
/// once the database answers, instead of starting a new one (`web/e2e/outage.mjs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_refused_while_the_database_does_not_answer_keeps_its_session_and_resumes_it() {
    use std::sync::atomic::Ordering;
    assert!(Path::new(CHROMIUM).exists(), "the browser tests need Debian's Chromium at {CHROMIUM}");
    ensure_node_modules();
    let dir = tempfile::tempdir().unwrap();
    let inner = shvedka_storage::open(None, dir.path()).await.unwrap();
    let store = shvedka_tests::FaultyStore::new(inner);
    let server = TestServer::start_with_store("", store.clone()).await;
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/outage");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).expect("the screenshot directory");
    let url = format!("http://{}/", server.http);
    let child = tokio::process::Command::new("node")
        .arg(web_dir().join("e2e/outage.mjs"))
        .args(["--url", &url, "--transport", "websocket", "--out"])
        .arg(&out_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs");
    marker(&out_dir.join("entered")).await;
    store.refuse_sessions.store(true, Ordering::SeqCst);
    std::fs::write(out_dir.join("refusing"), "").unwrap();
    marker(&out_dir.join("refused")).await;
    store.refuse_sessions.store(false, Ordering::SeqCst);
    script_passed(child).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e1_four_browser_pages_play_a_match_to_mate_over_webtransport() {
    run_e2e("webtransport", "webtransport", &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e1_four_browser_pages_play_a_match_to_mate_over_the_websocket_fallback() {
    run_e2e("websocket", "websocket", &[]).await;
}

/// Issue 31: four Russian browsers (one a phone) play to mate, a refused move and the result said
/// in Russian with their rules linked, then a rematch drawn by agreement; no English left on the
/// match screen (web/e2e/russian-night.mjs).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e1_e3_p1_four_russian_browsers_play_to_mate_and_draw_and_read_it_all_in_russian() {
    run_script("russian-night.mjs", "", "russian", "websocket", &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_a_browser_page_that_loses_its_connection_resumes() {
    run_e2e("resume", "webtransport", &["--resume"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2_the_arbiter_panel_pauses_adjusts_takes_back_and_declares() {
    let token = "e2e-arbiter-secret";
    let overrides = format!("arbiter_token = {token:?}\n");
    run_script("arbiter.mjs", &overrides, "arbiter", "webtransport", &["--token", token]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_page_fills_its_match_with_bots_that_play_at_a_human_pace() {
    run_script("bots.mjs", "", "bots", "websocket", &[]).await;
}

/// Issue 17: register, log in, play, reload (resumed), log out, a wrong password, log in again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_page_registers_plays_is_resumed_after_a_reload_and_logs_out() {
    run_script("account.mjs", "", "account", "websocket", &[]).await;
}

/// Issue 17: a private match is shown to its creator with its invitation code, is not listed, a
/// wrong code is refused with a clear message, and the right one lets another page join and sit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_page_joins_a_private_match_by_its_invitation_code_and_a_wrong_code_is_refused() {
    let server = TestServer::start("").await;
    // A listed match beside the private one: the page must list it (so its list has loaded)
    // and not the private one.
    let lister = server.client("lister").await;
    let listed = lister.create_match("classic", "3+0", true).await.expect("a listed match");
    let listed = listed.0.to_string();
    run_at("private.mjs", &server, "private", "websocket", &["--listed", &listed]).await;
    drop(lister);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p1_premoves_and_a_pre_drop_waiting_for_its_piece_are_sent_the_instant_they_can_be() {
    run_script("premove.mjs", "", "premove", "webtransport", &[]).await;
}

/// Issue 18: a rated match between four accounts in the browser shows what it made of their
/// ratings on every page, and the profile and leaderboard read them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_match_in_the_browser_shows_the_four_rating_changes_and_the_profile() {
    run_script("rated.mjs", "", "rated", "websocket", &[]).await;
}

/// Issue 20, point 5: after the match, all four accept a rematch and play it, colours swapped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_agreed_by_all_four_pages_seats_them_again_with_colours_swapped() {
    run_script("rematch.mjs", "", "rematch", "websocket", &[]).await;
}

/// Issue 20, point 8: a match reviewed move by move and by time, from the move list and by number.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_a_finished_match_is_reviewed_step_by_step_and_by_time() {
    run_script("review.mjs", "", "review", "webtransport", &[]).await;
}

/// Issue 35: an over-the-board record pasted (and, on a Russian phone, uploaded as a file) is
/// reviewed move by move with the check of A1 beside its moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a1_a4_an_over_the_board_record_is_reviewed_with_its_check_beside_the_moves() {
    run_script("record.mjs", "", "record", "websocket", &[]).await;
}

/// Issue 55 ("Shown by"): a match with a take-back, a corrected position and a pause
/// (`web/e2e/instants.mjs`): at three instants of match time — the move later taken back still on
/// the board, the pause, near the end — the review of the stored match and the review of its
/// downloaded record show the same boards, clocks and moves made as `shvedka arbiter show --at`.
/// The command line runs here, in this process (this crate links it; its binary is not built for
/// the tests): the script asks with `show-ask.json` and reads `show-done.json`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2_a4_k5_the_reviews_and_show_agree_at_three_instants_around_a_take_back_and_a_pause() {
    let token = "e2e-arbiter-secret";
    let overrides = format!("arbiter_token = {token:?}\n");
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/instants");
    let _ = std::fs::remove_dir_all(&out_dir);
    let (ask, done) = (out_dir.join("show-ask.json"), out_dir.join("show-done.json"));
    let shower = tokio::spawn(async move {
        while !ask.exists() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let asked: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ask).expect("the ask")).expect("the ask is JSON");
        let file = asked["file"].as_str().expect("the record's path").to_owned();
        let answers: Vec<serde_json::Value> = asked["at"]
            .as_array()
            .expect("the instants")
            .iter()
            .map(|at| {
                let ms = at.as_u64().expect("an instant in ms");
                let seconds = format!("{}.{:03}", ms / 1000, ms % 1000);
                let mut text = Vec::new();
                let argv = ["shvedka", "arbiter", "--lang", "en", "show", &file, "--at", &seconds];
                match shvedka::run(argv, &mut text) {
                    Ok(()) => {
                        serde_json::json!({ "at": ms, "ok": true, "text": String::from_utf8_lossy(&text) })
                    }
                    Err(e) => serde_json::json!({ "at": ms, "ok": false, "text": format!("{e:#}") }),
                }
            })
            .collect();
        let part = done.with_extension("part");
        std::fs::write(&part, serde_json::to_string(&answers).expect("JSON")).expect("the answer");
        std::fs::rename(&part, &done).expect("the answer in place");
    });
    run_script("instants.mjs", &overrides, "instants", "webtransport", &["--token", token]).await;
    shower.abort();
}

/// Issue 56, S1: a seat belongs to its account (`web/e2e/takeover.mjs`): a logged-in player's page
/// dies mid-match; on a fresh Russian phone he logs in, the lobby offers his match, he takes his
/// seat over and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_a_players_new_device_takes_his_seat_over_and_plays_on() {
    run_script("takeover.mjs", "", "takeover", "websocket", &[]).await;
}

/// Issue 35: a finished match reviewed with the engine's analysis: a bar beside each board, the
/// best move's arrow on the square it names, every position analysed in the background and the
/// queen left to be taken marked in the move list; on a Russian phone too. The engine searches
/// 20,000 nodes a board, so the debug build answers in a moment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a35_a_finished_match_is_reviewed_with_the_engines_analysis() {
    run_script("analysis.mjs", "analysis_nodes = 20000", "analysis", "websocket", &[]).await;
}

/// Issue 35: the analysis' marks of a chosen position, on a record that starts there (its BFEN
/// tag): the engine's best move on board A a promotion (R1) that removes White-B's queen, crossed
/// out on board B's c7, and board B's bar striped where Black-B has no move and waits for a piece
/// (M3); both gone after the promotion; on a Russian phone too (`web/e2e/removal.mjs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a35_r1_m3_a_promotions_removal_is_crossed_out_and_a_waiting_board_striped_in_the_review() {
    run_script("removal.mjs", "analysis_nodes = 20000", "removal", "websocket", &[]).await;
}

/// Issue 18: quick pairing in one click, the seek bar (waiting time, widening range, cancel), a
/// match found for four pages, and "play again with my partner" accepted on the partner's page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_seats_four_pages_in_one_match_and_partners_seek_again_together() {
    run_script("quick.mjs", "", "quick", "websocket", &[]).await;
}

/// Issue 30: a tournament in the browser. A director (a Rust client) creates a Swiss of four teams
/// over the board, starts it and pairs round 1; the projector page (`?projector=ID`, 1920×1080)
/// shows it by itself; a player's page shows his game's card and makes his team's S3 seating
/// choice, which the projector shows; the projector loses its connection and comes back, and
/// follows the four results the director enters while it is open; a
/// phone-sized page finds it in the lobby and opens it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_the_projector_and_a_phone_follow_a_tournament_as_the_director_enters_results() {
    use shvedka_proto::{Reply, TdOutcome, TdRequest};
    let server = TestServer::start("director_token = \"td-secret-of-the-night\"").await;
    let td = server.client("director").await;
    td.director("td-secret-of-the-night").await.expect("the director's secret");
    let id = match td
        .td(TdRequest::Create {
            name: "Осенний кубок".into(),
            rules: "mgimo-2017".into(),
            time_control: "3+2".into(),
            swiss_rounds: Some(3),
            online: false,
            check_in: false,
            chess960: false,
        })
        .await
    {
        Ok(Reply::Id(id)) => id,
        other => panic!("expected an id: {other:?}"),
    };
    for (n, team) in ["Ладьи", "Кони", "Слоны", "Ферзи"].iter().enumerate() {
        let players = [format!("p{n}a"), format!("p{n}b")];
        for p in &players {
            server.account(p).await.close().await;
        }
        td.td(TdRequest::Register { tournament: id, team: (*team).into(), players }).await.expect("register");
    }
    td.td(TdRequest::Start { tournament: id }).await.expect("start");
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 600_000 }).await.expect("round 1");
    // S3: the first player of the team named first at table 1 chooses the seating of game 1.
    let round = td.tournament_round(id, 1).await.expect("round 1");
    let seater = match &round.tables[0] {
        shvedka_proto::TableView::Pairing(p) => format!("p{}a", p.first - 1),
        other => panic!("table 1 is a pairing: {other:?}"),
    };
    // The director enters round 1's results while the projector is on the wall, once its page
    // has dropped its connection and come back (the script says so with a file).
    let ready = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/tournament/projector-ready");
    let _ = std::fs::remove_file(&ready);
    let director = tokio::spawn(async move {
        for _ in 0..900 {
            if ready.exists() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        for (i, outcome) in
            [TdOutcome::FirstWins, TdOutcome::Draw, TdOutcome::SecondWins, TdOutcome::FirstWins]
                .into_iter()
                .enumerate()
        {
            let (table, game) = (i as u32 / 2 + 1, i as u32 % 2 + 1);
            let result = TdRequest::Result {
                tournament: id,
                round: 1,
                table,
                game,
                outcome,
                reason: "над доской".into(),
                correct: false,
                end_game: false,
            };
            td.td(result).await.expect("a result");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        td
    });
    let id_arg = id.to_string();
    run_at(
        "tournament.mjs",
        &server,
        "tournament",
        "websocket",
        &["--tournament", &id_arg, "--teams", "4", "--points", "16", "--seater", &seater],
    )
    .await;
    director.await.expect("the director's task").close().await;
    server.stop().await;
}

/// Issue 30: a night run from the director's desk in the browser (`web/e2e/desk.mjs`): an account
/// with the director role creates a Swiss that asks for check-in, a player invites his partner
/// who accepts, the director registers three teams, closes registration, is warned of a Swiss
/// too long, starts, checks teams in beside a player who checks in himself, previews round 1,
/// changes it by hand and publishes it (the round names him; the team away is told it was not
/// paired), enters and corrects results that a phone follows; the projector shows the round; the
/// pairing sheet and standings print on A4; the role revoked, the desk goes without a new log-in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_a_director_runs_a_night_from_the_desk_with_invitations_check_in_and_a_pairing_by_hand() {
    let server = TestServer::start("").await;
    let players = ["anna", "boris", "vera", "gleb", "dina", "egor", "zhenya", "ilya"];
    for name in players.iter().chain(&["boss"]) {
        server.account(name).await.close().await;
    }
    let store = shvedka_storage::open(None, &server.data_dir()).await.expect("the data directory's database");
    let boss = store.account_by_name("boss").await.expect("the store").expect("registered");
    store.set_role(boss.id, shvedka_storage::Role::Director, true).await.expect("the director role");
    // The role is revoked while the desk is open, once the script says so.
    let revoke = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/desk/revoke-now");
    let _ = std::fs::remove_file(&revoke);
    let operator = tokio::spawn(async move {
        for _ in 0..1700 {
            if revoke.exists() {
                store.set_role(boss.id, shvedka_storage::Role::Director, false).await.expect("revoked");
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    run_at(
        "desk.mjs",
        &server,
        "desk",
        "websocket",
        &["--director", "boss", "--players", &players.join(",")],
    )
    .await;
    operator.await.expect("the operator's task");
    server.stop().await;
}

/// Issue 30: an online round on the wall (`web/e2e/wall.mjs`). A director (a Rust client) pairs
/// a Swiss of four teams played online; the S3 choices take their defaults, the server makes
/// each pairing's game 1; bots play every seat but one. The projector shows the live matches,
/// both boards and four clocks, and turns from one to the other by itself; the player of the
/// remaining seat takes it from his card with one click and says ready.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_the_wall_shows_the_live_matches_and_a_player_takes_his_seat_from_his_card() {
    use shvedka_proto::{Reply, TableView, TdRequest};
    let server = TestServer::start("director_token = \"td-secret-of-the-night\"").await;
    let td = server.client("director").await;
    td.director("td-secret-of-the-night").await.expect("the director's secret");
    let Ok(Reply::Id(id)) = td
        .td(TdRequest::Create {
            name: "Онлайн-вечер".into(),
            rules: "mgimo-2017".into(),
            time_control: "3+0".into(),
            swiss_rounds: Some(1),
            online: true,
            check_in: false,
            chess960: false,
        })
        .await
    else {
        panic!("created")
    };
    let mut names = Vec::new();
    for (n, team) in ["Ладьи", "Кони", "Слоны", "Ферзи"].iter().enumerate() {
        let players = [format!("w{n}a"), format!("w{n}b")];
        for p in &players {
            server.account(p).await.close().await;
        }
        names.extend(players.clone());
        td.td(TdRequest::Register { tournament: id, team: (*team).into(), players }).await.expect("register");
    }
    td.td(TdRequest::Start { tournament: id }).await.expect("start");
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 500 }).await.expect("round 1");
    // The defaults after the deadline seat game 1 of each pairing; its match is made.
    let human = loop {
        let round = td.tournament_round(id, 1).await.expect("round 1");
        let TableView::Pairing(p) = &round.tables[0] else { panic!("table 1 is a pairing") };
        if let (Some(seats), Some(_)) = (&p.games[0].seats, p.games[0].match_id) {
            break seats[0].clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let mut bots = tokio::task::JoinSet::new();
    for name in names.into_iter().filter(|n| *n != human) {
        let mut c = server.account(&name).await;
        bots.spawn(async move {
            let config = shvedka_bot::BotConfig { level: 1, chat: false, pace: Duration::from_millis(700) };
            let _ = shvedka_bot::play_tournament(&mut c, id, &config, Duration::from_secs(120)).await;
        });
    }
    let id_arg = id.to_string();
    run_at("wall.mjs", &server, "wall", "websocket", &["--tournament", &id_arg, "--player", &human]).await;
    bots.abort_all();
    server.stop().await;
}

/// Issue 57, item 8: the projector of 24 teams in play (`web/e2e/projector.mjs`). A Swiss of 24
/// teams online, round 1 paired with the defaults taken at once: every table's game 1 has its
/// match; the director decides game 1 of tables 1–6, whose game 2 is then made. The wall at
/// 1920×1080 shows a live match, the standings with the whole crosstable, and the round, each
/// page whole on the screen in large type; a phone at the same address gets the page flowing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_the_projector_fits_1920_by_1080_with_24_teams_in_play() {
    use shvedka_proto::{Reply, TableView, TdOutcome, TdRequest};
    let server = TestServer::start("director_token = \"td-secret-of-the-night\"").await;
    let td = server.client("director").await;
    td.director("td-secret-of-the-night").await.expect("the director's secret");
    let Ok(Reply::Id(id)) = td
        .td(TdRequest::Create {
            name: "Кубок факультетов".into(),
            rules: "mgimo-2017".into(),
            time_control: "3+0".into(),
            swiss_rounds: Some(5),
            online: true,
            check_in: false,
            chess960: false,
        })
        .await
    else {
        panic!("created")
    };
    for n in 1..=24 {
        let players = [format!("p{n}a"), format!("p{n}b")];
        for p in &players {
            server.account(p).await.close().await;
        }
        td.td(TdRequest::Register { tournament: id, team: format!("Команда {n}"), players })
            .await
            .expect("register");
    }
    td.td(TdRequest::Start { tournament: id }).await.expect("start");
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 0 }).await.expect("round 1");
    // Every game 1's match made (the defaults at once), then six of them decided by the director.
    let made = |round: &shvedka_proto::RoundView, game: usize| {
        round
            .tables
            .iter()
            .filter(|t| matches!(t, TableView::Pairing(p) if p.games[game].match_id.is_some()))
            .count()
    };
    let mut waited = 0;
    while made(&td.tournament_round(id, 1).await.expect("round 1"), 0) < 12 {
        waited += 1;
        assert!(waited < 200, "every table's game 1 has its match");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for table in 1..=6 {
        let outcome = [TdOutcome::FirstWins, TdOutcome::SecondWins, TdOutcome::Draw][table as usize % 3];
        td.td(TdRequest::Result {
            tournament: id,
            round: 1,
            table,
            game: 1,
            outcome,
            reason: "проверка".into(),
            correct: false,
            end_game: true,
        })
        .await
        .expect("the director decides game 1");
    }
    waited = 0;
    while made(&td.tournament_round(id, 1).await.expect("round 1"), 1) < 6 {
        waited += 1;
        assert!(waited < 200, "game 2 of the decided tables has its match");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let id_arg = id.to_string();
    run_at("projector.mjs", &server, "projector", "websocket", &["--tournament", &id_arg]).await;
    server.stop().await;
}

/// Issue 31: the rules page (`?rules`, `web/e2e/rules.mjs`). A phone whose browser speaks Russian
/// reads the rules in Russian (no English rule text, nothing wider than the screen), lands on P3
/// from the contents (marked), on M1 from P3's text, and on R3 from a fresh load of
/// `ruleHref("R3")`; an English desktop opens the rules from the header's link in a tab of their
/// own, lands on P3, switches to Russian and back on it, and goes back to the lobby.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p3_the_rules_page_lands_on_a_rule_in_russian_on_a_phone_and_in_english_on_a_desktop() {
    run_script("rules.mjs", "", "rules", "websocket", &[]).await;
}

/// The web client's modules type-check (`// @ts-check`, JSDoc types, `web/tsconfig.json`).
#[test]
fn the_web_client_type_checks() {
    ensure_node_modules();
    let out = std::process::Command::new(web_dir().join("node_modules/.bin/tsc"))
        .args(["-p", "."])
        .current_dir(web_dir())
        .output()
        .expect("tsc runs");
    assert!(
        out.status.success(),
        "tsc found errors:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Issue 57, item 1: a director's result for a game in play, from the desk in Russian
/// (`web/e2e/in-play.mjs`): asked first (declined, nothing entered), then confirmed; the match
/// ends with his result and words, its players are told, and the tournament has the same result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_a_director_ends_a_game_in_play_from_the_desk_only_when_he_confirms() {
    use shvedka_proto::EventView;
    let server = TestServer::start("").await;
    server.account("boss").await.close().await;
    let store = shvedka_storage::open(None, &server.data_dir()).await.expect("the data directory's database");
    let boss = store.account_by_name("boss").await.expect("the store").expect("registered");
    store.set_role(boss.id, shvedka_storage::Role::Director, true).await.expect("the director role");
    let td = server.account("boss").await;
    let (id, m, mut players) = crate::tournament_results::game_one_in_play(&server, &td).await;
    let (id_arg, m_arg) = (id.to_string(), m.0.to_string());
    run_at(
        "in-play.mjs",
        &server,
        "in-play",
        "websocket",
        &[
            "--director",
            "boss",
            "--tournament",
            &id_arg,
            "--match",
            &m_arg,
            "--player",
            "t2a",
            "--partner",
            "t2b",
        ],
    )
    .await;
    // t1a's client (t2a's seat went to his page).
    let ended = shvedka_tests::wait_event(&mut players[0], |e| matches!(e.kind, EventView::Ended(_))).await;
    let EventView::Ended(r) = ended.kind else { unreachable!() };
    assert_eq!(r.note.as_deref(), Some("команда покинула зал"), "the players read the director's words");
    server.stop().await;
}
