//! `blockprint case`: byte-identical reruns whatever the thread count, batch = alone, golden Markdown and
//! JSON, the PDF's text, literal printing of hostile names, and nothing written outside `--out`.
//! Run with `BLOCKPRINT_BLESS=1` to rewrite the golden files after an intended change.
//!
//! Beside them, in files of their own: the case roller against the rules over thousands of cases
//! ([`rules`]) and long unbroken text inside its boxes ([`layout`]).

mod layout;
mod rules;

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{blockprint_env as blockprint, ok, pdf_text, tree};

fn case(out: &Path, extra: &[&str], envs: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
    let mut args = vec!["case", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    ok(&blockprint(&args, envs));
    tree(out)
}

#[test]
fn reruns_are_byte_identical_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--seed", "42", "--count", "3"];
    let a = case(&dir.path().join("a"), &args, &[("RAYON_NUM_THREADS", "1")]);
    let b = case(&dir.path().join("b"), &args, &[("RAYON_NUM_THREADS", "2")]);
    let c = case(&dir.path().join("c"), &args, &[]);
    let names: Vec<&String> = a.keys().collect();
    assert_eq!(
        names,
        [
            "cases/1976-01/1976-01-gm.pdf",
            "cases/1976-01/1976-01-handout.pdf",
            "cases/1976-01/1976-01.json",
            "cases/1976-01/1976-01.md",
            "cases/1976-02/1976-02-gm.pdf",
            "cases/1976-02/1976-02-handout.pdf",
            "cases/1976-02/1976-02.json",
            "cases/1976-02/1976-02.md",
            "cases/1976-03/1976-03-gm.pdf",
            "cases/1976-03/1976-03-handout.pdf",
            "cases/1976-03/1976-03.json",
            "cases/1976-03/1976-03.md",
            "cases/gm.pdf",
            "cases/handouts.pdf",
            "cases/index.md",
            "cases/manifest.json",
        ]
    );
    // The manifest records the command, which differs only in the thread count here.
    assert!(a == b && b == c, "outputs differ between runs");
    // No wall-clock date in the PDF without SOURCE_DATE_EPOCH.
    let pdf = String::from_utf8_lossy(&a["cases/1976-01/1976-01-gm.pdf"]).into_owned();
    assert!(!pdf.contains("/CreationDate"));
}

#[test]
fn source_date_epoch_sets_the_pdf_date() {
    let dir = tempfile::tempdir().unwrap();
    let files = case(
        dir.path(),
        &["--seed", "1", "--format", "pdf"],
        &[("SOURCE_DATE_EPOCH", "1700000000")],
    );
    let pdf = String::from_utf8_lossy(&files["cases/1976-01/1976-01-gm.pdf"]).into_owned();
    assert!(
        pdf.contains("D:20231114221320"),
        "CreationDate from SOURCE_DATE_EPOCH"
    );
}

#[test]
fn a_case_of_a_batch_equals_the_same_case_rolled_alone() {
    let dir = tempfile::tempdir().unwrap();
    let batch = case(
        &dir.path().join("batch"),
        &["--seed", "42", "--count", "3"],
        &[],
    );
    let alone = case(
        &dir.path().join("alone"),
        &["--seed", "42", "--first-number", "2"],
        &[],
    );
    for f in [
        "1976-02.json",
        "1976-02.md",
        "1976-02-gm.pdf",
        "1976-02-handout.pdf",
    ] {
        let key = format!("cases/1976-02/{f}");
        assert!(
            batch[&key] == alone[&key],
            "{key} differs between batch and alone"
        );
    }
    assert_ne!(
        batch["cases/1976-01/1976-01.json"],
        batch["cases/1976-02/1976-02.json"]
    );
}

#[test]
fn markdown_and_json_match_golden() {
    let dir = tempfile::tempdir().unwrap();
    let files = case(
        dir.path(),
        &["--seed", "42", "--count", "2", "--format", "md,json"],
        &[],
    );
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cases-seed-42");
    let n = crate::support::golden_files(
        &golden,
        files.iter().filter(|(n, _)| !n.ends_with("manifest.json")),
    );
    assert_eq!(n, 5);
    assert_eq!(
        files.len(),
        6,
        "two cases × (md, json) + index.md + manifest.json"
    );
}

#[test]
fn case_json_carries_the_rolls_and_their_provenance() {
    let dir = tempfile::tempdir().unwrap();
    let files = case(
        dir.path(),
        &["--seed", "7", "--count", "1", "--format", "json"],
        &[],
    );
    let v: serde_json::Value =
        serde_json::from_slice(&files["cases/1976-01/1976-01.json"]).unwrap();
    for key in [
        "case_number",
        "seed",
        "victim",
        "time_elapsed",
        "crime_date",
        "crime_time",
        "district",
        "method",
        "location",
        "crime",
        "first_break_threshold",
        "threshold_bands",
        "later_thresholds",
        "rerun",
        "breaks",
        "da_odds",
        "provenance",
        "date_in",
    ] {
        assert!(v.get(key).is_some(), "case.json lacks `{key}`");
    }
    assert_eq!(v["case_number"], "1976-01");
    // A rolled value carries its row's result exactly as the content writes it, and where it came from.
    let district = &v["district"];
    assert_eq!(district["table"], "bbb.homicide.district");
    let rows = [
        "Resort area",
        "Central business district (CBD)",
        "Low-income area",
        "Industrial area",
        "Ethnic enclave",
    ];
    assert!(
        rows.contains(&district["result"].as_str().unwrap())
            || district["result"]
                .as_str()
                .unwrap()
                .contains("neighbourhood")
    );
    let prov = v["provenance"].as_array().unwrap();
    let d = prov.iter().find(|p| p["field"] == "district").unwrap();
    assert_eq!(
        (d["table"].clone(), d["roll"].clone(), d["on"].clone()),
        (
            district["table"].clone(),
            district["roll"].clone(),
            district["on"].clone()
        )
    );
    // Every provenance entry names a real row of its table.
    let tables: serde_json::Value =
        serde_json::from_slice(&blockprint(&["tables", "--json"], &[]).stdout).unwrap();
    for p in prov {
        let t = tables
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == p["table"])
            .unwrap_or_else(|| panic!("{p}"));
        assert_eq!(
            t["rows"][p["row"].as_u64().unwrap() as usize]["on"],
            p["on"],
            "{p}"
        );
    }
    // The DA odds are exact: 1d20 + 2×Breaks + modifier ≥ target, for each charge's target.
    let fixed = v["da_odds"]["fixed_modifier"].as_i64().unwrap();
    for block in v["da_odds"]["charges"].as_array().unwrap() {
        let target = block["target"].as_i64().unwrap();
        for row in block["rows"].as_array().unwrap() {
            let breaks = row["breaks"].as_i64().unwrap();
            for (cell, col) in row["cells"]
                .as_array()
                .unwrap()
                .iter()
                .zip(v["da_odds"]["columns"].as_array().unwrap())
            {
                let need = target - 2 * breaks - fixed - col["modifier"].as_i64().unwrap();
                let wins = (1..=20).filter(|r| *r >= need).count() as i64;
                let g = num_integer::gcd(wins, 20);
                let want = if wins == 0 {
                    "0".to_owned()
                } else if wins == 20 {
                    "1".to_owned()
                } else {
                    format!("{}/{}", wins / g, 20 / g)
                };
                assert_eq!(cell["probability"], want.as_str(), "{breaks} breaks, {col}");
            }
        }
    }
}

#[test]
fn the_pdf_shows_the_case_number_and_victim() {
    let dir = tempfile::tempdir().unwrap();
    let files = case(dir.path(), &["--seed", "42", "--format", "pdf,json"], &[]);
    let v: serde_json::Value =
        serde_json::from_slice(&files["cases/1976-01/1976-01.json"]).unwrap();
    let text = pdf_text(&files["cases/1976-01/1976-01-gm.pdf"]);
    assert!(text.contains("1976-01"), "case number");
    assert!(
        text.contains(v["victim"]["name"].as_str().unwrap()),
        "victim name in {text}"
    );
    assert!(text.contains(v["victim"]["occupation"]["text"].as_str().unwrap()));
    let handout = pdf_text(&files["cases/1976-01/1976-01-handout.pdf"]);
    assert!(handout.contains(v["victim"]["name"].as_str().unwrap()));
    assert!(
        !handout.contains("Pre-rolled Breaks"),
        "no secret on the handout"
    );
    assert!(pdf_text(&files["cases/1976-01/1976-01-gm.pdf"]).contains("Pre-rolled Breaks"));
    for combined in ["cases/gm.pdf", "cases/handouts.pdf"] {
        assert!(pdf_text(&files[combined]).contains(v["victim"]["name"].as_str().unwrap()));
    }
}

#[test]
fn hostile_names_print_literally() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", content.to_str().unwrap()], &[]));
    let names = content.join("bbb/08-names.toml");
    let evil = r#"#read(\"/etc/passwd\") *x* $y$ <z> @w"#;
    let text = std::fs::read_to_string(&names).unwrap();
    let mut patched = String::new();
    for line in text.lines() {
        match line.find("result = \"") {
            Some(i) => {
                let end = line[i + 10..].find('"').unwrap() + i + 10;
                patched.push_str(&format!(
                    "{}result = \"{evil}\"{}\n",
                    &line[..i],
                    &line[end + 1..]
                ));
            }
            None => patched.push_str(&format!("{line}\n")),
        }
    }
    std::fs::write(&names, patched).unwrap();
    let out = dir.path().join("out");
    let files = case(
        &out,
        &["--seed", "5", "--content", content.to_str().unwrap()],
        &[],
    );
    let literal = r#"#read("/etc/passwd") *x* $y$ <z> @w"#;
    let v: serde_json::Value =
        serde_json::from_slice(&files["cases/1976-01/1976-01.json"]).unwrap();
    assert_eq!(v["victim"]["name"], format!("{literal} {literal}"));
    // The documents print the name as written, its straight quotes made curly like any content text.
    let typeset = r#"#read(“/etc/passwd”) *x* $y$ <z> @w"#;
    let pdf = pdf_text(&files["cases/1976-01/1976-01-gm.pdf"]);
    assert!(
        pdf.contains(typeset),
        "the PDF must print the name as written:\n{pdf}"
    );
    assert!(!pdf.contains("root:x:0"), "nothing may be read from disk");
    let md = String::from_utf8(files["cases/1976-01/1976-01.md"].clone()).unwrap();
    assert!(
        md.contains(r#"\#read(“/etc/passwd”) \*x\* $y$ \<z\> @w"#),
        "Markdown escapes the markup"
    );
}

#[test]
fn only_the_out_folder_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("deep/out");
    case(&out, &["--seed", "3", "--count", "2"], &[]);
    let top: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(top, ["deep"]);
    assert!(
        tree(&out)
            .keys()
            .all(|k| k.starts_with("cases/") && !k.contains(".tmp-"))
    );
}

#[test]
fn a_random_seed_is_printed_and_regenerates_the_packet() {
    let dir = tempfile::tempdir().unwrap();
    let o = blockprint(
        &[
            "case",
            "--out",
            dir.path().join("a").to_str().unwrap(),
            "--format",
            "json",
        ],
        &[],
    );
    ok(&o);
    let err = String::from_utf8(o.stderr).unwrap();
    let seed = err
        .strip_prefix("seed: ")
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("{err}"));
    let again = case(
        &dir.path().join("b"),
        &["--seed", seed, "--format", "json"],
        &[],
    );
    // The same files; only the manifest's command line differs (it names the seed only in the second).
    let first: BTreeMap<String, Vec<u8>> = tree(&dir.path().join("a"))
        .into_iter()
        .filter(|(k, _)| !k.ends_with("manifest.json"))
        .collect();
    let again: BTreeMap<String, Vec<u8>> = again
        .into_iter()
        .filter(|(k, _)| !k.ends_with("manifest.json"))
        .collect();
    assert_eq!(first, again);
}

#[test]
fn bad_options_exit_2() {
    for args in [
        &["case", "--count", "0"][..],
        &["case", "--paper", "a5"],
        &["case", "--format", "docx"],
        &["case", "--seed", "9007199254740992"],
        &["case", "--year", "76"],
    ] {
        assert_eq!(blockprint(args, &[]).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn content_without_the_roller_tables_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", content.to_str().unwrap()], &[]));
    // Drop the Asian surname table (and the prose placement that mentions it, so the checker passes).
    let names = content.join("bbb/08-names.toml");
    let text = std::fs::read_to_string(&names).unwrap();
    let start = text
        .find("[[table]]\nid = \"bbb.names.asian.surname\"")
        .expect("the table");
    let end = text[start + 9..]
        .find("[[table]]")
        .map_or(text.len(), |e| start + 9 + e);
    std::fs::write(&names, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let gm = content.join("bbb/srd/gm.md");
    let prose = std::fs::read_to_string(&gm)
        .unwrap()
        .replace("{table:bbb.names.asian.surname}", "");
    std::fs::write(&gm, prose).unwrap();
    let out = dir.path().join("out");
    let o = blockprint(
        &[
            "case",
            "--seed",
            "1",
            "--content",
            content.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("needs table `bbb.names.asian.surname`"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written");
}

#[test]
fn the_key_beside_the_case_makes_the_same_case_again() {
    // Issue 8, point 6: the case's key (batch seed, year, number) regenerates the case byte for byte.
    // Issue 22, defect 6: the handout the players hold has no key and no content hash. Issue 40: nor has
    // the GM file (paper shows no command line or hash): the key is in the JSON and the Markdown.
    let dir = tempfile::tempdir().unwrap();
    let batch = case(
        &dir.path().join("batch"),
        &[
            "--seed",
            "9007199254740991",
            "--count",
            "3",
            "--format",
            "pdf,json",
        ],
        &[],
    );
    let text = pdf_text(&batch["cases/1976-03/1976-03-gm.pdf"]);
    for program in ["rerun", "--seed", "content "] {
        assert!(
            !text.contains(program),
            "`{program}` on the GM file: {text}"
        );
    }
    let v: serde_json::Value =
        serde_json::from_slice(&batch["cases/1976-03/1976-03.json"]).unwrap();
    let key = v["rerun"].as_str().unwrap().strip_prefix("case ").unwrap();
    assert_eq!(key, "--seed 9007199254740991 --year 1976 --first-number 3");
    let mut args: Vec<&str> = key.split(' ').collect();
    args.extend(["--format", "pdf"]);
    let again = case(&dir.path().join("again"), &args, &[]);
    for f in ["1976-03-gm.pdf", "1976-03-handout.pdf"] {
        let k = format!("cases/1976-03/{f}");
        assert!(batch[&k] == again[&k], "{k} differs");
    }
    // A batch bigger than the default year of 17 spreads its dates thinner; the key says so.
    let big = case(
        &dir.path().join("big"),
        &[
            "--seed",
            "5",
            "--count",
            "2",
            "--first-number",
            "29",
            "--format",
            "json,md",
        ],
        &[],
    );
    let v: serde_json::Value = serde_json::from_slice(&big["cases/1976-29/1976-29.json"]).unwrap();
    assert_eq!(
        v["rerun"],
        "case --seed 5 --year 1976 --first-number 29 --year-cases 30"
    );
    let md = String::from_utf8(big["cases/1976-29/1976-29.md"].clone()).unwrap();
    assert!(
        md.contains("`blockprint case --seed 5 --year 1976 --first-number 29 --year-cases 30`")
    );
    let alone = case(
        &dir.path().join("alone"),
        &[
            "--seed",
            "5",
            "--year",
            "1976",
            "--first-number",
            "29",
            "--year-cases",
            "30",
            "--format",
            "json,md",
        ],
        &[],
    );
    for f in ["1976-29.json", "1976-29.md"] {
        let k = format!("cases/1976-29/{f}");
        assert!(big[&k] == alone[&k], "{k} differs");
    }
    // A year too small for the batch is a usage error naming the fix.
    let o = blockprint(
        &[
            "case",
            "--seed",
            "5",
            "--count",
            "40",
            "--year-cases",
            "20",
            "--out",
            "/nonexistent/x",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("give at least 40"));
}

/// Pages of a PDF.
fn pages(bytes: &[u8]) -> usize {
    lopdf::Document::load_mem(bytes)
        .expect("a readable PDF")
        .get_pages()
        .len()
}

#[test]
fn handouts_carry_no_rerun_key_seed_or_content_hash() {
    // Issue 22, defects 6 and 15: the players hold the handout; the key on it would rebuild the GM file.
    let dir = tempfile::tempdir().unwrap();
    let files = case(
        dir.path(),
        &[
            "--seed",
            "9007199254740991",
            "--count",
            "3",
            "--format",
            "pdf,md,json",
        ],
        &[],
    );
    for n in ["1976-01", "1976-02", "1976-03"] {
        let v: serde_json::Value =
            serde_json::from_slice(&files[&format!("cases/{n}/{n}.json")]).unwrap();
        let version = v["content_version"].as_str().unwrap();
        let seed = v["seed"].to_string();
        assert_eq!(version.len(), 12, "a content hash: {version}");
        let handout = pdf_text(&files[&format!("cases/{n}/{n}-handout.pdf")]);
        assert!(handout.contains(v["victim"]["name"].as_str().unwrap()));
        let footer = handout
            .lines()
            .rfind(|l| !l.trim().is_empty())
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "));
        assert_eq!(
            footer.as_deref(),
            Some(format!("{n} · Player handout").as_str())
        );
        // The GM file shows neither (issue 40: no command line or hash on paper); its Markdown keeps
        // the key.
        let gm = pdf_text(&files[&format!("cases/{n}/{n}-gm.pdf")]);
        assert!(!gm.contains(version) && !gm.contains("--seed"), "{gm}");
        for secret in [
            "rerun",
            "--seed",
            "--first-number",
            "9007199254740991",
            seed.as_str(),
            version,
            "content ",
        ] {
            assert!(!handout.contains(secret), "{n}: `{secret}` on the handout");
        }
        // The Markdown's public part (before the GM section) carries none of them either.
        let md = String::from_utf8(files[&format!("cases/{n}/{n}.md")].clone()).unwrap();
        let public = md
            .split("## GM only")
            .next()
            .unwrap()
            .split("## Caseload entry (public)")
            .nth(1)
            .unwrap();
        assert!(public.contains(v["victim"]["name"].as_str().unwrap()));
        for secret in ["blockprint", "--seed", "9007199254740991", &seed, version] {
            assert!(!public.contains(secret), "{n}: `{secret}` in {public}");
        }
    }
    let all = pdf_text(&files["cases/handouts.pdf"]);
    assert!(!all.contains("rerun") && !all.contains("9007199254740991"));
}

#[test]
fn handouts_pdf_is_not_padded_and_gm_pdf_only_where_a_file_is_odd() {
    // Issue 22, defect 7: nothing secret is in handouts.pdf, so no blank page goes between two handouts.
    let dir = tempfile::tempdir().unwrap();
    let files = case(
        dir.path(),
        &["--seed", "42", "--count", "3", "--format", "pdf"],
        &[],
    );
    let numbers = ["1976-01", "1976-02", "1976-03"];
    let handout_pages: usize = numbers
        .iter()
        .map(|n| pages(&files[&format!("cases/{n}/{n}-handout.pdf")]))
        .sum();
    assert_eq!(handout_pages, 3);
    assert_eq!(pages(&files["cases/handouts.pdf"]), handout_pages);
    assert!(!pdf_text(&files["cases/handouts.pdf"]).contains("intentionally blank"));
    // Every GM file is two pages here: gm.pdf needs no padding either.
    let gm_pages: Vec<usize> = numbers
        .iter()
        .map(|n| pages(&files[&format!("cases/{n}/{n}-gm.pdf")]))
        .collect();
    assert_eq!(gm_pages, [2, 2, 2]);
    assert_eq!(pages(&files["cases/gm.pdf"]), 6);
}

#[test]
fn a_gm_file_that_runs_to_three_pages_is_padded_with_a_page_that_says_so() {
    // Issue 22, defect 7: gm.pdf keeps its padding where a GM file's last page would otherwise back the
    // next case's secret first page; the padding page says it is blank on purpose.
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", content.to_str().unwrap()], &[]));
    let breaks = content.join("bbb/04-breaks.toml");
    let long = "An existing prior case, one the squad has worked for months without a single lead worth \
        the name, the file thick with dead ends, cold coffee rings and the names of witnesses who moved \
        away or died";
    let text = std::fs::read_to_string(&breaks)
        .unwrap()
        .replace(
            r#"{ on = "1-5",   result = "Belongs to another case:"#,
            r#"{ on = "1-99",   result = "Belongs to another case:"#,
        )
        .replace(
            r#"{ on = "6-100", result = "Belongs to this case" }"#,
            r#"{ on = "100", result = "Belongs to this case" }"#,
        )
        .replace(r#""An existing prior case""#, &format!("\"{long}\""));
    std::fs::write(&breaks, text).unwrap();
    let files = case(
        &dir.path().join("out"),
        &[
            "--seed",
            "42",
            "--count",
            "2",
            "--format",
            "pdf",
            "--content",
            content.to_str().unwrap(),
        ],
        &[],
    );
    for n in ["1976-01", "1976-02"] {
        assert_eq!(pages(&files[&format!("cases/{n}/{n}-gm.pdf")]), 3, "{n}");
        assert_eq!(pages(&files[&format!("cases/{n}/{n}-handout.pdf")]), 1);
    }
    let gm = lopdf::Document::load_mem(&files["cases/gm.pdf"]).unwrap();
    assert_eq!(gm.get_pages().len(), 8);
    for p in 1..=8 {
        let t = gm.extract_text(&[p]).unwrap();
        assert_eq!(
            t.trim() == "This page is intentionally blank.",
            p == 4 || p == 8,
            "page {p}: {t}"
        );
    }
    assert_eq!(pages(&files["cases/handouts.pdf"]), 2);
}
