//! The web client's files (`web/`), embedded in the binary: path, content type, body.

/// Every file the HTTP side serves, by path.
pub(crate) const FILES: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("../../../web/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../../../web/app.js")),
    ("/codec.js", "text/javascript; charset=utf-8", include_str!("../../../web/codec.js")),
    ("/board.js", "text/javascript; charset=utf-8", include_str!("../../../web/board.js")),
    ("/transport.js", "text/javascript; charset=utf-8", include_str!("../../../web/transport.js")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../../../web/style.css")),
];
