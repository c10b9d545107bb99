//! The secrets a session's program was handed (under a secret's name in
//! its environment, or after a secret's flag on its command line): masked
//! wherever they appear later in that session, under any name. Each
//! session keeps its own, so they end with it and never mask another
//! session's values.

use std::sync::Arc;

use super::is_secret_name;
use super::shapes::mask;

/// The shortest value worth following: shorter ones would mask common text.
const TAINT_MIN_CHARS: usize = 6;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Taint(Arc<[String]>);

impl Taint {
    /// The secrets of a launch: env values under secret names and
    /// arguments that follow a secret's flag.
    pub fn of_launch(env: &[(String, String)], args: &[String]) -> Taint {
        let mut found: Vec<String> = env
            .iter()
            .filter(|(k, _)| is_secret_name(k))
            .map(|(_, v)| v.clone())
            .collect();
        for (i, a) in args.iter().enumerate() {
            let (flag, inline) = match a.split_once('=') {
                Some((f, v)) => (f, Some(v)),
                None => (a.as_str(), None),
            };
            if !flag.starts_with('-') || !is_secret_name(flag.trim_start_matches('-')) {
                continue;
            }
            match inline {
                Some(v) => found.push(v.to_string()),
                None => found.extend(args.get(i + 1).cloned()),
            }
        }
        let mut kept: Vec<String> = vec![];
        for v in found {
            if v.chars().count() >= TAINT_MIN_CHARS && !kept.contains(&v) {
                kept.push(v);
            }
        }
        // The longest first: a secret that holds another is masked whole.
        kept.sort_by_key(|v| std::cmp::Reverse(v.len()));
        Taint(kept.into())
    }

    /// `text` with every one of these values in it masked.
    pub fn mask(&self, text: &str) -> String {
        let mut out = text.to_string();
        for v in self.0.iter() {
            if out.contains(v.as_str()) {
                out = out.replace(v.as_str(), &mask(v));
            }
        }
        out
    }
}
