//! `blockprint check` on broken content: one fixture folder per checker kind with its exact report
//! ([`fixtures`]), carets in chapter prose after smart punctuation ([`prose`]), and what a kind requires
//! of the content ([`requirements`]).

mod fixtures;
mod prose;
mod requirements;
