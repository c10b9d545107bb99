//! A breakpoint condition checked in the frame the program is stopped in,
//! for adapters with no parser to ask: one that does not compile there
//! (not merely a name unknown in that frame) is refused when set, rather
//! than stopping at every hit.

use futures::FutureExt;
use futures::future::BoxFuture;

use super::Engine;
use crate::session::reads;

impl Engine {
    /// None when the program is not stopped, or when running the condition
    /// could change it.
    pub(super) fn condition_in_frame(
        &self,
        condition: &str,
    ) -> Option<BoxFuture<'static, Result<(), String>>> {
        let (client, frame) = self.stopped_frame("check a condition", 0).ok()?;
        let language = client.language();
        if language.side_effect(condition).is_some() {
            return None;
        }
        let condition = condition.to_string();
        let context = client.quirks().evaluate_context;
        Some(
            async move {
                match reads::evaluate(&client, &condition, Some(frame), context).await {
                    Err(crate::dap::DapError::Failed { message, .. }) => {
                        match language.expression_error(&message) {
                            Some(error) => Err(format!("{condition:?} does not compile: {error}")),
                            None => Ok(()),
                        }
                    }
                    _ => Ok(()),
                }
            }
            .boxed(),
        )
    }
}
