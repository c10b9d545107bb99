//! Number formats a person picks per variable: the integer in a value's
//! text, shown in hex, binary or as a character. The text is parsed as a
//! plain integer atom in any language; anything else is not an integer, and
//! is said to be so rather than guessed at.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::session::types::{Snapshot, Var};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NumberFormat {
    #[default]
    Natural,
    Hex,
    Binary,
    Char,
}

impl NumberFormat {
    /// The format after this one, wrapping to the natural one.
    pub fn next(self) -> NumberFormat {
        match self {
            NumberFormat::Natural => NumberFormat::Hex,
            NumberFormat::Hex => NumberFormat::Binary,
            NumberFormat::Binary => NumberFormat::Char,
            NumberFormat::Char => NumberFormat::Natural,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            NumberFormat::Natural => "natural",
            NumberFormat::Hex => "hex",
            NumberFormat::Binary => "binary",
            NumberFormat::Char => "char",
        }
    }
}

/// The integer a value's text is, when it is one: decimal digits or a
/// `0x` hex literal, with an optional sign. A character, a float, or a
/// number with more text around it (`65 'A'`) is not read as one.
pub fn parse_integer(text: &str) -> Option<i128> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) if !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit()) => {
            i128::from_str_radix(hex, 16).ok()?
        }
        Some(_) => return None,
        None if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) => {
            digits.parse::<i128>().ok()?
        }
        None => return None,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `n` in `format`. A negative number keeps its sign (`-0x2a`): its width
/// in the program is not known here, so no two's complement is made up.
pub fn format_integer(n: i128, format: NumberFormat) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let m = n.unsigned_abs();
    match format {
        NumberFormat::Natural => n.to_string(),
        NumberFormat::Hex => format!("{sign}0x{m:x}"),
        NumberFormat::Binary => format!("{sign}0b{m:b}"),
        NumberFormat::Char => match u32::try_from(n).ok().and_then(char::from_u32) {
            Some(c) => format!("'{}'", c.escape_debug()),
            None => format!("{n} (no character)"),
        },
    }
}

/// The text `value` shows in `format`; None when it is not an integer.
pub fn apply(value: &str, format: NumberFormat) -> Option<String> {
    if format == NumberFormat::Natural {
        return Some(value.to_string());
    }
    parse_integer(value).map(|n| format_integer(n, format))
}

/// The formats picked this session, per function and variable name: a
/// name means the same variable wherever its function stops.
#[derive(Debug, Clone, Default)]
pub struct Formats {
    picked: HashMap<(String, String), NumberFormat>,
}

impl Formats {
    pub fn get(&self, function: &str, name: &str) -> NumberFormat {
        self.picked
            .get(&(function.to_string(), name.to_string()))
            .copied()
            .unwrap_or_default()
    }

    pub fn set(&mut self, function: &str, name: &str, format: NumberFormat) {
        let key = (function.to_string(), name.to_string());
        if format == NumberFormat::Natural {
            self.picked.remove(&key);
        } else {
            self.picked.insert(key, format);
        }
    }

    /// `var` as the person asked to see it in `function`: its value's
    /// text in the picked format, or unchanged.
    pub fn shown<'a>(&self, function: &str, name: &str, var: &'a Var) -> Cow<'a, Var> {
        if self.picked.is_empty() {
            return Cow::Borrowed(var);
        }
        let format = self.get(function, name);
        match apply(&var.value, format) {
            Some(text) if format != NumberFormat::Natural => Cow::Owned(Var {
                value: text,
                // The formatted text is whole: no preview of it to build.
                children: None,
                ..var.clone()
            }),
            _ => Cow::Borrowed(var),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.picked.is_empty()
    }
}

/// The name of the function frame `index` is in; empty when not stopped.
pub fn function_at(snap: &Snapshot, index: usize) -> String {
    snap.stop
        .as_ref()
        .and_then(|s| s.frames.get(index))
        .map(|f| f.name.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_read_from_their_text_only() {
        assert_eq!(parse_integer("42"), Some(42));
        assert_eq!(parse_integer(" -7 "), Some(-7));
        assert_eq!(parse_integer("0x1F"), Some(31));
        assert_eq!(parse_integer("3.5"), None);
        assert_eq!(parse_integer("'A'"), None);
        assert_eq!(parse_integer("65 'A'"), None);
        assert_eq!(parse_integer("\"12\""), None);
        assert_eq!(parse_integer("0x"), None);
        assert_eq!(parse_integer(""), None);
    }

    #[test]
    fn each_format_shows_the_same_number() {
        assert_eq!(format_integer(42, NumberFormat::Hex), "0x2a");
        assert_eq!(format_integer(42, NumberFormat::Binary), "0b101010");
        assert_eq!(format_integer(42, NumberFormat::Char), "'*'");
        assert_eq!(format_integer(10, NumberFormat::Char), "'\\n'");
        assert_eq!(format_integer(-42, NumberFormat::Hex), "-0x2a");
        assert_eq!(format_integer(-1, NumberFormat::Char), "-1 (no character)");
        assert_eq!(apply("hello", NumberFormat::Hex), None);
        assert_eq!(NumberFormat::Char.next(), NumberFormat::Natural);
    }

    #[test]
    fn a_format_belongs_to_a_name_in_a_function() {
        let mut f = Formats::default();
        f.set("main", "n", NumberFormat::Hex);
        assert_eq!(f.get("main", "n"), NumberFormat::Hex);
        assert_eq!(f.get("other", "n"), NumberFormat::Natural);
        f.set("main", "n", NumberFormat::Natural);
        assert!(f.is_empty());
    }
}
