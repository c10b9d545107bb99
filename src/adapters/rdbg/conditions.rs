//! Breakpoint conditions in Ruby: parsed by `ruby -c` when set, so one that
//! does not parse is refused with the parser's message. rdbg itself takes
//! any text and, where it raises, never stops.

use std::path::PathBuf;

/// The condition sits in a file of its own at this column of line 1.
const BEFORE: &str = "_ = (";

pub async fn check(ruby: PathBuf, condition: String) -> Result<(), String> {
    // On one line: a newline would end the expression early.
    let source = format!("{BEFORE}{condition}\n)\n");
    let Some(text) = crate::adapters::condition_check::refusal(&ruby, &["-c", "-"], &source).await
    else {
        return Ok(());
    };
    Err(format!(
        "{condition:?} is not a Ruby expression: {}",
        message(text.lines().next().unwrap_or_default())
    ))
}

/// `-:1: syntax error, unexpected ')'` as `syntax error, unexpected ')'`.
fn message(line: &str) -> String {
    let mut parts = line.splitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("-"), Some(_), Some(msg)) => msg.trim().to_string(),
        _ => line.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_parsers_words_without_its_place() {
        assert_eq!(
            super::message("-:1: syntax error, unexpected ')'"),
            "syntax error, unexpected ')'"
        );
    }
}
