//! The web client's files (`web/`), embedded in the binary: path, content type, body.

/// JavaScript modules of the web client (`web/*.js`), served at `/<name>`.
macro_rules! js {
    ($name:literal) => {
        (
            concat!("/", $name),
            "text/javascript; charset=utf-8",
            include_str!(concat!("../../../../web/", $name)),
        )
    };
}

/// The piece pictures (`web/pieces/*.svg`), served at `/pieces/<name>`.
macro_rules! svg {
    ($name:literal) => {
        (concat!("/pieces/", $name), "image/svg+xml", include_str!(concat!("../../../../web/pieces/", $name)))
    };
}

/// Every file the HTTP side serves, by path.
pub(crate) const FILES: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("../../../../web/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../../../../web/style.css")),
    js!("analysis.js"),
    js!("analysis-view.js"),
    js!("app.js"),
    js!("arbiter.js"),
    js!("board.js"),
    js!("board-view.js"),
    js!("chat.js"),
    js!("clocks.js"),
    js!("codec.js"),
    js!("gestures.js"),
    js!("lobby.js"),
    js!("login.js"),
    js!("match-state.js"),
    js!("match-view.js"),
    js!("moves.js"),
    js!("premove.js"),
    js!("quick.js"),
    js!("tournament.js"),
    js!("desk.js"),
    js!("exports.js"),
    js!("projector.js"),
    js!("entry.js"),
    js!("wall.js"),
    js!("i18n.js"),
    js!("locales/en.js"),
    js!("locales/ru.js"),
    js!("locales/rules.en.js"),
    js!("locales/rules.ru.js"),
    js!("rules.js"),
    js!("sound.js"),
    js!("notice.js"),
    js!("say.js"),
    js!("ratings.js"),
    js!("recent.js"),
    js!("report.js"),
    js!("record-review.js"),
    js!("explain.js"),
    js!("review.js"),
    js!("seats.js"),
    js!("session.js"),
    js!("transport.js"),
    svg!("wK.svg"),
    svg!("wQ.svg"),
    svg!("wR.svg"),
    svg!("wB.svg"),
    svg!("wN.svg"),
    svg!("wP.svg"),
    svg!("bK.svg"),
    svg!("bQ.svg"),
    svg!("bR.svg"),
    svg!("bB.svg"),
    svg!("bN.svg"),
    svg!("bP.svg"),
];
