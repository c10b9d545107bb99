//! A program that did not compile: where, read from the output the
//! compiler left (the program's own, or the adapter's for a build it ran).

use super::{Engine, lock};
use crate::session::types::CompileError;

impl Engine {
    /// Where the program failed to compile, from its last output.
    pub(super) fn compile_error(&self) -> Option<CompileError> {
        let tail = lock(&self.output).tail_lines(40).join("\n");
        let adapter = self.config.adapter;
        let (file, line, message) = adapter.language().compile_error(&tail)?;
        let file = std::path::PathBuf::from(file);
        let file = if file.is_absolute() {
            file
        } else {
            let base = adapter.build_dir(&self.config.spec());
            base.unwrap_or_else(|| self.config.cwd.clone()).join(file)
        };
        // `./main.go` reads better without its `./`.
        let file = file.components().collect::<std::path::PathBuf>();
        file.is_file().then_some(CompileError {
            file,
            line,
            message,
        })
    }

    /// ` It did not compile: file:line: message`, or nothing.
    pub(super) fn compile_error_sentence(&self) -> String {
        match &self.snap.compile_error {
            Some(c) => format!(
                " It did not compile: {}:{}: {}",
                self.snap.display_path(&c.file),
                c.line,
                c.message
            ),
            None => String::new(),
        }
    }
}
