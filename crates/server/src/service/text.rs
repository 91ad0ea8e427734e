//! What text a person types may hold: names and chat are shown to others, so they may not hold
//! characters that hide or reorder what is shown — control characters, bidirectional overrides
//! and isolates (a name that reads backwards), and zero-width and other invisible format
//! characters (two names that look alike, a chat line that hides a word).

/// Whether `c` may not appear in a name or a chat message.
pub(crate) fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}'                  // soft hyphen
            | '\u{061C}'                // Arabic letter mark
            | '\u{115F}' | '\u{1160}'   // Hangul fillers
            | '\u{180E}'                // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}'   // zero-width space, joiners, LRM, RLM
            | '\u{202A}'..='\u{202E}'   // bidirectional embeddings and overrides
            | '\u{2060}'..='\u{2064}'   // word joiner, invisible operators
            | '\u{2066}'..='\u{2069}'   // bidirectional isolates
            | '\u{3164}'                // Hangul filler
            | '\u{FE00}'..='\u{FE0F}'   // variation selectors
            | '\u{FEFF}'                // zero-width no-break space
            | '\u{FFA0}'                // halfwidth Hangul filler
            | '\u{E0000}'..='\u{E007F}' // tags
        )
}

/// Whether `text` holds a character [`hidden`] refuses.
pub(crate) fn hides(text: &str) -> bool {
    text.chars().any(hidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_isolates_and_invisible_characters_are_refused_and_every_script_is_not() {
        for bad in ["ad\u{202E}nim", "a\u{200B}b", "\u{2066}x\u{2069}", "x\u{FEFF}", "tab\there", "\u{E0041}"]
        {
            assert!(hides(bad), "{bad:?}");
        }
        for good in ["Анна", "Ёлка", "李", "José", "O'Brien", "emoji ♞", "שלום", "مرحبا"]
        {
            assert!(!hides(good), "{good:?}");
        }
    }
}
