//! Whether an expression may change the program: a call, an assignment, or
//! a statement that does (`del`, `import`). A scan of the text, not a
//! parser: it errs towards saying yes, and string literals never count.

/// What counts in one language.
pub struct Rules {
    /// Functions known not to change anything, callable freely: a bare
    /// name, or a qualified one (`os.getpid`) matched against the whole
    /// dotted name before the parenthesis.
    pub pure_calls: &'static [&'static str],
    /// Methods known not to change their receiver or anything else, called
    /// after a dot (`items.len()`).
    pub pure_methods: &'static [&'static str],
    /// Words that take parentheses without being calls (`sizeof (x)`).
    pub not_calls: &'static [&'static str],
    /// Words that change the program wherever they appear.
    pub statements: &'static [&'static str],
    /// `++` and `--` change their operand.
    pub increments: bool,
    /// `<-` sends or receives on a channel.
    pub channels: bool,
    /// Characters that open a string literal.
    pub quotes: &'static [char],
    /// A literal after a prefix with `f` is a format string whose `{…}`
    /// run as code (Python's f-strings).
    pub format_strings: bool,
    /// `name!(…)` runs a macro (Rust); `(type)x` is a cast, not a call (C).
    pub macros_and_casts: bool,
}

/// For a language with no list of its own: only C's compile-time words
/// pass.
pub const C_LIKE: Rules = Rules {
    pure_calls: &["sizeof", "alignof", "_Alignof", "offsetof"],
    pure_methods: &[],
    not_calls: &["sizeof", "alignof", "_Alignof", "if", "while", "return"],
    statements: &[],
    increments: true,
    channels: false,
    quotes: &['"', '\''],
    format_strings: false,
    macros_and_casts: true,
};

/// What in `expr` may change the program, said in a few words; None when
/// nothing does.
pub fn scan(expr: &str, rules: &Rules) -> Option<String> {
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    // What came last outside literals: a word (and whether a `.` led to
    // it), or a closing bracket.
    let mut last_word: Option<(String, bool)> = None;
    let mut last_close = false;
    let mut prev_char: Option<char> = None;
    // The dotted name the last word ends (`os.path.join`), for qualified
    // pure calls.
    let mut dotted = String::new();
    // For each open parenthesis: whether it holds a pure call's arguments,
    // where `name=` is a keyword argument rather than an assignment.
    let mut parens: Vec<(bool, usize)> = vec![];
    // Whether the last closing parenthesis ended a cast such as `(char *)`.
    let mut last_cast = false;
    while i < chars.len() {
        let c = chars[i];
        if rules.quotes.contains(&c) {
            let end = skip_literal(&chars, i);
            let prefix = last_word.as_ref().filter(|(w, _)| is_format_prefix(w));
            if rules.format_strings && prefix.is_some() {
                for code in placeholders(&chars[i..end]) {
                    if let Some(what) = scan(&code, rules) {
                        return Some(format!("{what} in a format string"));
                    }
                }
            }
            i = end;
            dotted.clear();
            last_word = None;
            last_close = false;
            prev_char = Some(c);
            continue;
        }
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if rules.statements.contains(&word.as_str()) {
                return Some(format!("uses `{word}`"));
            }
            let method = prev_char == Some('.');
            if method && !dotted.is_empty() {
                dotted.push('.');
                dotted.push_str(&word);
            } else {
                dotted = word.clone();
            }
            last_word = Some((word, method));
            last_close = false;
            prev_char = chars.get(i - 1).copied();
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        if rules.macros_and_casts
            && c == '!'
            && matches!(next, Some('(' | '[' | '{'))
            && let Some((w, _)) = &last_word
        {
            return Some(format!("calls the macro `{w}!`"));
        }
        match c {
            '(' => {
                let mut pure_call = false;
                if let Some((w, method)) = &last_word {
                    let pure = match method {
                        true => {
                            rules.pure_methods.contains(&w.as_str())
                                || rules.pure_calls.contains(&dotted.as_str())
                        }
                        false => rules.pure_calls.contains(&w.as_str()),
                    };
                    let keyword = !method && rules.not_calls.contains(&w.as_str());
                    let number = w.chars().next().is_some_and(|d| d.is_ascii_digit());
                    if !pure && !keyword && !number {
                        return Some(format!("calls `{w}`"));
                    }
                    pure_call = pure;
                } else if last_close && !last_cast {
                    return Some("calls the result of an expression".into());
                }
                parens.push((pure_call, i));
            }
            ')' => {
                let open = parens.pop().map(|(_, at)| at);
                last_cast =
                    rules.macros_and_casts && open.is_some_and(|at| is_cast(&chars[at + 1..i]));
                last_close = true;
                dotted.clear();
                last_word = None;
                prev_char = Some(c);
                i += 1;
                continue;
            }
            '=' => {
                let before = prev_char.unwrap_or(' ');
                let keyword_argument = parens.last().is_some_and(|p| p.0)
                    && prev_char.is_some_and(|p| p.is_alphanumeric() || p == '_');
                let comparison = keyword_argument
                    || next == Some('=')
                    || next == Some('>')
                    || matches!(before, '=' | '!')
                    || (matches!(before, '<' | '>') && !is_shift_assign(&chars, i));
                if !comparison {
                    let op: String = if before == ':' {
                        ":=".into()
                    } else if "+-*/%&|^@<>".contains(before) {
                        let start = if i >= 2 && chars[i - 2] == before && before != '@' {
                            i - 2
                        } else {
                            i - 1
                        };
                        chars[start..=i].iter().collect()
                    } else {
                        "=".into()
                    };
                    return Some(format!("assigns with `{op}`"));
                }
                // `==`: its second `=` is part of it.
                if next == Some('=') {
                    i += 1;
                }
            }
            '+' | '-' if rules.increments && next == Some(c) => {
                return Some(format!("uses `{c}{c}`"));
            }
            '<' if rules.channels && next == Some('-') => {
                return Some("uses the channel operator `<-`".into());
            }
            _ => {}
        }
        last_close = c == ']';
        last_cast = false;
        if c != '.' {
            dotted.clear();
        }
        last_word = None;
        prev_char = Some(c);
        i += 1;
    }
    None
}

/// `f`, `rf`, `Fr`…: the prefixes of a Python format string.
fn is_format_prefix(word: &str) -> bool {
    word.len() <= 2
        && word.chars().any(|c| c.eq_ignore_ascii_case(&'f'))
        && word
            .chars()
            .all(|c| matches!(c.to_ascii_lowercase(), 'f' | 'r'))
}

/// The code of each `{…}` in a format string's literal (quotes included);
/// `{{` is a literal brace.
fn placeholders(literal: &[char]) -> Vec<String> {
    let mut out = vec![];
    let mut i = 0;
    while i < literal.len() {
        match literal[i] {
            '{' if literal.get(i + 1) == Some(&'{') => i += 2,
            '{' => {
                let mut depth = 1;
                let mut code = String::new();
                i += 1;
                while i < literal.len() {
                    match literal[i] {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    code.push(literal[i]);
                    i += 1;
                }
                // `{x!r:>10}`: the conversion and format spec are not code.
                let code = code.split("!r").next().unwrap_or(&code).to_string();
                out.push(code);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether a parenthesised text is a C type, as in a cast: type words
/// (`unsigned long`, `struct node`, `size_t`) and pointer stars, or any
/// name followed by a star.
fn is_cast(inner: &[char]) -> bool {
    const TYPE_WORDS: &[&str] = &[
        "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "const",
        "volatile", "struct", "union", "enum", "bool", "_Bool",
    ];
    let text: String = inner.iter().collect();
    let star = text.contains('*');
    let body = text.replace('*', " ");
    let words: Vec<&str> = body.split_whitespace().collect();
    !words.is_empty()
        && words.iter().all(|w| {
            w.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !w.starts_with(|c: char| c.is_ascii_digit())
        })
        && (star
            || words
                .iter()
                .all(|w| TYPE_WORDS.contains(w) || w.ends_with("_t")))
}

/// `<<=` and `>>=` assign; `<=` and `>=` compare.
fn is_shift_assign(chars: &[char], eq: usize) -> bool {
    eq >= 2 && chars[eq - 1] == chars[eq - 2]
}

/// The index past the literal whose quote is at `at`.
fn skip_literal(chars: &[char], at: usize) -> usize {
    let q = chars[at];
    // Python's triple quotes.
    if chars.get(at + 1) == Some(&q) && chars.get(at + 2) == Some(&q) {
        let mut i = at + 3;
        while i + 2 < chars.len() {
            if chars[i] == '\\' {
                i += 2;
                continue;
            }
            if chars[i] == q && chars[i + 1] == q && chars[i + 2] == q {
                return i + 3;
            }
            i += 1;
        }
        return chars.len();
    }
    let mut i = at + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' if q != '`' => i += 2,
            c if c == q => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_like() {
        for (e, says) in [
            ("f(x)", "calls `f`"),
            ("a.b()", "calls `b`"),
            ("x = 1", "assigns with `=`"),
            ("x += 1", "assigns with `+=`"),
            ("x <<= 1", "assigns with `<<=`"),
            ("i++", "uses `++`"),
            ("--i", "uses `--`"),
            ("fns[0](1)", "calls the result of an expression"),
            ("vec![1]", "calls the macro `vec!`"),
            ("println!(\"{}\", x)", "calls the macro `println!`"),
            ("(f)(x)", "calls the result of an expression"),
        ] {
            assert_eq!(scan(e, &C_LIKE).as_deref(), Some(says), "{e}");
        }
        for e in [
            "a == b",
            "a != b",
            "a <= b && b >= c",
            "sizeof(int)",
            "\"f(x) = 1\"",
            "p->next",
            "arr[i] - 1",
            "(a + b) * c",
            "(int)x",
            "(char *)p",
            "(unsigned long)(p + 1)",
            "(struct node *)(q)->next",
            "!done",
            "a != !b",
        ] {
            assert_eq!(scan(e, &C_LIKE), None, "{e}");
        }
    }
}
