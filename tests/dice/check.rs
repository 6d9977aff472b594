//! Content whose inline rolls, table dice or dice lookups divide by something that can roll 0: before,
//! `check` passed it and rolling failed ("division by zero") for some seeds and not others; now
//! `check` rejects it at file:line:col, pointing at the divisor, with the fix. Everything `check`
//! accepts rolls for every seed.

use std::path::Path;

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dice/zero_divisor/content")
}

use crate::support::blockprint as run;

#[test]
fn check_rejects_divisors_that_can_be_zero_at_their_place() {
    let content = fixture();
    let o = run(&[
        "check",
        "--content",
        content.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let errors = v["errors"].as_array().unwrap();
    let found: Vec<(u64, u64, &str)> = errors
        .iter()
        .map(|d| {
            assert_eq!(d["kind"], "bad_dice", "{d}");
            assert_eq!(d["file"], "t.toml", "{d}");
            (
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["message"].as_str().unwrap(),
            )
        })
        .collect();
    // line 6: `{2d10/(1d2-1)}` — the divisor `(1d2-1)` starts at column 36
    // line 7: the nested `(1d3-2)` inside `(1d4/(1d3-2))`; `(1d2*2-3)` is -1 or 1, never 0, so it passes
    // line 13: the table's own dice; line 23: the dice lookup entry. Line 24: a dice lookup is rolled
    // for whole numbers (a Break threshold), and `1d6/(1d2+1)` gives thirds, which used to fail `case`
    // with "rolled a fraction"; `(2d6*2)/2` on line 25 divides but is always whole, so it passes.
    let want: Vec<(u64, u64, &str)> = vec![
        (
            6,
            36,
            "inline roll `{2d10/(1d2-1)}`: division by zero: the divisor `(1d2-1)` can be 0",
        ),
        (
            7,
            40,
            "inline roll `{1d6/(1d4/(1d3-2))}`: division by zero: the divisor `(1d3-2)` can be 0",
        ),
        (
            13,
            12,
            "`dice = \"12/(1d3-1)\"`: division by zero: the divisor `(1d3-1)` can be 0",
        ),
        (
            23,
            33,
            "`1d6/(1d2-1)` for `Short`: division by zero: the divisor `(1d2-1)` can be 0",
        ),
        (
            24,
            27,
            "`1d6/(1d2+1)` for `Long`: can roll values that are not whole numbers",
        ),
    ];
    assert_eq!(found, want, "{}", String::from_utf8_lossy(&o.stdout));
    for d in &errors[..4] {
        assert!(
            d["hint"].as_str().unwrap_or("").contains("never be 0"),
            "{d}"
        );
    }
}

#[test]
fn text_report_underlines_the_divisor() {
    let content = fixture();
    let o = run(&["check", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("┌─ t.toml:6:36"), "{out}");
    assert!(
        out.contains(
            "6 │   { on = \"1\", result = \"Wait {2d10/(1d2-1)} hours\" },\n  │                                    ^^^^^^^\n"
        ),
        "{out}"
    );
    assert!(out.contains("= help: a divisor must never be 0"), "{out}");
}

#[test]
fn rolling_refuses_the_content_for_every_seed() {
    // Before the fix, `roll --table x.wait` succeeded for some seeds and failed with "division by
    // zero" for others; now the content is refused up front, the same way for every seed.
    let content = fixture();
    for seed in 0..8 {
        let o = run(&[
            "roll",
            "--table",
            "x.wait",
            "--seed",
            &seed.to_string(),
            "--content",
            content.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "seed {seed}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn safe_divisions_still_check_clean() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.toml"),
        r#"[[table]]
id = "x.ok"
title = "Fine"
dice = "1d2"
rows = [
  { on = "1", result = "Wait {2d10/(1d2)} hours, {1d6/2} days or {1d6/(1d2*2-3)} weeks" },
  { on = "2", result = "Wait {1d6/(1d4+1d4-1)} hours" },
]
"#,
    )
    .unwrap();
    let o = run(&["check", "--content", dir.path().to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    for seed in 0..20 {
        let o = run(&[
            "roll",
            "--table",
            "x.ok",
            "--seed",
            &seed.to_string(),
            "--content",
            dir.path().to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "seed {seed}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
