//! Where a build step's output says the build broke: the first error of
//! gcc and clang (`file:line:col: error: message`), rustc and cargo
//! (`error[E0425]: message` then ` --> file:line:col`), or go build
//! (`./main.go:7:14: message`).

/// (file as the compiler wrote it, line, message) of the first error.
pub fn first_error(output: &str) -> Option<(String, u64, String)> {
    let lines: Vec<&str> = output.lines().collect();
    let first = lines.iter().enumerate().find_map(|(i, l)| {
        c_error(l).map(|e| (i, e)).or_else(|| {
            let message = rust_error(l)?;
            // The position follows within the diagnostic's first lines.
            let (file, line) = lines[i + 1..].iter().take(4).find_map(|l| rust_at(l))?;
            Some((i, (file, line, message)))
        })
    });
    match first {
        Some((_, e)) => Some(e),
        None => crate::adapters::delve::build_error::build_error(output),
    }
}

/// `path:LINE[:COLUMN]: error: message` (also `fatal error:`).
fn c_error(line: &str) -> Option<(String, u64, String)> {
    let line = line.trim_end();
    let (at, message) = line
        .split_once(": error: ")
        .or_else(|| line.split_once(": fatal error: "))?;
    let mut parts = at.splitn(3, ':');
    let file = parts.next()?.trim();
    let number: u64 = parts.next()?.parse().ok()?;
    if file.is_empty() || file.contains(char::is_whitespace) || number == 0 {
        return None;
    }
    if let Some(column) = parts.next()
        && !column.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let message = message.trim();
    (!message.is_empty()).then(|| (file.to_string(), number, message.to_string()))
}

/// rustc's `error: message` or `error[E0425]: message`.
fn rust_error(line: &str) -> Option<String> {
    let rest = line.strip_prefix("error")?;
    let rest = match rest.strip_prefix('[') {
        Some(code) => code.split_once(']')?.1,
        None => rest,
    };
    let message = rest.strip_prefix(": ")?.trim();
    // cargo's closing `error: could not compile ...` has no position.
    (!message.is_empty()).then(|| message.to_string())
}

/// rustc's ` --> src/main.rs:5:20`.
fn rust_at(line: &str) -> Option<(String, u64)> {
    let at = line.trim_start().strip_prefix("--> ")?.trim();
    let mut parts = at.rsplitn(3, ':');
    let _column = parts.next()?;
    let number: u64 = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    (!file.is_empty()).then(|| (file.to_string(), number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_error_of_each_compiler() {
        let gcc = "main.cpp: In function 'int main()':\nmain.cpp:7:14: error: expected ';' before '}' token\nmain.cpp:9:1: error: x\n";
        assert_eq!(
            first_error(gcc),
            Some(("main.cpp".into(), 7, "expected ';' before '}' token".into()))
        );
        let clang =
            "src/a.c:3:5: warning: unused\nsrc/a.c:4:9: fatal error: 'nope.h' file not found\n";
        assert_eq!(
            first_error(clang),
            Some(("src/a.c".into(), 4, "'nope.h' file not found".into()))
        );
        let rust = "   Compiling inv v0.1.0\nwarning: unused\n --> src/lib.rs:1:1\nerror[E0425]: cannot find value `y` in this scope\n --> src/main.rs:5:20\n  |\nerror: could not compile `inv`\n";
        assert_eq!(
            first_error(rust),
            Some((
                "src/main.rs".into(),
                5,
                "cannot find value `y` in this scope".into()
            ))
        );
        let go = "# example.com/x\n./main.go:7:14: undefined: x\n";
        assert_eq!(first_error(go).map(|e| e.1), Some(7));
        assert_eq!(first_error("error: could not compile `inv`\n"), None);
        assert_eq!(first_error("total: 3\nok\n"), None);
    }
}
