//! Private matches by invitation. A match created unlisted gets a code: its id, a dot, and 128
//! random bits in hex (`12.3f9c…`). The id part only says which match to look at; the random
//! part is the secret, and the server keeps only the SHA-256 of the whole code (with the match,
//! so it survives a restart), as it does for session tokens. A private match is never listed,
//! and to a session without its code its id answers exactly as an id that does not exist — so
//! counting ids finds nothing. Its creator, whoever redeemed the code, its seated players and the
//! arbiters reach it.

use shvedka_proto::MatchId;

use crate::service::session::token_key;

/// A new code for match `id`.
pub(crate) fn new_code(id: MatchId) -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system random source works");
    let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}.{secret}", id.0)
}

/// The match a code names (not yet checked).
pub(crate) fn match_of(code: &str) -> Option<MatchId> {
    let (id, secret) = code.split_once('.')?;
    (secret.len() == 32 && secret.bytes().all(|b| b.is_ascii_hexdigit())).then_some(())?;
    id.parse().ok().map(MatchId)
}

/// What is stored of a code.
pub(crate) fn hash(code: &str) -> String {
    token_key(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_names_its_match_and_carries_128_random_bits() {
        let a = new_code(MatchId(12));
        let b = new_code(MatchId(12));
        assert_ne!(a, b, "random");
        assert_eq!(match_of(&a), Some(MatchId(12)));
        assert_eq!(a.len(), "12.".len() + 32);
        assert_eq!(match_of("12"), None);
        assert_eq!(match_of("12.xyz"), None);
        assert_eq!(match_of(&format!("x.{}", "0".repeat(32))), None);
        assert_ne!(hash(&a), hash(&b));
    }
}
