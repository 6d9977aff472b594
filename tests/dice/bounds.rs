//! `blockprint odds` on expressions shaped to make exact arithmetic explode (wide products and
//! quotients, long convolutions, exploding dice, keep/drop on many dice): each one either finishes or
//! is refused with exit 1 and a message naming the sub-expression, the limit and what to do. The CPU
//! guard here is deliberately generous (it only catches hangs); the measured times are in the commit
//! notes, and the bound itself is the work estimate in `crates/dice/src/dist.rs`.

use std::process::Output;
use std::time::{Duration, Instant};

fn odds(expr: &str) -> (Output, Duration) {
    let started = Instant::now();
    let out = crate::support::bp()
        .args(["odds", "--", expr])
        .output()
        .expect("run blockprint");
    (out, started.elapsed())
}

/// Expressions that must be refused, with the sub-expression the message must name.
const REFUSED: &[(&str, &str)] = &[
    ("5d7/(3d%!)", "`3d%!`"),
    (
        "20+(4d10000-4D3*5d20)*3d8+(6d20+3d20)",
        "`(4d10000-4D3*5d20)*3d8`",
    ),
    ("1d10000*1d10000", "`1d10000*1d10000`"),
    ("1d10000/1d9999", "`1d10000/1d9999`"),
    ("(1d1000*1d1000)/(1d1000+1d1000)", "`1d1000*1d1000`"),
    ("1000d10000", "`1000d10000`"),
    ("1000d10000!", "`1000d10000!`"),
    ("2d10000!", "`2d10000!`"),
    ("1000d6kh500", "`1000d6kh500`"),
    ("1000d100kl999", "`1000d100kl999`"),
    ("1000d6!", "`1000d6!`"),
];

/// Expressions that must finish, with their number of distinct values.
const FINISHED: &[(&str, usize)] = &[
    ("1d100", 100),
    ("3d6", 16),
    ("5d6cs>=6", 6),
    ("3d6kh2cs>=6", 3),
    ("2d10", 19),
    ("1d6/2", 6),
    ("4d6kh3", 16),
    ("1d6!", 106),
    ("4dF", 9),
    ("1d20*1d20", 152),
    ("100d6", 501),
    ("2d6!!kh1", 106),
    ("2d6!kh1", 6),
    ("3d6!cs>=6", 64),
];

#[test]
fn pathological_expressions_are_refused_quickly_with_a_located_reason() {
    for (expr, part) in REFUSED {
        let (out, took) = odds(expr);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{expr}: {err}");
        assert!(err.starts_with("error[bad_dice]: "), "{expr}: {err}");
        assert!(err.contains(part), "{expr}: should name {part}: {err}");
        assert!(
            err.contains("limit") || err.contains("more than 200000 distinct values"),
            "{expr}: should state the bound: {err}"
        );
        assert!(err.contains("= help: use fewer dice"), "{expr}: {err}");
        // the caret line points under the named part
        let caret = err.lines().nth(2).unwrap_or("");
        let col = caret.find('^').unwrap_or(0) - 4;
        let inner = part.trim_matches('`');
        assert_eq!(&expr[col..col + inner.len()], inner, "{expr}: {err}");
        assert!(out.stdout.is_empty(), "{expr}");
        assert!(took < Duration::from_secs(10), "{expr} took {took:?}");
    }
}

#[test]
fn legitimate_expressions_still_finish_exactly() {
    for (expr, values) in FINISHED {
        let (out, took) = odds(expr);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{expr}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // header (mean), the sd/variance line (issue 12), column titles, one line per value, and the cap
        // note for exploding dice
        let rows = text.lines().count() - 3 - usize::from(expr.contains('!'));
        assert_eq!(rows, *values, "{expr}: {text}");
        assert!(took < Duration::from_secs(10), "{expr} took {took:?}");
    }
    let (out, _) = odds("3d6kh2cs>=6");
    let text = String::from_utf8_lossy(&out.stdout);
    // P(two sixes among the kept two of three) = P(at least two sixes in 3d6) = 16/216
    assert!(
        text.lines()
            .any(|l| l.starts_with("    2 ") && l.contains(" 2/27 ")),
        "{text}"
    );
    let (out, _) = odds("1d6/2");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("1d6/2   mean 7/4 ≈ 1.75\n"));
}

#[test]
fn json_odds_of_a_big_but_allowed_sum_are_exact() {
    let out = crate::support::bp()
        .args(["odds", "--json", "300d6"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 1501);
    assert_eq!(outcomes[0]["value"], "300");
    // 1/6^300, printed in lowest terms
    let six300 = num_bigint::BigUint::from(6u32).pow(300);
    assert_eq!(
        outcomes[0]["probability"].as_str().unwrap(),
        format!("1/{six300}")
    );
    // P(301) = 300/6^300 = 50/6^299 ... in lowest terms: 300 = 2^2*3*5^2, so 25/(2^298 * 3^299)
    let den = num_bigint::BigUint::from(2u32).pow(298) * num_bigint::BigUint::from(3u32).pow(299);
    assert_eq!(
        outcomes[1]["probability"].as_str().unwrap(),
        format!("25/{den}")
    );
    assert_eq!(v["mean"], "1050");
}

#[test]
fn documented_limits_are_the_real_ones() {
    use blockprint::dice;
    assert_eq!(dice::WORK_LIMIT, 400_000_000);
    assert_eq!(dice::MAX_SUPPORT, 200_000);
    assert_eq!(dice::MEMORY_LIMIT, 256 << 20);
    let help = crate::support::bp()
        .args(["odds", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "400 million work units per expression",
        "200 000 distinct values",
        "256 MB",
    ] {
        assert!(help.contains(part), "odds --help should say {part}: {help}");
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/content/README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "400 million work units per expression",
        "200 000 distinct values",
        "256 MB",
    ] {
        assert!(readme.contains(part), "content/README.md should say {part}");
    }
}
