//! A frame's call as `name(a=1, b=<User>)`: parameter names come from the
//! function's source (read by its language at the stop), values from the
//! frame's locals.

use crate::session::types::StopInfo;

use super::ViewportConfig;
use super::value::{render, truncate};

/// The parameters of the stack's frame `index`, each with its rendered value
/// when the frame's locals were read; `None` when the source gives no `def`.
pub fn frame_args(
    stop: &StopInfo,
    index: usize,
    cfg: &ViewportConfig,
) -> Option<Vec<(String, Option<String>)>> {
    let f = stop.frames.get(index)?;
    let params = f.params.clone()?;
    let locals = stop.frame_locals(index);
    Some(
        params
            .into_iter()
            .map(|p| {
                let bare = p.trim_start_matches('*');
                // The format renders arguments by the rules for locals, each
                // cut at the string limit so one cannot crowd out the stack.
                let value = locals
                    .and_then(|l| l.iter().find(|v| v.name == bare))
                    .map(|v| truncate(&render(v, cfg, 0), cfg.string_truncate_length));
                (p, value)
            })
            .collect(),
    )
}

/// `name(a=1, b=2)` for a stack line; `<module>` frames are left bare.
pub fn frame_call(stop: &StopInfo, index: usize, cfg: &ViewportConfig) -> String {
    let Some(f) = stop.frames.get(index) else {
        return String::new();
    };
    if f.name.starts_with('<') {
        return f.name.clone();
    }
    let Some(args) = frame_args(stop, index, cfg) else {
        return format!("{}(…)", f.name);
    };
    let shown: Vec<String> = args
        .into_iter()
        .map(|(p, v)| match v {
            Some(v) => format!("{p}={v}"),
            None => p,
        })
        .collect();
    format!("{}({})", f.name, shown.join(", "))
}
