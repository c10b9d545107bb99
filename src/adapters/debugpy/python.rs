//! What Python means to the engine: a function's parameters read from its
//! `def` line, paths as Python expressions, assignment by running a
//! statement, debugpy's member groups, and reprs that say too little.

use crate::adapters::language::{Language, SetVariable, is_ident, split_path};
use crate::adapters::signature::{inside_parens, split_top_level};
use crate::adapters::value::{Layout, Raw, Value};

const SEQUENCES: &[&str] = &["list", "tuple", "set", "frozenset", "deque"];
const MAPPINGS: &[&str] = &[
    "dict",
    "OrderedDict",
    "defaultdict",
    "Counter",
    "mappingproxy",
];

pub struct Python;

impl Language for Python {
    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        parameters(lines, function, line)
    }

    /// A repr is a literal; children, read where it said too little, are
    /// a collection's items or an object's attributes by the type.
    fn value(&self, raw: &dyn Raw) -> Value {
        let t = raw.type_name();
        if t == "NoneType" {
            return Value::nil("None");
        }
        let layout = match t {
            "tuple" => Some(Layout::Seq('(', ')')),
            "set" | "frozenset" => Some(Layout::Seq('{', '}')),
            _ if SEQUENCES.contains(&t) => Some(Layout::Seq('[', ']')),
            _ if MAPPINGS.contains(&t) => Some(Layout::Map),
            _ => None,
        };
        crate::adapters::literal_value(raw, layout, &|c| {
            crate::adapters::value::child_value(c, self)
        })
    }

    fn runs_modules(&self) -> bool {
        true
    }

    /// boot/_pairdbg_repr_deadline.py sends this mark for a repr it cut off.
    fn value_not_read(&self, value: &str) -> Option<String> {
        value
            .strip_prefix("<pairdbg-not-read: ")
            .and_then(|v| v.strip_suffix('>'))
            .map(str::to_string)
    }

    /// A method's `def` is indented in its class.
    fn opens_function(&self, line: &str) -> bool {
        line.starts_with("def ") || line.starts_with("async def ")
    }

    fn is_true(&self, value: &str) -> bool {
        value == "True" || crate::adapters::plain_values::nonzero(value)
    }

    fn plain_words(&self) -> &'static [&'static str] {
        &["None", "True", "False", "''", "\"\"", "b''"]
    }

    fn exception_type_shown(&self, type_name: &str) -> String {
        super::traceback::type_shown(type_name)
    }

    fn traceback(
        &self,
        frames: &[crate::adapters::TraceFrame],
        type_name: &str,
        message: &str,
        max_chars: usize,
    ) -> String {
        super::traceback::render(frames, type_name, message, max_chars)
    }

    fn side_effect(&self, expression: &str) -> Option<String> {
        crate::adapters::side_effects::scan(expression, &super::pure_calls::PYTHON)
    }

    fn exception_chain(&self, max: usize) -> Option<String> {
        Some(super::cause_chain::expression(max))
    }

    fn parse_exception_chain(&self, value: &str) -> Vec<crate::adapters::InnerException> {
        super::cause_chain::parse(value)
    }

    fn is_shown(&self, name: &str, _value: &str) -> bool {
        !self.is_hidden_group(name) && !name.starts_with("__")
    }

    /// debugpy groups dunder and function members under these.
    fn is_hidden_group(&self, name: &str) -> bool {
        matches!(
            name,
            "special variables" | "function variables" | "class variables" | "protected variables"
        )
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        path_expression(path)
    }

    /// A traceback's last `File "p.py", line 4, in f` is where it was raised.
    fn raise_site(&self, stack_trace: &str) -> Option<(String, u64, String)> {
        raise_site(stack_trace)
    }

    fn exception_type(&self, stack_trace: &str) -> Option<String> {
        super::exception_type::from_stack_trace(stack_trace)
    }

    fn exception_id(&self, id: &str) -> String {
        super::exception_type::without_note(id).to_string()
    }

    fn same_exception_type(&self, a: &str, b: &str) -> bool {
        super::exception_type::same(a, b)
    }

    fn compile_error(&self, output_tail: &str) -> Option<(String, u64, String)> {
        super::compile_error::compile_error(output_tail)
    }

    fn clean_traceback(&self, text: &str) -> String {
        clean_traceback(text)
    }

    fn length_expression(&self, expression: &str) -> Option<String> {
        Some(format!("len(({expression}))"))
    }

    /// debugpy lists at most 500 items of a dict or set, then this note.
    fn is_listing_cut(&self, name: &str) -> bool {
        name == "Unable to handle:"
    }

    fn items_window(&self, expression: &str, start: usize, end: usize) -> Option<String> {
        Some(format!(
            "(lambda c, s: dict(s(c.items(), {start}, {end})) if hasattr(c, 'items') else list(s(c, {start}, {end})))(({expression}), __import__('itertools').islice)"
        ))
    }

    /// debugpy's setVariable answers a bad value with success and the old
    /// value; an assignment run in the frame reports the exception.
    fn set_variable(&self) -> SetVariable {
        SetVariable::Assignment(|target, value| format!("{target} = ({value})"))
    }

    /// A default `<X object at 0x..>` repr, or one cut short, says too
    /// little; every other value renders from its repr, sparing a request
    /// to the adapter on every stop.
    /// Every imported module's `.py` file, one per line.
    fn locals_listing_expression(&self) -> Option<&'static str> {
        Some(super::locals_listing::EXPRESSION)
    }

    fn parse_locals_listing(&self, value: &str) -> Option<Vec<crate::adapters::ListedLocal>> {
        super::locals_listing::parse(value)
    }

    fn loaded_sources_expression(&self) -> Option<&'static str> {
        Some(
            "'\\n'.join(sorted({f for m in list(__import__('sys').modules.values()) \
             for f in [getattr(m, '__file__', None)] if isinstance(f, str) and f.endswith('.py')}))",
        )
    }

    /// The repr of that joined string: quoted, its newlines written `\n`.
    fn parse_loaded_sources(&self, value: &str) -> Vec<std::path::PathBuf> {
        let inner = value
            .strip_prefix('\'')
            .and_then(|v| v.strip_suffix('\''))
            .or_else(|| value.strip_prefix('"').and_then(|v| v.strip_suffix('"')))
            .unwrap_or(value);
        inner
            .split("\\n")
            .map(|p| p.replace("\\\\", "\\"))
            .filter(|p| !p.is_empty())
            .map(std::path::PathBuf::from)
            .collect()
    }

    fn needs_children(&self, value: &str, truncated: bool) -> bool {
        value.is_empty()
            || truncated
            || value.contains(" object at 0x")
            || value.contains(", ...")
            || value.ends_with("...")
            // A level SafeRepr did not read: `[{...}]`, `(1, (...))`.
            || ["{...}", "[...]", "(...)"].iter().any(|u| value.contains(u))
    }

    fn find_function(
        &self,
        root: &std::path::Path,
        function: &str,
    ) -> Option<Result<crate::adapters::FoundFunction, String>> {
        Some(super::functions::find_function(root, function))
    }

    fn log_message(&self, template: &str) -> String {
        super::trace_message::log_message(template)
    }

    /// debugpy answers a failed evaluation with the whole traceback; its
    /// last line (`NameError: name 'x' is not defined`) is worth reading.
    fn evaluation_error(&self, message: &str) -> String {
        message
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or(message)
            .to_string()
    }
}

/// `cart.items.0` or `cart.items[0]` as Python: `cart.items[0]`.
fn path_expression(path: &str) -> Option<String> {
    let segs = split_path(path);
    let (first, rest) = segs.split_first()?;
    if !is_ident(first) {
        return None;
    }
    let mut out = first.clone();
    for seg in rest {
        if seg.parse::<i64>().is_ok() {
            out.push_str(&format!("[{seg}]"));
        } else if is_ident(seg) {
            out.push('.');
            out.push_str(seg);
        } else if (seg.starts_with('\'') && seg.ends_with('\'')
            || seg.starts_with('"') && seg.ends_with('"'))
            && seg.len() >= 2
            && !seg[1..seg.len() - 1].contains(['\'', '"', '\\'])
        {
            out.push_str(&format!("[{seg}]"));
        } else {
            return None;
        }
    }
    Some(out)
}

/// Files whose frames start the program rather than belong to it.
const BOOT_FILES: &[&str] = &[
    "runpy.py",
    "<frozen runpy>",
    "/debugpy/",
    "/pydevd",
    "debuggee_boot.py",
];

/// Drops each `File "..."` line of a boot file with the source and caret
/// lines under it.
fn clean_traceback(text: &str) -> String {
    let mut out: Vec<&str> = vec![];
    let mut skipping = false;
    for line in text.lines() {
        let body = line.trim_start();
        if body.starts_with("File \"") {
            skipping = BOOT_FILES.iter().any(|b| body.contains(b));
        } else if skipping && line.starts_with("    ") {
            continue;
        } else {
            skipping = false;
        }
        if !skipping {
            out.push(line);
        }
    }
    out.join("\n")
}

/// Python prints a traceback innermost last; debugpy lists each chained
/// exception's frames innermost first, the one that stopped last.
fn raise_site(stack_trace: &str) -> Option<(String, u64, String)> {
    let frame = |l: &str| {
        let rest = l.trim_start().strip_prefix("File \"")?;
        let (file, rest) = rest.split_once("\", line ")?;
        let (line, function) = rest.split_once(", in ")?;
        let function = function.trim().trim_end_matches(" (Current frame)");
        Some((file.to_string(), line.parse().ok()?, function.to_string()))
    };
    if stack_trace.contains("most recent call last") {
        return stack_trace.lines().rev().find_map(frame);
    }
    let mut blocks: Vec<Vec<(String, u64, String)>> = vec![vec![]];
    for l in stack_trace.lines() {
        match frame(l) {
            Some(f) => blocks.last_mut()?.push(f),
            // An exception's own line ends its block.
            None if !l.starts_with(' ') && !blocks.last()?.is_empty() => blocks.push(vec![]),
            None => {}
        }
    }
    blocks.into_iter().rev().find_map(|b| b.into_iter().next())
}

/// The parameter names of the function `name` whose body holds `line`.
fn parameters(lines: &[String], name: &str, line: u64) -> Option<Vec<String>> {
    let end = (line as usize).min(lines.len());
    let def_at = (0..end).rev().find(|&i| {
        let t = lines[i].trim_start();
        let t = t.strip_prefix("async ").unwrap_or(t);
        t.strip_prefix("def ").is_some_and(|rest| {
            rest.trim_start()
                .strip_prefix(name)
                .is_some_and(|r| r.trim_start().starts_with('('))
        })
    })?;
    // Signatures may span lines; read until the parentheses balance.
    let mut text = String::new();
    for l in lines.iter().skip(def_at).take(20) {
        text.push_str(l);
        text.push(' ');
        if balanced(&text) {
            break;
        }
    }
    let open = text.find('(')?;
    let inner = inside_parens(&text[open..], false)?;
    Some(
        split_top_level(inner, false)
            .into_iter()
            .map(|p| {
                let p = p.split(['=', ':']).next().unwrap_or("").trim();
                p.to_string()
            })
            .filter(|p| !p.is_empty() && p != "/" && p != "*")
            .collect(),
    )
}

fn balanced(s: &str) -> bool {
    let open = s.matches('(').count();
    open > 0 && open == s.matches(')').count()
}

#[cfg(test)]
mod tests {
    #[test]
    fn boot_frames_leave_the_traceback() {
        let text = "Traceback (most recent call last):\n  File \"<frozen runpy>\", line 198, in _run_module_as_main\n  File \"/usr/lib/python3/runpy.py\", line 88, in _run_code\n    exec(code, run_globals)\n  File \"/x/site-packages/debugpy/__main__.py\", line 71, in <module>\n    cli.main()\n  File \"/w/app.py\", line 2, in <module>\n    f()\n    ^^^\nValueError: bad";
        assert_eq!(
            super::clean_traceback(text),
            "Traceback (most recent call last):\n  File \"/w/app.py\", line 2, in <module>\n    f()\n    ^^^\nValueError: bad"
        );
    }

    use super::*;

    #[test]
    fn a_repr_cut_off_is_not_read_and_a_lookalike_is_a_value() {
        let mark = "<pairdbg-not-read: the repr took longer than 1000 ms>";
        assert_eq!(
            Python.value_not_read(mark).as_deref(),
            Some("the repr took longer than 1000 ms")
        );
        assert_eq!(Python.value_not_read("<not read: x>"), None);
        assert_eq!(Python.value_not_read("'<pairdbg-not-read: x>'"), None);
    }

    #[test]
    fn reprs_and_children_become_values() {
        use crate::adapters::value::testing::{text, var};
        use crate::adapters::value::{Count, Value};
        let v = |t: &str, s: &str| Python.value(&var("x", t, s));
        assert_eq!(v("NoneType", "None"), Value::nil("None"));
        assert_eq!(v("str", "'gold'"), text("gold"));
        assert_eq!(
            v("list", "[]"),
            Value::Seq {
                type_name: "list".into(),
                open: '[',
                close: ']',
                items: vec![],
                count: Count::Exact(0)
            }
        );
        assert_eq!(
            v("dict", "{'food': -325}"),
            Value::Map {
                type_name: "dict".into(),
                entries: vec![(text("food"), Value::atom("-325"))],
                count: Count::Exact(1)
            }
        );
        assert_eq!(
            v("Item", "Item(id=1, name='hammer')"),
            Value::Object {
                type_name: "Item".into(),
                fields: vec![
                    ("id".into(), Value::atom("1")),
                    ("name".into(), text("hammer"))
                ],
                more: false
            }
        );
        assert!(matches!(
            v("list", "[1, 2, ...]"),
            Value::Seq {
                count: Count::AtLeast(2),
                ..
            }
        ));
        assert!(matches!(v("list", "[...]"), Value::Unreadable { .. }));
        assert_eq!(
            v("generator", "<generator object f at 0x7f>"),
            Value::described("<generator f>")
        );
        let user = var("user", "__main__.User", "<__main__.User object at 0x1>")
            .with(vec![var("id", "int", "482"), var("tier", "str", "'gold'")]);
        assert_eq!(
            Python.value(&user),
            Value::Object {
                type_name: "__main__.User".into(),
                fields: vec![
                    ("id".into(), Value::atom("482")),
                    ("tier".into(), text("gold"))
                ],
                more: false
            }
        );
        let cut = var("l", "list", "[0, 1, ...]").with(
            (0..3)
                .map(|i| var(&i.to_string(), "int", &i.to_string()))
                .collect(),
        );
        assert!(matches!(
            Python.value(&cut),
            Value::Seq {
                count: Count::Exact(3),
                ..
            }
        ));
    }

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn finds_parameters_of_the_enclosing_def() {
        let s = lines(
            "def f(a, b=2, *args, c: int = 3, **kw):\n    return a\n\nasync def g(\n    x,\n    y,\n):\n    pass\n",
        );
        assert_eq!(
            parameters(&s, "f", 2).unwrap(),
            vec!["a", "b", "*args", "c", "**kw"]
        );
        assert_eq!(parameters(&s, "g", 8).unwrap(), vec!["x", "y"]);
        assert!(parameters(&s, "h", 2).is_none());
    }

    #[test]
    fn the_raise_site_is_the_tracebacks_last_frame() {
        let site = Some(("/w/parse.py".into(), 455, "parse_record".into()));
        let tb = "Traceback (most recent call last):\n  File \"/w/main.py\", line 9, in <module>\n    main()\n  File \"/w/parse.py\", line 455, in parse_record\n    raise ValueError('bad record')\nValueError: bad record\n";
        assert_eq!(raise_site(tb), site);
        let chained = "  File \"/w/a.py\", line 2, in f\n    x\nKeyError: 1\n\nDuring handling...\n\n  File \"/w/parse.py\", line 455, in parse_record (Current frame)\n    raise ValueError('bad record')\n  File \"/w/main.py\", line 9, in <module>\n    main()\nValueError: bad record\n";
        assert_eq!(raise_site(chained), site);
        assert_eq!(raise_site("no frames"), None);
    }

    #[test]
    fn paths_become_python() {
        assert_eq!(path_expression("cart.items.0").unwrap(), "cart.items[0]");
        assert_eq!(path_expression("d['k']").unwrap(), "d['k']");
        assert_eq!(path_expression("__import__('os').system('x')"), None);
    }
}
