//! delve builds a Go program itself, and a failed build ends the launch
//! with the compiler's output on delve's stderr:
//! `./main.go:7:14: undefined: x (exit status 1)`. The first error of the
//! last build is the one to show.

/// (file as the compiler wrote it, line, message) of the last build's
/// first error.
pub(crate) fn build_error(output: &str) -> Option<(String, u64, String)> {
    let lines: Vec<&str> = output.lines().collect();
    let last = lines.iter().rposition(|l| position(l).is_some())?;
    // Walk back over the build's other errors and their indented details
    // (`\thave (int)`) to its first.
    let first = lines[..=last]
        .iter()
        .rev()
        .take_while(|l| position(l).is_some() || l.starts_with('\t'))
        .filter_map(|l| position(l))
        .last()?;
    Some(first)
}

/// `path.go:LINE[:COLUMN]: message`, without go build's closing
/// ` (exit status N)`.
fn position(line: &str) -> Option<(String, u64, String)> {
    let (file, rest) = line.trim_end().split_once(".go:")?;
    if file.is_empty() || file.contains(char::is_whitespace) {
        return None;
    }
    let (number, rest) = rest.split_once(':')?;
    let line_number: u64 = number.parse().ok()?;
    let rest = match rest.split_once(": ") {
        Some((column, message)) if column.chars().all(|c| c.is_ascii_digit()) => message,
        _ => rest,
    };
    let message = match rest.rsplit_once(" (exit status ") {
        Some((m, code)) if code.ends_with(')') => m,
        _ => rest,
    };
    let message = message.trim();
    (!message.is_empty()).then(|| (format!("{file}.go"), line_number, message.to_string()))
}

/// The Go toolchain the module asks for and cannot have, in one line:
/// go's own `go: download go1.99.0: …: 403 Forbidden` (GOTOOLCHAIN=auto)
/// or `go: go.mod requires go >= 1.99.0 (running go 1.26.8;
/// GOTOOLCHAIN=local)`.
pub(crate) fn toolchain_error(output: &str) -> Option<String> {
    for line in output.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("go: download go") {
            let version: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != ':')
                .collect();
            let why = rest.rsplit(": ").next().unwrap_or(rest).trim();
            return Some(format!(
                "the Go toolchain go{version} that go.mod asks for cannot be downloaded ({why}); \
                 install it, or change go.mod's go and toolchain lines"
            ));
        }
        if let Some(rest) = line.strip_prefix("go: go.mod requires go >= ") {
            return Some(format!(
                "go.mod requires go >= {rest}: install that Go, or let go download it with GOTOOLCHAIN=auto"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_error_of_the_last_build() {
        let out = "Build Error: go build -o /tmp/x -gcflags 'all=-N -l' .\n# example.com/broken\n./main.go:7:14: undefined: x\n./util.go:3:2: declared and not used: y (exit status 1)\n";
        assert_eq!(
            build_error(out),
            Some(("./main.go".into(), 7, "undefined: x".into()))
        );
        let one = "# example.com/broken\n./main.go:7:14: undefined: x (exit status 1)\n";
        assert_eq!(
            build_error(one),
            Some(("./main.go".into(), 7, "undefined: x".into()))
        );
        let detail = "./a.go:4:9: cannot use s (variable of type string) as int value in return statement\n\thave (string)\n./b.go:9:1: missing return\n";
        assert_eq!(build_error(detail).map(|e| e.1), Some(4));
        assert_eq!(build_error("Order total: 141.53\n"), None);
        assert_eq!(build_error("see main.go: line 4\n"), None);
    }

    #[test]
    fn a_toolchain_that_cannot_be_had_is_one_line() {
        let auto = "Build Error: go build -o /tmp/x .\ngo: downloading go1.99.0 (linux/amd64)\ngo: download go1.99.0: golang.org/toolchain@v0.0.1-go1.99.0.linux-amd64: reading https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go1.99.0.linux-amd64.zip: 403 Forbidden\n\tserver response: This module version is not available. (exit status 1)\n";
        assert_eq!(
            toolchain_error(auto).as_deref(),
            Some(
                "the Go toolchain go1.99.0 that go.mod asks for cannot be downloaded (403 Forbidden); \
                 install it, or change go.mod's go and toolchain lines"
            )
        );
        let local = "go: go.mod requires go >= 1.99.0 (running go 1.26.8; GOTOOLCHAIN=local) (exit status 1)\n";
        assert!(
            toolchain_error(local)
                .is_some_and(|m| m.starts_with("go.mod requires go >= 1.99.0 (running go 1.26.8")),
            "{local}"
        );
        assert_eq!(toolchain_error("./main.go:4:2: undefined: x\n"), None);
    }
}
