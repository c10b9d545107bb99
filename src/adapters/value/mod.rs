//! The neutral value tree every renderer works on. Each language's module
//! turns what its adapter sent (a value's text, its type, the children read)
//! into a `Value`; the viewport, the TUI, REST and the journal render the
//! tree and never read a language's grammar themselves.

mod build;
pub mod literal;

use serde::Serialize;

pub use build::{Layout, from_children, from_literal, text_value};

/// How many items a collection holds: exactly, or at least (the adapter
/// cut its listing short).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    Exact(usize),
    AtLeast(usize),
}

impl Count {
    pub fn n(self) -> usize {
        match self {
            Count::Exact(n) | Count::AtLeast(n) => n,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Value {
    /// A number, boolean, character or other scalar, as the language
    /// writes it: never cut, since a shortened number is another number.
    Atom { text: String },
    /// A string's characters without quotes; `prefix` marks a kind of
    /// string (`b` for bytes). `cut` says the text is only its start, and
    /// `length` the whole length when it was read.
    Text {
        text: String,
        prefix: String,
        cut: bool,
        length: Option<usize>,
    },
    /// A list, array, tuple or set: its first items and how many it holds.
    Seq {
        type_name: String,
        open: char,
        close: char,
        items: Vec<Value>,
        count: Count,
    },
    /// A map's first entries and how many it holds.
    Map {
        type_name: String,
        entries: Vec<(Value, Value)>,
        count: Count,
    },
    /// A struct or object with the fields read; `more` says some were not.
    /// No fields and `more` is an object whose fields were not read.
    Object {
        type_name: String,
        fields: Vec<(String, Value)>,
        more: bool,
    },
    /// An enum variant with its payload: `Some(3)`, `Ok("x")`.
    Variant { name: String, items: Vec<Value> },
    /// What a pointer points to (`*Circle {R: 1.5}`).
    Pointer { target: Box<Value> },
    /// No value, in the language's own word: `None`, `nil`, `NULL`.
    Nil { word: String },
    /// A value the adapter sent but cannot decode, and why: shown as
    /// unreadable, never guessed.
    Unreadable { what: String, why: String },
    /// A value the language describes rather than lists
    /// (`<generator f>`, `<function g>`), shown as it is.
    Described { text: String },
}

impl Value {
    pub fn atom(text: impl Into<String>) -> Value {
        Value::Atom { text: text.into() }
    }

    pub fn described(text: impl Into<String>) -> Value {
        Value::Described { text: text.into() }
    }

    pub fn nil(word: impl Into<String>) -> Value {
        Value::Nil { word: word.into() }
    }

    /// An object known only by its type.
    pub fn unread_object(type_name: impl Into<String>) -> Value {
        Value::Object {
            type_name: type_name.into(),
            fields: vec![],
            more: true,
        }
    }
}

/// What the engine read of one variable, as a language module reads it.
pub trait Raw {
    fn name(&self) -> &str;
    /// The value's text as the adapter sent it (after the language's
    /// `value_text`).
    fn text(&self) -> &str;
    fn type_name(&self) -> &str;
    /// The text was cut to the engine's storage cap.
    fn truncated(&self) -> bool;
    /// The whole text's length, read after a cut.
    fn length(&self) -> Option<usize>;
    /// How many indexed children the adapter says it has.
    fn indexed(&self) -> Option<usize>;
    /// Not the program's own (kept for paths, left out of values).
    fn hidden(&self) -> bool;
    /// The children read, if they were.
    fn children(&self) -> Option<Vec<&dyn Raw>>;
    /// A value decided before any language reads it (one not read in
    /// time, or composed from its parts), which no language reads again.
    fn settled(&self) -> Option<Value> {
        None
    }
}

/// A child's value, for a language building its parent's: as settled, or
/// as the language builds it.
pub fn child_value<L: super::Language + ?Sized>(raw: &dyn Raw, language: &L) -> Value {
    raw.settled().unwrap_or_else(|| language.value(raw))
}

/// A type with its module or package path dropped: `__main__.User` →
/// `User`, `shop::Item` → `Item`, `alloc::vec::Vec<u32>` → `Vec`,
/// `const struct point *` → `point`, `[]main.Item` → `[]Item`.
pub fn short_type(t: &str) -> String {
    let t = t.split('<').next().unwrap_or(t);
    let t = t.trim_end_matches(['*', '&', ' ']);
    let t = t.strip_prefix("const ").unwrap_or(t);
    let t = t.strip_prefix("struct ").unwrap_or(t);
    let t = t.rsplit("::").next().unwrap_or(t);
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(word.rsplit('.').next().unwrap_or(word));
        word.clear();
    };
    for c in t.chars() {
        if c.is_alphanumeric() || "_./".contains(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The language a variable was read in, kept with it so that its value
/// tree is built by that language wherever it is rendered.
#[derive(Clone, Copy, Default)]
pub struct LanguageOf(pub Option<&'static dyn super::Language>);

impl std::fmt::Debug for LanguageOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "LanguageOf(..)"
        } else {
            "LanguageOf(none)"
        })
    }
}

/// The value tree of `raw`, built by its language; with none known, by
/// the literal grammar most adapters' texts follow.
pub fn tree(raw: &dyn Raw, language: LanguageOf) -> Value {
    if let Some(v) = raw.settled() {
        return v;
    }
    match language.0 {
        Some(l) => l.value(raw),
        None => super::language::literal_value(raw, None, &|c| tree(c, language)),
    }
}

/// A variable as a test writes it, for the languages' unit tests.
#[cfg(test)]
pub mod testing {
    use super::Raw;

    #[derive(Default)]
    pub struct TestVar {
        pub name: String,
        pub text: String,
        pub type_name: String,
        pub children: Option<Vec<TestVar>>,
        pub truncated: bool,
    }

    pub fn var(name: &str, type_name: &str, text: &str) -> TestVar {
        TestVar {
            name: name.into(),
            text: text.into(),
            type_name: type_name.into(),
            ..Default::default()
        }
    }

    impl TestVar {
        pub fn with(mut self, children: Vec<TestVar>) -> TestVar {
            self.children = Some(children);
            self
        }
    }

    impl Raw for TestVar {
        fn name(&self) -> &str {
            &self.name
        }
        fn text(&self) -> &str {
            &self.text
        }
        fn type_name(&self) -> &str {
            &self.type_name
        }
        fn truncated(&self) -> bool {
            self.truncated
        }
        fn length(&self) -> Option<usize> {
            None
        }
        fn indexed(&self) -> Option<usize> {
            None
        }
        fn hidden(&self) -> bool {
            false
        }
        fn children(&self) -> Option<Vec<&dyn Raw>> {
            self.children
                .as_ref()
                .map(|c| c.iter().map(|v| v as &dyn Raw).collect())
        }
    }

    /// A string value, as every language's strings read.
    pub fn text(s: &str) -> super::Value {
        super::Value::Text {
            text: s.into(),
            prefix: String::new(),
            cut: false,
            length: None,
        }
    }
}
