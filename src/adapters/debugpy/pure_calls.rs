//! Python's calls that cannot change the program, which run without
//! `allow_side_effects`; any other call needs it.

use crate::adapters::side_effects::Rules;

pub const PYTHON: Rules = Rules {
    pure_calls: &[
        "len",
        "isinstance",
        "issubclass",
        "type",
        "abs",
        "min",
        "max",
        "repr",
        "str",
        "int",
        "float",
        "bool",
        "id",
        "round",
        "sum",
        "any",
        "all",
        "sorted",
        "hasattr",
        "callable",
        "hex",
        "oct",
        "bin",
        "chr",
        "ord",
        "divmod",
        "os.getpid",
        "os.getppid",
        "os.getcwd",
        "os.path.basename",
        "os.path.dirname",
        "os.path.join",
        "os.path.exists",
        "os.path.isfile",
        "os.path.isdir",
        "threading.get_ident",
        "threading.current_thread",
    ],
    // The methods of the built-in containers and strings that only read.
    pure_methods: &[
        "keys",
        "values",
        "items",
        "get",
        "startswith",
        "endswith",
        "count",
        "index",
        "find",
        "rfind",
        "upper",
        "lower",
        "strip",
        "lstrip",
        "rstrip",
        "split",
        "isdigit",
        "isalpha",
        "isalnum",
        "isspace",
        "issubset",
        "issuperset",
        "isdisjoint",
        "is_alive",
        "getName",
    ],
    not_calls: &[
        "and", "or", "not", "in", "is", "if", "else", "lambda", "for",
    ],
    statements: &[
        "del", "import", "exec", "eval", "global", "nonlocal", "yield",
    ],
    // `--x` is a double negation in Python.
    increments: false,
    channels: false,
    quotes: &['"', '\''],
    format_strings: true,
    macros_and_casts: false,
};

#[cfg(test)]
mod tests {
    use super::PYTHON;
    use crate::adapters::side_effects::scan;

    #[test]
    fn calls_and_statements_that_change_the_program() {
        for (e, says) in [
            ("items.pop()", "calls `pop`"),
            ("(n := 3)", "assigns with `:=`"),
            ("del d['k']", "uses `del`"),
            ("import os", "uses `import`"),
            ("x //= 2", "assigns with `//=`"),
            ("x **= 2", "assigns with `**=`"),
            ("print(x)", "calls `print`"),
            ("f\"{x.pop()}\"", "calls `pop` in a format string"),
            ("rf'{len(a)} {g(1)!r}'", "calls `g` in a format string"),
            ("os.system('ls')", "calls `system`"),
            ("items.copy()", "calls `copy`"),
            // A pure function's name as a method is not that function.
            ("obj.len(x)", "calls `len`"),
            ("self.os.getpid()", "calls `getpid`"),
        ] {
            assert_eq!(scan(e, &PYTHON).as_deref(), Some(says), "{e}");
        }
    }

    #[test]
    fn reads_and_pure_calls() {
        for e in [
            "len(items) > 3",
            "isinstance(x, int) and not (y)",
            "sorted(xs, key=abs)",
            "'a.pop()' + \"x = 1\"",
            "--x",
            "d['k'] == 2",
            "f\"{x} {{y()}}\"",
            "'{x.pop()}'",
            "os.getpid()",
            "os.getcwd()",
            "os.path.join(a, 'b')",
            "len(d.keys()) == 1",
            "d.get('k', 0) + len(d.items())",
            "name.startswith('x') or name.count('a') > 1",
            "str(x).upper()",
        ] {
            assert_eq!(scan(e, &PYTHON), None, "{e}");
        }
    }
}
