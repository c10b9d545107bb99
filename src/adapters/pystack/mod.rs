//! pystack, for a CPython interpreter that crashed (a segfault in an
//! extension, an abort): it reads each thread's Python stack and locals
//! from the interpreter's core file. The DAP server is ours
//! (boot/core_server.py, on the user's Python with pystack installed); its
//! values are pystack's text of the objects in the core, read by Python's
//! value rules.

use std::sync::OnceLock;

use serde_json::json;

use super::post_mortem_server::PostMortemServer;

pub static PYSTACK: PostMortemServer = PostMortemServer {
    package: "pystack",
    file: "core_server.py",
    text: include_str!("boot/core_server.py"),
    // The core names its interpreter; a program given says where it is now.
    launch: |core, program| {
        let program = (!program.as_os_str().is_empty()).then_some(program);
        json!({ "core": core, "program": program })
    },
    written: &WRITTEN,
};
static WRITTEN: OnceLock<Result<std::path::PathBuf, String>> = OnceLock::new();
