//! The build step before each start: run off the engine, its lines into the
//! output as the build stream, and the adapter started only once it built.
//! A failed build starts nothing and tells where the compiler said it broke.

use crate::sync::Locked;
use std::sync::Arc;

use super::{Apply, Engine};
use crate::session::SessionEvent;
use crate::session::build_run;
use crate::session::output::{Speaker, Stream};
use crate::session::types::CompileError;

impl Engine {
    /// Builds, then starts the adapter. A restart or the session's end
    /// drops the build, which kills it with its process group.
    pub(super) fn start_build(&mut self) {
        let Some(step) = self.config.build.clone() else {
            return self.spawn_and_report();
        };
        self.stop_build();
        let labels: Vec<&str> = step.commands.iter().map(|c| c.label.as_str()).collect();
        self.snap.building = Some(labels.join(", then "));
        let root = self.tree.root;
        let tx = self.apply_tx.clone();
        let say: build_run::Say = Arc::new(move |line: String| {
            let apply: Apply = Box::new(move |e: &mut Engine| e.push_build(&line));
            let _ = tx.send(apply);
        });
        let tx = self.apply_tx.clone();
        let task = tokio::spawn(async move {
            let built = build_run::run(step, say).await;
            let apply: Apply = Box::new(move |e: &mut Engine| e.built(root, built));
            let _ = tx.send(apply);
        });
        self.build_task = Some((root, task.abort_handle()));
        self.touch(None, "the build started");
    }

    /// Kills a build under way, if any.
    pub(super) fn stop_build(&mut self) {
        if let Some((_, task)) = self.build_task.take() {
            task.abort();
        }
        self.snap.building = None;
    }

    fn push_build(&mut self, text: &str) {
        self.output.locked().push(Stream::Build, text);
        self.emit(SessionEvent::Output);
    }

    fn built(&mut self, root: u32, built: Result<Option<std::path::PathBuf>, String>) {
        // A restart or an end came meanwhile: this build is not wanted.
        if self.build_task.as_ref().is_none_or(|(r, _)| *r != root) || root != self.tree.root {
            return;
        }
        self.build_task = None;
        self.snap.building = None;
        match built {
            Ok(program) => {
                if let Some(p) = program {
                    self.config.program = Some(p);
                }
                self.touch(None, "the build finished");
                self.check_stale_binary();
                self.spawn_and_report();
            }
            Err(why) => {
                self.snap.compile_error = self.build_step_error();
                let sentence = self.compile_error_sentence();
                self.fail(format!(
                    "the build failed ({why}); the program was not started.{sentence}"
                ));
            }
        }
    }

    /// Where this run's build broke, when its output says so.
    fn build_step_error(&self) -> Option<CompileError> {
        let out = self.output.locked();
        let (start, end) = out.run_range(out.run_count())?;
        let text = out
            .read_runs_of(Speaker::Build, start, end, 256 * 1024)
            .text;
        drop(out);
        let (file, line, message) = crate::adapters::build_output::first_error(&text)?;
        let file = std::path::PathBuf::from(file);
        let dirs = self
            .config
            .build
            .iter()
            .flat_map(|b| b.commands.iter().map(|c| c.cwd.clone()));
        let file = if file.is_absolute() {
            Some(file)
        } else {
            dirs.chain([self.config.cwd.clone()])
                .map(|d| d.join(&file))
                .find(|f| f.is_file())
        }?;
        let file = file.components().collect::<std::path::PathBuf>();
        file.is_file().then_some(CompileError {
            file,
            line,
            message,
        })
    }
}
