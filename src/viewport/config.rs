use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// The seven knobs of the viewport, with the reference defaults. (A plain
// comment: a doc comment would be repeated in every tool's schema.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ViewportConfig {
    /// Lines of source around the current line (default 15).
    pub source_context_lines: usize,
    /// Max call stack frames (default 5).
    pub stack_depth: usize,
    /// Object nesting depth (default 1).
    pub locals_max_depth: usize,
    /// Max variables shown (default 20).
    pub locals_max_items: usize,
    /// Max string length (default 120).
    pub string_truncate_length: usize,
    /// Items previewed in collections (default 5).
    pub collection_preview_items: usize,
    /// Show only changes between consecutive stops in the same frame.
    pub diff_mode: bool,
    /// Token budget per viewport.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<usize>,
}

impl Default for ViewportConfig {
    fn default() -> Self {
        ViewportConfig {
            source_context_lines: 15,
            stack_depth: 5,
            locals_max_depth: 1,
            locals_max_items: 20,
            string_truncate_length: 120,
            collection_preview_items: 5,
            diff_mode: false,
            max_tokens: None,
        }
    }
}

impl ViewportConfig {
    /// Ranges keep a single stop from flooding an agent's context.
    pub fn validate(&self) -> Result<(), String> {
        let checks: [(&str, usize, usize, usize); 6] = [
            (
                "viewport_config.source_context_lines",
                self.source_context_lines,
                0,
                200,
            ),
            ("viewport_config.stack_depth", self.stack_depth, 1, 100),
            (
                "viewport_config.locals_max_depth",
                self.locals_max_depth,
                0,
                2,
            ),
            (
                "viewport_config.locals_max_items",
                self.locals_max_items,
                0,
                200,
            ),
            (
                "viewport_config.string_truncate_length",
                self.string_truncate_length,
                8,
                4096,
            ),
            (
                "viewport_config.collection_preview_items",
                self.collection_preview_items,
                0,
                50,
            ),
        ];
        for (name, v, lo, hi) in checks {
            if v < lo || v > hi {
                return Err(format!("{name}: {v} is out of range; use {lo} to {hi}"));
            }
        }
        // The same range as every tool's own max_tokens.
        if let Some(t) = self.max_tokens
            && !(50..=250_000).contains(&t)
        {
            return Err(format!(
                "viewport_config.max_tokens: {t} is out of range; use 50 to 250000"
            ));
        }
        Ok(())
    }
}
