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
                let quirks = client.quirks();
                let locals = reads::locals_scope(&list, quirks.skipped_scopes);
                // The scopes a frame's locals are split over show as its
                // locals, not again beside them.
                let split = |name: &str| quirks.local_scopes.iter().any(|p| name.starts_with(p));
                list.into_iter()
                    .enumerate()
                    .filter(|(i, (name, reference))| {
                        Some(*i) != locals && *reference > 0 && !split(name)
                    })
                    .map(|(_, (name, _))| name)
                    .collect()
            });
            let _ = reply.send(res.map(Reply::Scopes).map_err(Into::into));
        });
    }
}
