//! Every numeric option of every command, walked from clap's own command tree (issue 39, item 4): a
//! negative number past any range and a positive one past every type are read as the option's value
//! (never as an unknown flag `-9`) and refused with exit 2, naming on stderr's first line the option, the
//! value given and the range the option takes.

use std::any::TypeId;

use crate::support::{blockprint, stderr};

fn numeric(a: &clap::Arg) -> bool {
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
    ]
    .into_iter()
    .any(|id| t == id)
}

/// `(command path, --long)` of every numeric option with a long name, depth first.
fn walk(cmd: &clap::Command, path: &[String], out: &mut Vec<(Vec<String>, String)>) {
    for a in cmd.get_arguments() {
        if numeric(a)
            && let Some(long) = a.get_long()
        {
            out.push((path.to_vec(), long.to_owned()));
        }
    }
    for sub in cmd.get_subcommands() {
        let mut p = path.to_vec();
        p.push(sub.get_name().to_owned());
        walk(sub, &p, out);
    }
}

/// `lo to hi` with whole numbers, as the refusal names the range.
fn names_a_range(line: &str) -> bool {
    let words: Vec<&str> = line.split([' ', ',', '(', ')']).collect();
    words.windows(3).any(|w| {
        w[0].trim_start_matches('-').parse::<u128>().is_ok()
            && w[1] == "to"
            && w[2].trim_start_matches('-').parse::<u128>().is_ok()
    })
}

#[test]
fn every_numeric_option_takes_a_negative_number_and_names_its_range() {
    let mut cmd = blockprint::cli::help::command();
    cmd.build();
    let mut options = Vec::new();
    walk(&cmd, &[], &mut options);
    assert!(options.len() > 40, "{} numeric options", options.len());
    let mut wrong = Vec::new();
    for (path, long) in &options {
        for value in ["-9223372036854775809", "99999999999999999999999"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            let flag = format!("--{long}");
            args.extend([flag.as_str(), value]);
            let o = blockprint(&args);
            let err = stderr(&o);
            let first = err.lines().next().unwrap_or_default();
            if o.status.code() != Some(2)
                || !first.contains(&flag)
                || !first.contains(value)
                || !names_a_range(first)
            {
                wrong.push(format!("{}: {:?} {first}", args.join(" "), o.status.code()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        options.len() * 2,
        wrong.join("\n")
    );
}

#[test]
fn the_range_named_is_the_one_the_option_takes() {
    for (args, says) in [
        (
            &["build", "--count", "-1"][..],
            "error: invalid value for --count: -1 is outside what it takes, 1 to 10000",
        ),
        (
            &["build", "--jobs=0"],
            "error: invalid value for --jobs: 0 is outside what it takes, 1 to 256",
        ),
    ] {
        let o = blockprint(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o).lines().next(), Some(says), "{args:?}");
    }
}
