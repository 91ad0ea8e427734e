//! The words of the exports a person reads — standings, crosstable, the projector's page, pairing
//! sheets — in the director's language (issue 31): Project Fluent catalogues (`locales/en.ftl`,
//! `locales/ru.ftl`) with Fluent's plural rules (Russian: 1 команда, 2 команды, 5 команд). CSV,
//! JSON and BPGN are data for programs and keep their fixed English headers and tags.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// A language of the exports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// English (the default).
    #[default]
    English,
    /// Russian.
    Russian,
}

impl Language {
    /// Both languages.
    pub const ALL: [Language; 2] = [Language::English, Language::Russian];

    /// The language of a code (`ru`, `ru-RU`, `en`); English for any other.
    pub fn from_code(code: &str) -> Language {
        let base = code.trim().split(['-', '_']).next().unwrap_or_default();
        if base.eq_ignore_ascii_case("ru") { Language::Russian } else { Language::English }
    }

    /// The code the HTML page's `lang` attribute names.
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
        }
    }
}

/// The catalogue's text (Fluent syntax) of a language.
pub(crate) const fn catalogue(language: Language) -> &'static str {
    match language {
        Language::English => include_str!("../locales/en.ftl"),
        Language::Russian => include_str!("../locales/ru.ftl"),
    }
}

fn bundle(language: Language) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: [OnceLock<FluentBundle<FluentResource>>; 2] = [OnceLock::new(), OnceLock::new()];
    BUNDLES[language as usize].get_or_init(|| {
        let id = match language {
            Language::English => unic_langid::langid!("en"),
            Language::Russian => unic_langid::langid!("ru"),
        };
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // Isolation marks around parameters would land in text files and cells.
        bundle.set_use_isolating(false);
        let resource = FluentResource::try_new(catalogue(language).to_owned())
            .expect("the built-in catalogues parse (tested)");
        bundle.add_resource(resource).expect("no message twice in a catalogue (tested)");
        bundle
    })
}

/// The text of message `id` in `language` with `args` (`name`, value); the id itself when the
/// catalogue lacks it (a test keeps the catalogues whole).
pub(crate) fn say(language: Language, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let bundle = bundle(language);
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        return id.to_owned();
    };
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    let mut errors = Vec::new();
    bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned()
}

/// `say` with no parameters.
pub(crate) fn word(language: Language, id: &str) -> String {
    say(language, id, &[])
}

/// A text parameter.
pub(crate) fn text(value: &str) -> FluentValue<'_> {
    FluentValue::from(value)
}

/// A number parameter (chooses the plural form).
pub(crate) fn number(value: impl Into<f64>) -> FluentValue<'static> {
    FluentValue::from(value.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(language: Language) -> Vec<String> {
        let resource = FluentResource::try_new(catalogue(language).to_owned()).expect("parses");
        resource
            .entries()
            .filter_map(|e| match e {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
                _ => None,
            })
            .collect()
    }

    /// Both catalogues parse, have the same ids, and every id is used by the exports' code.
    #[test]
    fn the_catalogues_have_the_same_ids_and_every_id_is_used() {
        let en = ids(Language::English);
        assert_eq!(en, ids(Language::Russian), "the same ids in the same order");
        let sources = [
            include_str!("html.rs"),
            include_str!("sheet.rs"),
            include_str!("text.rs"),
            include_str!("words.rs"),
        ]
        .join("\n");
        for id in &en {
            assert!(sources.contains(&format!("\"{id}\"")), "{id} is used");
        }
    }

    /// Russian plurals take their three forms; English two.
    #[test]
    fn plurals_follow_each_language() {
        let teams = |language, n: u32| say(language, "registration", &[("count", number(n))]);
        assert_eq!(
            [1, 2, 5, 21, 22, 25].map(|n| teams(Language::Russian, n)),
            [
                "Регистрация: 1 команда",
                "Регистрация: 2 команды",
                "Регистрация: 5 команд",
                "Регистрация: 21 команда",
                "Регистрация: 22 команды",
                "Регистрация: 25 команд"
            ]
        );
        assert_eq!(teams(Language::English, 1), "Registration: 1 team");
        assert_eq!(teams(Language::English, 7), "Registration: 7 teams");
        assert_eq!(Language::from_code("ru-RU"), Language::Russian);
        assert_eq!(Language::from_code("de"), Language::English);
    }
}
