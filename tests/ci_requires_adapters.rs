//! A test whose adapter is missing skips loudly on a developer's machine
//! and fails under CI. One test in its own process, since it sets `CI`.

mod common;

use common::*;

#[test]
fn a_missing_adapter_fails_under_ci_and_skips_elsewhere() {
    let missing = || {
        adapter_available(
            "an adapter that is not here",
            &[("pairdbg-no-such-adapter", &["--version"])],
            "nothing",
        )
    };
    // SAFETY: this binary runs this one test on one thread; nothing else
    // reads the environment meanwhile.
    unsafe { std::env::remove_var("CI") };
    assert!(!missing(), "skipped, not passed, without CI");
    unsafe { std::env::set_var("CI", "1") };
    let failed = std::panic::catch_unwind(missing).expect_err("fails under CI");
    let text = failed.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        text.contains("required in CI") && text.contains("nothing"),
        "{text}"
    );
    // The adapters' own checks share the rule.
    let tool = std::panic::catch_unwind(|| tool_available("pairdbg-no-such-tool"));
    assert!(tool.is_err(), "a missing tool fails under CI");
}
