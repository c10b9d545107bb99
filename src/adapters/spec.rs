//! A launch or attach as adapters see it: already validated, in our own
//! terms, for each adapter to turn into its `launch` or `attach` arguments.

use std::path::PathBuf;

#[derive(Debug, Clone)]
pub enum Target {
    /// A program file, binary or package directory.
    Program(PathBuf),
    /// A module run as `-m` (Python).
    Module(String),
    /// A running process, by pid.
    Attach(u32),
}

#[derive(Debug, Clone)]
pub struct LaunchSpec {
    pub target: Target,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub stop_on_entry: bool,
    /// The interpreter or toolchain the user chose (Python's `python`).
    pub interpreter: Option<String>,
    pub workspace: PathBuf,
    /// The adapter's latency fixes; off only to measure them.
    pub nodelay: bool,
    /// Only the program's own code is debugged; off, breakpoints bind and
    /// steps enter the standard library and installed packages too.
    pub just_my_code: bool,
    /// The processes the program starts are debugged too, each on a child
    /// connection the adapter asks for.
    pub subprocesses: bool,
    /// The program's own terminal, where the session has one.
    pub stdio: Option<ProgramStdio>,
}

/// The terminal devices a launched program reads and writes: one for its
/// stdin and stdout, another for its stderr, so the two stay apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramStdio {
    pub terminal: PathBuf,
    pub stderr: PathBuf,
}

impl ProgramStdio {
    /// Opens the devices as the program's stdin, stdout and stderr.
    pub fn open(&self) -> std::io::Result<[std::fs::File; 3]> {
        use std::os::unix::fs::OpenOptionsExt;
        // Never pairdbg's own controlling terminal: the program's only.
        let open = |p: &PathBuf| {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .custom_flags(libc::O_NOCTTY)
                .open(p)
        };
        let t = open(&self.terminal)?;
        Ok([t.try_clone()?, t, open(&self.stderr)?])
    }
}

impl LaunchSpec {
    /// A spec for finding or installing an adapter, with no program yet.
    pub fn for_workspace(workspace: &std::path::Path) -> Self {
        LaunchSpec {
            target: Target::Program(workspace.to_path_buf()),
            args: vec![],
            cwd: workspace.to_path_buf(),
            env: vec![],
            stop_on_entry: false,
            interpreter: None,
            workspace: workspace.to_path_buf(),
            nodelay: true,
            just_my_code: true,
            subprocesses: true,
            stdio: None,
        }
    }
}
