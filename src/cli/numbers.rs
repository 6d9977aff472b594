//! Numeric options of the command line: see [`blockprint_content::numbers`], which the studio's forms
//! (the chase questions, the New campaign form) share, so both say a refusal in the same words.

pub use blockprint_content::numbers::*;
