//! The languages the terminal client speaks, and its words: Project Fluent catalogues
//! (`locales/en.ftl`, `locales/ru.ftl`, built into the binary), with Fluent's plural rules (Russian
//! has one, few and many: 1 ход, 2 хода, 5 ходов).
//!
//! Every text a person reads comes from a catalogue through `t!`: `t!(lang, "id")` or
//! `t!(lang, "id", name = value, …)`. Ids are written out as literals so that a test can check
//! that each catalogue id is used and each used id is in both catalogues.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use unic_langid::langid;

/// A language of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Russian.
    Ru,
}

impl Lang {
    /// Both languages.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The code a user types and a file stores: `en`, `ru`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// Reads a code as typed (`ru`, `RU`, `en`; `русский`, `english` too).
    pub fn from_code(text: &str) -> Option<Lang> {
        match text.trim().to_lowercase().as_str() {
            "en" | "english" | "английский" => Some(Lang::En),
            "ru" | "russian" | "русский" | "рус" => Some(Lang::Ru),
            _ => None,
        }
    }

    /// The language of a POSIX locale value (`ru_RU.UTF-8` is Russian, anything else set is
    /// English); `None` when the value is empty.
    pub fn from_locale(value: &str) -> Option<Lang> {
        let value = value.trim();
        if value.is_empty() {
            return None;
        }
        let language = value.split(['_', '.', '@', '-']).next().unwrap_or_default();
        Some(if language.eq_ignore_ascii_case("ru") { Lang::Ru } else { Lang::En })
    }

    /// The language the locale environment asks for, as POSIX ranks it: `LC_ALL`, then
    /// `LC_MESSAGES`, then `LANG` (the first that is set and not empty); English when none is.
    pub fn from_env_with(get: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|name| get(name).as_deref().and_then(Lang::from_locale))
            .unwrap_or_default()
    }

    /// [`Lang::from_env_with`] on this process's environment.
    pub fn from_env() -> Lang {
        Lang::from_env_with(|name| std::env::var(name).ok())
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The English catalogue.
pub const EN_FTL: &str = include_str!("../locales/en.ftl");
/// The Russian catalogue.
pub const RU_FTL: &str = include_str!("../locales/ru.ftl");

type Bundle = FluentBundle<FluentResource>;

fn bundles() -> &'static [Bundle; 2] {
    static BUNDLES: OnceLock<[Bundle; 2]> = OnceLock::new();
    BUNDLES.get_or_init(|| {
        let make = |id, source: &str| {
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // No Unicode isolation marks around placeables: a terminal shows them as stray cells.
            bundle.set_use_isolating(false);
            // A catalogue that does not parse is a build mistake that the catalogue test reports
            // line by line; what parsed is still used.
            let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(r, _)| r);
            let _ = bundle.add_resource(resource);
            bundle
        };
        [make(langid!("en"), EN_FTL), make(langid!("ru"), RU_FTL)]
    })
}

/// The text of message `id` in `lang` with `args`. A message missing from the catalogue shows as
/// `‹id›`, which the tests look for.
pub fn text(lang: Lang, id: &str, args: Option<&FluentArgs<'_>>) -> String {
    let bundle = &bundles()[lang.index()];
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        return format!("‹{id}›");
    };
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, args, &mut errors);
    if errors.is_empty() { text.into_owned() } else { format!("‹{id}›") }
}

/// The text of attribute `attr` of message `id` in `lang` (a grammatical form: `.of`, the
/// genitive); `‹id.attr›` when it is missing.
pub fn attribute(lang: Lang, id: &str, attr: &str) -> String {
    let bundle = &bundles()[lang.index()];
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.get_attribute(attr)).map(|a| a.value()) else {
        return format!("‹{id}.{attr}›");
    };
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, None, &mut errors);
    if errors.is_empty() { text.into_owned() } else { format!("‹{id}.{attr}›") }
}

/// Whether the catalogue of `lang` has message `id`.
pub fn has(lang: Lang, id: &str) -> bool {
    bundles()[lang.index()].has_message(id)
}

/// A catalogue text: `t!(lang, "id")` or `t!(lang, "id", name = value, …)`, each value anything
/// Fluent takes (text, a number: numbers select plural forms).
macro_rules! t {
    ($lang:expr, $id:literal) => {
        $crate::i18n::text($lang, $id, None)
    };
    ($lang:expr, $id:literal, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = ::fluent_bundle::FluentArgs::new();
        $( args.set(stringify!($name), $value); )+
        $crate::i18n::text($lang, $id, Some(&args))
    }};
}
pub(crate) use t;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locale_environment_chooses_russian_only_for_russian() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v).to_owned())
        };
        assert_eq!(Lang::from_env_with(env(&[("LANG", "ru_RU.UTF-8")])), Lang::Ru);
        assert_eq!(Lang::from_env_with(env(&[("LANG", "en_GB.UTF-8")])), Lang::En);
        assert_eq!(Lang::from_env_with(env(&[])), Lang::En, "nothing set");
        assert_eq!(Lang::from_env_with(env(&[("LANG", "C.UTF-8")])), Lang::En);
        assert_eq!(Lang::from_env_with(env(&[("LANG", "de_DE.UTF-8")])), Lang::En);
        // LC_ALL outranks LC_MESSAGES, which outranks LANG; an empty one does not count.
        assert_eq!(
            Lang::from_env_with(env(&[("LANG", "en_US.UTF-8"), ("LC_MESSAGES", "ru_RU.UTF-8")])),
            Lang::Ru
        );
        assert_eq!(Lang::from_env_with(env(&[("LC_ALL", "C"), ("LC_MESSAGES", "ru_RU.UTF-8")])), Lang::En);
        assert_eq!(Lang::from_env_with(env(&[("LC_ALL", ""), ("LANG", "ru_UA.UTF-8")])), Lang::Ru);
        assert_eq!(Lang::from_env_with(env(&[("LANG", "ru")])), Lang::Ru);
    }

    #[test]
    fn codes_read_back() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
        assert_eq!(Lang::from_code(" RU "), Some(Lang::Ru));
        assert_eq!(Lang::from_code("русский"), Some(Lang::Ru));
        assert_eq!(Lang::from_code("de"), None);
    }

    #[test]
    fn russian_plurals_have_three_forms_and_no_isolation_marks() {
        let moves = |n: u32| t!(Lang::Ru, "moves-count", n = n);
        assert_eq!(moves(1), "1 ход");
        assert_eq!(moves(2), "2 хода");
        assert_eq!(moves(5), "5 ходов");
        assert_eq!(moves(11), "11 ходов");
        assert_eq!(moves(21), "21 ход");
        assert_eq!(moves(24), "24 хода");
        assert_eq!(t!(Lang::En, "moves-count", n = 1), "1 move");
        assert_eq!(t!(Lang::En, "moves-count", n = 3), "3 moves");
        assert!(!moves(2).contains(['\u{2068}', '\u{2069}']));
        assert_eq!(text(Lang::Ru, "no-such-message", None), "‹no-such-message›");
    }
}
