//! Plain values each language spells its own way (truth, no value, an
//! empty string), asked of the language a value was read in, or of every
//! language when that is not known.

use super::Language;

/// Whether `value` is true: the language's own truth when it is known,
/// else true in any language.
pub fn is_true(language: Option<&dyn Language>, value: &str) -> bool {
    let v = value.trim();
    match language {
        Some(l) => l.is_true(v),
        None => super::all().iter().any(|a| a.language().is_true(v)),
    }
}

/// Whether `value` says nothing even under a secret's name (no value, a
/// boolean, an empty string, a null pointer): in its language when known,
/// else in any language.
pub fn says_nothing(language: Option<&dyn Language>, value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() {
        return true;
    }
    match language {
        Some(l) => l.plain_words().contains(&v),
        None => super::all()
            .iter()
            .any(|a| a.language().plain_words().contains(&v)),
    }
}

/// A number other than zero, as every language writes one.
pub fn nonzero(value: &str) -> bool {
    value.parse::<f64>().is_ok_and(|n| n != 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn language(word: &str) -> &'static dyn Language {
        crate::adapters::by_name_or_language(word)
            .expect("a known language")
            .language()
    }

    #[test]
    fn truth_is_each_languages_own() {
        let python = language("python");
        assert!(is_true(Some(python), "True"));
        assert!(!is_true(Some(python), "true"), "not Python's spelling");
        assert!(is_true(Some(language("go")), "true"));
        assert!(!is_true(Some(language("go")), "nil"));
        for t in ["True", "true", "1", "-2", "0.5"] {
            assert!(is_true(None, t), "{t}");
        }
        for f in ["False", "false", "0", "0.0", "None", "nil", "\"x\""] {
            assert!(!is_true(None, f), "{f}");
        }
    }

    #[test]
    fn what_says_nothing_is_each_languages_own() {
        assert!(says_nothing(Some(language("python")), "None"));
        assert!(says_nothing(Some(language("python")), "b''"));
        assert!(!says_nothing(Some(language("python")), "nil"));
        assert!(says_nothing(Some(language("go")), "nil"));
        assert!(says_nothing(Some(language("javascript")), "undefined"));
        assert!(says_nothing(Some(language("c")), "0x0"));
        for v in [
            "", "None", "null", "nil", "NULL", "True", "false", "''", "\"\"",
        ] {
            assert!(says_nothing(None, v), "{v}");
        }
        assert!(!says_nothing(None, "hunter2"));
    }
}
