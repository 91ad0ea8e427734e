//! End-to-end tests of shvedka live in this package's `tests/` directory: they drive the `shvedka`
//! command line (and, once the server exists, a real server on loopback with real clients).
