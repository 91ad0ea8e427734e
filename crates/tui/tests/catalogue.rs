//! The two catalogues against each other and against the code: both parse, they have the same
//! messages with the same attributes and the same variables, every message is used by the code,
//! and every message the code asks for is in both.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use fluent_syntax::parser;
use shvedka_tui::i18n::{EN_FTL, RU_FTL};

/// A message's attributes and the variables it uses (its attributes' too), a variable's
/// grammatical forms counted as the variable.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    attributes: BTreeSet<String>,
    variables: BTreeSet<String>,
}

fn variables_of(pattern: &Pattern<&str>, out: &mut BTreeSet<String>) {
    fn inline(e: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
        match e {
            // A variable and its grammatical forms (`seat`, `seat_of`: the genitive) count as
            // one: a language takes the form it needs.
            InlineExpression::VariableReference { id } => {
                out.insert(id.name.trim_end_matches("_of").to_owned());
            }
            InlineExpression::FunctionReference { arguments, .. } => {
                for a in &arguments.positional {
                    inline(a, out);
                }
                for a in &arguments.named {
                    inline(&a.value, out);
                }
            }
            InlineExpression::Placeable { expression } => expr(expression, out),
            InlineExpression::StringLiteral { .. }
            | InlineExpression::NumberLiteral { .. }
            | InlineExpression::MessageReference { .. }
            | InlineExpression::TermReference { .. } => {}
        }
    }
    fn expr(e: &Expression<&str>, out: &mut BTreeSet<String>) {
        match e {
            Expression::Select { selector, variants } => {
                inline(selector, out);
                for v in variants {
                    variables_of(&v.value, out);
                }
            }
            Expression::Inline(e) => inline(e, out),
        }
    }
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expr(expression, out);
        }
    }
}

/// The messages of a catalogue, which must parse without an error.
fn messages(name: &str, source: &str) -> BTreeMap<String, Shape> {
    let resource = match parser::parse(source) {
        Ok(r) => r,
        Err((_, errors)) => panic!("{name} does not parse: {errors:#?}"),
    };
    let mut out = BTreeMap::new();
    for entry in &resource.body {
        match entry {
            Entry::Message(m) => {
                let mut variables = BTreeSet::new();
                if let Some(value) = &m.value {
                    variables_of(value, &mut variables);
                }
                for a in &m.attributes {
                    variables_of(&a.value, &mut variables);
                }
                let attributes = m.attributes.iter().map(|a| a.id.name.to_owned()).collect();
                let shape = Shape { attributes, variables };
                assert!(out.insert(m.id.name.to_owned(), shape).is_none(), "{name}: {} twice", m.id.name);
            }
            Entry::Junk { content } => panic!("{name}: junk {content:?}"),
            Entry::Term(_) | Entry::Comment(_) | Entry::GroupComment(_) | Entry::ResourceComment(_) => {}
        }
    }
    out
}

/// The crate's sources without their comment lines (doc examples name made-up ids).
fn sources() -> String {
    fn walk(dir: &Path, out: &mut String) {
        for entry in std::fs::read_dir(dir).expect("the sources") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source");
                for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    let mut out = String::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out
}

/// The ids the code asks for: the first string after each `t!(`.
fn used_ids(code: &str) -> BTreeSet<String> {
    code.match_indices("t!(")
        // `t!` itself, not `format!(` or `assert!(`.
        .filter(|(at, _)| !code[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .filter_map(|(at, _)| {
            let rest = &code[at..];
            let open = rest.find('"')?;
            let close = rest[open + 1..].find('"')?;
            Some(rest[open + 1..open + 1 + close].to_owned())
        })
        .collect()
}

#[test]
fn both_catalogues_parse_and_have_the_same_messages_attributes_and_variables() {
    let en = messages("en.ftl", EN_FTL);
    let ru = messages("ru.ftl", RU_FTL);
    let only_en: Vec<_> = en.keys().filter(|k| !ru.contains_key(*k)).collect();
    let only_ru: Vec<_> = ru.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(only_en.is_empty() && only_ru.is_empty(), "only in en: {only_en:?}; only in ru: {only_ru:?}");
    for (id, shape) in &en {
        assert_eq!(Some(shape), ru.get(id), "{id}: attributes and variables differ");
    }
    assert!(en.len() > 250, "{} messages", en.len());
}

#[test]
fn every_message_is_used_by_the_code_and_every_message_used_is_in_both() {
    let code = sources();
    let en = messages("en.ftl", EN_FTL);
    let unused: Vec<_> = en.keys().filter(|id| !code.contains(&format!("\"{id}\""))).collect();
    assert!(unused.is_empty(), "messages no code uses: {unused:?}");
    let used = used_ids(&code);
    assert!(used.len() > 200, "the scan finds the code's ids: {}", used.len());
    let missing: Vec<_> = used.iter().filter(|id| !en.contains_key(*id)).collect();
    assert!(missing.is_empty(), "ids the code asks for that the catalogues lack: {missing:?}");
}

/// Fluent puts Unicode isolation marks (FSI, PDI) around every placeable unless told not to,
/// and a terminal shows them as stray cells: every message of both catalogues, rendered through
/// the client's own bundles with each of its variables given, carries none (issue 60: the marks
/// are never in the `.ftl` source, so reading it proved nothing); no source line ends in a space.
#[test]
fn no_text_carries_bidi_isolation_marks_or_stray_spaces() {
    use shvedka_tui::i18n::{Lang, text};
    for (lang, name, source) in [(Lang::En, "en.ftl", EN_FTL), (Lang::Ru, "ru.ftl", RU_FTL)] {
        for line in source.lines() {
            assert_eq!(line.trim_end(), line, "{name}: trailing space in {line:?}");
        }
        let shapes = messages(name, source);
        assert!(shapes.len() > 100, "{name}: {} messages read", shapes.len());
        let mut placeables = 0;
        for (id, shape) in &shapes {
            let mut args = fluent_bundle::FluentArgs::new();
            for var in &shape.variables {
                // A number selects a plural form, and shows as text too; the genitive form of a
                // variable (`seat_of`) is given beside it.
                args.set(var.clone(), 2);
                args.set(format!("{var}_of"), 2);
            }
            placeables += shape.variables.len();
            let said = text(lang, id, Some(&args));
            assert!(!said.starts_with('‹'), "{name}: {id} did not render: {said}");
            assert!(
                !said.contains(['\u{2068}', '\u{2069}']),
                "{name}: {id} carries isolation marks: {said:?}"
            );
        }
        assert!(placeables > 50, "{name}: only {placeables} placeables rendered");
    }
}
