//! Logging in from the command line (`shvedka play`, `bot`, `arbiter`, `td`): `--account NAME`,
//! with the password from `--password-file`, else `SHVEDKA_PASSWORD`, else a prompt on the
//! terminal without echo — never from the command line, where every user of the machine can
//! read it (`ps`). Without `--account` a client connects as a guest.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use shvedka_client::{Client, Trust};

use crate::Failure;

/// The environment variable a password may come from.
pub(crate) const PASSWORD_ENV: &str = "SHVEDKA_PASSWORD";

/// How to log in.
#[derive(Debug, Args)]
pub(crate) struct LoginArgs {
    /// Log in as this account (password from --password-file, else SHVEDKA_PASSWORD, else a
    /// prompt; never on the command line).
    #[arg(long, value_name = "NAME")]
    pub(crate) account: Option<String>,
    /// Register the account first (`shvedka bot` registers it as a bot).
    #[arg(long, requires = "account")]
    register: bool,
    /// A file whose first line is the account's password.
    #[arg(long, value_name = "FILE", requires = "account")]
    password_file: Option<PathBuf>,
}

impl LoginArgs {
    /// Whether a log-in is asked for (`--account`).
    pub(crate) fn has_account(&self) -> bool {
        self.account.is_some()
    }

    /// Whether the account is registered first (`--register`).
    pub(crate) fn registers(&self) -> bool {
        self.register
    }

    /// Connects to the first of `addrs` that answers, logged in as the account when one is
    /// given, else as the guest `guest` (empty: the server names the guest).
    /// A refusal by the server is a [`shvedka_client::ClientError`] in the error's chain (exit
    /// status 1, [`crate::exit_code`]), for a caller to say in its reader's words.
    pub(crate) async fn connect(
        &self,
        addrs: &[std::net::SocketAddr],
        trust: Trust,
        guest: &str,
        bot: bool,
        question: &dyn Fn(&str) -> String,
    ) -> anyhow::Result<Client> {
        let Some(name) = &self.account else {
            return Ok(Client::connect_any(addrs, trust, guest).await?);
        };
        let password = read_password(self.password_file.as_deref(), &question(name))?;
        let mut client = Client::connect_any(addrs, trust, "").await?;
        if self.register {
            client.register(name, &password, bot).await?;
        } else {
            client.login(name, &password).await?;
        }
        Ok(client)
    }
}

/// A password: the first line of `file`, else `SHVEDKA_PASSWORD`, else typed at a prompt.
pub(crate) fn read_password(file: Option<&std::path::Path>, question: &str) -> anyhow::Result<String> {
    if let Some(path) = file {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        return Ok(text.lines().next().unwrap_or_default().to_owned());
    }
    if let Ok(p) = std::env::var(PASSWORD_ENV) {
        return Ok(p);
    }
    prompt(question)
}

/// Reads a line from the terminal without echoing it.
fn prompt(question: &str) -> anyhow::Result<String> {
    use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers, read};
    use ratatui::crossterm::terminal::{disable_raw_mode, enable_raw_mode};
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() {
        return Err(Failure {
            code: 2,
            message: format!(
                "no password: give --password-file or {PASSWORD_ENV} (standard input is not a terminal)"
            ),
        }
        .into());
    }
    let mut err = std::io::stderr();
    write!(err, "{question}")?;
    err.flush()?;
    enable_raw_mode().context("cannot read the password from the terminal")?;
    let mut line = String::new();
    let read_line = loop {
        match read() {
            Ok(Event::Key(k)) if k.kind != KeyEventKind::Release => match k.code {
                KeyCode::Enter => break Ok(()),
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
                    break Err(Failure { code: 1, message: "cancelled".into() });
                }
                KeyCode::Char(c) => line.push(c),
                KeyCode::Backspace => {
                    line.pop();
                }
                _ => {}
            },
            Ok(_) => {}
            Err(e) => break Err(Failure { code: 1, message: e.to_string() }),
        }
    };
    let _ = disable_raw_mode();
    writeln!(err)?;
    read_line?;
    Ok(line)
}
