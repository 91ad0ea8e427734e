//! An official's shared secret for `shvedka arbiter` and `shvedka td` (the server's
//! `arbiter_token`, `director_token`): from `--token-file`, else the role's environment variable —
//! never from the command line, where every user of the machine reads it (`ps`,
//! `/proc/*/cmdline`), as passwords never are ([`crate::login_args`]). A `--token` given anyway is
//! refused with where to put it instead.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;

use crate::Failure;

/// Where an official's secret comes from.
#[derive(Debug, Args)]
pub(crate) struct SecretArgs {
    /// A file whose first line is the role's secret (the server's `arbiter_token` for `arbiter`,
    /// `director_token` for `td`); else the environment (SHVEDKA_ARBITER_TOKEN,
    /// SHVEDKA_DIRECTOR_TOKEN). Not needed when --account has the role.
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Refused: a secret on the command line is read by every user of the machine.
    #[arg(long, hide = true, value_name = "SECRET")]
    token: Option<String>,
}

impl SecretArgs {
    /// The secret, from the file, else from `env`; `None` when neither gives one and `account`
    /// is logged in instead.
    ///
    /// # Errors
    /// A [`Failure`] of status 2 for a `--token` on the command line, an unreadable or empty file,
    /// or no secret and no account.
    pub(crate) fn secret(&self, env: &str, account: bool) -> anyhow::Result<Option<String>> {
        if self.token.is_some() {
            return Err(usage(format!(
                "--token puts the secret on the command line, where every user of this machine reads it (ps): put it in {env}, or in a file given with --token-file"
            )));
        }
        if let Some(path) = &self.token_file {
            return read(path).map(Some);
        }
        match std::env::var(env) {
            Ok(secret) if !secret.is_empty() => Ok(Some(secret)),
            _ if account => Ok(None),
            _ => Err(usage(format!(
                "no secret and no account: give --account NAME (an account with the role), {env}, or --token-file FILE"
            ))),
        }
    }
}

/// The first line of `path`, which must hold one.
fn read(path: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the secret from {}", path.display()))
        .map_err(|e| usage(format!("{e:#}")))?;
    let line = text.lines().next().unwrap_or_default().trim_end();
    if line.is_empty() {
        return Err(usage(format!("{}: its first line is empty, where the secret goes", path.display())));
    }
    Ok(line.to_owned())
}

fn usage(message: String) -> anyhow::Error {
    Failure { code: 2, message }.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(token_file: Option<&Path>, token: Option<&str>) -> SecretArgs {
        SecretArgs { token_file: token_file.map(Path::to_path_buf), token: token.map(str::to_owned) }
    }

    fn status(e: &anyhow::Error) -> u8 {
        e.downcast_ref::<Failure>().map_or(0, |f| f.code)
    }

    #[test]
    fn a_secret_on_the_command_line_is_refused_with_where_to_put_it() {
        let e =
            args(None, Some("s3cret-whistle-of-arbiters")).secret("NO_SUCH_VARIABLE_X1", true).unwrap_err();
        assert_eq!(status(&e), 2);
        let text = format!("{e:#}");
        assert!(text.contains("NO_SUCH_VARIABLE_X1") && text.contains("--token-file"), "{text}");
        assert!(!text.contains("s3cret"), "the secret is not repeated: {text}");
    }

    #[test]
    fn the_file_gives_its_first_line_and_an_empty_or_missing_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "s3cret-whistle-of-arbiters\nignored\n").unwrap();
        let secret = args(Some(&file), None).secret("NO_SUCH_VARIABLE_X2", false).unwrap();
        assert_eq!(secret.as_deref(), Some("s3cret-whistle-of-arbiters"));
        std::fs::write(&file, "\n").unwrap();
        let e = args(Some(&file), None).secret("NO_SUCH_VARIABLE_X2", false).unwrap_err();
        assert_eq!(status(&e), 2, "{e:#}");
        let e =
            args(Some(&dir.path().join("missing")), None).secret("NO_SUCH_VARIABLE_X2", false).unwrap_err();
        assert!(format!("{e:#}").contains("cannot read the secret from"), "{e:#}");
    }

    #[test]
    fn without_a_secret_an_account_is_needed() {
        assert_eq!(args(None, None).secret("NO_SUCH_VARIABLE_X3", true).unwrap(), None, "the account's role");
        let e = args(None, None).secret("NO_SUCH_VARIABLE_X3", false).unwrap_err();
        assert_eq!(status(&e), 2);
        assert!(format!("{e:#}").contains("--account NAME"), "{e:#}");
    }
}
