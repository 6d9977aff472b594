//! The Call of Cthulhu-style chase kit (`blockprint kit coc`, kind `kit-coc`): the hazard table's exact
//! odds with bonus and penalty dice against an enumeration written here, coverage and requirements through
//! `blockprint check`, the seeded track (byte-identical on rerun, different for another seed), goldens of
//! the Markdown and JSON, PDF text, the vehicle card count and long strings.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{blockprint, ok, s, tree};
use num_rational::BigRational;

const CONTENT: &str = include_str!("../../content/coc/chase.toml");

fn kit(out: &Path, extra: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut args = vec!["kit", "coc", "--out", s(out)];
    args.extend_from_slice(extra);
    ok(&blockprint(&args));
    tree(&out.join("kits/coc"))
}

fn json(files: &BTreeMap<String, Vec<u8>>, name: &str) -> serde_json::Value {
    serde_json::from_slice(&files[name]).unwrap()
}

fn pdf_text(bytes: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(bytes).unwrap()
}

fn pages(bytes: &[u8]) -> usize {
    lopdf::Document::load_mem(bytes).unwrap().get_pages().len()
}

/// One percentile roll with `extra` bonus (or penalty) dice, enumerated: every units die 0–9 and every
/// combination of `extra + 1` tens dice 00–90; each tens die with the units die reads as one result
/// (00 with 0 is 100); a bonus keeps the lowest result, a penalty the highest. Returns counts of 1..=100
/// over 10^(extra + 2) rolls.
fn percentile(extra: u32, penalty: bool) -> (Vec<u64>, u64) {
    let tens_dice = extra as usize + 1;
    let mut counts = vec![0u64; 101];
    let mut total = 0u64;
    for units in 0..10i64 {
        let combos = 10usize.pow(tens_dice as u32);
        for c in 0..combos {
            let mut rest = c;
            let mut kept: Option<i64> = None;
            for _ in 0..tens_dice {
                let tens = (rest % 10) as i64;
                rest /= 10;
                let v = if tens == 0 && units == 0 {
                    100
                } else {
                    tens * 10 + units
                };
                kept = Some(match kept {
                    None => v,
                    Some(k) if penalty => k.max(v),
                    Some(k) => k.min(v),
                });
            }
            counts[kept.unwrap() as usize] += 1;
            total += 1;
        }
    }
    (counts, total)
}

fn fraction(q: &BigRational) -> String {
    if *q.denom() == 1.into() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

#[test]
fn hazard_odds_match_an_enumeration_for_every_bonus_and_penalty_die() {
    let dir = tempfile::tempdir().unwrap();
    let files = kit(dir.path(), &["--seed", "1", "--format", "json"]);
    let h = &json(&files, "hazards.json")["hazard"];
    let variants: Vec<&str> = h["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v[0].as_str().unwrap())
        .collect();
    assert_eq!(variants, ["d%", "d%b1", "d%b2", "d%p1", "d%p2"]);
    // The bands as the source prints them, read as the highest threshold reached.
    let bands = [
        (1, 59, "Clear"),
        (60, 84, "Regular"),
        (85, 95, "Hard"),
        (96, 100, "Extreme"),
    ];
    let rows = h["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for (vi, (extra, penalty)) in [(0, false), (1, false), (2, false), (1, true), (2, true)]
        .into_iter()
        .enumerate()
    {
        let (counts, total) = percentile(extra, penalty);
        let mut sum = BigRational::from_integer(0.into());
        for (row, (lo, hi, result)) in rows.iter().zip(bands) {
            assert_eq!(row["result"], result);
            let n: u64 = counts[lo..=hi].iter().sum();
            let p = BigRational::new(n.into(), total.into());
            sum += p.clone();
            let cell = &row["odds"][vi];
            assert_eq!(cell["dice"], variants[vi]);
            assert_eq!(
                cell["probability"],
                fraction(&p),
                "{} {}",
                variants[vi],
                result
            );
            // The percentage printed is exact: n / total × 100 with at most two decimals here.
            let pct = BigRational::new((n * 100).into(), total.into());
            let printed: f64 = cell["percent"].as_str().unwrap().parse().unwrap();
            let want = pct.numer().to_string().parse::<f64>().unwrap()
                / pct.denom().to_string().parse::<f64>().unwrap();
            assert!(
                (printed - want).abs() < 1e-9,
                "{} {result}: {printed} vs {want}",
                variants[vi]
            );
        }
        assert_eq!(sum, BigRational::from_integer(1.into()));
    }
    // The source's own figures for the plain roll, and a few hand-checked cells.
    let pct = |r: usize, v: usize| rows[r]["odds"][v]["percent"].as_str().unwrap().to_owned();
    assert_eq!(
        [pct(0, 0), pct(1, 0), pct(2, 0), pct(3, 0)],
        ["59", "25", "11", "5"]
    );
    assert_eq!(pct(0, 1), "83.1");
    assert_eq!(pct(3, 2), "0.05");
    assert_eq!(pct(3, 4), "13.55");
}

#[test]
fn built_in_content_checks_and_covers_every_kit_table() {
    let o = blockprint(&["check", "--verbose"]);
    ok(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    for fill in ["coc.vehicles.water", "coc.collisions", "coc.mov.mph"] {
        assert!(text.contains(fill), "fill of {fill} not listed:\n{text}");
    }
}

fn init_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", "--quiet", s(&content)]));
    dir
}

fn check(dir: &Path) -> (i32, String) {
    let o = blockprint(&["check", "--content", s(&dir.join("content"))]);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

fn edit(dir: &Path, f: impl Fn(&str) -> String) {
    let p = dir.join("content/coc/chase.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    let new = f(&text);
    assert_ne!(text, new, "the edit changed nothing");
    std::fs::write(&p, new).unwrap();
}

#[test]
fn check_reports_a_missing_kit_table() {
    let dir = init_copy();
    edit(dir.path(), |t| {
        let start = t.find("[[table]]\nid = \"coc.hazard.random\"").unwrap();
        let end = start + t[start..].find("\n\n[[").unwrap() + 2;
        format!("{}{}", &t[..start], &t[end..])
    });
    let (code, text) = check(dir.path());
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("error[missing_requirement]"), "{text}");
    assert!(
        text.contains("`kit-coc`") && text.contains("table `coc.hazard.random`"),
        "{text}"
    );
    // And `kit coc` refuses to run on it, naming the same thing.
    let o = blockprint(&[
        "kit",
        "coc",
        "--content",
        s(&dir.path().join("content")),
        "--out",
        s(&dir.path().join("out")),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("coc.hazard.random"));
}

#[test]
fn check_reports_a_gap_in_the_hazard_table() {
    let dir = init_copy();
    edit(dir.path(), |t| {
        t.replace(
            "{ on = \"96-00\", result = \"Extreme\", tags = [\"extreme\"] },\n",
            "",
        )
    });
    let (code, text) = check(dir.path());
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("error[gap]") && text.contains("coc.hazard.random"),
        "{text}"
    );
}

#[test]
fn check_reports_a_chart_row_with_the_wrong_cells() {
    let dir = init_copy();
    edit(dir.path(), |t| {
        t.replace("[\"Tank\", 11, 20, 24, \"4\"]", "[\"Tank\", 11, 20, \"4\"]")
            .replace(
                "[\"Jet plane\", 18, 11, 3, \"50+\"]",
                "[\"Jet plane\", \"fast\", 11, 3, \"50+\"]",
            )
    });
    let (code, text) = check(dir.path());
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "a row of chart `coc.vehicles.heavy` has 4 cells but the chart has 5 columns"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "column `MOV` of chart `coc.vehicles.air` is numeric but a row has `fast` there"
        ),
        "{text}"
    );
    assert!(
        text.contains("chase.toml:"),
        "diagnostics are located: {text}"
    );
}

#[test]
fn seeded_track_is_byte_identical_on_rerun_and_differs_by_seed() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let c = tempfile::tempdir().unwrap();
    let fa = kit(a.path(), &["--seed", "42"]);
    let fb = kit(b.path(), &["--seed", "42"]);
    let fc = kit(c.path(), &["--seed", "43"]);
    for name in ["track-seeded.json", "track-seeded.md", "track-seeded.pdf"] {
        assert!(
            fa[name] == fb[name],
            "{name} differs between two runs of seed 42"
        );
        assert!(
            fa[name] != fc[name],
            "{name} is the same for seeds 42 and 43"
        );
    }
    // Nothing else depends on the seed.
    for name in [
        "track-blank.pdf",
        "hazards.pdf",
        "movement.pdf",
        "vehicles.pdf",
    ] {
        assert!(fa[name] == fc[name], "{name} depends on the seed");
    }
    let t = &json(&fa, "track-seeded.json")["track"];
    assert_eq!(t["seed"], 42);
    assert_eq!(t["locations"], 10);
    let gaps = t["gaps"].as_array().unwrap();
    assert_eq!(gaps.len(), 9);
    for g in gaps {
        let roll = g["roll"].as_i64().unwrap();
        let level = match roll {
            1..=59 => "Clear",
            60..=84 => "Regular",
            85..=95 => "Hard",
            96..=100 => "Extreme",
            _ => panic!("d100 rolled {roll}"),
        };
        assert_eq!(g["level"], level);
        if level == "Clear" {
            assert!(g["obstacle"].is_null() && g["what"].is_null());
        } else {
            let d6 = g["obstacle_roll"].as_i64().unwrap();
            let barrier = d6 >= 5;
            assert_eq!(g["obstacle"], if barrier { "Barrier" } else { "Hazard" });
            assert_eq!(g["hp"].is_null(), !barrier, "{g}");
            if barrier {
                let hp = [5, 10, 15, 25, 50, 100][g["what_roll"].as_i64().unwrap() as usize - 1];
                assert_eq!(g["hp"], hp);
            }
        }
    }
    let blank = &json(&fa, "track-blank.json")["track"];
    assert!(blank["seed"].is_null() && blank["gaps"].as_array().unwrap().is_empty());
}

#[test]
fn golden_markdown_and_json_for_seed_42() {
    let dir = tempfile::tempdir().unwrap();
    let files = kit(dir.path(), &["--seed", "42", "--format", "md,json"]);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/kit-coc");
    let picked: Vec<(&String, &Vec<u8>)> = files
        .iter()
        .filter(|(k, _)| k.ends_with(".md") || (k.ends_with(".json") && !k.starts_with("manifest")))
        .collect();
    assert_eq!(picked.len(), 14);
    assert_eq!(crate::support::golden_files(&golden, picked), 14);
}

#[test]
fn pdfs_carry_the_numbers_and_the_source_on_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let files = kit(dir.path(), &["--seed", "42", "--format", "pdf"]);
    // White space squashed: a footer line may wrap anywhere.
    let squash = |t: &str| t.split_whitespace().collect::<String>();
    for (name, bytes) in files.iter().filter(|(k, _)| k.ends_with(".pdf")) {
        let text = pdf_text(bytes);
        let n = pages(bytes);
        let footers = squash(&text)
            .matches(&squash("No licence is stated in the source"))
            .count();
        assert!(
            footers >= n,
            "{name}: {footers} licence lines for {n} pages"
        );
        assert!(text.contains("Chaosium"), "{name}");
    }
    let h = pdf_text(&files["hazards.pdf"]);
    for want in [
        "83.1%", "831/1000", "92.99%", "0.05%", "13.55%", "271/2000", "Extreme", "100 HP",
    ] {
        assert!(h.contains(want), "hazards.pdf lacks {want}");
    }
    // The pre-rolled track lies on the table: no seed and no rerun command on it (its Markdown and JSON
    // keep them), and no content version; nor do the Keeper's reference pages (issue 40: no hash on
    // paper).
    let t = pdf_text(&files["track-seeded.pdf"]);
    assert!(!t.contains("--seed") && !t.contains("seed 42"), "{t}");
    assert!(t.contains("pre-rolled"));
    let version = |name: &str| squash(&pdf_text(&files[name])).contains("·content");
    for name in [
        "track-seeded.pdf",
        "track-blank.pdf",
        "vehicles.pdf",
        "hazards.pdf",
        "movement.pdf",
    ] {
        assert!(!version(name), "{name} prints the content version");
    }
    assert!(
        t.contains("25 HP"),
        "the seed-42 track has a 9-inch brick wall"
    );
    let m = pdf_text(&files["movement.pdf"]);
    for want in ["1000", "1D3-1", "5D10", "Road kill"] {
        assert!(m.contains(want), "movement.pdf lacks {want}");
    }
}

#[test]
fn one_vehicle_card_per_vehicle_in_the_content() {
    let doc: toml::Value = toml::from_str(CONTENT).unwrap();
    let rows: usize = doc["chart"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("coc.vehicles."))
        .map(|c| c["rows"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows, 27);
    let dir = tempfile::tempdir().unwrap();
    let files = kit(dir.path(), &["--seed", "1", "--format", "pdf,json"]);
    let v = json(&files, "vehicles.json");
    assert_eq!(v["count"], rows);
    assert_eq!(v["cards"].as_array().unwrap().len(), rows);
    let text = pdf_text(&files["vehicles.pdf"]);
    assert_eq!(text.matches("Every full 10 damage").count(), rows);
    // Nine cards to a sheet, each sheet of fronts followed by its sheet of backs.
    assert_eq!(pages(&files["vehicles.pdf"]), 2 * rows.div_ceil(9));
    // The copy error is fixed and marked.
    let speedboat = v["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Speedboat")
        .unwrap();
    assert_eq!(speedboat["editorial"], true);
    assert_eq!(speedboat["mov"], "14");
    assert_eq!(speedboat["mph"], "90");
    let bicycles = v["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == "Bicycle")
        .count();
    assert_eq!(bicycles, 1);
}

/// The pre-rolled track lies on the table: it names what lies in each gap, never the dice that put it
/// there (no `d100 63 · d6 1`, no `1d10 4`), in its PDF and in its Markdown, which say the same; the
/// JSON keeps every roll for the Keeper.
#[test]
fn the_pre_rolled_track_prints_no_dice() {
    let dir = tempfile::tempdir().unwrap();
    let files = kit(dir.path(), &["--seed", "42", "--format", "pdf,md,json"]);
    let pdf = pdf_text(&files["track-seeded.pdf"]);
    let md = String::from_utf8(files["track-seeded.md"].clone()).unwrap();
    // A die as notation: a `d` right after a digit or at a word's start, then a digit (d100, 1d6, d6).
    let dice = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| {
                let w = w.trim_start_matches(|c: char| c.is_ascii_digit());
                w.len() > 1
                    && (w.starts_with('d') || w.starts_with('D'))
                    && w[1..].chars().all(|c| c.is_ascii_digit())
            })
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(dice(&pdf), Vec::<String>::new(), "{pdf}");
    assert_eq!(dice(&md), Vec::<String>::new(), "{md}");
    // The check itself sees notation.
    assert_eq!(
        dice("d100 63 · d6 1 · 1d10 4 · 3D6"),
        ["d100", "d6", "1d10", "3D6"]
    );
    // What the seed-42 track holds is there in words; the rolls stay in the JSON.
    for want in [
        "Regular barrier",
        "9-inch brick wall",
        "25 HP",
        "Extreme hazard",
        "Between the stacks",
    ] {
        // White space squashed: a slot's text wraps anywhere.
        let squash = |t: &str| t.split_whitespace().collect::<String>();
        assert!(
            squash(&pdf).contains(&squash(want)),
            "track-seeded.pdf lacks {want}"
        );
        assert!(md.contains(want), "track-seeded.md lacks {want}");
    }
    let gaps = json(&files, "track-seeded.json")["track"]["gaps"].clone();
    let rolls: Vec<i64> = gaps
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["roll"].as_i64().unwrap())
        .collect();
    assert_eq!(rolls, [94, 35, 44, 97, 20, 60, 100, 55, 45]);
}

/// The vehicle cards are laid out by the card engine, like every other card sheet: poker cards three by
/// three, centred; on every page a TrimBox round the cards' trim and a BleedBox round their bleed (none:
/// the same box); crop marks outside every card; each sheet of backs mirrored for long-edge duplex
/// printing, which the PDF asks the print dialog for.
#[test]
fn vehicle_cards_are_on_the_card_imposition_with_print_boxes() {
    const PT_PER_MM: f64 = 72.0 / 25.4;
    let (card_w, card_h) = (63.5, 88.9);
    let dir = tempfile::tempdir().unwrap();
    for (paper, pw, ph) in [("a4", 210.0, 297.0), ("letter", 215.9, 279.4)] {
        let files = kit(
            &dir.path().join(paper),
            &["--seed", "1", "--paper", paper, "--format", "pdf,json"],
        );
        let doc = lopdf::Document::load_mem(&files["vehicles.pdf"]).unwrap();
        let (gw, gh) = (3.0 * card_w, 3.0 * card_h);
        let (l, t) = ((pw - gw) / 2.0, (ph - gh) / 2.0);
        let want = [l, ph - t - gh, l + gw, ph - t].map(|v| v * PT_PER_MM);
        let pages = doc.get_pages();
        assert_eq!(pages.len(), 6, "{paper}");
        for (n, id) in pages {
            let page = doc.get_dictionary(id).unwrap();
            let rect = |key: &[u8]| -> Vec<f64> {
                page.get(key)
                    .unwrap_or_else(|_| panic!("{paper} page {n}: no {key:?}"))
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| match o {
                        lopdf::Object::Real(r) => f64::from(*r),
                        lopdf::Object::Integer(i) => *i as f64,
                        _ => panic!("not a number"),
                    })
                    .collect()
            };
            let (trim, bleed) = (rect(b"TrimBox"), rect(b"BleedBox"));
            // 27 vehicles: three full sheets of nine.
            for (a, b) in trim.iter().zip(want) {
                assert!(
                    (a - b).abs() < 0.05,
                    "{paper} page {n}: {trim:?} vs {want:?}"
                );
            }
            assert_eq!(trim, bleed, "{paper} page {n}");
        }
        let prefs = doc
            .catalog()
            .unwrap()
            .get(b"ViewerPreferences")
            .unwrap()
            .as_dict()
            .unwrap();
        assert_eq!(
            prefs.get(b"Duplex").unwrap().as_name().unwrap(),
            b"DuplexFlipLongEdge"
        );
        let v = json(&files, "vehicles.json");
        let layout = &v["layout"];
        assert_eq!(
            (layout["cols"].as_u64(), layout["rows"].as_u64()),
            (Some(3), Some(3))
        );
        let sheets = layout["pages"].as_array().unwrap();
        let sides: Vec<&str> = sheets.iter().map(|p| p["side"].as_str().unwrap()).collect();
        assert_eq!(sides, ["front", "back", "front", "back", "front", "back"]);
        let faces = v["faces"].as_array().unwrap();
        assert_eq!(faces.len(), 28);
        assert_eq!(faces[27]["kind"], "back");
        assert_eq!(faces[27]["title"], "Vehicles");
        let at = |p: &serde_json::Value, k: usize| {
            let c = &p["cards"][k];
            (
                c["x"].as_f64().unwrap(),
                c["y"].as_f64().unwrap(),
                c["face"].as_u64().unwrap(),
            )
        };
        for (k, pair) in sheets.chunks(2).enumerate() {
            let (front, back) = (&pair[0], &pair[1]);
            for i in 0..9 {
                let (fx, fy, face) = at(front, i);
                let (bx, by, back_face) = at(back, i);
                assert_eq!(face as usize, 9 * k + i);
                assert_eq!(back_face, 27);
                // Long edge: the back of a card stands in the mirrored column of the same row.
                assert!(
                    (bx - (pw - fx - card_w)).abs() < 1e-6 && (by - fy).abs() < 1e-6,
                    "{paper} {i}"
                );
            }
            // No crop mark reaches into a card.
            for p in [front, back] {
                let cards: Vec<(f64, f64)> = (0..9).map(|i| (at(p, i).0, at(p, i).1)).collect();
                let marks = p["marks"].as_array().unwrap();
                assert!(!marks.is_empty(), "{paper}: a sheet without crop marks");
                for m in marks {
                    let c = |k: &str| m[k].as_f64().unwrap();
                    let (x0, x1) = (c("x1").min(c("x2")), c("x1").max(c("x2")));
                    let (y0, y1) = (c("y1").min(c("y2")), c("y1").max(c("y2")));
                    for (x, y) in &cards {
                        let inside = x1 > *x + 1e-6
                            && x0 < x + card_w - 1e-6
                            && y1 > *y + 1e-6
                            && y0 < y + card_h - 1e-6;
                        assert!(!inside, "{paper}: mark {m} crosses the card at ({x}, {y})");
                    }
                }
            }
        }
    }
}

/// The Keeper's reference pages are one page each on A4 and on Letter (Letter movement used to spill one
/// bullet onto a second page, hazards six lines), because they share out the editorial fills and house
/// rulings: hazards lists those of the hazards, barriers and track, movement all the others, so each is
/// printed once and none is left out.
#[test]
fn reference_pages_are_one_page_each_and_share_the_fills_and_rulings() {
    let dir = tempfile::tempdir().unwrap();
    for paper in ["a4", "letter"] {
        let files = kit(
            &dir.path().join(paper),
            &["--seed", "42", "--paper", paper, "--format", "pdf,json"],
        );
        assert_eq!(pages(&files["hazards.pdf"]), 1, "{paper} hazards");
        assert_eq!(pages(&files["movement.pdf"]), 1, "{paper} movement");
    }
    let files = tree(&dir.path().join("a4/kits/coc"));
    let ids = |name: &str, what: &str| -> Vec<String> {
        json(&files, name)["about"][what]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let on_hazards = |id: &str| {
        [
            "coc.hazard.",
            "coc.barrier.",
            "coc.track.",
            "coc.ruling.track",
        ]
        .iter()
        .any(|p| id.starts_with(p))
    };
    for what in ["fills", "rulings"] {
        let (h, m, all) = (
            ids("hazards.json", what),
            ids("movement.json", what),
            ids("vehicles.json", what),
        );
        assert!(!h.is_empty() && !m.is_empty(), "{what}");
        assert!(h.iter().all(|id| on_hazards(id)), "{what}: {h:?}");
        assert!(m.iter().all(|id| !on_hazards(id)), "{what}: {m:?}");
        let mut both: Vec<String> = h.iter().chain(&m).cloned().collect();
        both.sort();
        let mut all = all;
        all.sort();
        assert_eq!(both, all, "{what}: every one printed once");
    }
    assert_eq!(
        ids("hazards.json", "rulings"),
        vec!["coc.ruling.track".to_owned()]
    );
}

#[test]
fn letter_paper_and_long_unbroken_strings_stay_in_their_boxes() {
    let dir = init_copy();
    let long = "Ü".repeat(40) + &"x".repeat(260);
    edit(dir.path(), |t| {
        t.replace("\"Sports car\"", &format!("\"{long}\""))
            .replace("\"A low fence or wall\"", &format!("\"{long}\""))
    });
    let out = dir.path().join("out");
    for paper in ["a4", "letter"] {
        let files = kit(
            &out.join(paper),
            &[
                "--seed",
                "42",
                "--paper",
                paper,
                "--content",
                s(&dir.path().join("content")),
            ],
        );
        assert_eq!(pages(&files["vehicles.pdf"]), 6, "{paper}");
        assert_eq!(pages(&files["track-seeded.pdf"]), 1, "{paper}");
        assert_eq!(pages(&files["track-blank.pdf"]), 1, "{paper}");
        assert_eq!(pages(&files["movement.pdf"]), 1, "{paper}");
    }
}

/// A vehicle's name of 300 characters without a space fits its card: smaller, over several lines, never
/// under 6 pt and never across the card's trim, on A4 and on Letter (the page checker says so).
#[test]
fn a_long_vehicle_name_stays_on_its_card_at_6_pt_or_more() {
    let dir = init_copy();
    let long = "Ü".repeat(40) + &"x".repeat(260);
    edit(dir.path(), |t| {
        t.replace("\"Sports car\"", &format!("\"{long}\""))
    });
    for paper in ["a4", "letter"] {
        let files = kit(
            &dir.path().join("out").join(paper),
            &[
                "--seed",
                "42",
                "--paper",
                paper,
                "--content",
                s(&dir.path().join("content")),
                "--check-pages",
            ],
        );
        let v = json(&files, "vehicles.json");
        assert_eq!(v["cards"][3]["name"], long.as_str(), "{paper}");
        assert_eq!(pages(&files["vehicles.pdf"]), 6, "{paper}");
    }
}
