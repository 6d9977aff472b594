//! Numeric options of a command line or a form built on clap, all of them at once, from clap's own command tree: a negative number is read as the
//! option's value, not as a flag (`--rungs -9` was "unexpected argument '-9' found"), and a number the
//! option does not take is refused with the option's name, the range it takes and the value given
//! (`--count 99999999999999999999` was "number too large to fit in target type"). Exit 2, as every
//! usage error.

use std::any::TypeId;
use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Command};

/// Whether `a` takes a number: its value parser yields one of Rust's number types.
pub fn is_numeric(a: &Arg) -> bool {
    let t = a.get_value_parser().type_id();
    [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<isize>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
    ]
    .into_iter()
    .any(|id| t == id)
}

/// `cmd` with every numeric option of it and of its subcommands reading a negative number as its value.
pub fn harden(cmd: Command) -> Command {
    cmd.mut_args(|a| {
        if is_numeric(&a) {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(harden)
}

/// The error for a whole number a numeric option does not take: `invalid value for --rungs:
/// -9223372036854775809 is outside what it takes, 1 to 9`. The range is the one the option's own parser
/// accepts, found by asking it (the accepted values of every numeric option are one run of whole
/// numbers). `None` for any other error, and for an option whose parser already words its refusal.
pub fn explain(cmd: &Command, args: &[OsString], e: &clap::Error) -> Option<String> {
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let Some(ContextValue::String(value)) = e.get(ContextKind::InvalidValue) else {
        return None;
    };
    let given: i128 = value.trim().parse().ok()?;
    let text = e.to_string();
    // clap's own wording names neither the range (for a number past its type) nor the option's
    // limits in words; a parser of ours that wrote its own message is left to say it.
    if !(text.contains("fit in target type")
        || text.contains(" is not in ")
        || text.contains("invalid digit found"))
    {
        return None;
    }
    let name = arg.split(' ').next().unwrap_or(arg).to_owned();
    // Where the value stands: its own word after the option, or `--option=value`.
    let pos = args.iter().rposition(|a| {
        a.to_str()
            .is_some_and(|s| s == value || s.ends_with(&format!("={value}")))
    })?;
    let lead = args[pos]
        .to_str()
        .and_then(|s| s.strip_suffix(value.as_str()))
        .unwrap_or_default()
        .to_owned();
    let accepted = |v: i128| -> bool {
        let mut probe = args.to_vec();
        probe[pos] = OsString::from(format!("{lead}{v}"));
        match cmd.clone().try_get_matches_from(probe) {
            Ok(_) => true,
            Err(e) => {
                e.kind() != ErrorKind::ValueValidation
                    || !matches!(e.get(ContextKind::InvalidArg), Some(ContextValue::String(a)) if *a == *arg)
            }
        }
    };
    // A value it takes to start from: a small count, or a year.
    let start = (0i128..=20)
        .chain([-1, 100, 1000, 1976, 1950, 2000, 1900, 2100])
        .find(|v| accepted(*v))?;
    const FAR: i128 = 1 << 64;
    // The least accepted value: `bad` below it is refused, `good` accepted.
    let (mut bad, mut good) = (-FAR - 1, start);
    while good - bad > 1 {
        let mid = bad + (good - bad) / 2;
        if accepted(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    let lo = good;
    let (mut good, mut bad) = (start, FAR + 1);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if accepted(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    let hi = good;
    if (lo..=hi).contains(&given) {
        return None;
    }
    Some(format!(
        "error: invalid value for {name}: {value} is outside what it takes, {lo} to {hi}\n  = help: give {name} a whole number from {lo} to {hi}\n"
    ))
}
