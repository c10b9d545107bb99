//! Functions found in the workspace's source, for adapters with no
//! function breakpoints: `name` or `Class.method` becomes a line
//! breakpoint on the body's first line. Each language says how it spells
//! a name and where its definitions are.

use std::path::{Path, PathBuf};

use super::FoundFunction;

/// How a language's functions are searched for.
pub struct SourceSearch {
    /// The language, as the refusal of a name names it (`Python`).
    pub language: &'static str,
    /// Its definitions' keyword, as "none found" names it (`def`).
    pub keyword: &'static str,
    /// Its files, as "none found" names them (`Python`).
    pub files: &'static str,
    pub is_ident: fn(&str) -> bool,
    pub is_source: fn(&Path) -> bool,
}

/// A file's definitions of `name` (in `class`, when given): the 0-based
/// line of each and of its body's first line.
pub type Definitions<'a> = dyn Fn(&Path, &[&str], &str, Option<&str>) -> Vec<(usize, usize)> + 'a;

pub fn find_function(
    root: &Path,
    function: &str,
    search: &SourceSearch,
    definitions: &Definitions,
) -> Result<FoundFunction, String> {
    let parts: Vec<&str> = function.split('.').collect();
    if parts.iter().any(|p| !(search.is_ident)(p)) {
        return Err(format!(
            "{function:?} is not a {} name such as f or Class.method",
            search.language
        ));
    }
    let (name, class) = match parts.as_slice() {
        [.., c, n] => (*n, Some(*c)),
        [n] => (*n, None),
        [] => return Err("the name is empty".into()),
    };
    let (files, _) = crate::workspace_files::files(root, true, search.is_source);
    let mut found = vec![];
    for p in files.iter().map(PathBuf::as_path) {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        for (def, body) in definitions(p, &lines, name, class) {
            found.push(FoundFunction {
                file: p.to_path_buf(),
                def_line: def as u64 + 1,
                body_line: body as u64 + 1,
            });
        }
    }
    match found.len() {
        0 => Err(format!(
            "no {} {function} in the workspace's {} files",
            search.keyword, search.files
        )),
        1 => Ok(found.remove(0)),
        _ => Err(format!(
            "{function} is defined {} times: {}; give file and line, or Class.method",
            found.len(),
            found
                .iter()
                .map(|f| format!(
                    "{}:{}",
                    f.file.strip_prefix(root).unwrap_or(&f.file).display(),
                    f.def_line
                ))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
