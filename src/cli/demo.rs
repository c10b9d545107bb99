//! The bundled demo: the checkout in assets/demo, or a copy of it written
//! out when pairdbg runs somewhere else.

use std::path::PathBuf;

const DEMO: &str = include_str!("../../assets/demo/order.py");
const DEMO_PATH: &str = "assets/demo/order.py";
/// `discount = calculate_discount(user, subtotal)`: the line where the bug shows.
pub const BREAK_LINE: i64 = 44;

/// (a workspace to use instead of the current one, the demo's path in it).
pub fn locate() -> Result<(Option<PathBuf>, String), String> {
    if std::path::Path::new(DEMO_PATH).is_file() {
        return Ok((None, DEMO_PATH.to_string()));
    }
    // One copy per user, in the owner-only runtime directory.
    let path = crate::paths::install_file("demo", "order.py", DEMO)
        .map_err(|e| format!("cannot write the demo: {e}"))?;
    Ok((
        path.parent().map(|p| p.to_path_buf()),
        "order.py".to_string(),
    ))
}
