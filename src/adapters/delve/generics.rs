//! Generic frames as Go writes them. delve names a generic function's frame
//! by the shapes the compiler made (`main.Sum[go.shape.int]`); one shape
//! serves every type with that underlying type, so a shape is not the type
//! argument. The real ones are read from the frame's receiver and
//! arguments, whose types delve gives in full: `main.(*Stack[string]).Push`.
//! Where any stays unknown the shape name is kept, never guessed.

use crate::adapters::signature::split_top_level;

use super::go::{group, signature};

/// The frame's name with its type arguments, or None where delve's name
/// has no shapes or not every type argument can be read.
pub fn frame_name(
    name: &str,
    lines: &[String],
    line: u64,
    locals: &[(&str, &str)],
) -> Option<String> {
    let open = name.find("[go.shape.")?;
    let (shapes, after) = group(&name[open..])?;
    let count = split_top_level(shapes, false).len();
    let text = signature(lines, name, line)?;
    let rest = text.trim_start().strip_prefix("func")?.trim_start();
    let args = if rest.starts_with('(') {
        let (receiver, _) = group(rest)?;
        receiver_arguments(receiver, locals)?
    } else {
        function_arguments(rest, locals)?
    };
    (args.len() == count).then(|| format!("{}[{}]{after}", &name[..open], args.join(",")))
}

/// The stopped goroutine's name (`* [Go 1] main.Sum[go.shape.int]`, maybe
/// ending ` (Thread 7)`) with its top frame's typed name in place of the
/// shape name, where the two name one function.
pub fn thread_name(thread: &str, top_frame: &str) -> Option<String> {
    if top_frame.contains("go.shape.") {
        return None;
    }
    let start = thread.find("] ")? + 2;
    let end = thread
        .rfind(" (Thread ")
        .filter(|&e| e > start)
        .unwrap_or(thread.len());
    let raw = &thread[start..end];
    (raw.contains("go.shape.") && without_brackets(raw) == without_brackets(top_frame))
        .then(|| format!("{}{top_frame}{}", &thread[..start], &thread[end..]))
}

fn without_brackets(name: &str) -> String {
    let mut depth = 0;
    name.chars()
        .filter(|c| {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => return depth == 0,
            }
            false
        })
        .collect()
}

/// A method's type arguments, from its receiver's type: `s *Stack[T]`
/// with `s` a `*main.Stack[string]` gives `string`.
fn receiver_arguments(receiver: &str, locals: &[(&str, &str)]) -> Option<Vec<String>> {
    let mut words = receiver.split_whitespace();
    let (var, _) = (words.next()?, words.next()?);
    let (_, actual) = locals.iter().find(|(n, _)| *n == var)?;
    let (inner, _) = group(&actual[actual.find('[')?..])?;
    Some(
        split_top_level(inner, false)
            .into_iter()
            .map(str::to_string)
            .collect(),
    )
}

/// A function's type arguments, matched from its parameters' types:
/// `func Sum[T Number](xs []T)` with `xs` a `[]int` gives `int`.
fn function_arguments(rest: &str, locals: &[(&str, &str)]) -> Option<Vec<String>> {
    let at = rest.find('[')?;
    let (params_of_type, after) = group(&rest[at..])?;
    // `[K comparable, V any]` or `[K, V any]`: each part's first word.
    let names: Vec<&str> = split_top_level(params_of_type, false)
        .into_iter()
        .filter_map(|p| p.split_whitespace().next())
        .collect();
    let (params, _) = group(after.trim_start())?;
    let mut bound: Vec<Option<String>> = vec![None; names.len()];
    for (var, pattern) in typed_parameters(params) {
        let Some((_, actual)) = locals.iter().find(|(n, _)| *n == var) else {
            continue;
        };
        let Some((i, value)) = unify(&pattern, actual, &names) else {
            continue;
        };
        match &bound[i] {
            Some(seen) if *seen != value => return None,
            _ => bound[i] = Some(value),
        }
    }
    bound.into_iter().collect()
}

/// `a, b T, xs []T` → (a, T), (b, T), (xs, []T).
fn typed_parameters(list: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![];
    let mut untyped: Vec<String> = vec![];
    for part in split_top_level(list, false) {
        match part.split_once(char::is_whitespace) {
            Some((name, ty)) => {
                // A variadic `...T` is a `[]T` inside the function.
                let ty = ty.trim();
                let ty = match ty.strip_prefix("...") {
                    Some(t) => format!("[]{t}"),
                    None => ty.to_string(),
                };
                out.extend(untyped.drain(..).map(|n| (n, ty.clone())));
                out.push((name.to_string(), ty));
            }
            None if !part.is_empty() => untyped.push(part.to_string()),
            None => {}
        }
    }
    out
}

/// The one type parameter `pattern` holds once, and what stands in its
/// place in `actual`: `[]T` and `[]int` give T = `int`.
fn unify(pattern: &str, actual: &str, names: &[&str]) -> Option<(usize, String)> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = None;
    for (i, name) in names.iter().enumerate() {
        for (at, _) in pattern.match_indices(name) {
            let before = pattern[..at].chars().next_back();
            let after = pattern[at + name.len()..].chars().next();
            if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some((i, at, name.len()));
        }
    }
    let (i, at, len) = found?;
    let (prefix, suffix) = (&pattern[..at], &pattern[at + len..]);
    let middle = actual.strip_prefix(prefix)?.strip_suffix(suffix)?;
    (!middle.is_empty()).then(|| (i, middle.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    const SRC: &str = "package main

func Sum[T Number](xs []T) T {
\treturn xs[0]
}

func (s *Stack[T]) Push(v T) {
\ts.items = append(s.items, v)
}

func Pair[K comparable, V any](m map[K]V) {
\t_ = m
}

func Zero[T any]() T {
\tvar z T
\treturn z
}
";

    #[test]
    fn type_arguments_come_from_arguments_and_receivers() {
        let src = lines(SRC);
        assert_eq!(
            frame_name("main.Sum[go.shape.int]", &src, 4, &[("xs", "[]int")]).as_deref(),
            Some("main.Sum[int]")
        );
        assert_eq!(
            frame_name(
                "main.(*Stack[go.shape.string]).Push",
                &src,
                8,
                &[("s", "*main.Stack[string]"), ("v", "string")]
            )
            .as_deref(),
            Some("main.(*Stack[string]).Push")
        );
        // K appears once in map[K]V beside V: no one answer, the shape stays.
        assert_eq!(
            frame_name(
                "main.Pair[go.shape.string,go.shape.int]",
                &src,
                12,
                &[("m", "map[string]int")]
            ),
            None
        );
        // Nothing to read the type from: the shape stays.
        assert_eq!(
            frame_name("main.Zero[go.shape.int]", &src, 16, &[("z", "int")]),
            None
        );
        assert_eq!(frame_name("main.main", &src, 4, &[]), None);
    }

    #[test]
    fn the_stopped_goroutine_takes_its_frames_name() {
        assert_eq!(
            thread_name(
                "* [Go 1] main.(*Stack[go.shape.string]).Push (Thread 7)",
                "main.(*Stack[string]).Push"
            )
            .as_deref(),
            Some("* [Go 1] main.(*Stack[string]).Push (Thread 7)")
        );
        assert_eq!(
            thread_name("[Go 5] main.Sum[go.shape.int]", "main.Sum[go.shape.int]"),
            None
        );
        assert_eq!(
            thread_name("[Go 5] main.Zero[go.shape.int]", "main.Sum[int]"),
            None
        );
    }

    #[test]
    fn unifies_one_parameter_at_a_time() {
        assert_eq!(
            unify("T", "main.Item", &["T"]),
            Some((0, "main.Item".into()))
        );
        assert_eq!(unify("[]T", "[]int", &["T"]), Some((0, "int".into())));
        assert_eq!(unify("*T", "[]int", &["T"]), None);
        assert_eq!(unify("[]Tx", "[]int", &["T"]), None);
        assert_eq!(
            typed_parameters("a, b T, xs ...T"),
            vec![
                ("a".into(), "T".into()),
                ("b".into(), "T".into()),
                ("xs".into(), "[]T".into())
            ]
        );
    }
}
