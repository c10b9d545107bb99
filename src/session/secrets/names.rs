//! Which names mark a secret: `password`, `api_key`, `pw`, whole words of
//! a variable, key, expression or flag.

/// Name segments that mark a secret on their own.
const WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "secrets",
    "token",
    "apikey",
    "auth",
    "authorization",
    "credential",
    "credentials",
    "pw",
    "pwd",
    "pass",
    "passcode",
];

/// Adjacent segments that do (`api_key`, `privateKey`).
const PAIRS: &[(&str, &str)] = &[("api", "key"), ("private", "key"), ("access", "key")];

/// A name's words, lower case: `self.apiKey['x']` is self, api, key, x.
fn segments(name: &str) -> Vec<String> {
    let mut out = vec![];
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        // camelCase splits where a capital follows a small letter.
        if c.is_ascii_uppercase() && prev_lower && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// True when a variable, key or expression is named like a secret. Whole
/// words only: `author` and `tokens` are not.
pub fn is_secret_name(name: &str) -> bool {
    let words = segments(name);
    words.iter().any(|w| WORDS.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|p| PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}
