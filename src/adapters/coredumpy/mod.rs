//! coredumpy, for Python programs that crashed: it saves a crashed
//! program's frames and values to a dump file, and this adapter opens one
//! as a stop that runs nothing. The DAP server is ours
//! (boot/dump_server.py, run on the user's Python with coredumpy
//! installed): it reads the dump through coredumpy's own loader and sends
//! values as debugpy does, so Python's value rules apply unchanged.

mod dump;

use std::sync::OnceLock;

use serde_json::json;

use super::post_mortem_server::PostMortemServer;

pub use dump::is_python_dump;

pub static COREDUMPY: PostMortemServer = PostMortemServer {
    package: "coredumpy",
    file: "dump_server.py",
    text: include_str!("boot/dump_server.py"),
    // A dump holds its sources: no program.
    launch: |core, _| json!({ "dump": core }),
    written: &WRITTEN,
};
static WRITTEN: OnceLock<Result<std::path::PathBuf, String>> = OnceLock::new();
