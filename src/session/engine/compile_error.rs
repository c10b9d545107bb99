//! A program that did not compile: where, read from the output the
//! compiler left (the program's own, or the adapter's for a build it ran).

use super::Engine;
use crate::session::types::CompileError;
use crate::sync::Locked;

impl Engine {
    /// Where the program failed to compile, from its last output.
    pub(super) fn compile_error(&self) -> Option<CompileError> {
        let tail = self.output.locked().tail_lines(40).join("\n");
        let found = self.config.adapter.language().compile_error(&tail)?;
        self.existing(found)
    }

    /// Where the adapter's build of the program broke, after a failed launch.
    pub(super) fn build_error(&self) -> Option<CompileError> {
        // The adapter may tell the build's errors on its console or as if
        // the program wrote them.
        let out = self.output.locked();
        let mut tail = out.debugger().tail_lines(40);
        tail.extend(out.tail_lines(40));
        drop(out);
        let tail = tail.join("\n");
        let found = self.config.adapter.build_error(&tail)?;
        self.existing(found)
    }

    /// The error, when its file is there to show.
    fn existing(&self, (file, line, message): (String, u64, String)) -> Option<CompileError> {
        let file = std::path::PathBuf::from(file);
        let file = if file.is_absolute() {
            file
        } else {
            let base = self.config.adapter.build_dir(&self.config.spec());
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
