//! Breakpoint conditions in Go: parsed by gofmt when set, so one that does
//! not parse is refused with the parser's message rather than left as an
//! unverified breakpoint that never stops.

use std::path::PathBuf;

/// The condition sits in a file of its own at this column of line 2.
const BEFORE: &str = "var _ = (";

pub async fn check(gofmt: PathBuf, condition: String) -> Result<(), String> {
    // On one line: a newline after an operand would end the statement.
    let source = format!("package p\n{BEFORE}{condition})\n");
    let Some(text) = crate::adapters::condition_check::refusal(&gofmt, &["-e"], &source).await
    else {
        return Ok(());
    };
    Err(format!(
        "{condition:?} is not a Go expression: {}",
        message(text.lines().next().unwrap_or_default())
    ))
}

/// `<standard input>:2:14: expected operand, found '='` as `expected
/// operand, found '=' (column 5)`, the column counted in the condition.
fn message(line: &str) -> String {
    let mut parts = line.splitn(4, ':');
    let (_, row, col, msg) = (parts.next(), parts.next(), parts.next(), parts.next());
    match (row, col.and_then(|c| c.trim().parse::<usize>().ok()), msg) {
        (Some("2"), Some(col), Some(msg)) if col > BEFORE.len() => {
            format!("{} (column {})", msg.trim(), col - BEFORE.len())
        }
        (_, _, Some(msg)) => msg.trim().to_string(),
        _ => line.trim().to_string(),
    }
}

/// delve evaluates a condition when its breakpoint is reached; one that
/// fails ends the continue with an error, which its DAP server reports as
/// a `runtime error` exception stop whose text is delve's
/// `error evaluating expression: …` (or, for several at once, `multiple
/// errors evaluating conditions`).
pub fn runtime_error(description: &str, text: &str) -> Option<String> {
    if description != "runtime error" {
        return None;
    }
    if let Some(error) = text.strip_prefix("error evaluating expression: ") {
        return Some(error.to_string());
    }
    (text == "multiple errors evaluating conditions").then(|| text.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_failed_condition_is_told_from_an_exception_stop() {
        assert_eq!(
            super::runtime_error(
                "runtime error",
                "error evaluating expression: could not find symbol value for undefinedName"
            )
            .as_deref(),
            Some("could not find symbol value for undefinedName")
        );
        assert!(super::runtime_error("runtime error", "bad access").is_none());
        assert!(super::runtime_error("panic", "error evaluating expression: x").is_none());
    }

    #[test]
    fn the_column_is_the_conditions() {
        assert_eq!(
            super::message("<standard input>:2:12: expected operand, found '='"),
            "expected operand, found '=' (column 3)"
        );
    }
}
