//! The `shvedka` command. Everything lives in the library; this only hands over the arguments and
//! turns an error into a message and a failing exit code.

use std::process::ExitCode;

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
