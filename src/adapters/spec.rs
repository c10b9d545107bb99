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
    /// A program already running under a debug server, maybe on another
    /// machine, reached over TCP. An adapter that cannot attach so answers
    /// `AdapterError::Unsupported`; child connections of such a session may
    /// go to `Remote::host` and nowhere else off this machine.
    Remote(Remote),
    /// A core file the program wrote as it crashed, read with the program's
    /// symbols: nothing runs.
    Core { core: PathBuf, program: PathBuf },
}

/// Where a remote program's debug server listens, and how its paths read
/// here.
#[derive(Debug, Clone)]
pub struct Remote {
    /// A host name or address, as the user gave it.
    pub host: String,
    pub port: u16,
    pub path_mappings: Vec<PathMapping>,
    /// The local copy of a native program, where its symbols are read.
    pub program: Option<PathBuf>,
}

/// A directory of the workspace and where the same files are on the remote
/// side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathMapping {
    pub local: PathBuf,
    pub remote: String,
}

impl Remote {
    /// `host:port`, with an IPv6 address in brackets.
    pub fn address(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// The debug server's socket address, for adapters that speak DAP to it
    /// directly. A name is looked up here, once.
    pub fn socket_addr(&self) -> Result<std::net::SocketAddr, super::AdapterError> {
        use std::net::ToSocketAddrs;
        (self.host.as_str(), self.port)
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| {
                super::AdapterError::NotFound(format!("cannot resolve the host {}", self.host))
            })
    }

    /// What stands for the adapter when the debug server is the adapter:
    /// nothing of it needs to be on this machine.
    pub fn found(&self, adapter: &str) -> super::Found {
        super::Found {
            version: format!("{adapter} at {}", self.address()),
            path: self.address(),
            warning: None,
        }
    }

    /// The mappings as (remote, local) strings.
    pub fn mappings(&self) -> impl Iterator<Item = (&str, String)> {
        self.path_mappings
            .iter()
            .map(|m| (m.remote.as_str(), m.local.display().to_string()))
    }
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
    /// Flags for the build the adapter runs itself (launch.json's
    /// `buildFlags`: Go's `-tags=integration`).
    pub build_flags: Option<String>,
    /// The program may write a core file when it crashes (`--keep-core`).
    pub keep_core: bool,
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
    /// The host of a remote attach: the one address off this machine that
    /// the session may connect to.
    pub fn remote_host(&self) -> Option<&str> {
        match &self.target {
            Target::Remote(r) => Some(&r.host),
            _ => None,
        }
    }

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
            build_flags: None,
            keep_core: false,
        }
    }
}
