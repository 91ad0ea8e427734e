//! Which language the client speaks, and where the player's choice is remembered.
//!
//! The choice made with `/lang` is kept in a file of the user's configuration directory,
//! `$XDG_CONFIG_HOME/shvedka/language` (else `~/.config/shvedka/language`), holding `ru` or `en`.
//! At the start the `--lang` flag wins, then the remembered choice, then the locale environment
//! (`LC_ALL`, `LC_MESSAGES`, `LANG`).

use std::path::{Path, PathBuf};

use crate::i18n::Lang;

/// How the interface speaks, and where a new choice is remembered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The language.
    pub lang: Lang,
    /// The file a choice made with `/lang` is written to; `None` remembers nothing.
    pub store: Option<PathBuf>,
}

impl Settings {
    /// The settings of this process: `flag` (the `--lang` flag) wins, then the choice remembered
    /// in [`store_path`], then the locale environment.
    pub fn resolve(flag: Option<Lang>) -> Settings {
        let store = store_path(|name| std::env::var_os(name));
        let stored = store.as_deref().and_then(read_choice);
        Settings { lang: choose(flag, stored, Lang::from_env()), store }
    }
}

/// The flag wins over a remembered choice, which wins over the environment's locale.
pub fn choose(flag: Option<Lang>, stored: Option<Lang>, env: Lang) -> Lang {
    flag.or(stored).unwrap_or(env)
}

/// Where the choice is remembered: `$XDG_CONFIG_HOME/shvedka/language`, else
/// `$HOME/.config/shvedka/language`; `None` without either.
pub fn store_path(get: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let set = |name: &str| get(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = set("XDG_CONFIG_HOME").or_else(|| set("HOME").map(|h| h.join(".config")))?;
    Some(base.join("shvedka").join("language"))
}

/// The remembered choice in `path`, if the file holds one.
pub fn read_choice(path: &Path) -> Option<Lang> {
    let text = std::fs::read_to_string(path).ok()?;
    Lang::from_code(text.lines().next().unwrap_or_default())
}

/// Remembers `lang` in `path` (its directory made if need be; written whole, then renamed).
///
/// # Errors
/// The file system's.
pub fn write_choice(path: &Path, lang: Lang) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("new");
    std::fs::write(&tmp, format!("{}\n", lang.code()))?;
    std::fs::rename(&tmp, path)
}

/// Where an account's session on a server is kept between runs of `shvedka play`, beside the
/// remembered language (`language` is [`store_path`]): `sessions/<server>-<account>`, the name
/// reduced to letters, digits, `.` and `-` (the file itself says whose it is).
pub fn session_path(language: &Path, server: &str, account: &str) -> PathBuf {
    let clean = |s: &str| -> String {
        s.chars().map(|c| if c.is_alphanumeric() || c == '.' || c == '-' { c } else { '_' }).collect()
    };
    let dir = language.parent().unwrap_or(language).join("sessions");
    dir.join(format!("{}-{}", clean(server), clean(account)))
}

/// The session token kept in `path` for `account`, if the file is that account's.
pub fn read_session(path: &Path, account: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    (lines.next()? == account).then(|| lines.next().map(str::to_owned)).flatten().filter(|t| !t.is_empty())
}

/// Keeps `account`'s session token in `path`, readable by its owner alone (a token resumes the
/// session without a password, as a browser's kept one does).
///
/// # Errors
/// The file system's.
pub fn write_session(path: &Path, account: &str, token: &str) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("new");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp)?;
    writeln!(file, "{account}\n{token}")?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_then_the_remembered_choice_then_the_locale() {
        assert_eq!(choose(Some(Lang::En), Some(Lang::Ru), Lang::Ru), Lang::En);
        assert_eq!(choose(None, Some(Lang::Ru), Lang::En), Lang::Ru);
        assert_eq!(choose(None, Some(Lang::En), Lang::Ru), Lang::En);
        assert_eq!(choose(None, None, Lang::Ru), Lang::Ru);
    }

    #[test]
    fn the_choice_lives_in_the_users_configuration_directory() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v).into())
        };
        assert_eq!(
            store_path(env(&[("XDG_CONFIG_HOME", "/x"), ("HOME", "/home/a")])),
            Some(PathBuf::from("/x/shvedka/language"))
        );
        assert_eq!(
            store_path(env(&[("XDG_CONFIG_HOME", ""), ("HOME", "/home/a")])),
            Some(PathBuf::from("/home/a/.config/shvedka/language"))
        );
        assert_eq!(store_path(env(&[])), None);
    }

    #[test]
    fn a_session_kept_is_read_back_for_its_account_only_and_its_owner_alone_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        let language = dir.path().join("shvedka").join("language");
        let path = session_path(&language, "127.0.0.1:7475", "иван/../x");
        assert_eq!(path, dir.path().join("shvedka").join("sessions").join("127.0.0.1_7475-иван_.._x"));
        assert_eq!(read_session(&path, "иван/../x"), None, "nothing kept yet");
        write_session(&path, "иван/../x", "t0k3n").unwrap();
        assert_eq!(read_session(&path, "иван/../x").as_deref(), Some("t0k3n"));
        assert_eq!(read_session(&path, "other"), None, "another account's file is not used");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }

    #[test]
    fn a_choice_written_is_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shvedka").join("language");
        assert_eq!(read_choice(&path), None, "nothing remembered yet");
        write_choice(&path, Lang::Ru).unwrap();
        assert_eq!(read_choice(&path), Some(Lang::Ru));
        write_choice(&path, Lang::En).unwrap();
        assert_eq!(read_choice(&path), Some(Lang::En));
        std::fs::write(&path, "klingon\n").unwrap();
        assert_eq!(read_choice(&path), None, "a file that names no language is ignored");
    }
}
