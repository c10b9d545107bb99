//! A Python program that does not compile ends before its first line with
//! a traceback whose last frame has no function: that frame is where the
//! error is.

/// (file, line, the error's line) from the output's last SyntaxError,
/// IndentationError or TabError.
pub(super) fn compile_error(output: &str) -> Option<(String, u64, String)> {
    let lines: Vec<&str> = output.lines().collect();
    let error_at = lines.iter().rposition(|l| {
        let name = l.split(':').next().unwrap_or("");
        matches!(
            name.rsplit('.').next(),
            Some("SyntaxError" | "IndentationError" | "TabError")
        )
    })?;
    let (file, line) = lines[..error_at].iter().rev().find_map(|l| {
        let rest = l.trim_start().strip_prefix("File \"")?;
        let (file, rest) = rest.split_once("\", line ")?;
        // A compile error's frame names no function.
        if rest.contains(", in ") {
            return None;
        }
        Some((file.to_string(), rest.trim().parse().ok()?))
    })?;
    Some((file, line, lines[error_at].trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_bad_line() {
        let out = "Traceback (most recent call last):\n  File \"/x/runpy.py\", line 283, in _get_code_from_file\n    code = compile(f.read(), fname, \"exec\")\n  File \"/w/bad.py\", line 2\n    def f(:\n          ^\nSyntaxError: invalid syntax\n";
        assert_eq!(
            compile_error(out),
            Some(("/w/bad.py".into(), 2, "SyntaxError: invalid syntax".into()))
        );
        assert_eq!(compile_error("ValueError: x\n"), None);
    }
}
