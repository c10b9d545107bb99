//! The answer to one agent call, before any front end dresses it: MCP
//! makes it a tool result, the shell CLI prints it, REST wraps it in JSON.

/// Text for the agent, and whether the call failed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    pub is_error: bool,
    pub text: String,
}

impl Reply {
    pub fn ok(text: impl Into<String>) -> Self {
        Reply {
            is_error: false,
            text: text.into(),
        }
    }

    pub fn error(text: impl Into<String>) -> Self {
        Reply {
            is_error: true,
            text: text.into(),
        }
    }

    /// The same reply with `head` as its first line.
    pub fn prefixed(mut self, head: &str) -> Self {
        self.text = format!("{head}\n{}", self.text);
        self
    }

    /// The reply, led by the person's answer when they were asked.
    pub fn with_approval(self, approved: Option<&str>) -> Self {
        match approved {
            Some(note) => self.prefixed(note),
            None => self,
        }
    }
}
