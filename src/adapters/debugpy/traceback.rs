//! A traceback in Python's own shape, from a stop's frames: innermost
//! last, each frame's line of source under it, the exception at the end.

use crate::adapters::TraceFrame;

/// The exception's type without the module Python gives its builtins.
pub fn type_shown(raw: &str) -> String {
    raw.strip_prefix("builtins.").unwrap_or(raw).to_string()
}

/// `frames` innermost first; the outermost are left out past `max_chars`.
pub fn render(frames: &[TraceFrame], type_name: &str, message: &str, max_chars: usize) -> String {
    let last = format!("{}: {message}", type_shown(type_name));
    let mut body = String::new();
    for f in frames {
        let mut entry = match &f.file {
            Some(p) => format!("  File \"{p}\", line {}, in {}\n", f.line, f.function),
            None => format!("  <unknown>, in {}\n", f.function),
        };
        if let Some(text) = &f.source {
            entry.push_str(&format!("    {text}\n"));
        }
        if body.len() + entry.len() + last.len() > max_chars {
            break;
        }
        body.insert_str(0, &entry);
    }
    format!("Traceback (most recent call last):\n{body}{last}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(function: &str, line: u64, source: &str) -> TraceFrame {
        TraceFrame {
            file: Some("/w/calc.py".into()),
            line,
            function: function.into(),
            source: Some(source.into()),
        }
    }

    #[test]
    fn innermost_last_with_its_source() {
        let frames = [
            frame("divide", 2, "return a / b"),
            frame("<module>", 5, "divide(1, 0)"),
        ];
        assert_eq!(
            render(
                &frames,
                "builtins.ZeroDivisionError",
                "division by zero",
                8192
            ),
            "Traceback (most recent call last):\n  File \"/w/calc.py\", line 5, in <module>\n    divide(1, 0)\n  File \"/w/calc.py\", line 2, in divide\n    return a / b\nZeroDivisionError: division by zero"
        );
        let short = render(&frames, "ValueError", "bad", 120);
        assert!(short.contains("in divide"), "{short}");
        assert!(
            !short.contains("<module>"),
            "the outermost go first: {short}"
        );
    }
}
