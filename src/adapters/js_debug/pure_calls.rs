//! What in JavaScript may change the program, by its text: anything the
//! scan flags is then put to V8's own side-effect check, so the list of
//! pure calls here holds only what V8 refuses without reason to.
//!
//! js-debug evaluates a `hover` with a timeout but without V8's
//! `throwOnSideEffect`; only its completions of a member access ask V8 for
//! it, and only when the object's expression has a call in it. So the
//! expression is the body of a function called at once, and its members
//! are asked for: they come back only when V8 ran it with no side effect.

use crate::adapters::side_effects::Rules;

pub const JAVASCRIPT: Rules = Rules {
    pure_calls: &[],
    // V8 counts a regular expression's match as a side effect for the
    // legacy statics it sets (`RegExp.$1`), which no program reads back.
    pure_methods: &["match", "test"],
    not_calls: &[
        "typeof",
        "void",
        "in",
        "of",
        "instanceof",
        "if",
        "while",
        "for",
        "switch",
        "return",
        "function",
    ],
    statements: &["delete"],
    increments: true,
    channels: false,
    // A template literal's `${…}` is code: left out of the quotes, its
    // text is scanned as code too (erring towards a check).
    quotes: &['"', '\''],
    format_strings: false,
    macros_and_casts: false,
};

/// The completions text for the members of `expression`'s value.
pub fn probe(expression: &str) -> String {
    format!("(() => ({expression}\n))().")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::side_effects::scan;

    #[test]
    fn calls_and_template_code_are_flagged_for_v8() {
        for (e, says) in [
            ("items.find(i => i.qty > 100)", "calls `find`"),
            ("`${items.pop()}`", "calls `pop`"),
            ("total = 0", "assigns with `=`"),
            ("i++", "uses `++`"),
            ("delete o.x", "uses `delete`"),
        ] {
            assert_eq!(scan(e, &JAVASCRIPT).as_deref(), Some(says), "{e}");
        }
        for e in [
            "items.length > 1 && typeof x === 'string'",
            "a !== b",
            "'f()'",
            "label.match(/x/)",
        ] {
            assert_eq!(scan(e, &JAVASCRIPT), None, "{e}");
        }
    }
}
