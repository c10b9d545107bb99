//! Breakpoint conditions in Python: compiled when set, so one that does not
//! parse is refused with the parser's message instead of failing at every
//! hit; and pydevd's report of one that raised, read from its output.

use std::path::PathBuf;

use tokio::process::Command;

use crate::adapters::condition_check::compile_with;

const CHECK: &str = "\
import sys
try:
    compile(sys.argv[1], '<condition>', 'eval')
except SyntaxError as e:
    print('%s (column %s)' % (e.msg, e.offset))
    sys.exit(1)
";

pub async fn check(python: PathBuf, condition: String) -> Result<(), String> {
    let mut cmd = Command::new(python);
    cmd.args(["-c", CHECK]);
    compile_with(cmd, condition, "Python").await
}

const PREFIX: &str = "Error while evaluating expression in conditional breakpoint: ";

/// pydevd writes the condition on the first line and a traceback after
/// it; its last line names the error.
pub fn runtime_error(output: &str) -> Option<(String, String)> {
    let output = output.strip_prefix("pydevd: ").unwrap_or(output);
    let rest = output.strip_prefix(PREFIX)?;
    let mut lines = rest.lines();
    let condition = lines.next()?.trim().to_string();
    let error = lines
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("it raised")
        .to_string();
    Some((condition, error))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_runtime_report_names_condition_and_error() {
        let (c, e) = super::runtime_error(
            "Error while evaluating expression in conditional breakpoint: 1/x > 0\nTraceback (most recent call last):\n  File \"<string>\", line 1\nZeroDivisionError: division by zero\n",
        )
        .unwrap();
        assert_eq!(c, "1/x > 0");
        assert_eq!(e, "ZeroDivisionError: division by zero");
    }
}
