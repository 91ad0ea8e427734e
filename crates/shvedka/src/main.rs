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
//!
//! The process takes no transparent huge pages. mimalloc asks the kernel for them on its arenas
//! (`madvise`), and each first touch of one then zeroes 2 MiB in the page fault: when 2,000
//! spectators arrived at once, a fifth of the server's CPU in those seconds was the kernel
//! clearing huge pages (`perf`: `clear_page_erms` under `do_huge_pmd_anonymous_page`), and the
//! honest players' p99 in the attack suite's crowd went from 42–52 ms to 22–36 ms without them,
//! RSS from 323–332 MiB to 265–272 MiB (docs/benchmarks.md, the attack suite's crowd).

use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Faults after this take small pages; the few huge ones touched before main stay.
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::thread::disable_transparent_huge_pages(true) {
        eprintln!("shvedka: cannot turn transparent huge pages off for this process: {e}");
    }
    let mut out = std::io::stdout().lock();
    match shvedka::run(std::env::args_os(), &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line: some errors' texts (TOML's) end with a line break of their own.
            eprintln!("shvedka: {}", format!("{e:#}").trim_end());
            ExitCode::from(shvedka::exit_code(&e))
        }
    }
}
