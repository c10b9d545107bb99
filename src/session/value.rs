//! A variable as its language reads it: the neutral value tree that every
//! renderer works on.

use crate::adapters::value::{self, Raw, Value};

use super::types::Var;

impl Raw for Var {
    fn name(&self) -> &str {
        &self.name
    }

    fn text(&self) -> &str {
        &self.value
    }

    fn type_name(&self) -> &str {
        &self.type_name
    }

    fn truncated(&self) -> bool {
        self.truncated
    }

    fn length(&self) -> Option<usize> {
        self.length
    }

    fn indexed(&self) -> Option<usize> {
        self.indexed
    }

    fn hidden(&self) -> bool {
        self.hidden
    }

    fn children(&self) -> Option<Vec<&dyn Raw>> {
        self.children
            .as_ref()
            .map(|c| c.iter().map(|v| v as &dyn Raw).collect())
    }

    /// Not read in time; composed from its parts by its language; or a
    /// getter not run yet (reading it runs the program's code): shown as
    /// it stands.
    fn settled(&self) -> Option<Value> {
        if let Some(reason) = &self.not_read {
            return Some(Value::described(format!("<not read: {reason}>")));
        }
        if self.composed
            && let Some(tree) = self.language.0.and_then(|l| l.composed_tree(self))
        {
            return Some(tree);
        }
        let lazy =
            self.value == super::reads::LAZY_VALUE && self.children.is_none() && self.reference > 0;
        (self.composed || lazy).then(|| Value::described(self.value.clone()))
    }
}

impl Var {
    /// Its value tree, built by the language it was read in.
    pub fn tree(&self) -> Value {
        value::tree(self, self.language)
    }
}
