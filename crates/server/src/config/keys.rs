//! An unknown key in a configuration file, said as an operator wants it: the nearest key it may
//! be a typo of, not the sixty keys serde lists (issue 61). The list stays in
//! `config/default.toml`, which holds every key with its meaning.

/// The fields a deserialiser's "unknown field `x`, expected one of `a`, `b`" lists.
pub(crate) fn expected(message: &str) -> Vec<String> {
    const EXPECTED: &str = ", expected one of ";
    let Some(start) = message.find(EXPECTED) else { return Vec::new() };
    let list = &message[start + EXPECTED.len()..];
    let stop = list.find('\n').unwrap_or(list.len());
    list[..stop].split(", ").map(|k| k.trim_matches('`').to_owned()).collect()
}

/// `message` (a deserialiser's error) with its "unknown field `x`, expected one of `a`, `b`, …"
/// replaced by "unknown key `x`; did you mean `a`?" (or, with nothing near, where the keys are
/// listed); any other message as it is. A key of `top_level` found in a table is said to belong
/// above it (`cert` under `[cluster]`: "put it above [cluster]").
pub(crate) fn suggest_in(message: &str, top_level: &[String]) -> String {
    const UNKNOWN: &str = "unknown field `";
    const EXPECTED: &str = ", expected one of ";
    let Some(start) = message.find(UNKNOWN) else { return message.to_owned() };
    let rest = &message[start + UNKNOWN.len()..];
    let Some(end) = rest.find('`') else { return message.to_owned() };
    let key = &rest[..end];
    let after = &rest[end + 1..];
    let (known, tail) = match after.strip_prefix(EXPECTED) {
        Some(list) => {
            let stop = list.find('\n').unwrap_or(list.len());
            (list[..stop].split(", ").map(|k| k.trim_matches('`')).collect::<Vec<_>>(), &list[stop..])
        }
        None => (Vec::new(), after),
    };
    let nearest = known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(key, k), *k))
        .filter(|&(d, k)| d <= (k.len().max(key.len()) / 3).max(1))
        .min_by_key(|&(d, _)| d);
    let mut hint = match nearest {
        Some((_, k)) => format!("; did you mean `{k}`?"),
        None => "; every key is listed, with its meaning, in config/default.toml".to_owned(),
    };
    // The table it is in, said on the same line ("in `cluster`" comes on a line of its own).
    let tail = tail.trim();
    let table = tail.strip_prefix("in `").and_then(|t| t.strip_suffix('`'));
    if let Some(t) = table
        && top_level.iter().any(|k| k == key)
    {
        hint = format!("; `{key}` is a top-level key: put it above [{t}]");
    }
    let (place, tail) = match table {
        Some(t) => (format!(" in [{t}]"), String::new()),
        None if tail.is_empty() => (String::new(), String::new()),
        None => (String::new(), format!(" ({})", tail.replace('\n', " "))),
    };
    format!("{}unknown key `{key}`{place}{hint}{tail}", &message[..start])
}

#[cfg(test)]
mod tests {
    fn suggest(message: &str) -> String {
        super::suggest_in(message, &[])
    }

    #[test]
    fn a_typo_of_a_key_is_answered_with_the_key_and_nothing_near_with_where_keys_are() {
        let list = "unknown field `colur`, expected one of `listen`, `data_dir`, `max_bots`, `colour`";
        assert_eq!(suggest(list), "unknown key `colur`; did you mean `colour`?");
        let far = "unknown field `frobnicate`, expected one of `listen`, `data_dir`";
        assert_eq!(
            suggest(far),
            "unknown key `frobnicate`; every key is listed, with its meaning, in config/default.toml"
        );
        let nested = "unknown field `nod`, expected one of `node`, `nats_url`\nin `cluster`";
        assert_eq!(suggest(nested), "unknown key `nod` in [cluster]; did you mean `node`?", "one line");
        assert_eq!(suggest("invalid type: integer"), "invalid type: integer", "other errors stay");
        // A top-level key written under a table (issue 61: `cert` and `key` below `[cluster]`).
        let misplaced = "unknown field `cert`, expected one of `node`, `nats_url`\nin `cluster`";
        assert_eq!(
            super::suggest_in(misplaced, &["cert".to_owned(), "key".to_owned()]),
            "unknown key `cert` in [cluster]; `cert` is a top-level key: put it above [cluster]"
        );
        assert_eq!(super::expected("unknown field `x`, expected one of `a`, `b`"), ["a", "b"]);
    }
}
