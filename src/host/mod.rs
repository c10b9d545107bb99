//! The composition root for the front ends that run without a terminal:
//! it starts them on one registry and ends every session on the way out.

pub mod ending;
pub mod serve;
pub mod stdio;
