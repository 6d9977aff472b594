//! `blockprint odds` as a user runs it ([`cli`]) and the exact distributions of the dice engine against
//! plain enumeration ([`exact`]).

mod cli;
mod exact;
