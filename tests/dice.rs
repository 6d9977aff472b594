//! The dice as the command line shows them: `blockprint odds` on expressions built to explode exact
//! arithmetic ([`bounds`]) and divisors that can roll 0, rejected by `check` ([`check`]). The dice
//! library's own tests (the API end to end, property tests) are in `crates/dice/tests/`, without typst.

mod bounds;
mod check;
