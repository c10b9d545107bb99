//! What Node runs for the program the person named: a `.ts` runs as the
//! JavaScript tsc wrote for it (beside it, or under its project's
//! `outDir`), with its source map taking the stops back to the `.ts`;
//! under a loader (`--import tsx`) the `.ts` runs as it is.

use std::path::{Path, PathBuf};

use super::tsconfig;

/// The file Node runs, the folder js-debug searches for scripts and their
/// maps (`outFiles`), and notes for the person.
#[derive(Debug, PartialEq)]
pub struct Runnable {
    pub file: PathBuf,
    pub scripts: PathBuf,
    pub notes: Vec<String>,
}

pub fn runnable(program: &Path, loader: bool, workspace: &Path) -> Runnable {
    let folder = |f: &Path| f.parent().map(Path::to_path_buf).unwrap_or_default();
    let as_is = |notes| Runnable {
        file: program.to_path_buf(),
        scripts: folder(program),
        notes,
    };
    let is_ts = program
        .extension()
        .is_some_and(|e| e == "ts" || e == "mts" || e == "cts");
    if loader || !is_ts {
        return as_is(vec![]);
    }
    let shown = |p: &Path| p.strip_prefix(workspace).unwrap_or(p).display().to_string();
    let project = tsconfig::project_of(program, workspace);
    if let Some(project) = project.as_ref().filter(|p| p.out_dir.is_some()) {
        let compile = tsconfig::compile_command(project, workspace);
        let config = shown(&project.config);
        let Some(js) = tsconfig::emitted(program, project) else {
            let out = shown(project.out_dir.as_deref().unwrap_or(workspace));
            return as_is(vec![format!(
                "{} is not compiled: {config} writes its JavaScript to {out}/. Run `{compile}` and launch again, or load it with NODE_OPTIONS=\"--import tsx\" (Node runs a .ts itself only where it strips types, from Node 22.6).",
                shown(program)
            )]);
        };
        let mut notes = vec![format!(
            "Runs {}, compiled from {} by {config}; stops show the TypeScript lines.",
            shown(&js),
            shown(program)
        )];
        if !project.source_maps {
            notes.push(format!(
                "{config} sets no \"sourceMap\": stops show the JavaScript's lines until it does and `{compile}` runs again."
            ));
        }
        notes.extend(stale(&js, program, &compile, &shown));
        let scripts = project.out_dir.clone().unwrap_or_else(|| folder(&js));
        return Runnable {
            file: js,
            scripts,
            notes,
        };
    }
    let js = program.with_extension("js");
    if js.is_file() {
        let mut notes = vec![format!(
            "Runs {}, compiled from {}; stops show the TypeScript lines.",
            shown(&js),
            shown(program)
        )];
        let compile = project
            .as_ref()
            .map(|p| tsconfig::compile_command(p, workspace))
            .unwrap_or_else(|| format!("npx tsc --sourceMap {}", shown(program)));
        notes.extend(stale(&js, program, &compile, &shown));
        return Runnable {
            scripts: folder(&js),
            file: js,
            notes,
        };
    }
    as_is(vec![
        "Node runs TypeScript only where it strips types itself (Node 22.6 and later); compile with `tsc --sourceMap`, or load it with NODE_OPTIONS=\"--import tsx\".".into(),
    ])
}

/// The JavaScript is older than its `.ts`: a stop would show lines the
/// program no longer runs.
fn stale(js: &Path, ts: &Path, compile: &str, shown: &dyn Fn(&Path) -> String) -> Option<String> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let (js_time, ts_time) = (modified(js)?, modified(ts)?);
    (js_time < ts_time).then(|| {
        format!(
            "Warning: {} is older than {}: run `{compile}`, or the program runs the old code.",
            shown(js),
            shown(ts)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typescript_compiled_beside_itself_runs_as_its_javascript() {
        let dir = tempfile::tempdir().unwrap();
        let ts = dir.path().join("prog.ts");
        std::fs::write(&ts, "").unwrap();
        assert_eq!(runnable(&ts, false, dir.path()).file, ts);
        std::fs::write(dir.path().join("prog.js"), "").unwrap();
        let r = runnable(&ts, false, dir.path());
        assert_eq!(r.file, dir.path().join("prog.js"));
        assert_eq!(
            r.notes,
            ["Runs prog.js, compiled from prog.ts; stops show the TypeScript lines."]
        );
        // A loader compiles the .ts itself, with nothing to say about it.
        let r = runnable(&ts, true, dir.path());
        assert_eq!((r.file, r.notes), (ts, vec![]));
    }

    #[test]
    fn a_project_with_an_out_dir_runs_the_emitted_file_or_says_what_to_run() {
        let ws = tempfile::tempdir().unwrap();
        let w = |f: &str, t: &str| {
            let p = ws.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, t).unwrap();
        };
        w(
            "tsconfig.json",
            r#"{"compilerOptions": {"outDir": "dist", "rootDir": "src", "sourceMap": true}}"#,
        );
        w("src/main.ts", "");
        let ts = ws.path().join("src/main.ts");
        let r = runnable(&ts, false, ws.path());
        assert_eq!(r.file, ts);
        assert!(
            r.notes[0].starts_with("src/main.ts is not compiled: tsconfig.json writes its JavaScript to dist/. Run `npx tsc -p .` and launch again"),
            "{:?}",
            r.notes
        );
        w("dist/main.js", "");
        w("dist/main.js.map", r#"{"sources": ["../src/main.ts"]}"#);
        let r = runnable(&ts, false, ws.path());
        assert_eq!(r.file, ws.path().join("dist/main.js"));
        assert_eq!(r.scripts, ws.path().join("dist"));
        assert_eq!(
            r.notes,
            [
                "Runs dist/main.js, compiled from src/main.ts by tsconfig.json; stops show the TypeScript lines."
            ]
        );
    }
}
