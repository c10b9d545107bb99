//! lldb's report of a breakpoint condition it could not evaluate: it
//! stops there anyway, so the stop is a condition error, not a hit.

use crate::adapters::Language;

const PREFIX: &str = "error: stopped due to an error evaluating condition of breakpoint ";

/// (the condition, the compiler's error) from `error: stopped due to an
/// error evaluating condition of breakpoint 1.1: "i >== 3"` and the
/// clang lines after it.
pub fn runtime_error(output: &str) -> Option<(String, String)> {
    let rest = output.trim_start().strip_prefix(PREFIX)?;
    let (head, details) = rest.split_once('\n').unwrap_or((rest, ""));
    let (_, quoted) = head.split_once(": ")?;
    let condition = quoted.trim().trim_matches('"').to_string();
    // lldb-dap may send the lines after the first as output of their own.
    let error = match details.contains("error: ") {
        true => super::Native.evaluation_error(details),
        false => String::new(),
    };
    Some((condition, error))
}

/// A line of clang's report after the first: its `error:` line is the
/// error; its notes, the fallback to C++ and the caret under the
/// expression are part of it.
pub fn detail(line: &str) -> Option<Option<String>> {
    let t = line.trim();
    if t.starts_with("error: ") {
        return Some(Some(super::Native.evaluation_error(t)));
    }
    let part = t.starts_with("Couldn't parse")
        || t.starts_with("Expression evaluation in ")
        || t.starts_with("warning: ")
        || t.starts_with("note: ")
        || t.starts_with('|')
        || t.split_once(" | ")
            .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()));
    part.then_some(None)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_report_names_condition_and_error() {
        let (c, e) = super::runtime_error(
            "error: stopped due to an error evaluating condition of breakpoint 1.1: \"nosuch == 3\"\nCouldn't parse conditional expression:\nExpression evaluation in pure C not supported. Ran expression as 'ISO C++'.\nerror: <user expression 1>:1:1: use of undeclared identifier 'nosuch'\n    1 | nosuch == 3\n      | ^~~~~~\n",
        )
        .unwrap();
        assert_eq!(c, "nosuch == 3");
        assert_eq!(e, "use of undeclared identifier 'nosuch'");
        let (_, e) = super::runtime_error(
            "error: stopped due to an error evaluating condition of breakpoint 1.1: \"nosuch == 3\"\n",
        )
        .unwrap();
        assert_eq!(e, "", "told by the lines after");
    }

    #[test]
    fn the_lines_after_the_report_are_part_of_it() {
        use super::detail;
        assert_eq!(detail("Couldn't parse conditional expression:"), Some(None));
        assert_eq!(
            detail("error: <user expression 0>:1:1: use of undeclared identifier 'nosuch'"),
            Some(Some("use of undeclared identifier 'nosuch'".into()))
        );
        assert_eq!(detail("    1 | nosuch == 3"), Some(None));
        assert_eq!(detail("      | ^~~~~~"), Some(None));
        assert_eq!(detail("10"), None);
    }
}
