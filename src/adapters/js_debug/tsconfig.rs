//! Where tsc writes a `.ts` program's JavaScript: the nearest tsconfig.json
//! above it (its `extends` chain followed), its `outDir` and `rootDir`, and
//! the emitted file confirmed by its source map naming the program.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// An `extends` chain longer than this is a loop.
const MAX_EXTENDS: usize = 16;
/// A tsconfig is a small file; a bigger one is not read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The program's TypeScript project, as tsc reads it.
#[derive(Debug, Default, PartialEq)]
pub struct Project {
    pub config: PathBuf,
    pub out_dir: Option<PathBuf>,
    pub root_dir: Option<PathBuf>,
    /// `sourceMap` or `inlineSourceMap`: without either, stops would be
    /// the JavaScript's lines.
    pub source_maps: bool,
}

/// The nearest tsconfig.json in the program's folder or above it, not
/// above the workspace.
pub fn project_of(program: &Path, workspace: &Path) -> Option<Project> {
    let config = program
        .ancestors()
        .skip(1)
        .take_while(|d| d.starts_with(workspace))
        .map(|d| d.join("tsconfig.json"))
        .find(|c| c.is_file())?;
    let mut project = Project {
        config: config.clone(),
        ..Project::default()
    };
    let (mut maps, mut inline) = (None, None);
    let mut next = Some(config);
    for _ in 0..MAX_EXTENDS {
        let Some(file) = next.take() else { break };
        let Some(doc) = read(&file) else { break };
        let dir = file.parent().unwrap_or(Path::new("/"));
        let options = doc.get("compilerOptions");
        let path_option = |name: &str| {
            options
                .and_then(|o| o.get(name))
                .and_then(Value::as_str)
                .map(|p| dir.join(p))
        };
        // The file that extends wins over the one it extends.
        project.out_dir = project.out_dir.take().or_else(|| path_option("outDir"));
        project.root_dir = project.root_dir.take().or_else(|| path_option("rootDir"));
        let flag = |name: &str| options.and_then(|o| o.get(name)).and_then(Value::as_bool);
        maps = maps.or_else(|| flag("sourceMap"));
        inline = inline.or_else(|| flag("inlineSourceMap"));
        next = match doc.get("extends") {
            Some(Value::String(base)) => resolve_extends(dir, base),
            // Several bases: the last one wins, so it is the one to follow
            // for options the others would set too.
            Some(Value::Array(bases)) => bases
                .iter()
                .rev()
                .filter_map(Value::as_str)
                .find_map(|b| resolve_extends(dir, b)),
            _ => None,
        };
    }
    project.source_maps = maps == Some(true) || inline == Some(true);
    Some(project)
}

fn read(file: &Path) -> Option<Value> {
    if std::fs::metadata(file).ok()?.len() > MAX_CONFIG_BYTES {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    jsonc_parser::parse_to_serde_value(&text, &Default::default()).ok()?
}

/// A relative base from the file's folder; a package's from the nearest
/// node_modules that has it, as tsc looks them up.
fn resolve_extends(dir: &Path, base: &str) -> Option<PathBuf> {
    let with_json = |p: PathBuf| {
        if p.is_file() {
            return Some(p);
        }
        let mut named = p.clone().into_os_string();
        named.push(".json");
        let named = PathBuf::from(named);
        if named.is_file() {
            return Some(named);
        }
        Some(p.join("tsconfig.json")).filter(|p| p.is_file())
    };
    if base.starts_with('.') || base.starts_with('/') {
        return with_json(dir.join(base));
    }
    dir.ancestors()
        .find_map(|d| with_json(d.join("node_modules").join(base)))
}

/// The JavaScript tsc wrote for `program` under `out_dir`. With no
/// `rootDir`, tsc takes the folder common to the project's sources, which
/// may be any folder from the config's down to the program's: each is
/// tried, and a file counts only if its source map names the program (or,
/// with no map, if it is the only one there).
pub fn emitted(program: &Path, project: &Project) -> Option<PathBuf> {
    let out_dir = project.out_dir.as_deref()?;
    let ext = match program.extension()?.to_str()? {
        "mts" => "mjs",
        "cts" => "cjs",
        _ => "js",
    };
    let config_dir = project.config.parent()?;
    let roots: Vec<&Path> = match &project.root_dir {
        Some(r) => vec![r.as_path()],
        None => program
            .ancestors()
            .skip(1)
            .take_while(|d| d.starts_with(config_dir))
            .collect(),
    };
    let found: Vec<PathBuf> = roots
        .iter()
        .filter_map(|root| program.strip_prefix(root).ok())
        .map(|rel| out_dir.join(rel).with_extension(ext))
        .filter(|js| js.is_file())
        .collect();
    if let Some(js) = found.iter().find(|js| map_names(js, program)) {
        return Some(js.clone());
    }
    match found.as_slice() {
        [only] if !has_map(only) => Some(only.clone()),
        _ => None,
    }
}

fn has_map(js: &Path) -> bool {
    map_of(js).is_some()
}

/// Whether the file's source map lists the program among its sources.
fn map_names(js: &Path, program: &Path) -> bool {
    let Some(map) = map_of(js) else {
        return false;
    };
    let base = js.parent().unwrap_or(Path::new("/"));
    let root = map.get("sourceRoot").and_then(Value::as_str).unwrap_or("");
    let want = normal(program);
    map.get("sources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .any(|s| normal(&base.join(root).join(s)) == want)
}

/// The `.js.map` beside the file (tsc's `sourceMap`); an inline map
/// (`inlineSourceMap`) is not decoded, and counts as a map named nowhere.
fn map_of(js: &Path) -> Option<Value> {
    let mut name = js.as_os_str().to_owned();
    name.push(".map");
    let path = PathBuf::from(name);
    if std::fs::metadata(&path).ok()?.len() > 64 * MAX_CONFIG_BYTES {
        return None;
    }
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn normal(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What to run so that tsc writes the program's JavaScript.
pub fn compile_command(project: &Project, workspace: &Path) -> String {
    let dir = project.config.parent().unwrap_or(workspace);
    let shown = match dir.strip_prefix(workspace) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
        Ok(rel) => rel.display().to_string(),
        Err(_) => dir.display().to_string(),
    };
    format!("npx tsc -p {shown}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, files: &[(&str, &str)]) {
        for (name, text) in files {
            let p = dir.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
    }

    #[test]
    fn out_dir_from_an_extended_base_and_root_dir_from_the_project() {
        let ws = tempfile::tempdir().unwrap();
        write(
            ws.path(),
            &[
                (
                    "tsconfig.base.json",
                    "{ // shared\n \"compilerOptions\": {\"outDir\": \"dist\", \"sourceMap\": true,},\n}",
                ),
                (
                    "tsconfig.json",
                    r#"{"extends": "./tsconfig.base", "compilerOptions": {"rootDir": "src"}}"#,
                ),
                ("src/main.ts", ""),
                ("dist/main.js", ""),
                ("dist/main.js.map", r#"{"sources": ["../src/main.ts"]}"#),
                ("dist/src/main.js", ""),
            ],
        );
        let program = ws.path().join("src/main.ts");
        let p = project_of(&program, ws.path()).unwrap();
        assert_eq!(p.out_dir, Some(ws.path().join("dist")));
        assert_eq!(p.root_dir, Some(ws.path().join("src")));
        assert!(p.source_maps);
        assert_eq!(emitted(&program, &p), Some(ws.path().join("dist/main.js")));
        assert_eq!(compile_command(&p, ws.path()), "npx tsc -p .");
    }

    #[test]
    fn without_root_dir_the_file_whose_map_names_the_program() {
        let ws = tempfile::tempdir().unwrap();
        write(
            ws.path(),
            &[
                (
                    "app/tsconfig.json",
                    r#"{"compilerOptions": {"outDir": "out"}}"#,
                ),
                ("app/src/cli/run.mts", ""),
                ("app/out/src/cli/run.mjs", ""),
                (
                    "app/out/src/cli/run.mjs.map",
                    r#"{"sourceRoot": "", "sources": ["../../../src/cli/run.mts"]}"#,
                ),
                ("app/out/cli/run.mjs", ""),
                (
                    "app/out/cli/run.mjs.map",
                    r#"{"sources": ["../../other/run.mts"]}"#,
                ),
            ],
        );
        let program = ws.path().join("app/src/cli/run.mts");
        let p = project_of(&program, ws.path()).unwrap();
        assert!(!p.source_maps);
        assert_eq!(
            emitted(&program, &p),
            Some(ws.path().join("app/out/src/cli/run.mjs"))
        );
        assert_eq!(compile_command(&p, ws.path()), "npx tsc -p app");
    }

    #[test]
    fn a_base_in_node_modules_a_loop_and_nothing_compiled() {
        let ws = tempfile::tempdir().unwrap();
        write(
            ws.path(),
            &[
                (
                    "node_modules/@tsconfig/node20/tsconfig.json",
                    r#"{"extends": "../../../tsconfig.json", "compilerOptions": {"outDir": "build", "sourceMap": true}}"#,
                ),
                (
                    "tsconfig.json",
                    r#"{"extends": "@tsconfig/node20/tsconfig.json"}"#,
                ),
                ("main.ts", ""),
            ],
        );
        let program = ws.path().join("main.ts");
        let p = project_of(&program, ws.path()).unwrap();
        assert_eq!(
            p.out_dir,
            Some(ws.path().join("node_modules/@tsconfig/node20/build"))
        );
        assert_eq!(emitted(&program, &p), None);
        let outside = tempfile::tempdir().unwrap();
        assert_eq!(project_of(&outside.path().join("x.ts"), ws.path()), None);
    }
}
