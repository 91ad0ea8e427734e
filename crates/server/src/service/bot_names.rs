//! The names of the server's own bots, which say what they are: `bot-7 ★★` is the server's
//! seventh bot of level 2. Only the server gives such a name (a guest's name may not hold the
//! star, `connection.rs`; an account's is ASCII), so a seat whose stored name has this form and
//! whose kind is `Bot` was the server's bot's: the match's own log says so, on every node of a
//! cluster, and a restart or a take-over starts a bot there again (`features/bots.rs`).

use shvedka_proto::PlayerKind;

/// The mark of a level: one star for each; no player's name may hold it.
pub(crate) const LEVEL_MARK: char = '★';

/// The name of the server's `n`th bot of `level`.
pub(crate) fn name(n: u64, level: u8) -> String {
    format!("bot-{n} {}", LEVEL_MARK.to_string().repeat(usize::from(level)))
}

/// The level of the server's bot that sat as `name` (of `kind`), if it was one.
pub(crate) fn level(name: &str, kind: Option<PlayerKind>) -> Option<u8> {
    if kind != Some(PlayerKind::Bot) {
        return None;
    }
    let (number, stars) = name.strip_prefix("bot-")?.split_once(' ')?;
    let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    let level = stars.chars().count();
    (digits && stars.chars().all(|c| c == LEVEL_MARK) && (1..=5).contains(&level)).then_some(level as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_bots_name_says_its_level_and_no_other_name_does() {
        assert_eq!(level(&name(7, 2), Some(PlayerKind::Bot)), Some(2));
        assert_eq!(level(&name(1, 5), Some(PlayerKind::Bot)), Some(5));
        // Not a bot's seat, or not the server's form.
        assert_eq!(level(&name(7, 2), Some(PlayerKind::Guest)), None);
        assert_eq!(level("bot-7 **", Some(PlayerKind::Bot)), None);
        assert_eq!(level("bot- ★", Some(PlayerKind::Bot)), None);
        assert_eq!(level("bot-3 ★★★★★★", Some(PlayerKind::Bot)), None);
        assert_eq!(level("sputnik", Some(PlayerKind::Bot)), None);
    }
}
