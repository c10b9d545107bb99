//! Python exception types by qualified name: read from debugpy's stack
//! trace (its `exceptionId` is the bare `__qualname__`), and compared with
//! the module that needs no naming left out.

/// The qualified type of the exception the stack trace ends in. debugpy
/// writes each exception's frames, then `module.Type: message`, leaving
/// the module out for `builtins` and `__main__`; the stopped one is last.
pub fn from_stack_trace(stack_trace: &str) -> Option<String> {
    let lines: Vec<&str> = stack_trace.lines().collect();
    let last_frame = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("File \""))?;
    let own = lines[last_frame + 1..]
        .iter()
        .find(|l| !l.is_empty() && !l.starts_with(' '))?;
    let name = own.split_once(':').map_or(*own, |(t, _)| t).trim();
    (!name.is_empty() && !name.contains(' ')).then(|| name.to_string())
}

/// debugpy's `exceptionId` without the note it appends when it paused
/// in a frame other than the raising one (a user-uncaught exception).
pub fn without_note(id: &str) -> &str {
    id.split_once("(note: ")
        .map_or(id, |(name, _)| name)
        .trim_end()
}

/// Whether two type names are the same type: `ValueError` is
/// `builtins.ValueError`, and a script's own `E` is `__main__.E`.
pub fn same(a: &str, b: &str) -> bool {
    canonical(a) == canonical(b)
}

fn canonical(name: &str) -> &str {
    let name = name.trim();
    ["builtins.", "__main__."]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stopped_exceptions_type_is_the_line_after_its_frames() {
        let plain = "  File \"/w/a.py\", line 3, in f\n    raise Sub(1)\nSub: 1\n";
        assert_eq!(from_stack_trace(plain).as_deref(), Some("Sub"));
        let chained = "  File \"/w/a.py\", line 2, in f\n    x\nKeyError: 1\n\nDuring handling of the above exception, another exception occurred:\n\n  File \"/w/a.py\", line 9, in g\n    raise pkg.errors.Bad(\n        'x')\n    ^^^^\npkg.errors.Bad: two\nlines\n";
        assert_eq!(from_stack_trace(chained).as_deref(), Some("pkg.errors.Bad"));
        assert_eq!(from_stack_trace("no frames"), None);
    }

    #[test]
    fn the_pause_note_leaves_the_name() {
        let id = "ValueError       (note: full exception trace is shown but execution is paused at: <module>)";
        assert_eq!(without_note(id), "ValueError");
        assert_eq!(without_note("KeyError"), "KeyError");
    }

    #[test]
    fn builtins_and_main_need_no_module() {
        assert!(same("ValueError", "builtins.ValueError"));
        assert!(same("__main__.Sub", "Sub"));
        assert!(!same("ValueError", "Sub"));
        assert!(!same("pkg.ValueError", "ValueError"));
    }
}
