//! Issue 27, "wrong output" and two unclear errors: a campaign case's Markdown names its lead as its JSON
//! does (item 6), the Urban World kit keeps a hold result's case (item 9), deck and kit JSON and Markdown
//! keep the content's quotes byte for byte (item 8), `odds` prints control characters escaped and a killed
//! `init` can be finished by a rerun (item 13).

use std::path::{Path, PathBuf};

use crate::support::{blockprint as bp, ok, s, stderr};

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bp-wrong-output-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn campaign_case_markdown_names_its_lead() {
    let dir = scratch("lead");
    let sq = dir.join("sq");
    ok(&bp(&[
        "campaign",
        "new",
        s(&sq),
        "--seed",
        "42",
        "--detectives",
        "Ana Ruiz,Walt Kowalski=harbour patrol,Mei Chen",
        "--packets",
        "md,json",
    ]));
    // Seed 42: the weeks of January bring one case (1976-04) beside the three starting cases.
    for _ in 0..4 {
        ok(&bp(&["campaign", "week", s(&sq)]));
    }
    let case = |n: &str| {
        let json: serde_json::Value =
            serde_json::from_str(&read(&sq.join(format!("cases/{n}/{n}.json")))).unwrap();
        let md = read(&sq.join(format!("cases/{n}/{n}.md")));
        (json["lead_detective"].as_str().unwrap().to_string(), md)
    };
    let expected = [
        ("1976-01", "Ana Ruiz"),
        ("1976-02", "Walt Kowalski"),
        ("1976-03", "Mei Chen"),
        ("1976-04", "Ana Ruiz"),
    ];
    for (n, lead) in expected {
        let (json_lead, md) = case(n);
        assert_eq!(json_lead, lead, "case {n} JSON");
        let line = md.lines().find(|l| l.contains("lead detective:")).unwrap();
        assert!(
            line.ends_with(&format!(" · lead detective: {lead}*")),
            "case {n} Markdown: {line}"
        );
        assert!(!md.contains("________"), "case {n} Markdown keeps a blank: {md}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
