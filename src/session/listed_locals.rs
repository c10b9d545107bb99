//! A frame's locals when the adapter's answer for the whole scope misses
//! its deadline: the language's listing, sent just before that read, gives
//! the names and the values it could read without the program's code, and
//! every other local is marked not read. Without a listing, or when it too
//! is not read, the scope's own failure stands.

use std::future::Future;
use std::pin::Pin;

use serde_json::{Value, json};

use super::link::{Link, not_read_reason};
use super::types::Var;
use crate::dap::DapError;

type Answer = Pin<Box<dyn Future<Output = Result<Value, DapError>> + Send>>;

pub struct Listing {
    answer: Option<Answer>,
    language: &'static dyn crate::adapters::Language,
    link: Link,
}

/// Sends the listing for `frame_id` now, so it is answered before a
/// scope read sent after it.
pub fn send(client: &Link, frame_id: i64) -> Listing {
    let language = client.language();
    let answer = language
        .locals_listing_expression()
        .filter(|_| client.listing_armed())
        .map(|expression| {
            Box::pin(client.read(
                "evaluate",
                Some(json!({
                    "expression": expression,
                    "frameId": frame_id,
                    "context": "clipboard",
                    "format": {"rawString": true},
                })),
            )) as Answer
        });
    Listing {
        answer,
        language,
        link: client.clone(),
    }
}

impl Listing {
    /// The scope's locals if `read` gave them, else the listing's when
    /// `read` only missed its deadline.
    pub async fn or_listed(self, read: Result<Vec<Var>, DapError>) -> Result<Vec<Var>, DapError> {
        let err = match read {
            Ok(vars) => return Ok(vars),
            Err(err @ DapError::Timeout { .. }) => {
                if self.language.locals_listing_expression().is_some() {
                    self.link.arm_listing();
                }
                err
            }
            Err(err) => return Err(err),
        };
        let (Some(answer), Some(reason)) = (self.answer, not_read_reason(&err)) else {
            return Err(err);
        };
        let Ok(body) = answer.await else {
            return Err(err);
        };
        let value = body
            .get("result")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(listed) = self.language.parse_locals_listing(value) else {
            return Err(err);
        };
        let language = self.language;
        Ok(listed
            .into_iter()
            .map(|l| match l.value {
                Some(value) => Var {
                    hidden: !language.is_shown(&l.name, &value),
                    value: language.value_text(value, &l.type_name),
                    type_name: language.type_text(l.type_name),
                    evaluate_name: Some(l.name.clone()),
                    name: l.name,
                    language: crate::adapters::value::LanguageOf(Some(language)),
                    ..Var::default()
                },
                None => Var {
                    type_name: language.type_text(l.type_name),
                    ..Var::not_read(&l.name, reason.clone())
                },
            })
            .collect())
    }
}
