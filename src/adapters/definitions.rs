//! How each language spells a definition, so that an agent can find a
//! function or a type by name without reading files. Patterns match a
//! definition's own line; a name matches anywhere inside the defined name
//! (`discount` finds `calculate_discount`).

use regex::Regex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefinitionKind {
    Function,
    Class,
}

/// Source files pairdbg knows how to search, by extension.
pub const SOURCE_EXTENSIONS: &[&str] = &[
    "py", "pyi", "rs", "go", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "js", "mjs", "cjs", "ts",
    "tsx", "jsx",
];

/// The pattern that finds a `kind` definition whose name contains `name`
/// in a file with extension `ext`; None for a file pairdbg cannot read.
pub fn definition(ext: &str, kind: DefinitionKind, name: &str) -> Option<Regex> {
    definition_cased(ext, kind, name, false)
}

/// As `definition`, the name's case ignored when `ignore_case`.
pub fn definition_cased(
    ext: &str,
    kind: DefinitionKind,
    name: &str,
    ignore_case: bool,
) -> Option<Regex> {
    let n = format!(r"\w*{}\w*", regex::escape(name));
    let pattern = match (family(ext)?, kind) {
        (Family::Python, DefinitionKind::Function) => format!(r"^\s*(async\s+)?def\s+{n}\s*\("),
        (Family::Python, DefinitionKind::Class) => format!(r"^\s*class\s+{n}\s*[(:]"),
        (Family::Rust, DefinitionKind::Function) => format!(
            r#"^\s*(pub(\([^)]*\))?\s+)?((const|async|unsafe|extern\s+"[^"]*")\s+)*fn\s+{n}\s*[<(]"#
        ),
        (Family::Rust, DefinitionKind::Class) => {
            format!(r"^\s*(pub(\([^)]*\))?\s+)?(struct|enum|trait|union|type)\s+{n}\b")
        }
        (Family::Go, DefinitionKind::Function) => {
            format!(r"^func\s+(\([^)]*\)\s*)?{n}\s*[\[(]")
        }
        (Family::Go, DefinitionKind::Class) => format!(r"^\s*type\s+{n}\s+\S"),
        // A C function definition starts at column 0 and its line does not
        // end a declaration with `;`.
        (Family::C, DefinitionKind::Function) => {
            format!(r"^[A-Za-z_][\w\s\*&:<>,]*?[\s\*&:]({n}|{n}::\w+)\s*\([^;]*$")
        }
        (Family::C, DefinitionKind::Class) => {
            format!(r"^\s*(typedef\s+)?(struct|class|union|enum)\s+{n}\s*(\{{|:|$)")
        }
        // A class's method is indented and written `name(…) {`, with no
        // space before its parenthesis (a statement's `if (x) {` has one)
        // and no call in its parameters (a callback's `it('x', function() {`).
        (Family::Script, DefinitionKind::Function) => format!(
            r"^\s*((export\s+)?(async\s+)?function\s*\*?\s*{n}\s*\(|(export\s+)?(const|let|var)\s+{n}\s*=\s*(async\s+)?(\(|\w+\s*=>|function))|^\s+((public|private|protected|static|async|override|get|set)\s+)*\*?{n}(<[^>]*>)?\([^;()]*\)\s*(:\s*[^{{=;]+)?\{{"
        ),
        (Family::Script, DefinitionKind::Class) => {
            format!(
                r"^\s*(export\s+)?(default\s+)?(abstract\s+)?(class|interface|type|enum)\s+{n}\b"
            )
        }
    };
    let pattern = if ignore_case {
        format!("(?i){pattern}")
    } else {
        pattern
    };
    Regex::new(&pattern).ok()
}

enum Family {
    Python,
    Rust,
    Go,
    C,
    Script,
}

fn family(ext: &str) -> Option<Family> {
    Some(match ext {
        "py" | "pyi" => Family::Python,
        "rs" => Family::Rust,
        "go" => Family::Go,
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" => Family::C,
        "js" | "mjs" | "cjs" | "ts" | "tsx" | "jsx" => Family::Script,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::DefinitionKind::*;
    use super::*;

    fn finds(ext: &str, kind: DefinitionKind, name: &str, line: &str) -> bool {
        definition(ext, kind, name).unwrap().is_match(line)
    }

    #[test]
    fn each_language_finds_its_definitions_and_not_their_calls() {
        let cases: &[(&str, DefinitionKind, &str, &str, bool)] = &[
            (
                "py",
                Function,
                "discount",
                "def calculate_discount(user, subtotal):",
                true,
            ),
            (
                "py",
                Function,
                "discount",
                "    async def discount(self):",
                true,
            ),
            (
                "py",
                Function,
                "discount",
                "    d = calculate_discount(u, s)",
                false,
            ),
            ("py", Class, "User", "class User:", true),
            ("py", Class, "User", "class AdminUser(User):", true),
            (
                "rs",
                Function,
                "subtotal",
                "fn subtotal(items: &[Item]) -> u32 {",
                true,
            ),
            (
                "rs",
                Function,
                "subtotal",
                "pub(crate) async fn subtotal<T>(x: T) {",
                true,
            ),
            (
                "rs",
                Function,
                "subtotal",
                "    let sub = subtotal(&items);",
                false,
            ),
            ("rs", Class, "Item", "#[derive(Debug)] struct Item {", false),
            ("rs", Class, "Item", "pub struct Item {", true),
            (
                "go",
                Function,
                "Checkout",
                "func Checkout(items []Item) int {",
                true,
            ),
            (
                "go",
                Function,
                "Total",
                "func (c *Cart) Total() int {",
                true,
            ),
            ("go", Function, "Total", "\treturn c.Total()", false),
            ("go", Class, "Cart", "type Cart struct {", true),
            (
                "c",
                Function,
                "subtotal",
                "static int subtotal(struct item *items, int n)",
                true,
            ),
            (
                "c",
                Function,
                "subtotal",
                "int subtotal(struct item *items, int n);",
                false,
            ),
            (
                "c",
                Function,
                "subtotal",
                "    total = subtotal(items, n);",
                false,
            ),
            ("c", Class, "item", "struct item {", true),
            ("c", Class, "item", "struct item *p = items;", false),
            (
                "ts",
                Function,
                "load",
                "export async function loadUser(id: string) {",
                true,
            ),
            (
                "ts",
                Function,
                "load",
                "const loadUser = async (id) => {",
                true,
            ),
            ("ts", Class, "User", "export class User {", true),
            ("js", Function, "grow", "  grow(by) {", true),
            ("ts", Function, "area", "  get area(): number {", true),
            (
                "ts",
                Function,
                "load",
                "  private async loadAll<T>(id: string): Promise<T> {",
                true,
            ),
            ("js", Function, "if", "    if (n > 0) {", false),
            ("js", Function, "it", "  it('adds', function() {", false),
            ("js", Function, "grow", "  c.grow(1);", false),
        ];
        for (ext, kind, name, line, want) in cases {
            assert_eq!(
                finds(ext, *kind, name, line),
                *want,
                "{ext} {kind:?} {name} in {line:?}"
            );
        }
        assert!(definition("rb", Function, "x").is_none());
    }

    #[test]
    fn case_is_ignored_only_when_asked() {
        let line = "def calculate_discount(user):";
        assert!(!finds("py", Function, "Discount", line));
        assert!(
            definition_cased("py", Function, "Discount", true).is_some_and(|r| r.is_match(line))
        );
    }

    #[test]
    fn a_name_with_regex_characters_is_taken_literally() {
        assert!(!finds("py", Function, "a.b", "def axb():"));
    }
}
