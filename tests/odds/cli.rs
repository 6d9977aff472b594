//! `blockprint odds` from the command line: golden text output, JSON carrying the same exact numbers as an
//! independent enumeration, questions (`--at-least`, `--at-most`, `--compare`), contests (`--vs`,
//! `--ties`), success-target warnings on stderr and in `check`, and Unicode notation with carets at the
//! right column. Bless the goldens with `BLOCKPRINT_BLESS=1`.

use crate::support::{blockprint as run, enumerate, stderr, stdout};

use std::path::Path;
use std::process::Output;

use num_bigint::BigInt;
use num_rational::BigRational;

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn golden(name: &str, actual: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/odds");
    crate::support::golden_files(&dir, [(name, actual)]);
}

#[test]
fn golden_text_outputs() {
    for (name, args) in [
        ("3d6.txt", vec!["odds", "3d6"]),
        ("4d6kh3.txt", vec!["odds", "4d6kh3"]),
        (
            "1d20+6-at-least-15.txt",
            vec![
                "odds",
                "1d20+6",
                "--at-least",
                "15",
                "--compare",
                "< 10",
                "--at-most",
                "7/2",
            ],
        ),
        ("2dF-vs-2dF.txt", vec!["odds", "2dF", "--vs", "2dF"]),
        (
            "2dF-vs-2dF-defender.txt",
            vec!["odds", "2dF", "--vs", "2dF", "--ties", "defender"],
        ),
        (
            "d%b1.txt",
            vec!["odds", "d%b1", "--at-most", "59", "--at-most", "40"],
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(o.stderr.is_empty(), "{name}: {}", stderr(&o));
        golden(name, &stdout(&o));
    }
}

#[test]
fn table_columns_line_up() {
    let text = stdout(&run(&["odds", "2d10kl1"]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("2d10kl1   mean 77/20 ≈ 3.85"),
        "{text}"
    );
    assert!(lines[1].starts_with("          sd ≈ "), "{text}");
    // every `%` of a row sits under the `%` of its column title, whatever the fraction widths
    let title = lines[2];
    let marks: Vec<usize> = title
        .char_indices()
        .filter(|(_, c)| *c == '%')
        .map(|(i, _)| i)
        .collect();
    assert_eq!(marks.len(), 3, "{title}");
    for row in &lines[3..] {
        let cols: Vec<usize> = row
            .char_indices()
            .filter(|(_, c)| *c == '%')
            .map(|(i, _)| i)
            .collect();
        assert_eq!(cols, marks, "{row}");
    }
    assert_eq!(lines.len(), 3 + 10);
}

fn frac(p: &BigRational) -> String {
    if p.denom() == &BigInt::from(1) {
        p.numer().to_string()
    } else {
        format!("{}/{}", p.numer(), p.denom())
    }
}

#[test]
fn json_carries_the_enumerated_numbers_exactly() {
    let d6: Vec<i64> = (1..=6).collect();
    let f: Vec<i64> = vec![-1, 0, 1];
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, Vec<Vec<i64>>, Box<dyn Fn(&[i64]) -> i64>)> = vec![
        ("3d6", vec![d6.clone(); 3], Box::new(|r| r.iter().sum())),
        ("2dF", vec![f.clone(); 2], Box::new(|r| r.iter().sum())),
        (
            "5d6cs>=6",
            vec![d6.clone(); 5],
            Box::new(|r| r.iter().filter(|&&x| x == 6).count() as i64),
        ),
        (
            "2d6\u{2212}1",
            vec![d6.clone(); 2],
            Box::new(|r| r[0] + r[1] - 1),
        ),
    ];
    for (src, dice, fun) in cases {
        let brute = enumerate(&dice, fun);
        let v = json(&run(&["odds", "--json", "--", src]));
        assert_eq!(v["expr"], src);
        let outs = v["outcomes"].as_array().unwrap();
        assert_eq!(outs.len(), brute.len(), "{src}");
        for (o, (value, p)) in outs.iter().zip(&brute) {
            let at_least: BigRational = brute.range(value..).map(|(_, p)| p).sum();
            let at_most: BigRational = brute.range(..=value).map(|(_, p)| p).sum();
            assert_eq!(o["value"], value.to_string(), "{src}");
            assert_eq!(o["probability"], frac(p), "{src}");
            assert_eq!(o["at_least"], frac(&at_least), "{src} {value}");
            assert_eq!(o["at_most"], frac(&at_most), "{src} {value}");
        }
        let mean: BigRational = brute
            .iter()
            .map(|(v, p)| BigRational::from_integer((*v).into()) * p)
            .sum();
        let var: BigRational = brute
            .iter()
            .map(|(v, p)| {
                let dev = BigRational::from_integer((*v).into()) - &mean;
                &dev * &dev * p
            })
            .sum();
        assert_eq!(v["mean"], frac(&mean), "{src}");
        assert_eq!(v["variance"], frac(&var), "{src}");
    }
    let v = json(&run(&["odds", "--json", "3d6"]));
    assert_eq!(v["variance"], "35/4");
    assert_eq!(v["variance_approx"], 8.75);
    assert_eq!(v["sd_approx"], 2.95804);
    assert_eq!(v["mean_approx"], 10.5);
}

#[test]
fn questions_are_exact() {
    let v = json(&run(&[
        "odds",
        "--json",
        "1d20+6",
        "--at-least",
        "15",
        "--at-most",
        "-1",
        "--compare",
        ">= 15",
        "--compare",
        "!=7",
        "--compare",
        "\u{2264} 10",
        "--compare",
        "> 51/2",
    ]));
    let qs = v["questions"].as_array().unwrap();
    let got: Vec<(&str, &str)> = qs
        .iter()
        .map(|q| {
            (
                q["question"].as_str().unwrap(),
                q["probability"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (">= 15", "3/5"),
            ("<= -1", "0"),
            (">= 15", "3/5"),
            ("!= 7", "19/20"),
            ("<= 10", "1/5"),
            ("> 51/2", "1/20"),
        ]
    );
    assert_eq!(qs[0]["approx"], 0.6);
    // the whole table still comes with the answers in JSON
    assert_eq!(v["outcomes"].as_array().unwrap().len(), 20);

    let text = stdout(&run(&["odds", "1d20+6", "--at-least", "15"]));
    assert!(
        text.ends_with("P(1d20+6 >= 15) = 3/5 ≈ 0.6 (60.000%)\n"),
        "{text}"
    );

    for (flag, bad) in [
        ("--at-least", "x"),
        ("--compare", "15"),
        ("--compare", ">= 1/0"),
        ("--at-most", "1.5"),
    ] {
        let o = run(&["odds", "1d20", flag, bad]);
        assert_eq!(o.status.code(), Some(2), "{flag} {bad}");
        assert!(
            stderr(&o).starts_with(&format!("error: {flag}: `")),
            "{}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty());
    }
    // questions and contests do not mix
    assert_eq!(
        run(&["odds", "2dF", "--vs", "2dF", "--at-least", "1"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run(&["odds", "2dF", "--ties", "defender"]).status.code(),
        Some(2)
    );
}

#[test]
fn contests_in_json() {
    let v = json(&run(&["odds", "--json", "2dF", "--vs", "2dF"]));
    assert_eq!(
        (
            v["win"]["probability"].as_str(),
            v["draw"]["probability"].as_str(),
            v["loss"]["probability"].as_str()
        ),
        (Some("31/81"), Some("19/81"), Some("31/81"))
    );
    assert_eq!(v["ties"], "show");
    assert_eq!(v["margin"]["outcomes"].as_array().unwrap().len(), 9);
    assert_eq!(v["margin"]["variance"], "8/3");
    let v = json(&run(&[
        "odds", "--json", "2dF", "--vs", "2dF", "--ties", "defender",
    ]));
    assert!(v.get("draw").is_none());
    assert_eq!(
        (
            v["win"]["probability"].as_str(),
            v["loss"]["probability"].as_str()
        ),
        (Some("31/81"), Some("50/81"))
    );
    let v = json(&run(&[
        "odds", "--json", "2dF", "--vs", "2dF", "--ties", "attacker",
    ]));
    assert_eq!(
        (
            v["win"]["probability"].as_str(),
            v["loss"]["probability"].as_str()
        ),
        (Some("50/81"), Some("31/81"))
    );
    // d20+6 against a d20+8 defender: attacker wins when a - b >= 3, 153/400 (sum over the margin)
    let v = json(&run(&["odds", "--json", "1d20+6", "--vs", "1d20+8"]));
    let win: i64 = (1..=20)
        .map(|a: i64| (1..=20).filter(|b| a + 6 > b + 8).count() as i64)
        .sum();
    assert_eq!(
        v["win"]["probability"],
        frac(&BigRational::new(win.into(), 400.into()))
    );
    // a defender too big to work out is refused naming its own text
    let o = run(&["odds", "1d6", "--vs", "1000d10000"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("  | 1000d10000\n  | ^^^^^^^^^^\n"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn impossible_or_certain_targets_warn_on_stderr() {
    let o = run(&["odds", "3d6cs>7"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stderr(&o),
        "warning[success_target]: `3d6cs>7` can never count a success: no face of a d6 (1 to 6) is > 7, so it always counts 0\n  | 3d6cs>7\n  | ^^^^^^^\n  = help: check the comparison and its number: `cs>=6` counts the dice showing 6 or more\n"
    );
    // roll warns too, and the caret counts characters, not bytes, after a typeset minus sign
    let o = run(&["roll", "--seed", "1", "2\u{2212}3d6cs>=1"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        err.starts_with("warning[success_target]: `3d6cs>=1` always counts every die"),
        "{err}"
    );
    assert!(
        err.contains("  | 2\u{2212}3d6cs>=1\n  |   ^^^^^^^^\n"),
        "{err}"
    );
    assert!(stdout(&o).ends_with(" = -1\n"), "{}", stdout(&o));
    // an ordinary target is quiet
    assert!(run(&["odds", "5d6cs>=6"]).stderr.is_empty());
}

#[test]
fn unicode_notation_errors_point_at_the_right_column() {
    let o = run(&["odds", "2d6\u{2212}\u{d7}1"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    // `×` is the 5th character (column 4 from 0) though it starts at byte 6
    assert!(err.contains("  | 2d6\u{2212}\u{d7}1\n  |     ^\n"), "{err}");
    let o = run(&["odds", "2d6\u{2212}1"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).starts_with("2d6\u{2212}1   mean 6\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_warns_about_success_targets_in_content() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    std::fs::create_dir_all(&content).unwrap();
    std::fs::write(
        content.join("t.toml"),
        r#"[[table]]
id = "x.pool"
title = "Pool"
dice = "1d2"
rows = [
  { on = "1", result = "Roll {3d6cs>7} hits" },
  { on = "2", result = "Roll {5d6cs>=6} hits, {2−3d6cs>7} more" },
]

[[table]]
id = "x.sure"
title = "Sure"
dice = "4d6cs>=1"
rows = [ { on = "4", result = "Always" } ]

[[lookup]]
id = "x.threshold"
title = "Threshold"
key = "Band"
value = "Progress"
kind = "dice"
entries = [ { key = "Short", value = "2+1d4cs<1" } ]
"#,
    )
    .unwrap();
    let o = run(&[
        "check",
        "--content",
        content.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", stdout(&o)));
    let warnings = v["warnings"].as_array().unwrap_or_else(|| panic!("{v}"));
    let mut got: Vec<(u64, u64, String)> = warnings
        .iter()
        .filter(|w| w["kind"] == "bad_dice")
        .map(|w| {
            (
                w["line"].as_u64().unwrap(),
                w["column"].as_u64().unwrap(),
                w["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            (6, 31, "inline roll `{3d6cs>7}`: `3d6cs>7` can never count a success: no face of a d6 (1 to 6) is > 7, so it always counts 0".to_owned()),
            // the column counts characters: the typeset minus sign before it is one
            (7, 50, "inline roll `{2\u{2212}3d6cs>7}`: `3d6cs>7` can never count a success: no face of a d6 (1 to 6) is > 7, so it always counts 0".to_owned()),
            (13, 9, "`dice = \"4d6cs>=1\"`: `4d6cs>=1` always counts every die: each face of a d6 (1 to 6) is >= 1, so it always counts 4".to_owned()),
            (22, 41, "`2+1d4cs<1` for `Short`: `1d4cs<1` can never count a success: no face of a d4 (1 to 4) is < 1, so it always counts 0".to_owned()),
        ],
        "{v}"
    );
}

/// Issue 28: several questions are answered in the order asked (options of different kinds mixed), in
/// text and JSON; a leading minus needs no `--`; `!p` is named as penetrating dice.
#[test]
fn questions_in_the_order_asked_and_a_leading_minus() {
    let args = [
        "odds",
        "3d6",
        "--at-most",
        "5",
        "--compare",
        ">= 15",
        "--at-least",
        "10",
        "--at-most",
        "3",
    ];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let asked: Vec<String> = stdout(&o)
        .lines()
        .filter(|l| l.starts_with("P("))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        asked,
        [
            "P(3d6 <= 5) = 5/108 ≈ 0.0463 (4.630%)",
            "P(3d6 >= 15) = 5/54 ≈ 0.09259 (9.259%)",
            "P(3d6 >= 10) = 5/8 ≈ 0.625 (62.500%)",
            "P(3d6 <= 3) = 1/216 ≈ 0.00463 (0.463%)",
        ]
    );
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = json(&run(&with_json));
    let qs: Vec<&str> = v["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["question"].as_str().unwrap())
        .collect();
    assert_eq!(qs, ["<= 5", ">= 15", ">= 10", "<= 3"]);

    let o = run(&["odds", "-1d6"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("-1d6   mean -7/2 ≈ -3.5\n"),
        "{}",
        stdout(&o)
    );
    let v = json(&run(&["odds", "--json", "-1d4", "--at-least", "-2"]));
    assert_eq!(v["expr"], "-1d4");
    assert_eq!(v["questions"][0]["probability"], "1/2");

    let o = run(&["odds", "4d6!p"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("error[bad_dice]: penetrating dice (`!p`) are not supported"),
        "{err}"
    );
    assert!(!err.contains("percentile"), "{err}");
}
