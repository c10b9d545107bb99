//! Reading the exception the program stopped at.

use super::{Engine, ReplyTx, or_reply};
use crate::session::autopsy::{self, ExceptionQuery, Known};
use crate::session::command::Reply;
use crate::session::error::SessionError;

impl Engine {
    pub(super) fn exception_context(&mut self, reply: ReplyTx, q: ExceptionQuery) {
        let prepared = self.require_stopped("read the exception");
        let (client, thread_id) = or_reply!(prepared, reply);
        let stop = self.snap.stop.as_ref();
        let Some(exception) = stop.and_then(|s| s.exception.clone()) else {
            let reason = stop.map(|s| s.reason.as_str()).unwrap_or("unknown");
            let _ = reply.send(Err(SessionError::State(format!(
                "the program is stopped for {reason}, not at an exception; set exception_breakpoints and continue to one"
            ))));
            return;
        };
        let known = Known {
            thread_id,
            exception,
            workspace: self.config.workspace.root.clone(),
            has_exception_info: self.supports("supportsExceptionInfoRequest")
                && !self.conn.stopped_in_exception_function,
        };
        tokio::spawn(async move {
            let res = autopsy::read(&client, known, q).await;
            let _ = reply.send(res.map(|c| Reply::ExceptionContext(Box::new(c))));
        });
    }
}
