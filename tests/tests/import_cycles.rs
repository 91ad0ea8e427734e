//! No import circle anywhere in the workspace (issue 60): in every crate's `src/`, the files
//! import each other in one direction only — what two files share lives in the one that owns it.
//! The server's layers (which file may import which) are checked beside its code
//! (crates/server/tests/layers.rs); this is the weaker rule, for every crate.

use std::path::{Path, PathBuf};

use testkit::imports::{cycle, imports};

/// Every crate's `src/` in the workspace.
fn crates() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = vec![root.join("proto/src"), root.join("tests/src")];
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
        let src = entry.expect("an entry").path().join("src");
        if src.is_dir() {
            out.push(src);
        }
    }
    out.sort();
    out
}

#[test]
fn no_crate_of_the_workspace_has_an_import_circle_among_its_files() {
    let all = crates();
    assert!(all.len() >= 15, "the crates were found: {all:?}");
    let mut circles = Vec::new();
    let mut files = 0;
    for src in &all {
        let edges = imports(src);
        files += edges.len();
        if let Some(found) = cycle(&edges) {
            circles.push(format!("{}: {}", src.display(), found.join(" -> ")));
        }
    }
    assert!(files > 300, "the files were read: {files}");
    assert!(
        circles.is_empty(),
        "import circles (untie each: move what both sides share into the file that owns it):\n{}",
        circles.join("\n")
    );
}
