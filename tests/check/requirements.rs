//! Generator requirements on an edited `init` copy: `check` reports what a kind needs and the content lacks
//! as a located error, and `case` then refuses before writing anything.

use std::path::Path;

use crate::support::{blockprint, ok, s};

/// `case` on `content` exits 1 (content error) before writing anything under `out`.
fn case_refuses(content: &Path, out: &Path) {
    let o = blockprint(&[
        "case",
        "--content",
        s(content),
        "--out",
        s(out),
        "--seed",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out.exists());
}

#[test]
fn check_reports_a_requirement_removed_from_an_init_copy() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", s(&content)]));
    // Rename the closing-modifier key the DA odds read.
    let file = content.join("bbb/03-casework.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"Each Break in the case\""));
    std::fs::write(
        &file,
        text.replace("\"Each Break in the case\"", "\"Each Break\""),
    )
    .unwrap();
    let o = blockprint(&["check", "--content", s(&content)]);
    assert_eq!(o.status.code(), Some(1));
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.contains(
            "error[missing_requirement]: the `case` generator needs the key `Each Break in the case` with a whole-number value in lookup `bbb.casework.closing_modifiers`"
        ),
        "{report}"
    );
    assert!(report.contains("┌─ bbb/03-casework.toml:"), "{report}");
    // And `case` refuses before writing anything.
    let out = dir.path().join("out");
    case_refuses(&content, &out);
}

/// The time-elapsed table must measure a time on every row, and never more than 10 000 years: the crime
/// is dated that long before the case, and the calendar (jiff's) stops at the year -9999.
#[test]
fn check_holds_the_time_elapsed_table_to_times_on_the_calendar() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", s(&content)]));
    let file = content.join("bbb/01-homicide.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let edit = |text: &str, rows: &[(&str, &str)]| {
        let mut t = text.to_owned();
        for (old, new) in rows {
            assert!(t.contains(old), "{old}");
            t = t.replace(old, new);
        }
        t
    };
    let months = r#"{ on = "10",  result = "{3d6} months", unit = "months" }"#;
    let years = r#"{ on = "11",  result = "{1d6} years", unit = "years" }"#;
    let longest = r#"{ on = "12",  result = "{2d10} years", unit = "years" }"#;
    std::fs::write(
        &file,
        edit(
            &text,
            &[
                (months, r#"{ on = "10",  result = "some months" }"#),
                (years, r#"{ on = "11",  result = "{1d6} years" }"#),
                (
                    longest,
                    r#"{ on = "12",  result = "{2d10*1000} years", unit = "years" }"#,
                ),
            ],
        ),
    )
    .unwrap();
    let o = blockprint(&["check", "--content", s(&content)]);
    assert_eq!(o.status.code(), Some(1));
    let report = String::from_utf8_lossy(&o.stdout);
    let head = "error[missing_requirement]: the `case` generator reads a time from every row of `bbb.homicide.time_elapsed`; row";
    for (line, problem) in [
        (15, "`10` has no inline roll"),
        (16, "`11` gives `{1d6}` with no `unit`"),
        (
            17,
            "`12` can measure more than 10000 years with `{2d10*1000}`",
        ),
    ] {
        assert!(
            report.contains(&format!("{head} {problem}\n")),
            "{problem}: {report}"
        );
        assert!(
            report.contains(&format!("┌─ bbb/01-homicide.toml:{line}:26\n")),
            "{line}: {report}"
        );
    }
    assert_eq!(report.matches("error[").count(), 3, "{report}");
    let out = dir.path().join("out");
    case_refuses(&content, &out);

    // 10 000 years exactly is on the calendar: check accepts it and the cases roll, the longest ago
    // falling around the year -8000.
    std::fs::write(
        &file,
        edit(
            &text,
            &[(
                longest,
                r#"{ on = "12",  result = "{1d10*1000} years", unit = "years" }"#,
            )],
        ),
    )
    .unwrap();
    ok(&blockprint(&["check", "--content", s(&content)]));
    let o = blockprint(&[
        "case",
        "--content",
        s(&content),
        "--out",
        s(&out),
        "--seed",
        "1",
        "--count",
        "200",
        "--format",
        "json",
        "--quiet",
    ]);
    ok(&o);
    let ancient = std::fs::read_dir(out.join("cases"))
        .unwrap()
        .filter_map(|e| {
            let dir = e.unwrap().path();
            let name = dir.file_name()?.to_str()?.to_owned();
            std::fs::read_to_string(dir.join(format!("{name}.json"))).ok()
        })
        .filter(|json| json.contains("\"crime_date\": \"-"))
        .count();
    assert!(
        ancient > 0,
        "no case of 200 rolled a crime before the year 0"
    );
}
