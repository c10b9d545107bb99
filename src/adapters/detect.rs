//! A program's language from its name or its contents: `.py`, `.rb`, `.js` and
//! `.ts`, Java (`.java`, `.jar`, a Maven project), Go sources (a `.go` file or a directory holding them), or an ELF
//! binary told apart by what its compiler left in it.

use crate::sync::Locked;
use std::io::Read;
use std::path::Path;

/// Bytes of a binary read when looking for its compiler's marks.
const SCAN_LIMIT: u64 = 64 << 20;

pub fn infer_language(program: &Path) -> Option<&'static str> {
    if program.is_dir() {
        if super::java::is_maven_project(program) {
            return Some("java");
        }
        let holds_go = std::fs::read_dir(program)
            .ok()?
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "go"));
        return holds_go.then_some("go");
    }
    match program.extension().and_then(|e| e.to_str()) {
        Some("py") => return Some("python"),
        Some("go") => return Some("go"),
        Some("js" | "mjs" | "cjs") => return Some("javascript"),
        Some("ts" | "mts" | "cts") => return Some("typescript"),
        Some("java" | "jar") => return Some("java"),
        Some("rb") => return Some("ruby"),
        _ => {}
    }
    elf_language_cached(program)
}

/// The language of a running process, from the program it runs.
pub fn infer_process_language(pid: u32) -> Option<&'static str> {
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
    let name = exe.file_name()?.to_string_lossy();
    if name.starts_with("python") {
        return Some("python");
    }
    if name == "node" || name.starts_with("node-") || name.starts_with("nodejs") {
        return Some("node");
    }
    elf_language(&exe)
}

/// C, C++, Rust or Go by the producer strings in the debug info and the
/// sections each toolchain writes; "native" when none is told.
fn elf_language(path: &Path) -> Option<&'static str> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut magic = [0u8; 4];
    f.read_exact(&mut magic).ok()?;
    if &magic != b"\x7fELF" {
        return None;
    }
    let mut bytes = Vec::new();
    f.take(SCAN_LIMIT).read_to_end(&mut bytes).ok()?;
    let has = |needle: &[u8]| contains(&bytes, needle);
    Some(if has(b".go.buildinfo") || has(b"Go build ID") {
        "go"
    } else if has(b"rustc version") || has(b"/rustc/") {
        "rust"
    } else if has(b"GNU C++") || has(b"clang++") {
        "c++"
    } else if has(b"GNU C") {
        "c"
    } else {
        "native"
    })
}

/// Whether `needle` occurs in `hay`: a scan for its first byte, then a
/// comparison, many times faster than comparing every window of a binary
/// of megabytes (launches wait on this).
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut from = 0;
    while let Some(p) = hay[from..].iter().position(|&b| b == first) {
        let at = from + p;
        if hay[at + 1..].starts_with(rest) {
            return true;
        }
        from = at + 1;
    }
    false
}

type Seen = (
    std::path::PathBuf,
    u64,
    Option<std::time::SystemTime>,
    Option<&'static str>,
);

/// A binary's language, remembered while the file is unchanged: a launch
/// asks once to pick the adapter and again in the adapter's spawn.
fn elf_language_cached(path: &Path) -> Option<&'static str> {
    static SEEN: std::sync::Mutex<Vec<Seen>> = std::sync::Mutex::new(Vec::new());
    let meta = std::fs::metadata(path).ok()?;
    let (len, modified) = (meta.len(), meta.modified().ok());
    let mut seen = SEEN.locked();
    if let Some(hit) = seen
        .iter()
        .find(|(p, l, m, _)| p == path && *l == len && *m == modified)
    {
        return hit.3;
    }
    let language = elf_language(path);
    if seen.len() >= 16 {
        seen.remove(0);
    }
    seen.push((path.to_path_buf(), len, modified, language));
    language
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_folders() {
        let dir = tempfile::tempdir().unwrap();
        let go = dir.path().join("cmd");
        std::fs::create_dir(&go).unwrap();
        assert_eq!(infer_language(&go), None);
        std::fs::write(go.join("main.go"), "package main").unwrap();
        assert_eq!(infer_language(&go), Some("go"));
        assert_eq!(infer_language(Path::new("x/app.py")), Some("python"));
        assert_eq!(infer_language(Path::new("x/app.mjs")), Some("javascript"));
        assert_eq!(infer_language(Path::new("x/app.ts")), Some("typescript"));
        assert_eq!(infer_language(&go.join("main.go")), Some("go"));
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "hello").unwrap();
        assert_eq!(infer_language(&text), None);
    }

    #[test]
    fn an_elf_binary_by_its_compiler() {
        let dir = tempfile::tempdir().unwrap();
        let bin = |name: &str, body: &[u8]| {
            let p = dir.path().join(name);
            let mut b = b"\x7fELF".to_vec();
            b.extend_from_slice(body);
            std::fs::write(&p, b).unwrap();
            infer_language(&p)
        };
        assert_eq!(bin("c", b"..GNU C17 12.2.0 -g.."), Some("c"));
        assert_eq!(bin("cpp", b"..GNU C++17 12.2.0.."), Some("c++"));
        assert_eq!(bin("rs", b"..rustc version 1.95.0.."), Some("rust"));
        assert_eq!(bin("go", b"..Go build ID: x.."), Some("go"));
        assert_eq!(bin("stripped", b"...."), Some("native"));
    }
}
