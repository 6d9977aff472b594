//! The document pipeline: kinds plug in without code elsewhere, batches split by index range equal the
//! whole, output folders are safe to rerun (manifest, refusal, `--force`, resume after a kill), combined
//! print files are merged with one bookmark per case and duplex padding and every built-in template compiles
//! without a warning (what `check` reports of a generator's requirements: `check::requirements`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use lopdf::{Document, Object};

fn ok(o: &Output) -> String {
    crate::support::ok(o);
    crate::support::stderr(o)
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

use crate::support::{blockprint, s, tree};

fn case(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["case", "--out", s(out), "--quiet"];
    args.extend_from_slice(extra);
    blockprint(&args)
}

/// Titles of the top-level outline items and the 1-based page each points at.
pub(crate) fn outline(doc: &Document) -> Vec<(String, usize)> {
    let pages: BTreeMap<lopdf::ObjectId, u32> =
        doc.get_pages().into_iter().map(|(n, id)| (id, n)).collect();
    let catalog = doc.catalog().unwrap();
    let outlines = doc
        .get_dictionary(catalog.get(b"Outlines").unwrap().as_reference().unwrap())
        .unwrap();
    let mut out = Vec::new();
    let mut next = outlines
        .get(b"First")
        .ok()
        .and_then(|o| o.as_reference().ok());
    while let Some(id) = next {
        let item = doc.get_dictionary(id).unwrap();
        let title = match item.get(b"Title").unwrap() {
            Object::String(bytes, _) => decode(bytes),
            other => panic!("title {other:?}"),
        };
        let dest = item.get(b"Dest").unwrap().as_array().unwrap();
        let page = pages[&dest[0].as_reference().unwrap()] as usize;
        out.push((title, page));
        next = item.get(b"Next").ok().and_then(|o| o.as_reference().ok());
    }
    out
}

/// A PDF text string: UTF-16BE with a BOM, else PDFDocEncoding (ASCII here).
fn decode(bytes: &[u8]) -> String {
    if bytes.starts_with(&[0xfe, 0xff]) {
        let units: Vec<u16> = bytes[2..]
            .chunks(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16(&units).unwrap()
    } else {
        bytes.iter().map(|&b| b as char).collect()
    }
}

pub(crate) fn title(doc: &Document) -> String {
    let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
    match doc.get_dictionary(info).unwrap().get(b"Title").unwrap() {
        Object::String(b, _) => decode(b),
        o => panic!("{o:?}"),
    }
}

#[test]
fn a_layout_kind_is_picked_up_by_build_from_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let kinds = fixture("tests/fixtures/kinds");
    ok(&blockprint(&[
        "build",
        "--seed",
        "1",
        "--count",
        "1",
        "--quiet",
        "--out",
        s(&out),
        "--templates",
        s(&kinds),
    ]));
    let md = std::fs::read_to_string(out.join("toy/toy.md")).unwrap();
    assert!(
        md.starts_with("# Toy handout\n\n## District (2d6)\n"),
        "{md}"
    );
    assert!(
        md.contains("| 6-7 | Low-income area | 30.56% (11/36) | ▮▮▮▮▮▮▮▮ |"),
        "{md}"
    );
    let pdf = std::fs::read(out.join("toy/toy.pdf")).unwrap();
    let text = pdf_extract::extract_text_from_mem(&pdf).unwrap();
    assert!(
        text.contains("Low-income area") && text.contains("11/36"),
        "{text}"
    );
    assert_eq!(title(&Document::load_mem(&pdf).unwrap()), "Toy handout");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("toy/toy.json")).unwrap()).unwrap();
    assert_eq!(json["tables"][0]["id"], "bbb.homicide.district");
    assert_eq!(json["tables"].as_array().unwrap().len(), 1);
    // Its requirement is checked like a built-in kind's: content without the table fails `check`.
    let content = dir.path().join("content");
    ok(&blockprint(&["init", s(&content)]));
    let file = content.join("bbb/01-homicide.toml");
    let text = std::fs::read_to_string(&file).unwrap().replace(
        "id = \"bbb.homicide.district\"",
        "id = \"bbb.homicide.quarter\"",
    );
    std::fs::write(&file, text).unwrap();
    let o = blockprint(&["check", "--content", s(&content), "--templates", s(&kinds)]);
    assert_eq!(o.status.code(), Some(1));
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.contains(
            "error[missing_requirement]: the `toy` generator needs table `bbb.homicide.district`"
        ),
        "{report}"
    );
}

#[test]
fn make_list_names_every_kind() {
    let o = blockprint(&[
        "make",
        "--list",
        "--templates",
        s(&fixture("tests/fixtures/kinds")),
    ]);
    ok(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "case",
            "srd",
            "detective",
            "npc",
            "sheet",
            "deck",
            "cards",
            "export-foundry",
            "export-foundry-v12",
            "export-roll20",
            "export-csv",
            "kit-coc",
            "kit-urban-world",
            "kit-storypath",
            "kit-bbb",
            "kit-rbf",
            "tables",
            "toy"
        ]
    );
}

#[test]
fn two_halves_of_a_batch_equal_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, a, b) = (
        dir.path().join("whole"),
        dir.path().join("a"),
        dir.path().join("b"),
    );
    ok(&case(&whole, &["--seed", "77", "--count", "6"]));
    ok(&case(&a, &["--seed", "77", "--count", "3"]));
    ok(&case(
        &b,
        &[
            "--seed",
            "77",
            "--first-number",
            "4",
            "--count",
            "3",
            "--jobs",
            "1",
        ],
    ));
    let combined = [
        "cases/manifest.json",
        "cases/index.md",
        "cases/gm.pdf",
        "cases/handouts.pdf",
    ];
    let per_case = |t: BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        t.into_iter()
            .filter(|(k, _)| !combined.contains(&k.as_str()))
            .collect()
    };
    let mut halves = per_case(tree(&a));
    halves.extend(per_case(tree(&b)));
    let whole = per_case(tree(&whole));
    assert_eq!(whole.len(), 6 * 4, "{:?}", whole.keys().collect::<Vec<_>>());
    assert_eq!(
        halves.keys().collect::<Vec<_>>(),
        whole.keys().collect::<Vec<_>>()
    );
    for (k, v) in &whole {
        assert!(
            halves[k] == *v,
            "{k} differs between the halves and the whole"
        );
    }
}

#[test]
fn combined_print_files_have_a_bookmark_per_case_and_duplex_padding() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    ok(&case(
        &out,
        &["--seed", "42", "--count", "3", "--format", "pdf,json"],
    ));
    let gm_one = Document::load(out.join("cases/1976-02/1976-02-gm.pdf")).unwrap();
    assert_eq!(title(&gm_one), "Case 1976-02 — GM file");
    let handout = Document::load(out.join("cases/1976-02/1976-02-handout.pdf")).unwrap();
    assert_eq!(title(&handout), "Case 1976-02 — player handout");

    let names: Vec<String> = ["1976-01", "1976-02", "1976-03"]
        .iter()
        .map(|n| {
            let v: serde_json::Value = serde_json::from_slice(
                &std::fs::read(out.join(format!("cases/{n}/{n}.json"))).unwrap(),
            )
            .unwrap();
            format!("Case {n} — {}", v["victim"]["name"].as_str().unwrap())
        })
        .collect();
    // GM files are padded so each starts a sheet; handouts (nothing secret) print back to back.
    for (file, per_case_suffix, pad) in [
        ("gm.pdf", "-gm.pdf", true),
        ("handouts.pdf", "-handout.pdf", false),
    ] {
        let doc = Document::load(out.join("cases").join(file)).unwrap();
        let items = outline(&doc);
        assert_eq!(
            items.iter().map(|i| i.0.clone()).collect::<Vec<_>>(),
            names,
            "{file}"
        );
        // In gm.pdf each case starts on an odd page, after the previous one padded to an even count.
        let mut page = 1;
        for (k, n) in ["1976-01", "1976-02", "1976-03"].iter().enumerate() {
            assert_eq!(
                items[k].1, page,
                "{file}: {n} starts on page {}",
                items[k].1
            );
            let pages = Document::load(out.join(format!("cases/{n}/{n}{per_case_suffix}")))
                .unwrap()
                .get_pages()
                .len();
            page += pages + if pad { pages % 2 } else { 0 };
        }
        assert_eq!(doc.get_pages().len(), page - 1, "{file}");
        assert!(title(&doc).starts_with("Case packets"), "{file}");
    }
    let index = std::fs::read_to_string(out.join("cases/index.md")).unwrap();
    assert!(
        index.contains("[gm.pdf](gm.pdf)") && index.contains("[GM file](1976-01/1976-01-gm.pdf)")
    );
    assert!(index.contains("[JSON](1976-03/1976-03.json)"));
    assert!(
        !index.contains(".md)"),
        "links only files written:\n{index}"
    );
}

#[test]
fn another_batch_in_the_same_folder_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    ok(&case(
        &out,
        &["--seed", "1", "--count", "2", "--format", "json"],
    ));
    let before = tree(&out);
    let o = case(&out, &["--seed", "2", "--count", "2", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds the output of another run") && err.contains("--force"),
        "{err}"
    );
    assert!(err.contains("seed 1") && err.contains("seed 2"), "{err}");
    assert_eq!(tree(&out), before, "a refused run writes nothing");
    // The same batch continues, even without --seed; --force replaces.
    let again = ok(&blockprint(&[
        "case",
        "--out",
        s(&out),
        "--count",
        "2",
        "--format",
        "json",
    ]));
    assert!(again.contains("continuing the batch"), "{again}");
    let mut now = tree(&out);
    let (m_before, m_now) = (
        before["cases/manifest.json"].clone(),
        now.remove("cases/manifest.json").unwrap(),
    );
    let mut same = before.clone();
    same.remove("cases/manifest.json");
    assert_eq!(now, same);
    let seed =
        |m: &[u8]| serde_json::from_slice::<serde_json::Value>(m).unwrap()["batch"]["seed"].clone();
    assert_eq!(seed(&m_before), seed(&m_now));
    ok(&case(
        &out,
        &["--seed", "2", "--count", "1", "--format", "json", "--force"],
    ));
    let after = tree(&out);
    assert!(
        !after.contains_key("cases/1976-02/1976-02.json"),
        "the old batch's files are gone"
    );
    let m: serde_json::Value = serde_json::from_slice(&after["cases/manifest.json"]).unwrap();
    assert_eq!(m["batch"]["seed"], 2);
    assert_eq!(m["kind"], "case");
    let files = m["files"].as_object().unwrap();
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        ["1976-01/1976-01.json", "index.md"]
    );
    let sha = files["1976-01/1976-01.json"].as_str().unwrap();
    assert_eq!(sha.len(), 64);
}

#[test]
fn a_kind_that_rolls_nothing_follows_its_options() {
    // Another paper is not another batch for the SRD: its files are replaced, never kept or refused.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let pdf = out.join("srd/block-by-block-srd.pdf");
    ok(&blockprint(&[
        "srd",
        "--out",
        s(&out),
        "--quiet",
        "--format",
        "pdf",
    ]));
    let a4 = std::fs::read(&pdf).unwrap();
    ok(&blockprint(&[
        "srd",
        "--out",
        s(&out),
        "--quiet",
        "--format",
        "pdf",
        "--paper",
        "letter",
    ]));
    let letter = std::fs::read(&pdf).unwrap();
    assert_ne!(a4, letter);
    let doc = Document::load_mem(&letter).unwrap();
    let first = doc.get_pages()[&1];
    let media = doc
        .get_dictionary(first)
        .unwrap()
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(
        media[2].as_float().unwrap().round(),
        612.0,
        "US Letter is 612 pt wide"
    );
}

#[test]
fn an_edited_template_makes_the_output_stale() {
    // The same batch again after a template of the user's changed: the files it shapes are made again
    // (the manifest fingerprints the templates), not kept as "already up to date".
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let templates = dir.path().join("templates");
    std::fs::create_dir_all(templates.join("sheet")).unwrap();
    let caseload = fixture("templates/sheet/caseload.typ");
    let text = std::fs::read_to_string(&caseload).unwrap();
    std::fs::write(templates.join("sheet/caseload.typ"), &text).unwrap();
    let run = || {
        ok(&blockprint(&[
            "sheet",
            "--out",
            s(&out),
            "--templates",
            s(&templates),
        ]))
    };
    let first = run();
    assert!(first.contains("(0 already up to date)"), "{first}");
    let before = std::fs::read(out.join("sheet/caseload.pdf")).unwrap();
    assert!(
        run().contains("(6 already up to date)"),
        "nothing changed: everything is kept"
    );
    std::fs::write(
        templates.join("sheet/caseload.typ"),
        text + "\n#text(size: 9pt)[An added line]\n",
    )
    .unwrap();
    let again = run();
    assert!(again.contains("(0 already up to date)"), "{again}");
    let after = std::fs::read(out.join("sheet/caseload.pdf")).unwrap();
    assert_ne!(before, after);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("sheet/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["templates"].as_str().unwrap().len(), 12);
}

/// The content version fingerprints what the loader reads: a README or a note beside the tables changes
/// nothing (no page, no manifest goes stale), a table does.
#[test]
fn the_content_version_fingerprints_only_what_the_loader_reads() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    blockprint(&["init", "-q", s(&content)]);
    let version = |dir: &Path| {
        let (lib, _) =
            blockprint::content::load(&blockprint::content::ContentRoot::Dir(dir.to_path_buf()))
                .unwrap();
        lib.version
    };
    let (builtin, _) =
        blockprint::content::load(&blockprint::content::ContentRoot::Embedded).unwrap();
    let first = version(&content);
    assert_eq!(first, builtin.version, "init writes the built-in content");
    std::fs::write(content.join("README.md"), "# My notes\n").unwrap();
    std::fs::write(content.join("notes.txt"), "what the players found\n").unwrap();
    assert_eq!(
        version(&content),
        first,
        "a README and a note change nothing"
    );
    let toml = content.join("bbb/01-homicide.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}\n# an edit\n")).unwrap();
    assert_ne!(
        version(&content),
        first,
        "an edited table file is another content"
    );
}

#[test]
fn a_killed_run_is_completed_by_rerunning_it() {
    let dir = tempfile::tempdir().unwrap();
    let (full, killed) = (dir.path().join("full"), dir.path().join("killed"));
    let args = ["--seed", "5", "--count", "4", "--format", "pdf,json"];
    ok(&case(&full, &args));
    let whole = tree(&full);
    // What a SIGKILL after two cases leaves: their files, a journal naming them, a temporary file, no
    // manifest, no combined files.
    let m: serde_json::Value = serde_json::from_slice(&whole["cases/manifest.json"]).unwrap();
    let identity = serde_json::json!({
        "kind": m["kind"], "batch": m["batch"], "content_version": m["content_version"], "templates": m["templates"], "blockprint": m["blockprint"],
    });
    let mut journal = format!("{identity}\n");
    for (rel, bytes) in &whole {
        let Some(rel) = rel.strip_prefix("cases/") else {
            continue;
        };
        if rel.starts_with("1976-01/") || rel.starts_with("1976-02/") {
            let path = killed.join("cases").join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, bytes).unwrap();
            journal.push_str(&format!("{} {rel}\n", m["files"][rel].as_str().unwrap()));
        }
    }
    journal.push_str("3f2a half a line"); // torn by the kill
    std::fs::write(killed.join("cases/.manifest.journal"), journal).unwrap();
    // A file the kill caught half written (its folder exists: the kill came after the first file).
    std::fs::create_dir_all(killed.join("cases/1976-03")).unwrap();
    std::fs::write(
        killed.join("cases/1976-03/.1976-03.json.tmp-99999"),
        b"{\"trunc",
    )
    .unwrap();
    std::fs::write(killed.join("cases/.index.rows.tmp-99999"), b"| 1976-01 |").unwrap();
    let err = ok(&blockprint(&[
        "case",
        "--out",
        s(&killed),
        "--count",
        "4",
        "--format",
        "pdf,json",
    ]));
    assert!(err.contains("continuing the batch"), "{err}");
    assert!(err.contains("6 already up to date"), "{err}");
    let resumed = tree(&killed);
    assert!(
        resumed.keys().all(|k| !k.contains(".tmp-")),
        "temporary files are cleared"
    );
    let expected: BTreeMap<String, Vec<u8>> = whole
        .into_iter()
        .filter(|(k, _)| k != "cases/manifest.json")
        .collect();
    let resumed_no_manifest: BTreeMap<String, Vec<u8>> = resumed
        .clone()
        .into_iter()
        .filter(|(k, _)| k != "cases/manifest.json")
        .collect();
    assert_eq!(
        resumed_no_manifest.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    for (k, v) in &expected {
        assert!(resumed[k] == *v, "{k} differs after the resume");
    }
    assert!(!killed.join("cases/.manifest.journal").exists());
}

#[test]
fn a_broken_user_template_is_located_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let kinds = dir.path().join("kinds");
    std::fs::create_dir_all(kinds.join("toy")).unwrap();
    for f in ["kind.toml", "toy.md.j2"] {
        std::fs::copy(
            fixture(&format!("tests/fixtures/kinds/toy/{f}")),
            kinds.join("toy").join(f),
        )
        .unwrap();
    }
    std::fs::write(
        kinds.join("toy/toy.typ"),
        "#let d = sys.inputs\n= Title\n#d.no-such-field\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = blockprint(&[
        "make",
        "toy",
        "--templates",
        s(&kinds),
        "--out",
        s(&out),
        "--format",
        "pdf",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("dictionary does not contain key \"no-such-field\""),
        "{err}"
    );
    assert!(err.contains("toy/toy.typ:3:"), "{err}");
    assert!(!err.contains("bug in blockprint"), "{err}");
}

mod library {
    //! The same seams through the library: a kind written in Rust joins with one registration line.
    use blockprint::error::Result;
    use blockprint::generators::{Checked, Document, Kind, Registry, Request, Requirements};
    use blockprint::render::{Engine, Format, Paper, Templates, driver};

    use crate::support::builtin_checked as checked;

    fn request(paper: Paper) -> Request {
        Request {
            seed: 42,
            paper,
            first: 1,
            count: 2,
        }
    }

    /// A toy kind: one JSON document per item naming the district of case `first + i`.
    struct Districts;
    static DISTRICTS: blockprint::generators::KindInfo = blockprint::generators::KindInfo::new(
        "districts",
        "test kind",
        "districts",
        &[Format::Json],
    )
    .rolls();
    impl Kind for Districts {
        fn info(&self) -> &blockprint::generators::KindInfo {
            &DISTRICTS
        }
        fn requires(&self) -> Requirements {
            Requirements {
                tables: vec!["bbb.homicide.district".into()],
                ..Requirements::default()
            }
        }
        fn count(&self, _cx: &Checked, req: &Request) -> Result<usize> {
            Ok(req.count as usize)
        }
        fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
            let mut rng = blockprint::roll::rng(req.seed + i as u64);
            let r = blockprint::roll::roll_table(&cx.lib, "bbb.homicide.district", &mut rng)?;
            Ok(Document::new(
                format!("d{}", req.first as usize + i),
                "districts/none",
                "",
                serde_json::json!({ "district": r.text }),
            ))
        }
    }

    #[test]
    fn a_rust_kind_joins_with_one_registration_line() {
        let templates = Templates::builtin();
        let mut registry = Registry::new(&templates).unwrap();
        registry.register(Box::new(Districts));
        let cx = checked();
        let engine = Engine::new(templates, Default::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let opts = driver::Options {
            out: dir.path().to_owned(),
            formats: vec![Format::Json],
            jobs: 2,
            quiet: true,
            force: false,
            command: "test".into(),
        };
        let kind = registry.get("districts").unwrap();
        let sink = blockprint::app::Silent;
        let report = driver::run(kind, &cx, &request(Paper::A4), &engine, &opts, &sink).unwrap();
        assert_eq!((report.items, report.written), (2, 2));
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("districts/d1.json")).unwrap())
                .unwrap();
        assert!(v["district"].as_str().is_some_and(|d| !d.is_empty()));
        assert!(dir.path().join("districts/manifest.json").is_file());
    }

    #[test]
    fn every_built_in_template_compiles_without_warnings() {
        let templates = Templates::builtin();
        let registry = Registry::new(&templates).unwrap();
        let cx = checked();
        let engine = Engine::new(templates.clone(), Default::default()).unwrap();
        // Every document of every kind (the first few of a batch), on both papers: every document
        // template a built-in kind uses is compiled with the data it really gets.
        let mut compiled = std::collections::BTreeSet::new();
        for kind in registry.kinds() {
            for paper in [Paper::A4, Paper::Letter] {
                let req = request(paper);
                let n = kind.count(&cx, &req).unwrap().min(6);
                for i in 0..n {
                    let doc = kind.document(&cx, &req, i).unwrap();
                    let typ = format!("{}.typ", doc.template);
                    if templates.files.contains_key(&typ) {
                        let warnings = engine.warnings(&typ, &doc.data).unwrap();
                        assert!(warnings.is_empty(), "{typ} ({paper:?}): {warnings:#?}");
                        compiled.insert(typ);
                    }
                }
            }
        }
        // Every template that is a document (not a library other templates import, nor one of the
        // modules kinds share under common/, though common/chase-odds.typ, the page three kits share,
        // is a document; the campaign's, whose kinds are made per campaign, are compiled by
        // tests/campaign.rs).
        let documents: std::collections::BTreeSet<String> = templates
            .files
            .keys()
            .filter(|k| {
                k.ends_with(".typ")
                    && !k.ends_with("lib.typ")
                    && !k.starts_with("campaign/")
                    && (!k.starts_with("common/") || *k == "common/chase-odds.typ")
            })
            .cloned()
            .collect();
        assert_eq!(compiled, documents);
        // The stress sample: long, hostile and non-Latin strings in every field.
        let stress: serde_json::Value = serde_json::from_slice(
            &std::fs::read(super::fixture(
                "tests/fixtures/template-samples/stress.json",
            ))
            .unwrap(),
        )
        .unwrap();
        let warnings = engine.warnings("case/case.typ", &stress).unwrap();
        assert!(warnings.is_empty(), "stress: {warnings:#?}");
    }
}
