//! How a `shvedka load` run leaves a server: each of its matches ended and each of its sessions
//! logged out, so nothing it played stays live (an operator found 300 matches and 1,200 sessions
//! held 14 minutes after a run, and restored by a restart). A match in play is resigned by its
//! first player (E-rules: the match is decided, stored, and its task ends); one still counting
//! down is waited for first; then all four log out (their tokens never resume).

use std::time::Duration;

use shvedka_client::{Client, MatchModel, Update, Updates};
use shvedka_proto::{ClientMsg, PhaseView, ServerMsg};
use tokio::time::Instant;

/// How long a match may take to start and then to be decided once resigned.
const END_WAIT: Duration = Duration::from_secs(15);

/// The next update of any of a match's clients, with the client's index; `None` once every
/// client is gone. A client whose updates ended is not polled again.
pub(crate) async fn next_update(updates: &mut [Option<Updates>]) -> Option<(usize, Update)> {
    std::future::poll_fn(|cx| {
        let mut open = false;
        for (i, slot) in updates.iter_mut().enumerate() {
            let Some(u) = slot else { continue };
            match u.poll_recv(cx) {
                std::task::Poll::Ready(Some(update)) => return std::task::Poll::Ready(Some((i, update))),
                std::task::Poll::Ready(None) => *slot = None,
                std::task::Poll::Pending => open = true,
            }
        }
        if open { std::task::Poll::Pending } else { std::task::Poll::Ready(None) }
    })
    .await
}

/// Waits (at most [`END_WAIT`]) until the match the four sit in has started, so the run's
/// `--duration` is play and not its countdown; what the first client saw of it meanwhile.
pub(crate) async fn started(updates: &mut [Option<Updates>]) -> Option<MatchModel> {
    let deadline = Instant::now() + END_WAIT;
    let mut model = None;
    while !model
        .as_ref()
        .is_some_and(|m: &MatchModel| m.phase() != PhaseView::Countdown && m.phase() != PhaseView::Forming)
    {
        let Ok(Some((i, update))) = tokio::time::timeout_at(deadline, next_update(updates)).await else {
            break;
        };
        if let (0, Update::Server(msg)) = (i, &update) {
            let _ = MatchModel::follow(&mut model, msg, std::time::Instant::now(), Duration::ZERO);
        }
    }
    model
}

/// Ends the match the four `clients` sit in (`model` is what the first of them has seen of it)
/// and logs them out; `false` if the match could not be ended within [`END_WAIT`] (it is left to
/// the server's expiry: `forming_expiry_s`, or its clocks).
pub(crate) async fn finish<C: std::ops::Deref<Target = Client>>(
    clients: &[C],
    updates: &mut [Option<Updates>],
    model: &mut Option<MatchModel>,
) -> bool {
    let deadline = Instant::now() + END_WAIT;
    let mut resigned = false;
    let ended = loop {
        match model.as_ref().map(|m| (m.result().is_some(), m.phase())) {
            Some((true, _) | (_, PhaseView::Ended | PhaseView::Annulled)) => break true,
            Some((false, PhaseView::Running | PhaseView::Paused)) if !resigned => {
                resigned = clients[0].resign().await.is_ok();
            }
            _ => {}
        }
        let Ok(Some((i, update))) = tokio::time::timeout_at(deadline, next_update(updates)).await else {
            break false;
        };
        if let (0, Update::Server(msg)) = (i, &update) {
            let _ = MatchModel::follow(model, msg, std::time::Instant::now(), Duration::ZERO);
        }
        if let (0, Update::Server(ServerMsg::MatchClosed { .. })) = (i, &update) {
            break true;
        }
    };
    for c in clients {
        let _ = tokio::time::timeout(END_WAIT, c.request(ClientMsg::Logout)).await;
    }
    ended
}
