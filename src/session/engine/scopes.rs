//! The scopes of a frame beside its locals, for a tree that shows them all.

use super::{Engine, ReplyTx, or_reply};
use crate::session::command::Reply;
use crate::session::reads;

impl Engine {
    pub(super) fn other_scopes(&mut self, reply: ReplyTx, frame_index: usize) {
        let prepared = self.stopped_frame("read scopes", frame_index);
        let (client, frame) = or_reply!(prepared, reply);
        tokio::spawn(async move {
            let res = reads::scopes(&client, frame).await.map(|list| {
                let locals = reads::locals_scope(&list, client.quirks().skipped_scopes);
                list.into_iter()
                    .enumerate()
                    .filter(|(i, (_, reference))| Some(*i) != locals && *reference > 0)
                    .map(|(_, (name, _))| name)
                    .collect()
            });
            let _ = reply.send(res.map(Reply::Scopes).map_err(Into::into));
        });
    }
}
