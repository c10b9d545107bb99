//! Breakpoint conditions in JavaScript: compiled by Node when set, so one
//! that does not parse is refused with V8's message; js-debug itself only
//! writes it to the output and never stops there.

use std::path::PathBuf;

use tokio::process::Command;

use crate::adapters::condition_check::compile_with;

/// Compiles the condition as a function body without running it.
const CHECK: &str = "\
try {
  new Function('return (' + process.argv[1] + '\\n);');
} catch (e) {
  console.log(e.message);
  process.exit(1);
}
";

pub async fn check(node: PathBuf, condition: String) -> Result<(), String> {
    let mut cmd = Command::new(node);
    cmd.env_remove("NODE_OPTIONS").args(["-e", CHECK]);
    compile_with(cmd, condition, "JavaScript").await
}

const PREFIX: &str = "Syntax error setting breakpoint with condition ";
const RUNTIME: &str = "Breakpoint condition error: ";

/// js-debug's report of a condition it could not set (`Syntax error
/// setting breakpoint with condition "i >== 3" on line 5: Unexpected
/// token '='`) or that threw (`Breakpoint condition error: nosuch is not
/// defined`, which does not say the condition: an empty one), from its
/// output.
pub fn error(output: &str) -> Option<(String, String)> {
    // One output event may carry the report of several hits, a line each.
    if let Some(e) = output.trim_start().strip_prefix(RUNTIME) {
        let first = e.lines().next().unwrap_or(e);
        return Some((String::new(), first.trim().to_string()));
    }
    let rest = output.trim_start().strip_prefix(PREFIX)?;
    let (quoted, tail) = rest.split_once(" on line ")?;
    let condition = quoted.trim_matches('"').to_string();
    let error = tail.split_once(": ").map_or(tail, |(_, e)| e).trim();
    Some((condition, error.to_string()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_report_of_several_hits_is_one_error() {
        let (c, e) = super::error(
            "Breakpoint condition error: nosuch is not defined\nBreakpoint condition error: nosuch is not defined\n",
        )
        .unwrap();
        assert_eq!((c.as_str(), e.as_str()), ("", "nosuch is not defined"));
    }

    #[test]
    fn the_report_names_condition_and_error() {
        let (c, e) = super::error(
            "Syntax error setting breakpoint with condition \"i >== 3\" on line 5: Unexpected token '='",
        )
        .unwrap();
        assert_eq!(c, "i >== 3");
        assert_eq!(e, "Unexpected token '='");
        let (c, e) = super::error("Breakpoint condition error: nosuch is not defined\n").unwrap();
        assert_eq!((c.as_str(), e.as_str()), ("", "nosuch is not defined"));
    }
}
