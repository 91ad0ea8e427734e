//! The `shvedka` command. Everything lives in the library; this only hands over the arguments and
//! turns an error into a message and a failing exit code — and chooses the process's allocator.
//!
//! The allocator is mimalloc, not the C library's malloc. A server that runs for weeks creates and
//! drops matches, sessions and connections all along, allocated on one tokio worker thread and
//! freed on another. glibc's malloc keeps what such churn frees in per-thread arenas and gives
//! little of it back: ten minutes at 1,000 live matches (4,479 decided and replaced on the way)
//! grew the server's resident memory by 13.6 % from minute 2 to minute 10 and still rising, over
//! the 10 % aimed at (README, "Memory over time"). The same run with mimalloc in its place held
//! flat (+1.4 %, a sawtooth without a trend; jemalloc did as well, −2 %). mimalloc is chosen over
//! jemalloc because its crate builds its C source with the C compiler alone (which `./test`
//! installs), where jemalloc's runs a configure script and make. It is linked into this binary
//! only: the libraries and their tests keep the system's allocator.

use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut out = std::io::stdout().lock();
    match shvedka::run(std::env::args_os(), &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shvedka: {e:#}");
            ExitCode::from(shvedka::exit_code(&e))
        }
    }
}
