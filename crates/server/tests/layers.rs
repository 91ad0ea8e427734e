//! The server's layering, checked (ARCHITECTURE.md, "The server in layers"): the files of
//! `src/` import each other in one direction only. Each file is a module; its imports are the
//! `crate::…`, `super::…` and `self::…` paths it names (in `use` lines and inline), resolved to
//! the longest module path that is a file. Two rules:
//!
//! 1. **no import cycle** among the files (a cycle is printed file by file);
//! 2. **no import from a lower layer to a higher one**, by the table [`LAYERS`].
//!
//! Test code (`tests.rs`, `test_store.rs`, `#[cfg(test)] mod tests { … }` blocks) is not part
//! of the layering: a test of the core may build what it tests with anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use testkit::imports::{code, cycle, imports, modules, paths, resolve};

/// The layers, bottom up: a module is in the first layer one of whose prefixes it starts with.
/// A file may import its own layer and those below, never one above.
const LAYERS: &[(&str, &[&str])] = &[
    ("configuration (plain data)", &["config"]),
    ("service core", &["service"]),
    ("features", &["features"]),
    ("placement (cluster)", &["cluster"]),
    ("transports", &["transport"]),
    ("server: connections, dispatch, composition", &["connection", "login", "dispatch", "lobby", ""]),
];

/// The layer of module `m` (its index in [`LAYERS`]).
fn layer(m: &str) -> usize {
    let starts = |p: &str| {
        p.is_empty() && m.is_empty() || !p.is_empty() && (m == p || m.starts_with(&format!("{p}::")))
    };
    LAYERS
        .iter()
        .position(|(_, prefixes)| prefixes.iter().any(|p| starts(p)))
        .unwrap_or_else(|| panic!("module `{m}` is in no layer: add it to LAYERS"))
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_servers_files_import_each_other_without_a_cycle() {
    let edges = imports(&src());
    assert!(edges.len() > 40, "the server's files were found ({} modules)", edges.len());
    if let Some(found) = cycle(&edges) {
        panic!("an import cycle among the server's files: {}", found.join(" -> "));
    }
}

#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let edges = imports(&src());
    let mut wrong = Vec::new();
    for (from, tos) in &edges {
        for to in tos {
            if layer(to) > layer(from) {
                wrong.push(format!(
                    "{from} ({}) imports {to} ({})",
                    LAYERS[layer(from)].0,
                    LAYERS[layer(to)].0
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "imports from a lower layer to a higher one:\n{}", wrong.join("\n"));
}

#[test]
fn the_checker_sees_grouped_nested_and_inline_imports_and_cycles() {
    let mut known = BTreeMap::new();
    for m in ["", "a", "a::inner", "b", "c"] {
        known.insert(m.to_owned(), String::new());
    }
    let text = "use crate::{a::{inner::X, Y}, b as bee};\nfn f() { crate::c::go(); } // crate::z\n";
    let found: BTreeSet<String> = paths(&code(text)).iter().filter_map(|p| resolve("b", p, &known)).collect();
    assert_eq!(found, ["a", "a::inner", "b", "c"].map(String::from).into(), "{:?}", paths(&code(text)));
    assert_eq!(resolve("a::inner", "super::Thing", &known).as_deref(), Some("a"));
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.entry("a".into()).or_default().insert("b".into());
    edges.entry("b".into()).or_default().insert("c".into());
    assert_eq!(cycle(&edges), None);
    edges.entry("c".into()).or_default().insert("a".into());
    assert_eq!(cycle(&edges), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
    assert!(layer("service::room::durable") < layer("features::rater"));
    assert!(layer("cluster::relay") < layer("transport::web"));
    assert!(layer("transport::web") < layer("dispatch"));
    assert!(layer("config::cluster") < layer("service::rooms"));
}

#[test]
fn no_source_file_is_over_600_lines_outside_tests() {
    let mut long = Vec::new();
    for (module, text) in modules(&src()) {
        let lines = code(&text).lines().count();
        if lines > 600 {
            long.push(format!("{module}: {lines} lines"));
        }
    }
    assert!(long.is_empty(), "files over 600 lines (split them by what they hold):\n{}", long.join("\n"));
}

#[test]
fn only_the_wall_module_reads_the_wall_clock() {
    let readers: Vec<String> = modules(&src())
        .into_iter()
        .filter(|(_, text)| code(text).contains("SystemTime::now"))
        .map(|(module, _)| module)
        .collect();
    assert_eq!(readers, vec!["service::wall".to_owned()], "the wall clock is read in service/wall.rs alone");
}
