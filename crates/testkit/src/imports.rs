//! A crate's files and the imports between them, from their text: each file is a module, its
//! imports the `crate::…`, `super::…` and `self::…` paths it names (in `use` items and inline),
//! resolved to the longest module path that is a file. The server's layer test
//! (crates/server/tests/layers.rs) and the workspace's import-cycle test (tests/tests/
//! import_cycles.rs) read the source with it. Test code (`tests.rs`, `test_store.rs`, a trailing
//! `#[cfg(test)] mod tests { … }`) is left out: a test may build what it tests with anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every source file of `src/` as (module path, text), test files left out.
pub fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src/").to_string_lossy().replace('\\', "/");
            let Some(stem) = rel.strip_suffix(".rs") else { continue };
            let name = stem.rsplit('/').next().unwrap_or(stem);
            if name == "tests" || name == "test_store" {
                continue;
            }
            let module = match stem {
                "lib" => String::new(),
                s => s.strip_suffix("/mod").unwrap_or(s).replace('/', "::"),
            };
            out.insert(module, std::fs::read_to_string(&path).expect("a source file"));
        }
    }
    out
}

/// The text without comments and without a trailing `#[cfg(test)] mod tests { … }`.
pub fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    match out.find("#[cfg(test)]\nmod tests {") {
        Some(i) => out[..i].to_owned(),
        None => out,
    }
}

/// The paths a `use` tree names, braces expanded: `crate::{a::X, b::{Y, Z}}` gives
/// `crate::a::X`, `crate::b::Y`, `crate::b::Z`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        out.push(format!("{prefix}{path}"));
        return;
    };
    let head = format!("{prefix}{}", &tree[..open]);
    let inner = &tree[open + 1..tree.rfind('}').expect("a closing brace")];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if !inner[start..i].trim().is_empty() {
                    expand(&head, &inner[start..i], out);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        expand(&head, &inner[start..], out);
    }
}

/// The `crate::`/`super::`/`self::` paths in `code`: from `use` items and inline.
pub fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let after = &rest[i + 4..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = after.find(';') else { break };
        let tree = after[..end].trim();
        if ["crate::", "super::", "self::"].iter().any(|p| tree.starts_with(p)) {
            expand("", tree, &mut out);
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            let end = code[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| i + e);
            let path = code[i..end].trim_end_matches(':');
            if path.contains("::") {
                out.push(path.to_owned());
            }
        }
    }
    out
}

/// The file a path from module `from` lands in: the longest prefix of it that is a module.
pub fn resolve(from: &str, path: &str, known: &BTreeMap<String, String>) -> Option<String> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<&str> = if from.is_empty() { Vec::new() } else { from.split("::").collect() };
    match segs.first().copied() {
        Some("crate") => {
            base.clear();
            segs.remove(0);
        }
        Some("self") => {
            segs.remove(0);
        }
        Some("super") => {
            while segs.first() == Some(&"super") {
                base.pop();
                segs.remove(0);
            }
        }
        _ => return None,
    }
    (0..=segs.len())
        .rev()
        .map(|n| base.iter().chain(&segs[..n]).copied().collect::<Vec<_>>().join("::"))
        .find(|m| known.contains_key(m))
}

/// Which files each file imports (itself and its own parent modules left out, and the crate
/// root, whose re-exports are the public API: files name the module that defines a thing).
pub fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let known = modules(src);
    let mut edges = BTreeMap::new();
    for (module, text) in &known {
        let to: BTreeSet<String> = paths(&code(text))
            .iter()
            .filter_map(|p| resolve(module, p, &known))
            .filter(|t| t != module && !module.starts_with(&format!("{t}::")) && !t.is_empty())
            .collect();
        edges.insert(module.clone(), to);
    }
    edges
}

/// A cycle among the files, if there is one, as the files along it.
pub fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(m.to_owned(), Mark::Open);
        stack.push(m.to_owned());
        for t in edges.get(m).into_iter().flatten() {
            match marks.get(t).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let at = stack.iter().position(|s| s == t).expect("on the stack");
                    let mut found = stack[at..].to_vec();
                    found.push(t.clone());
                    return Some(found);
                }
                Mark::New => {
                    if let Some(found) = visit(t, edges, marks, stack) {
                        return Some(found);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(m.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for m in edges.keys() {
        if marks.get(m).copied().unwrap_or(Mark::New) == Mark::New
            && let Some(found) = visit(m, edges, &mut marks, &mut Vec::new())
        {
            return Some(found);
        }
    }
    None
}
