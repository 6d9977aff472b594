//! `blockprint detective`: the rules' character creation checked over many seeded detectives (the forced
//! 18 at exactly the probability the dice engine gives, 3d6 attributes, HP never below 1, modifiers from
//! the content's table), golden Markdown and JSON, byte-identical reruns and batch splits, the pregenerated
//! set, and located errors for bad options and missing content.
//! Run with `BLOCKPRINT_BLESS=1` to rewrite the golden files after an intended change.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{blockprint, ok, s, tree};
use blockprint::content::{ContentRoot, Library};
use blockprint::roll::detective::{self as roller, DetectiveRequest};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

fn lib() -> Library {
    let (lib, report) = blockprint::check::load_and_check(&ContentRoot::Embedded).unwrap();
    assert_eq!(report.errors(), 0);
    lib
}

/// The exact distribution of 3d6, from the dice engine.
fn three_d6() -> Vec<(i64, BigRational)> {
    blockprint::dice::parse("3d6")
        .unwrap()
        .distribution()
        .unwrap()
        .integer_outcomes()
        .unwrap()
}

const N: u32 = 20_000;

fn detectives(lib: &Library, seed: u64) -> Vec<roller::Detective> {
    use rayon::prelude::*;
    (1..=N)
        .into_par_iter()
        .map(|n| {
            roller::roll_detective(
                lib,
                &DetectiveRequest {
                    batch_seed: seed,
                    number: n,
                    class: None,
                },
            )
            .unwrap()
            .0
        })
        .collect()
}

#[test]
fn character_creation_follows_the_rules_over_many_detectives() {
    let lib = lib();
    let all = detectives(&lib, 2024);
    let dist = three_d6();

    // The probability that none of six 3d6 exceeds 10, exactly: P(3d6 ≤ 10)^6.
    let low: BigRational = dist
        .iter()
        .filter(|(v, _)| *v <= 10)
        .fold(BigRational::zero(), |a, (_, p)| a + p);
    assert_eq!(low, BigRational::new(1.into(), 2.into()));
    let p = (0..6).fold(BigRational::one(), |a, _| a * &low);
    assert_eq!(p, BigRational::new(1.into(), 64.into()));
    let p = p.to_f64().unwrap();
    let forced = all.iter().filter(|d| d.forced.is_some()).count() as f64;
    let (mean, sd) = (f64::from(N) * p, (f64::from(N) * p * (1.0 - p)).sqrt());
    assert!(
        (forced - mean).abs() <= 4.5 * sd,
        "{forced} forced 18s in {N}, expected {mean:.1} ± {:.1}",
        4.5 * sd
    );

    // The raised attribute is the class's, per the content lookup; the dice stay as rolled.
    let raised: BTreeMap<String, String> = lib
        .lookup(roller::FORCED)
        .unwrap()
        .entries
        .iter()
        .map(|e| (e.key.value.clone(), e.value.value.to_string()))
        .collect();
    let modifier_rows: Vec<(i64, i64, i64)> = lib
        .table(roller::MODIFIER)
        .unwrap()
        .rows
        .iter()
        .map(|r| {
            let (lo, hi) = match r.on.value.split_once('-') {
                Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                None => (r.on.value.parse().unwrap(), r.on.value.parse().unwrap()),
            };
            (lo, hi, r.modifier.unwrap())
        })
        .collect();
    let modifier = |score: i64| {
        modifier_rows
            .iter()
            .find(|(lo, hi, _)| (*lo..=*hi).contains(&score))
            .unwrap()
            .2
    };
    let mut sums: BTreeMap<i64, u64> = BTreeMap::new();
    let mut classes: BTreeMap<String, u64> = BTreeMap::new();
    for d in &all {
        assert_eq!(d.attributes.len(), 6);
        assert_eq!(
            d.attributes
                .iter()
                .map(|a| a.abbr.as_str())
                .collect::<Vec<_>>(),
            ["STR", "DEX", "CON", "INT", "WIS", "CHA"]
        );
        let rolled: Vec<i64> = d.attributes.iter().map(|a| a.dice.iter().sum()).collect();
        let none_above_10 = rolled.iter().all(|&v| v <= 10);
        assert_eq!(d.forced.is_some(), none_above_10);
        for a in &d.attributes {
            assert_eq!(a.dice.len(), 3);
            assert!(a.dice.iter().all(|x| (1..=6).contains(x)));
            let sum: i64 = a.dice.iter().sum();
            *sums.entry(sum).or_default() += 1;
            if a.forced {
                assert_eq!(a.score, 18);
                assert_eq!(d.forced.as_deref(), Some(a.key.as_str()));
                assert!(raised[&d.class].contains(&format!("({})", a.abbr)));
            } else {
                assert_eq!(a.score, sum);
            }
            assert_eq!(a.modifier, modifier(a.score), "{a:?}");
        }
        assert_eq!(
            d.attributes.iter().filter(|a| a.forced).count(),
            usize::from(none_above_10)
        );
        // HP: the class's hit die plus the CON modifier, at least 1.
        let con = d.attributes.iter().find(|a| a.abbr == "CON").unwrap();
        assert_eq!(d.hp.con_modifier, con.modifier);
        let die = lib
            .lookup("bbb.class.hit_die")
            .unwrap()
            .entries
            .iter()
            .find(|e| e.key.value == d.class)
            .unwrap()
            .value
            .value
            .to_string();
        assert_eq!(d.hp.die, die);
        let sides: i64 = die.trim_start_matches("1d").parse().unwrap();
        assert!((1..=sides).contains(&d.hp.roll));
        assert_eq!(d.hp.max, (d.hp.roll + con.modifier).max(1));
        assert!(d.hp.max >= 1);
        assert_eq!((d.level, d.xp), (1, 0));
        assert_eq!(d.relationships.len(), 5);
        assert_eq!(
            d.relationships.iter().map(|r| r.tier).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        let first_two = [
            d.relationships[0].role.as_str(),
            d.relationships[1].role.as_str(),
        ];
        if d.swapped {
            assert_eq!(first_two, ["Spouse or love interest", "Detective partner"]);
        } else {
            assert_eq!(first_two, ["Detective partner", "Spouse or love interest"]);
        }
        assert_eq!(d.backgrounds.len(), 1);
        assert_eq!(d.backgrounds[0].class, d.class);
        *classes.entry(d.class.clone()).or_default() += 1;
    }
    // Attribute sums follow 3d6 (chi-square, 15 degrees of freedom; 50 is far beyond p = 10⁻⁵).
    let total = f64::from(N) * 6.0;
    let chi: f64 = dist
        .iter()
        .map(|(v, p)| {
            let e = total * p.to_f64().unwrap();
            let o = *sums.get(v).unwrap_or(&0) as f64;
            (o - e).powi(2) / e
        })
        .sum();
    assert!(chi < 50.0, "chi-square {chi:.1} for 3d6 attribute sums");
    // Classes with even odds (3 degrees of freedom; 30 is beyond p = 10⁻⁵).
    assert_eq!(classes.len(), 4);
    let e = f64::from(N) / 4.0;
    let chi: f64 = classes.values().map(|&o| (o as f64 - e).powi(2) / e).sum();
    assert!(chi < 30.0, "classes {classes:?}");
    // The tier swap happens one time in six.
    let swaps = all.iter().filter(|d| d.swapped).count() as f64;
    let (m, sd) = (f64::from(N) / 6.0, (f64::from(N) * 5.0 / 36.0).sqrt());
    assert!((swaps - m).abs() <= 4.5 * sd, "{swaps} swaps");
}

#[test]
fn a_chosen_class_changes_nothing_else_that_was_rolled() {
    let lib = lib();
    for n in 1..=40 {
        let req = |class: Option<&str>| DetectiveRequest {
            batch_seed: 9,
            number: n,
            class: class.map(str::to_owned),
        };
        let (free, _) = roller::roll_detective(&lib, &req(None)).unwrap();
        let (fighter, _) = roller::roll_detective(&lib, &req(Some("Fighter"))).unwrap();
        assert_eq!(fighter.class, "Fighter");
        let dice = |d: &roller::Detective| {
            d.attributes
                .iter()
                .map(|a| a.dice.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(dice(&free), dice(&fighter));
        assert_eq!(free.name, fighter.name);
        assert_eq!(free.relationships, fighter.relationships);
        assert_eq!(free.tagline, fighter.tagline);
        if let Some(f) = &fighter.forced {
            assert_eq!(f, "str");
        }
    }
}

fn detective(out: &Path, extra: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut args = vec!["detective", "-q", "--out", s(out)];
    args.extend_from_slice(extra);
    ok(&blockprint(&args));
    tree(out)
}

#[test]
fn markdown_and_json_match_golden() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = detective(dir.path(), &["--seed", "42", "--count", "2"]);
    let pre = dir.path().join("pre");
    ok(&blockprint(&[
        "make",
        "detective",
        "--pregenerated",
        "-q",
        "--out",
        s(&pre),
    ]));
    files.extend(tree(&pre));
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/detective-seed-42");
    // Markdown and JSON are pinned; the PDF sheets are checked in `filled_sheets_and_fillable_forms`.
    let n = crate::support::golden_files(
        &golden,
        files
            .iter()
            .filter(|(n, _)| !n.ends_with("manifest.json") && !n.ends_with(".pdf")),
    );
    assert_eq!(
        n,
        2 * 2 + 1 + 4 * 2 + 1,
        "{:?}",
        files.keys().collect::<Vec<_>>()
    );
    // The JSON keeps the contract's field order.
    let json = String::from_utf8(files["detectives/detective-00001.json"].clone()).unwrap();
    let keys = [
        "\"name\"",
        "\"class\"",
        "\"level\"",
        "\"xp\"",
        "\"attributes\"",
        "\"forced\"",
        "\"hp\"",
        "\"backgrounds\"",
        "\"relationships\"",
        "\"swapped\"",
        "\"assignment\"",
        "\"tagline\"",
        "\"rolls\"",
    ];
    let body = &json[json.find("\"detective\"").unwrap()..];
    let at: Vec<usize> = keys.iter().map(|k| body.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    // The pregenerated set: one per class, in the class lookup's order.
    for class in ["fighter", "rogue", "scholar", "hotshot"] {
        let v: serde_json::Value =
            serde_json::from_slice(&files[&format!("pregenerated/detective-{class}.json")])
                .unwrap();
        assert_eq!(
            v["detective"]["class"].as_str().unwrap().to_lowercase(),
            class
        );
        let seed = roller::pregenerated_seed(v["detective"]["class"].as_str().unwrap());
        assert_eq!(v["batch_seed"], seed);
    }
}

#[test]
fn the_pregenerated_detectives_show_their_class() {
    // Issue 40, part 5: each pregenerated detective is rolled by the rules from its class's documented
    // seed, and shows its class: the attribute the class raises is its single highest score (rolled,
    // not raised to 18) and its HP is at least the class's median over 401 rolled detectives.
    let lib = lib();
    let roll = |class: &str, seed: u64, number: u32| {
        roller::roll_detective(
            &lib,
            &DetectiveRequest {
                batch_seed: seed,
                number,
                class: Some(class.to_owned()),
            },
        )
        .unwrap()
        .0
    };
    let key = [
        ("Fighter", "STR"),
        ("Rogue", "CHA"),
        ("Scholar", "INT"),
        ("Hotshot", "DEX"),
    ];
    let classes = roller::classes(&lib).unwrap();
    assert_eq!(roller::SHOWCASE_SEEDS.len(), classes.entries.len());
    for (i, entry) in classes.entries.iter().enumerate() {
        let class = entry.key.value.as_str();
        let attr = key.iter().find(|(c, _)| *c == class).unwrap().1;
        let mut hps: Vec<i64> = (1..=401).map(|n| roll(class, 1, n).hp.max).collect();
        hps.sort_unstable();
        let median = hps[200];
        let d = roll(class, roller::pregenerated_seed(class), i as u32 + 1);
        let score = |abbr: &str| d.attributes.iter().find(|a| a.abbr == abbr).unwrap().score;
        let best = d.attributes.iter().map(|a| a.score).max().unwrap();
        let at_best = d.attributes.iter().filter(|a| a.score == best).count();
        assert_eq!(
            (score(attr), at_best),
            (best, 1),
            "{class}: {:?}",
            d.attributes
        );
        assert_eq!(
            d.forced, None,
            "{class}: its key score was raised, not rolled"
        );
        assert!(
            d.hp.max >= median,
            "{class}: HP {} under the median {median}",
            d.hp.max
        );
    }
}

#[test]
fn reruns_and_batch_splits_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let whole = detective(&dir.path().join("w"), &["--seed", "77", "--count", "6"]);
    let again = detective(
        &dir.path().join("x"),
        &["--seed", "77", "--count", "6", "--jobs", "1"],
    );
    let no_manifest = |t: &BTreeMap<String, Vec<u8>>| -> Vec<(String, Vec<u8>)> {
        t.iter()
            .filter(|(k, _)| !k.ends_with("manifest.json"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    assert!(no_manifest(&whole) == no_manifest(&again));
    let mut halves = detective(&dir.path().join("a"), &["--seed", "77", "--count", "3"]);
    halves.extend(detective(
        &dir.path().join("b"),
        &["--seed", "77", "--first-number", "4", "--count", "3"],
    ));
    let per_item = |t: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        t.iter()
            .filter(|(k, _)| k.contains("detective-"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    // Six detectives, each a PDF sheet, Markdown and JSON.
    assert_eq!(per_item(&whole).len(), 18);
    assert!(per_item(&whole) == per_item(&halves));
    // Every file's rerun line makes it again alone.
    let v: serde_json::Value =
        serde_json::from_slice(&whole["detectives/detective-00005.json"]).unwrap();
    assert_eq!(v["rerun"], "detective --seed 77 --first-number 5 --count 1");
    let alone = detective(
        &dir.path().join("c"),
        &["--seed", "77", "--first-number", "5", "--count", "1"],
    );
    assert!(alone["detectives/detective-00005.json"] == whole["detectives/detective-00005.json"]);
    assert!(alone["detectives/detective-00005.md"] == whole["detectives/detective-00005.md"]);
}

#[test]
fn bad_options_and_missing_content_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = blockprint(&[
        "detective",
        "--class",
        "wizard",
        "--seed",
        "1",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "there is no class `wizard`; the classes are fighter, rogue, scholar, hotshot"
        ),
        "{err}"
    );
    let o = blockprint(&[
        "detective",
        "--format",
        "md",
        "--fillable",
        "--seed",
        "1",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--fillable writes PDF forms: add pdf to --format")
    );
    assert!(!out.exists());

    // An init copy without the Rogue backgrounds: check names what is missing; detective refuses.
    let content = dir.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let file = content.join("bbb/05-characters.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let start = text
        .find("[[table]]\nid = \"bbb.character.background.rogue\"")
        .unwrap();
    let end = start + text[start + 9..].find("[[table]]").unwrap() + 9;
    std::fs::write(&file, format!("{}{}", &text[..start], &text[end..])).unwrap();
    // The chapter that placed it would also complain; place nothing missing there.
    let chapter = content.join("bbb/srd/characters.md");
    let c = std::fs::read_to_string(&chapter).unwrap();
    std::fs::write(
        &chapter,
        c.replace("{table:bbb.character.background.rogue}\n", ""),
    )
    .unwrap();
    let o = blockprint(&["check", "--content", s(&content)]);
    assert_eq!(o.status.code(), Some(1));
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.contains("error[missing_requirement]: the `detective` generator needs for class `Rogue` the table `bbb.character.background.rogue`, which the content lacks"),
        "{report}"
    );
    assert!(report.contains("┌─ bbb/05-characters.toml:"), "{report}");
    let o = blockprint(&[
        "detective",
        "--content",
        s(&content),
        "--seed",
        "1",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out.exists());

    // A raised attribute that names no attribute is located at the value.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            "{ key = \"Scholar\", value = \"Intelligence (INT)\" }",
            "{ key = \"Scholar\", value = \"Brains\" }",
        ),
    )
    .unwrap();
    let o = blockprint(&["check", "--content", s(&content)]);
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.contains("the `detective` generator needs every value of `bbb.character.forced_attribute` to be a key of `bbb.character.attributes`; `Brains` is not"),
        "{report}"
    );
}

/// The PDF is the blank character sheet filled in (the same template), with the detective's values on
/// the page; `--fillable` adds a filled form whose every field holds the value `detective_values` gives,
/// with an appearance stream, and only then.
#[test]
fn filled_sheets_and_fillable_forms() {
    use blockprint::render::form::{self, FieldValue};
    let dir = tempfile::tempdir().unwrap();
    let plain = detective(&dir.path().join("p"), &["--seed", "42", "--count", "1"]);
    assert!(plain.contains_key("detectives/detective-00001.pdf"));
    assert!(
        !plain.keys().any(|k| k.ends_with("-fillable.pdf")),
        "{:?}",
        plain.keys()
    );
    let filled = detective(
        &dir.path().join("f"),
        &["--seed", "42", "--count", "1", "--fillable"],
    );
    // The print copy is the same with or without the form beside it.
    assert!(filled["detectives/detective-00001.pdf"] == plain["detectives/detective-00001.pdf"]);
    let v: serde_json::Value =
        serde_json::from_slice(&filled["detectives/detective-00001.json"]).unwrap();
    let det = &v["detective"];
    // The print copy shows the name, the class and the rolls that made the sheet.
    let text = pdf_extract::extract_text_from_mem(&filled["detectives/detective-00001.pdf"])
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let name = det["name"].as_str().unwrap();
    assert!(text.contains(name), "{name} not in {text}");
    let first_roll = det["rolls"][0]
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains(&first_roll), "{first_roll} not in {text}");
    // The fillable copy: every value of the detective in its field, each with an appearance.
    let fields = form::fields(&filled["detectives/detective-00001-fillable.pdf"]).unwrap();
    let want = form::detective_values(det);
    assert!(want.len() >= 30, "{want:?}");
    for (name, value) in &want {
        let f = fields
            .iter()
            .find(|f| &f.name == name)
            .unwrap_or_else(|| panic!("no field {name}"));
        assert_eq!(&f.value, value, "{name}");
        assert!(f.has_appearance, "{name}");
    }
    let str_field = fields.iter().find(|f| f.name == "str").unwrap();
    assert_eq!(
        str_field.value,
        FieldValue::Text(det["attributes"][0]["score"].to_string())
    );
    // The pregenerated set that `build` makes comes with its forms.
    let pre = dir.path().join("pre");
    ok(&blockprint(&[
        "make",
        "detective",
        "--pregenerated",
        "-q",
        "--out",
        s(&pre),
    ]));
    let pre = tree(&pre);
    for class in ["fighter", "rogue", "scholar", "hotshot"] {
        assert!(pre.contains_key(&format!("pregenerated/detective-{class}.pdf")));
        assert!(pre.contains_key(&format!("pregenerated/detective-{class}-fillable.pdf")));
        // A new detective starts at full HP: the current HP is filled in, equal to the maximum (issue 22;
        // tests/sheet.rs checks that the print copy types what the form holds).
        let v: serde_json::Value =
            serde_json::from_slice(&pre[&format!("pregenerated/detective-{class}.json")]).unwrap();
        let max = v["detective"]["hp"]["max"].as_u64().unwrap().to_string();
        let fields =
            form::fields(&pre[&format!("pregenerated/detective-{class}-fillable.pdf")]).unwrap();
        let field = |n: &str| fields.iter().find(|f| f.name == n).unwrap().value.clone();
        assert_eq!(
            field("hp_current"),
            FieldValue::Text(max.clone()),
            "{class}"
        );
        assert_eq!(field("hp_max"), FieldValue::Text(max.clone()), "{class}");
    }
}
