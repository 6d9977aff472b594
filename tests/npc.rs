//! `blockprint npc`: HP that follows the sum of `level` class dice (exact distribution from the dice
//! engine), run-of-the-mill NPCs, stock NPCs, card sheets of eight on A4 and Letter read back with a PDF
//! library, a long unbroken string that stays inside its card, golden Markdown and JSON, byte-identical
//! batch splits. Run with `BLOCKPRINT_BLESS=1` to rewrite the golden files after an intended change.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{blockprint, ok, s, tree};
use blockprint::content::{ContentRoot, Library};
use blockprint::roll::npc::{self as roller, NpcOptions, Role};
use num_rational::BigRational;
use num_traits::ToPrimitive;

fn lib() -> Library {
    let (lib, report) = blockprint::check::load_and_check(&ContentRoot::Embedded).unwrap();
    assert_eq!(report.errors(), 0);
    lib
}

fn exact(expr: &str) -> Vec<(i64, BigRational)> {
    blockprint::dice::parse(expr)
        .unwrap()
        .distribution()
        .unwrap()
        .integer_outcomes()
        .unwrap()
}

#[test]
fn hp_follows_the_sum_of_level_class_dice() {
    let lib = lib();
    let n = 8000u32;
    for (class, level, die) in [("Fighter", 3u32, 8i64), ("Scholar", 2, 6), ("Rogue", 5, 4)] {
        let opts = NpcOptions {
            role: Some(Role::Suspect),
            class: Some(class.into()),
            level: Some(level),
        };
        let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
        for k in 1..=n {
            let npc = roller::roll_random(&lib, 11, k, &opts).unwrap();
            assert_eq!(npc.class.as_deref(), Some(class));
            assert_eq!(npc.level, level);
            assert_eq!(npc.role, "suspect");
            assert!(npc.profile.is_some() && npc.disposition.is_some());
            assert_eq!(npc.hp.dice.len(), level as usize);
            assert!(npc.hp.dice.iter().all(|d| (1..=die).contains(d)));
            let sum: i64 = npc.hp.dice.iter().sum();
            assert_eq!(npc.hp.max, sum);
            assert_eq!(npc.hp.out_of_class, (sum + 1) / 2, "half, rounded up");
            assert_eq!(npc.hp.die.as_deref(), Some(format!("1d{die}").as_str()));
            *counts.entry(sum).or_default() += 1;
        }
        // Support and frequencies against the exact distribution of `level`d`die`.
        let dist = exact(&format!("{level}d{die}"));
        assert!(counts.keys().all(|v| dist.iter().any(|(x, _)| x == v)));
        let mut chi = 0.0;
        let mut df = 0;
        for (v, p) in &dist {
            let e = f64::from(n) * p.to_f64().unwrap();
            if e < 5.0 {
                continue;
            }
            let o = *counts.get(v).unwrap_or(&0) as f64;
            chi += (o - e).powi(2) / e;
            df += 1;
        }
        // Far beyond p = 10⁻⁵ for up to 20 degrees of freedom.
        assert!(
            chi < 3.0 * f64::from(df) + 25.0,
            "{class}: chi-square {chi:.1} with {df} cells"
        );
        let mean = counts
            .iter()
            .map(|(v, c)| *v as f64 * *c as f64)
            .sum::<f64>()
            / f64::from(n);
        let want = f64::from(level) * (die as f64 + 1.0) / 2.0;
        let sd = (f64::from(level) * ((die * die - 1) as f64 / 12.0) / f64::from(n)).sqrt();
        assert!(
            (mean - want).abs() < 5.0 * sd,
            "{class}: mean {mean} vs {want}"
        );
    }
}

#[test]
fn random_npcs_are_run_of_the_mill_half_the_time() {
    let lib = lib();
    let n = 6000u32;
    let mut ordinary = 0;
    let mut roles = BTreeMap::new();
    for k in 1..=n {
        let npc = roller::roll_random(&lib, 5, k, &NpcOptions::default()).unwrap();
        *roles.entry(npc.role.clone()).or_insert(0u32) += 1;
        assert!(npc.occupation.is_some() && npc.disposition.is_some());
        assert!(!npc.name.is_empty());
        if npc.level == 0 {
            ordinary += 1;
            assert_eq!(
                (npc.class.as_deref(), npc.hp.max, npc.hp.out_of_class),
                (None, 1, 1)
            );
            assert!(npc.hp.dice.is_empty() && npc.mastery.is_none());
        } else {
            assert!(npc.class.is_some() && (1..=5).contains(&npc.level));
            assert_eq!(npc.hp.dice.len(), npc.level as usize);
            if let Some(m) = &npc.mastery {
                assert_eq!(
                    Some(m),
                    npc.occupation.as_ref(),
                    "a Master of their occupation"
                );
            }
        }
        assert_eq!(npc.profile.is_some(), npc.role == "suspect");
    }
    let sd = (f64::from(n) / 4.0).sqrt();
    assert!(
        (f64::from(ordinary) - f64::from(n) / 2.0).abs() < 5.0 * sd,
        "{ordinary}"
    );
    assert!(
        (f64::from(roles["witness"]) - f64::from(n) / 2.0).abs() < 5.0 * sd,
        "{roles:?}"
    );
    // --level 0 makes every one run-of-the-mill.
    let zero = NpcOptions {
        level: Some(0),
        ..NpcOptions::default()
    };
    for k in 1..=50 {
        let npc = roller::roll_random(&lib, 5, k, &zero).unwrap();
        assert_eq!((npc.level, npc.hp.max, npc.class.is_none()), (0, 1, true));
    }
}

#[test]
fn stock_npcs_roll_one_hit_die_per_level() {
    let lib = lib();
    for seed in 0..200 {
        for (i, stock) in lib.npcs.iter().enumerate() {
            let npc = roller::roll_stock(&lib, seed, i).unwrap();
            assert_eq!(npc.name, stock.name);
            assert_eq!(npc.level, stock.level);
            assert_eq!(npc.hp.dice.len(), stock.level as usize);
            assert_eq!(npc.hp.max, npc.hp.dice.iter().sum::<i64>().max(1));
            assert_eq!(npc.hp.out_of_class, (npc.hp.max + 1) / 2);
            assert_eq!(npc.mastery, stock.mastery);
        }
    }
}

fn npc(out: &Path, extra: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut args = vec!["npc", "-q", "--out", s(out)];
    args.extend_from_slice(extra);
    ok(&blockprint(&args));
    tree(out)
}

/// The PDF's text without the invisible break opportunities blockprint adds to long unbroken runs.
fn pdf_text(bytes: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(bytes)
        .expect("a readable PDF")
        .replace('\u{200B}', "")
}

const MM: f64 = 72.0 / 25.4;

#[test]
fn card_sheets_hold_eight_cards_on_a4_and_letter() {
    let dir = tempfile::tempdir().unwrap();
    for (paper, w, h) in [("a4", 595.28, 841.89), ("letter", 612.0, 792.0)] {
        let files = npc(
            &dir.path().join(paper),
            &["--seed", "3", "--count", "20", "--paper", paper],
        );
        let merged = crate::support::glyphs::pages(&files["npcs/cards.pdf"]);
        assert_eq!(merged.len(), 3, "20 cards on 3 sheets");
        for p in &merged {
            assert!(
                (p.width - w).abs() < 0.5 && (p.height - h).abs() < 0.5,
                "{paper}: {} × {}",
                p.width,
                p.height
            );
        }
        for (stem, count) in [
            ("npcs-00001-00008", 8),
            ("npcs-00009-00016", 8),
            ("npcs-00017-00020", 4),
        ] {
            let json: serde_json::Value =
                serde_json::from_slice(&files[&format!("npcs/{stem}.json")]).unwrap();
            let npcs = json["npcs"].as_array().unwrap();
            assert_eq!(npcs.len(), count);
            let pdf = &files[&format!("npcs/{stem}-cards.pdf")];
            let text = pdf_text(pdf);
            for (k, n) in npcs.iter().enumerate() {
                let name = n["name"].as_str().unwrap();
                assert!(text.contains(name), "{stem}: {name} missing from\n{text}");
                let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
                let label = format!("No.{}", json["first"].as_u64().unwrap() + k as u64);
                let found = squeezed.match_indices(&label).any(|(i, _)| {
                    !squeezed[i + label.len()..].starts_with(|c: char| c.is_ascii_digit())
                });
                assert!(found, "{stem}: {label} missing from {squeezed}");
            }
            // Every glyph of a card lies inside its cell of the 2 × 4 grid of 99 × 66 mm cards.
            let page = &crate::support::glyphs::pages(pdf)[0];
            let (x0, y0) = ((w - 198.0 * MM) / 2.0, (h - 264.0 * MM) / 2.0);
            let mut cells = std::collections::BTreeSet::new();
            for g in &page.glyphs {
                if g.y < y0 {
                    continue; // the footer below the grid
                }
                let col = ((g.x - x0) / (99.0 * MM)).floor();
                let row = ((h - g.y - y0) / (66.0 * MM)).floor();
                assert!(
                    (0.0..2.0).contains(&col) && (0.0..4.0).contains(&row),
                    "{g:?}"
                );
                assert!(
                    g.x + g.w <= x0 + (col + 1.0) * 99.0 * MM + 0.01,
                    "{g:?} runs out of its card"
                );
                cells.insert((row as i64, col as i64));
            }
            assert_eq!(cells.len(), count, "{stem}: cards with text");
        }
    }
}

#[test]
fn a_long_unbroken_name_wraps_inside_its_card() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let file = content.join("bbb/07-npcs.toml");
    let long = "Z".repeat(40) + &"x".repeat(260);
    let text = std::fs::read_to_string(&file).unwrap();
    let text = text
        .replace("name = \"Street tough\"", &format!("name = \"{long}\""))
        .replace(
            "mastery = \"law\"",
            &format!("mastery = \"{}\"", "ł".repeat(200)),
        );
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");
    let files = npc(&out, &["--content", s(&content), "--stock", "--seed", "1"]);
    let pdf = &files["npcs/stock-1-cards.pdf"];
    let text = pdf_text(pdf).replace(['\n', ' '], "");
    assert!(text.contains(&long), "{text}");
    let page = &crate::support::glyphs::pages(pdf)[0];
    let x0 = (page.width - 198.0 * MM) / 2.0;
    for g in &page.glyphs {
        let col = ((g.x - x0) / (99.0 * MM)).floor().clamp(0.0, 1.0);
        assert!(
            g.x >= x0 - 0.01 && g.x + g.w <= x0 + (col + 1.0) * 99.0 * MM + 0.01,
            "{g:?}"
        );
    }
    let md = String::from_utf8(files["npcs/stock-1.md"].clone()).unwrap();
    assert!(md.contains(&long));
}

#[test]
fn markdown_and_json_match_golden_and_splits_equal_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = npc(
        &dir.path().join("r"),
        &["--seed", "42", "--count", "10", "--format", "md,json"],
    );
    files.extend(npc(
        &dir.path().join("w"),
        &[
            "--seed", "42", "--count", "3", "--role", "witness", "--class", "scholar", "--format",
            "md,json",
        ],
    ));
    let stock = dir.path().join("s");
    ok(&blockprint(&[
        "make",
        "npc",
        "--pregenerated",
        "-q",
        "--out",
        s(&stock),
        "--format",
        "md,json",
    ]));
    files.extend(tree(&stock));
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/npc-seed-42");
    let n = crate::support::golden_files(
        &golden,
        files.iter().filter(|(n, _)| !n.ends_with("manifest.json")),
    );
    assert_eq!(
        n,
        4 + 1 + 2 + 2 + 1,
        "{:?}",
        files.keys().collect::<Vec<_>>()
    );

    // Sixteen cards, whole or as two halves split at a sheet boundary: the same files, PDFs included.
    let whole = npc(&dir.path().join("whole"), &["--seed", "8", "--count", "16"]);
    let mut halves = npc(&dir.path().join("a"), &["--seed", "8", "--count", "8"]);
    halves.extend(npc(
        &dir.path().join("b"),
        &[
            "--seed",
            "8",
            "--first-number",
            "9",
            "--count",
            "8",
            "--jobs",
            "1",
        ],
    ));
    let sheets = |t: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        t.iter()
            .filter(|(k, _)| k.contains("npcs-"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    assert_eq!(sheets(&whole).len(), 6);
    assert!(sheets(&whole) == sheets(&halves));
    // An unaligned split makes the same NPCs.
    let odd = npc(
        &dir.path().join("c"),
        &[
            "--seed",
            "8",
            "--first-number",
            "5",
            "--count",
            "2",
            "--format",
            "json",
        ],
    );
    let part: serde_json::Value =
        serde_json::from_slice(&odd["npcs/npcs-00005-00006.json"]).unwrap();
    let all: serde_json::Value =
        serde_json::from_slice(&whole["npcs/npcs-00001-00008.json"]).unwrap();
    assert_eq!(part["npcs"][0], all["npcs"][4]);
    assert_eq!(part["npcs"][1], all["npcs"][5]);
}

#[test]
fn bad_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = blockprint(&[
        "npc",
        "--level",
        "0",
        "--class",
        "fighter",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--level 0 makes a run-of-the-mill NPC"));
    let o = blockprint(&["npc", "--class", "bard", "--seed", "1", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("there is no class `bard`"));
    let o = blockprint(&["npc", "--stock", "--role", "witness", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    let o = blockprint(&["npc", "--paper", "a5", "--seed", "1", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
}

#[test]
fn check_locates_what_random_npcs_need() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let file = content.join("bbb/07-npcs.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            "{ on = \"6\",   result = \"3\" }",
            "{ on = \"6\",   result = \"three\" }",
        )
        .replace("tags = [\"notable\"]", "tags = [\"famous\"]"),
    )
    .unwrap();
    let o = blockprint(&["check", "--content", s(&content)]);
    assert_eq!(o.status.code(), Some(1));
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.contains("the `npc` generator needs every result of `bbb.npc.level` to be a whole number from 0 to 20; row `6` reads `three`"),
        "{report}"
    );
    assert!(
        report.contains("the `npc` generator needs every row of `bbb.npc.notability` tagged one of `ordinary`, `notable`; row `4-6` has none"),
        "{report}"
    );
    assert!(report.contains("┌─ bbb/07-npcs.toml:"), "{report}");
    let out = dir.path().join("out");
    let o = blockprint(&[
        "npc",
        "--content",
        s(&content),
        "--seed",
        "1",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out.exists());
}

#[test]
fn no_npc_is_a_john_jane_doe() {
    // Issue 22, defect 8: the victims list's unidentified body (`John or Jane Doe`, tagged
    // `unidentified`) is no witness's or suspect's line of work; it is rolled again, like "multiple
    // victims".
    let lib = lib();
    let doe = |n: &roller::Npc| {
        [&n.occupation, &n.mastery, &n.disposition, &n.profile]
            .iter()
            .any(|f| f.as_deref().is_some_and(|t| t.contains(" Doe")))
            || n.name.contains(" Doe")
    };
    let mut masters = 0;
    for k in 1..=3000 {
        let n = roller::roll_random(&lib, 42, k, &NpcOptions::default()).unwrap();
        assert!(!doe(&n), "NPC {k}: {n:?}");
        masters += usize::from(n.mastery.is_some());
    }
    assert!(masters > 100, "{masters} Masters");
    // The row does come up: without its tag, NPC 1 of batch 42 is a John or Jane Doe (the form of
    // their gender) and a Master of it.
    let mut untagged = lib.clone();
    for t in untagged
        .tables
        .iter_mut()
        .filter(|t| t.id.value == "bbb.victims")
    {
        for r in t.rows.iter_mut() {
            r.tags.retain(|g| g.value != "unidentified");
        }
    }
    let first = roller::roll_random(&untagged, 42, 1, &NpcOptions::default()).unwrap();
    assert!(
        matches!(first.occupation.as_deref(), Some("John Doe" | "Jane Doe")),
        "{first:?}"
    );
    assert_eq!(first.mastery, first.occupation);
    let tagged = roller::roll_random(&lib, 42, 1, &NpcOptions::default()).unwrap();
    assert_ne!(tagged.occupation, first.occupation);

    // And the cards read back from the PDF say it nowhere.
    let dir = tempfile::tempdir().unwrap();
    let files = npc(
        dir.path(),
        &["--seed", "42", "--count", "20", "--format", "pdf,md"],
    );
    for (name, bytes) in &files {
        let text = if name.ends_with(".pdf") {
            pdf_text(bytes)
        } else {
            String::from_utf8_lossy(bytes).into_owned()
        };
        assert!(!text.contains("John") && !text.contains(" Doe"), "{name}");
    }
}

#[test]
fn a_rolled_persons_occupation_reads_as_words_of_their_gender() {
    // Issue 40: rolled NPC cards printed raw table text ("Waiter/waitress", "Wealthy heir(ess)"). A
    // victims row names both forms in words and gives `forms`; a rolled NPC or victim reads the form of
    // their gender (content/README.md, "People's words").
    let lib = lib();
    let shorthand = |t: &str| t.contains('/') || t.contains("(ess)");
    let woman = |rolls: &[String]| {
        let line = rolls.iter().find(|r| r.starts_with("Name:")).unwrap();
        line.contains("(Woman)") || line.contains("female (by occupation)")
    };
    let mut seen: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut waitress = None;
    for k in 1..=4000 {
        let n = roller::roll_random(&lib, 7, k, &NpcOptions::default()).unwrap();
        let occ = n.occupation.clone().unwrap();
        assert!(!shorthand(&occ), "NPC {k}: {occ}");
        assert!(
            !["Waiter or waitress", "Wealthy heir or heiress"].contains(&occ.as_str()),
            "NPC {k} reads both forms: {occ}"
        );
        if let Some(m) = &n.mastery {
            assert_eq!(
                m, &occ,
                "NPC {k}: the mastery is the occupation as the card prints it"
            );
        }
        let e = seen.entry(occ.clone()).or_default();
        if woman(&n.rolls) {
            e.1 += 1;
        } else {
            e.0 += 1;
        }
        if occ == "Waitress" && waitress.is_none() {
            waitress = Some(k);
        }
    }
    // Each form comes up, and only for its gender: (men, women).
    for (word, man) in [
        ("Waiter", true),
        ("Waitress", false),
        ("Wealthy heir", true),
        ("Wealthy heiress", false),
    ] {
        let (m, w) = seen.get(word).copied().unwrap_or_default();
        assert!(m + w > 5, "{word} came up {} times", m + w);
        assert_eq!(if man { w } else { m }, 0, "{word}: ({m} men, {w} women)");
    }
    assert_eq!(
        seen.get("Museum or gallery curator").map(|c| c.0 + c.1 > 5),
        Some(true)
    );

    // Victims too: the case file and the handout print the victim's occupation.
    use blockprint::roll::case::{CaseRequest, roll_case};
    for number in 1..=1500 {
        let c = roll_case(
            &lib,
            CaseRequest {
                batch_seed: 3,
                year: 1976,
                number,
                year_cases: 1500,
            },
        )
        .unwrap();
        let v = &c.victim.victim;
        assert!(
            !shorthand(&v.occupation.text),
            "case {number}: {}",
            v.occupation.text
        );
        if ["Waitress", "Wealthy heiress", "Jane Doe"].contains(&v.occupation.text.as_str()) {
            assert_eq!(v.gender.text, "Female", "case {number}");
        }
        if ["Waiter", "Wealthy heir", "John Doe"].contains(&v.occupation.text.as_str()) {
            assert_eq!(v.gender.text, "Male", "case {number}");
        }
    }

    // The card read back from the PDF says "Waitress".
    let k = waitress.expect("a waitress in 4000 NPCs").to_string();
    let dir = tempfile::tempdir().unwrap();
    let files = npc(
        dir.path(),
        &[
            "--seed",
            "7",
            "--first-number",
            &k,
            "--count",
            "1",
            "--format",
            "pdf",
        ],
    );
    let (name, pdf) = files.iter().find(|(n, _)| n.ends_with(".pdf")).unwrap();
    let text = pdf_text(pdf);
    assert!(
        text.contains("Waitress") && !text.contains("waiter"),
        "{name}: {text}"
    );
}

#[test]
fn check_refuses_forms_a_card_cannot_print() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let file = content.join("bbb/02-victims.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            r#"forms = { male = "Waiter", female = "Waitress" }"#,
            r#"forms = { male = "Waiter", female = "" }"#,
        )
        .replace(
            r#"{ on = "1", result = "Nanny", tags = ["female"] }"#,
            r#"{ on = "1", result = "Nanny", tags = ["female"], forms = { male = "Manny", female = "Nanny" } }"#,
        )
        .replace(r#"result = "Museum or gallery curator""#, r#"result = "Museum/gallery curator""#),
    )
    .unwrap();
    let o = blockprint(&["check", "--content", s(&content)]);
    assert_eq!(o.status.code(), Some(1));
    let report = String::from_utf8_lossy(&o.stdout);
    for want in [
        "error[bad_value]: `forms` of row `64` (`Waiter or waitress`): a form is empty",
        "error[bad_value]: `forms` of row `1` (`Nanny`): the row is tagged `female`",
        "warning[raw_alternative]: result `Museum/gallery curator` writes alternatives with a slash between words",
        "┌─ bbb/02-victims.toml:",
    ] {
        assert!(report.contains(want), "no `{want}` in {report}");
    }
}

#[test]
fn a_card_gives_the_name_stats_hp_and_notes_their_room() {
    // Issue 22, defect 8: the card's space is used — large name and stats, an HP box per kind of scene
    // with room to pencil what is left, the disposition, and ruled notes in the rest of the card.
    let dir = tempfile::tempdir().unwrap();
    let files = npc(
        dir.path(),
        &[
            "--seed", "42", "--count", "1", "--role", "suspect", "--class", "fighter", "--level",
            "3", "--format", "pdf,json",
        ],
    );
    let json: serde_json::Value =
        serde_json::from_slice(&files["npcs/suspects-fighter-l3-00001-00001.json"]).unwrap();
    let n = &json["npcs"][0];
    let pdf = &files["npcs/suspects-fighter-l3-00001-00001-cards.pdf"];
    let page = &crate::support::glyphs::pages(pdf)[0];
    let text = pdf_text(pdf);
    // The text without spaces (tracking spaces the labels out) and in lower case (labels are capitals).
    let squeezed: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    let hp = n["hp"]["max"].as_i64().unwrap().to_string();
    let out = n["hp"]["out_of_class"].as_i64().unwrap().to_string();
    for want in [
        "suspectno.1".to_owned(),
        "level·class3fighterrolls3d6".to_owned(),
        format!("hp·theirclass’sscenes{hp}now"),
        format!("hp·otherscenes{out}now"),
        "profile".to_owned(),
        "disposition".to_owned(),
        "notes".to_owned(),
    ] {
        assert!(squeezed.contains(&want), "{want} missing from {squeezed}");
    }
    // Sizes, read from the glyphs: the name at 19 pt, the HP values at 19 pt, the body at 9.5 pt or more,
    // and nothing under 7 pt.
    let size_of = |s: &str| {
        page.glyphs
            .iter()
            .filter(|g| g.text == s)
            .map(|g| (g.size * 10.0).round() / 10.0)
            .fold(0.0_f64, f64::max)
    };
    let name = n["name"].as_str().unwrap();
    let initial = name.chars().next().unwrap().to_string();
    assert_eq!(size_of(&initial), 19.0, "{name}");
    assert_eq!(size_of(&hp[..1]), 19.0, "HP {hp}");
    let smallest = page
        .glyphs
        .iter()
        .filter(|g| g.y > 20.0 * MM) // the key printed under the cards is 6.5 pt
        .map(|g| g.size)
        .fold(f64::MAX, f64::min);
    assert!(smallest >= 7.0, "{smallest} pt");
    // The card's text runs from its top to the notes near its foot: the card is used, not 30% of it.
    let (x0, top) = (
        (page.width - 198.0 * MM) / 2.0,
        page.height - (page.height - 264.0 * MM) / 2.0,
    );
    let on_card: Vec<_> = page
        .glyphs
        .iter()
        .filter(|g| g.x < x0 + 99.0 * MM && g.y > top - 66.0 * MM)
        .collect();
    let lowest = on_card.iter().map(|g| g.y).fold(f64::MAX, f64::min);
    let highest = on_card.iter().map(|g| g.y).fold(0.0, f64::max);
    assert!(
        highest - lowest > 40.0 * MM,
        "text spans {:.1} mm of the 66 mm card",
        (highest - lowest) / MM
    );
}
