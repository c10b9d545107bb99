//! What a program's language means to the engine, beside its adapter:
//! generic code asks here instead of assuming Python.

use std::path::{Path, PathBuf};

use super::value::{Layout, Raw, Value, from_children, from_literal, text_value};

/// How a variable gets a new value.
#[derive(Debug, Clone, Copy)]
pub enum SetVariable {
    /// Run `statement(target, value)` in the frame, then read `target` back:
    /// for adapters whose `setVariable` hides a bad value's error.
    Assignment(fn(&str, &str) -> String),
    /// DAP `setExpression` when the adapter supports it, else `setVariable`
    /// on the value's container.
    Dap,
}

/// One local of a frame as a language's listing gives it: its value only
/// where reading it ran none of the program's code.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedLocal {
    pub name: String,
    pub type_name: String,
    pub value: Option<String>,
}

/// A reading the adapter cannot evaluate (gdb indexes no `Vec` and finds
/// no `len` rustc left out of the program), answered from the values'
/// parts the adapter's printers give.
#[derive(Debug, Clone, PartialEq)]
pub enum PartsRead {
    /// The value a path names (`items[1].name`, `stock["widget"]`): its
    /// segments, as `split_path` gives them, walked through children from
    /// a local.
    Path(Vec<String>),
    /// `of.len()`, or with `is_empty` `of.is_empty()`: from the exact
    /// number of items the value of `of` holds.
    Count { of: String, is_empty: bool },
}

pub trait Language: Send + Sync {
    /// The parameter names of `function`, whose body holds `line`, read from
    /// the source; None when they cannot be told. Callers with none cost no
    /// request at a stop.
    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>>;

    /// Whether every expression evaluates to a value (`undefined` is one):
    /// then an evaluation answered with none is no answer.
    fn every_expression_has_value(&self) -> bool {
        false
    }

    /// Whether a source line (without its indentation) opens a function
    /// inside other code, as a method in a class body: where a function
    /// starts when it does not start at the margin.
    fn opens_function(&self, _line: &str) -> bool {
        false
    }

    /// Whether a value's text is true in this language: `true` or a
    /// number other than zero by default.
    fn is_true(&self, value: &str) -> bool {
        value == "true" || super::plain_values::nonzero(value)
    }

    /// The words that say nothing even under a secret's name: no value,
    /// the booleans, an empty string, a null pointer.
    fn plain_words(&self) -> &'static [&'static str] {
        &["true", "false", "\"\""]
    }

    /// Whether a variable is the program's own, worth showing; `value` is
    /// the adapter's text for it.
    fn is_shown(&self, name: &str, _value: &str) -> bool {
        !self.is_hidden_group(name)
    }

    /// Pseudo-variables the adapter groups members under.
    fn is_hidden_group(&self, _name: &str) -> bool {
        false
    }

    /// A path such as `cart.items[0]` as an expression of this language, or
    /// None when it is not one (so no code rides in on a name).
    fn path_expression(&self, path: &str) -> Option<String>;
    /// The names the function around `line` declares `static`, from its
    /// source, where the adapter lists them apart from the locals.
    fn static_locals(&self, _lines: &[String], _line: u64) -> Vec<String> {
        vec![]
    }

    /// What in `expression` may change the program (a call, an
    /// assignment), in a few words; None when nothing does.
    fn side_effect(&self, expression: &str) -> Option<String> {
        super::side_effects::scan(expression, &super::side_effects::C_LIKE)
    }

    /// A `completions` text whose answer lists members only where the
    /// adapter found `expression` free of side effects by its runtime's own
    /// check (an empty answer says nothing); None where the adapter has no
    /// such check and the text scan's word is final.
    fn purity_probe(&self, _expression: &str) -> Option<String> {
        None
    }

    /// The form in which the adapter runs `expression`'s function calls,
    /// once they are allowed; None where it runs them as written.
    fn call_form(&self, _expression: &str) -> Option<String> {
        None
    }

    fn set_variable(&self) -> SetVariable {
        SetVariable::Dap
    }

    /// Why a value was not read, where the adapter sent a mark in its place
    /// rather than the value (a repr cut off at its deadline).
    fn value_not_read(&self, _value: &str) -> Option<String> {
        None
    }

    /// A variable's value as the adapter wrote it, in the form the viewport
    /// reads values (double-quoted strings, counts after collections).
    fn value_text(&self, value: String, _type_name: &str) -> String {
        value
    }

    /// The value tree of what the adapter sent for a variable: its text,
    /// its type and the children read. Every renderer works on this.
    fn value(&self, raw: &dyn Raw) -> Value {
        literal_value(raw, None, &|c| crate::adapters::value::child_value(c, self))
    }

    /// A variable's type as the viewport should read it; an empty one says
    /// nothing beyond the value.
    fn type_text(&self, type_name: String) -> String {
        type_name
    }

    /// Whether a value's text says too little, so its children are read for
    /// the viewport's preview.
    fn needs_children(&self, value: &str, truncated: bool) -> bool;

    /// Whether a value shown one level down, inside a preview (where a
    /// struct reads `<Item>` and a collection `<Vec: 3 items>`), needs its
    /// own children read to be shown truly. By default the same rule as at
    /// the top; where the value's text already gives its type and count,
    /// the read would cost a request and change nothing on the screen.
    fn needs_children_when_nested(&self, value: &str, truncated: bool) -> bool {
        self.needs_children(value, truncated)
    }

    /// Whether a value is a shell the adapter sends around its parts (an
    /// empty value whose children say what it is, as gdb sends a Rust enum
    /// and its variant), so its parts are read, a few levels deep, for
    /// `composed_value`.
    fn composes_from_parts(&self, _value: &str, _type_name: &str) -> bool {
        false
    }

    /// A value's text made from its parts, once read; None where the
    /// adapter's own text stands.
    fn composed_value(
        &self,
        _value: &str,
        _type_name: &str,
        _parts: &[Part<'_>],
    ) -> Option<String> {
        None
    }

    /// The stopped thread's name once its top frame's name is known better
    /// (`frame_name_typed`), where the adapter's name repeats the old one.
    fn thread_name_at_stop(&self, _thread: &str, _top_frame: &str) -> Option<String> {
        None
    }

    /// An expression that lists a frame's locals, evaluated in the frame
    /// just before its scope is read: where one slow value holds up the
    /// adapter's whole answer, the stop still shows what the listing read.
    /// None where a scope's values come one at a time anyway.
    fn locals_listing_expression(&self) -> Option<&'static str> {
        None
    }

    /// The locals in the value `locals_listing_expression` evaluated to;
    /// None when it is not such a listing.
    fn parse_locals_listing(&self, _value: &str) -> Option<Vec<ListedLocal>> {
        None
    }

    /// The value tree of a value whose text `composed_value` made, built
    /// from the same parts (`raw`'s children); None where the composed
    /// text is shown as it stands.
    fn composed_tree(&self, _raw: &dyn Raw) -> Option<Value> {
        None
    }

    /// An expression listing the program's loaded source files, one per
    /// line, for searches beyond the workspace; None where the language
    /// has no such list (a native program's libraries carry no sources).
    fn loaded_sources_expression(&self) -> Option<&'static str> {
        None
    }

    /// The files in the value `loaded_sources_expression` evaluated to.
    fn parse_loaded_sources(&self, _value: &str) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    /// Whether a container's listing ends in the adapter's note that it
    /// listed no more (a cap on items), so the rest is read by `items_window`.
    fn is_listing_cut(&self, _name: &str) -> bool {
        false
    }

    /// An expression whose children are the items `start..end` of the
    /// container `expression`, for items past an adapter's cap.
    fn items_window(&self, _expression: &str, _start: usize, _end: usize) -> Option<String> {
        None
    }

    /// How `expression` is read from the values' parts where the adapter
    /// cannot evaluate it; None where it cannot be so read.
    fn parts_read(&self, _expression: &str) -> Option<PartsRead> {
        None
    }

    /// Whether `expression` is read from the values' parts without asking
    /// the adapter first, where the adapter's own try would run the
    /// program's code.
    fn parts_read_first(&self, _expression: &str) -> bool {
        false
    }

    /// The exact number of items a value holds, from its text and type;
    /// None where these do not give it exactly.
    fn exact_count(&self, _value: &str, _type_name: &str) -> Option<usize> {
        None
    }

    /// Children the adapter lists as pairs (a map's keys and values), as
    /// the language names them: for each entry, its name and the index of
    /// the child that holds its value; None where they are no such pairs.
    fn entries(
        &self,
        _container_type: &str,
        _children: &[(&str, &str)],
    ) -> Option<Vec<(String, usize)>> {
        None
    }

    /// The members of each child of a map of `container_type` that hold
    /// its key and its mapped value (a C++ `std::pair`'s `first` and
    /// `second`), where the adapter lists the map as one child per
    /// element: each is then shown as one entry named by its key. None
    /// where the type is no such map.
    fn entry_members(&self, _container_type: &str) -> Option<(&'static str, &'static str)> {
        None
    }

    /// A child's type as the language reads it inside a container of
    /// `container_type`, and whether its value is followed; None where the
    /// adapter's type stands.
    fn child_type(&self, _container_type: &str, _child_type: &str) -> Option<(String, bool)> {
        None
    }

    /// A child's name as the language writes it, where the adapter's
    /// differs (gdb's `__0` for Rust's `.0`).
    fn child_name(&self, _name: &str) -> Option<String> {
        None
    }

    /// Whether a container of `container_type` whose one child is `name`
    /// (of `child_type`) opens to that child's children: a level the
    /// adapter adds (an enum's variant around its payload).
    fn opens_through(&self, _container_type: &str, _name: &str, _child_type: &str) -> bool {
        false
    }

    /// An expression for the length of the text value `expression`, to
    /// say how long a cut one is.
    fn length_expression(&self, _expression: &str) -> Option<String> {
        None
    }

    /// Where an exception was raised, read from the stack trace text the
    /// adapter gives with it: (file, line, function).
    fn raise_site(&self, _stack_trace: &str) -> Option<(String, u64, String)> {
        None
    }

    /// The qualified type of the exception a stack trace (as the adapter
    /// gives it with the exception) ends in.
    fn exception_type(&self, _stack_trace: &str) -> Option<String> {
        None
    }

    /// The exception's type as the adapter's `exceptionId` names it,
    /// without what the adapter adds to it.
    fn exception_id(&self, id: &str) -> String {
        id.to_string()
    }

    /// The exception's type and message from `exceptionInfo`'s
    /// `exceptionId` and `description`.
    fn exception_parts(&self, id: &str, description: &str) -> (String, String) {
        (self.exception_id(id), description.to_string())
    }

    /// An exception's type as the person reads it in a traceback, without
    /// the module the runtime gives its own types.
    fn exception_type_shown(&self, type_name: &str) -> String {
        type_name.to_string()
    }

    /// The stack at an exception as this language writes it (`frames`
    /// innermost first), at most `max_chars` long: the frames nearest the
    /// exception are kept. By default the exception, then each frame.
    fn traceback(
        &self,
        frames: &[TraceFrame],
        type_name: &str,
        message: &str,
        max_chars: usize,
    ) -> String {
        plain_traceback(
            frames,
            &self.exception_type_shown(type_name),
            message,
            max_chars,
        )
    }

    /// Whether two names of exception types name the same type.
    fn same_exception_type(&self, a: &str, b: &str) -> bool {
        a == b
    }

    /// Where the program failed to compile, read from its last output:
    /// (file, line, the error's own line); None when it compiled.
    fn compile_error(&self, _output_tail: &str) -> Option<(String, u64, String)> {
        None
    }

    /// Whether programs run as modules (`-m pkg`).
    fn runs_modules(&self) -> bool {
        false
    }

    /// The error, from a failed evaluation's message, that says the
    /// expression does not compile anywhere, not only that a name is
    /// unknown where it was tried; None when it says no such thing.
    fn expression_error(&self, _message: &str) -> Option<String> {
        None
    }

    /// The line of a failed evaluation's message worth showing.
    fn evaluation_error(&self, message: &str) -> String {
        message.trim().to_string()
    }

    /// A stack frame's function name as the person reads it (symbols may
    /// carry hashes or parameter types the source does not show).
    fn frame_name(&self, raw: &str) -> String {
        raw.split('(').next().unwrap_or(raw).trim().to_string()
    }

    /// The top frame's name once its locals' types are read, where they
    /// tell more than the name did (a generic's type arguments); None keeps it.
    fn frame_name_typed(
        &self,
        _name: &str,
        _lines: &[String],
        _line: u64,
        _locals: &[(&str, &str)],
    ) -> Option<String> {
        None
    }

    /// The message of an exception that stopped the program by a call to a
    /// runtime function (`Quirks::exception_functions`), read from the
    /// program's latest output; None when it printed none.
    fn exception_message(&self, _output_tail: &str) -> Option<String> {
        None
    }

    /// An expression, evaluated in the top frame at an exception stop, whose
    /// value `parse_exception_chain` reads as the exception's causes, up to
    /// `max` of them; None when the language has no chain to read.
    fn exception_chain(&self, _max: usize) -> Option<String> {
        None
    }

    fn parse_exception_chain(&self, _value: &str) -> Vec<crate::adapters::InnerException> {
        vec![]
    }

    /// Whether a frame belongs to the language's runtime, so that a crash
    /// shows from the program's own first frame.
    /// A traceback's text without the frames of the machinery that started
    /// the program (an interpreter's module runner, the adapter's own).
    fn clean_traceback(&self, text: &str) -> String {
        text.to_string()
    }

    fn is_runtime_frame(&self, _name: &str, _file: Option<&str>) -> bool {
        false
    }

    /// Whether a frame's file is a library's the program installed, not
    /// its own code, where the adapter does not say so itself.
    fn is_library_file(&self, _path: &str) -> bool {
        false
    }

    /// Where `function` (`name`, `Class.method`) starts running, read from
    /// the workspace's source: the file, its definition's line, and the
    /// first line of its body. None when this language cannot tell, for
    /// adapters without function breakpoints.
    fn find_function(
        &self,
        _root: &Path,
        _function: &str,
    ) -> Option<Result<FoundFunction, String>> {
        None
    }

    /// A tracepoint's message (`{expr}` evaluated in the frame, `{{` and
    /// `}}` literal braces, a failed expression shown as `<error: Type>`)
    /// as the adapter's `logMessage`.
    fn log_message(&self, template: &str) -> String {
        template.to_string()
    }

    /// A tracepoint's output for one hit, as the documented form.
    fn trace_record(&self, message: &str) -> String {
        message.to_string()
    }

    /// What this language's tracepoint messages show differently from the
    /// documented form, said in the tracepoint's result.
    fn log_message_note(&self) -> Option<&'static str> {
        None
    }
}

/// A frame of a traceback: where, and the text of its line when read.
#[derive(Debug, Clone)]
pub struct TraceFrame {
    pub file: Option<String>,
    pub line: u64,
    pub function: String,
    pub source: Option<String>,
}

/// The exception, then each frame innermost first (`at f (file:line)`), at
/// most `max_chars` long: the shape no one language owns.
pub fn plain_traceback(
    frames: &[TraceFrame],
    type_name: &str,
    message: &str,
    max_chars: usize,
) -> String {
    let mut out = format!("{type_name}: {message}");
    for f in frames {
        let place = match &f.file {
            Some(file) => format!("{file}:{}", f.line),
            None => "<unknown>".to_string(),
        };
        let entry = format!("\n  at {} ({place})", f.function);
        if out.len() + entry.len() > max_chars {
            break;
        }
        out.push_str(&entry);
    }
    out
}

/// One part of a value, for `Language::composed_value`.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    pub name: &'a str,
    /// None: the part has parts of its own that were not read.
    pub value: Option<&'a str>,
    pub type_name: &'a str,
}

/// A function found in the source.
#[derive(Debug, Clone)]
pub struct FoundFunction {
    pub file: PathBuf,
    pub def_line: u64,
    pub body_line: u64,
}

/// A log message's pieces: literal text, and `{expression}`s.
#[derive(Debug, Clone, PartialEq)]
pub enum LogPiece {
    Text(String),
    Expr(String),
}

/// Splits `a {x} {{b}}` into text and expressions; an unbalanced brace is
/// an error naming where.
pub fn parse_log_message(template: &str) -> Result<Vec<LogPiece>, String> {
    let mut out = vec![];
    let mut text = String::new();
    let mut chars = template.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut depth = 1;
                let mut expr = String::new();
                for (_, d) in chars.by_ref() {
                    match d {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    expr.push(d);
                }
                if depth != 0 {
                    return Err(format!("the brace at character {} is not closed", i + 1));
                }
                if !text.is_empty() {
                    out.push(LogPiece::Text(std::mem::take(&mut text)));
                }
                out.push(LogPiece::Expr(expr.trim().to_string()));
            }
            '}' => {
                return Err(format!(
                    "the brace at character {} closes nothing; write }}}} for a literal one",
                    i + 1
                ));
            }
            _ => text.push(c),
        }
    }
    if !text.is_empty() {
        out.push(LogPiece::Text(text));
    }
    Ok(out)
}

/// `a.b[0]` for C-like languages: identifiers, fields and integer indices.
pub fn c_like_path(segments: &[String]) -> Option<String> {
    let (first, rest) = segments.split_first()?;
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
        } else {
            return None;
        }
    }
    Some(out)
}

pub fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// Splits `cart.items[0]['k']` into `["cart", "items", "0", "'k'"]`.
pub fn split_path(path: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '[' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    cur.push(d);
                }
                out.push(std::mem::take(&mut cur));
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A value from a literal text (a string, `[1, 2]`, `Item(a=1)`), or from
/// its children where they were read; `layout` says how the children of a
/// container of this type are laid out, where the type tells.
pub fn literal_value(
    raw: &dyn Raw,
    layout: Option<Layout>,
    child: &dyn Fn(&dyn Raw) -> Value,
) -> Value {
    if let Some(text) = text_value(raw.text().trim(), raw.truncated(), raw.length()) {
        return text;
    }
    match raw.children() {
        Some(children) => from_children(raw, &children, layout, child),
        None => from_literal(raw.text(), raw.type_name(), raw.truncated(), raw.length()),
    }
}
