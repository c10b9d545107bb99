//! What the person types stays out of the log: a secret typed into a
//! prompt must not be readable, key by key, from the debug log.

mod common;

use common::tmux::Tmux;
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_characters_stay_out_of_the_debug_log() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", ADD_PROGRAM)]);
    let logs = tempfile::tempdir().expect("log dir");
    let log = logs.path().join("pairdbg.log");
    let t = Tmux::run(
        "keylog",
        ws.path(),
        &format!(
            "PAIRDBG_LOG={} PAIRDBG_LOG_LEVEL=pairdbg::tui=debug exec {} -- prog.py",
            log.display(),
            env!("CARGO_BIN_EXE_pairdbg")
        ),
    );
    t.wait_for("the first stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["e"]);
    t.keys(&["-l", "hunter2token"]);
    t.wait_for("the typed text", |s| s.contains("hunter2token"))
        .await;
    t.keys(&["Escape"]);
    t.keys(&["q", "y"]);
    let text = std::fs::read_to_string(&log).expect("the log");
    assert!(text.contains(" key "), "keys are logged:\n{text}");
    assert!(
        !text.contains("hunter2token"),
        "the typed text in the log:\n{text}"
    );
    assert!(
        !text.contains("Char("),
        "a typed character in the log:\n{text}"
    );
}
